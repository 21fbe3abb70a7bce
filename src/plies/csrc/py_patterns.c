/* patterns: filled in by its port. */
static PyMethodDef patterns_methods[] = {{NULL, NULL, 0, NULL}};
