/* The plies._core build of the compiled core (flags in setup.py): one object file per build. */
#include "module.c"
