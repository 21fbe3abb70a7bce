/* The compiled core of plies: one translation unit (so the hot kernels inline across files), built three times
 * on x86-64 (baseline, AVX2 and AVX-512, see setup.py); what differs between compilers is in portable.h.  Each
 * part keeps its kernels in its own file and its Python bindings in a py_*.c file listing them in a method
 * table. */
#include "pyutil.h"
#include "search.h"

#include "bitboard.c"
#include "patterns.c"
#include "eval.c"
#include "midgame.c"
#include "endgame.c"
#include "hexthello.c"
#include "parallel.c"

#include "py_common.h"
#include "py_engine.c"
#include "py_patterns.c"
#include "py_endgame.c"
#include "py_hexthello.c"

#define STR_(x) #x
#define STR(x) STR_(x)
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "plies." STR(PLIES_MODULE),
    "The compiled core of plies: Othello bitboards, evaluations, searches, the endgame solver, HexThello.",
    -1, NULL,
};

PyMODINIT_FUNC CAT(PyInit_, PLIES_MODULE)(void) {
    bitboard_init();
    eval_init();
    patterns_init();
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    PyMethodDef *tables[] = {engine_methods, patterns_methods, endgame_methods, hexthello_methods};
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        if (PyModule_AddFunctions(m, tables[i]) != 0) {
            Py_DECREF(m);
            return NULL;
        }
    }
#if defined(__AVX2__)
    PyModule_AddIntConstant(m, "AVX2", 1);
#else
    PyModule_AddIntConstant(m, "AVX2", 0);
#endif
#if defined(__AVX512F__)
    PyModule_AddIntConstant(m, "AVX512", 1);
#else
    PyModule_AddIntConstant(m, "AVX512", 0);
#endif
    PyModule_AddIntConstant(m, "SEARCH_BYTES", (long)sizeof(Search));
    PyModule_AddIntConstant(m, "PEXT_FAST", PEXT_FAST);  /* 1: the pattern sum gathers squares by pext */
    return m;
}
