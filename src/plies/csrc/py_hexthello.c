/* hexthello: filled in by its port. */
static PyMethodDef hexthello_methods[] = {{NULL, NULL, 0, NULL}};
