/* endgame: filled in by its port. */
static PyMethodDef endgame_methods[] = {{NULL, NULL, 0, NULL}};
