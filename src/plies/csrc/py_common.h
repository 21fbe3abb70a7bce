/* Arguments shared by the search bindings: a transposition table, the learned weights, the control words. */
#ifndef PLIES_PY_COMMON_H
#define PLIES_PY_COMMON_H

#include "pyutil.h"
#include "search.h"

/* tt: the tuple (records, shift, generation) of plies.engine.hashtable.HashTable.arrays(). */
static int arg_tt(PyObject *o, Buf *b, TT *tt) {
    b->held = 0;
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 3) {
        PyErr_SetString(PyExc_TypeError, "a table is the tuple (records, shift, generation) of HashTable.arrays()");
        return 0;
    }
    u64 shift, gen;
    if (!arg_u64(PyTuple_GET_ITEM(o, 1), &shift) || !arg_u64(PyTuple_GET_ITEM(o, 2), &gen)) return 0;
    if (!buf_get(PyTuple_GET_ITEM(o, 0), b, 1, (Py_ssize_t)sizeof(Entry), 0, "table records")) return 0;
    if (buf_len(b) != ((Py_ssize_t)1 << (64 - shift))) {
        buf_release(b);
        PyErr_SetString(PyExc_ValueError, "table records do not match its shift");
        return 0;
    }
    tt->e = (Entry *)b->view.buf;
    tt->shift = shift;
    tt->gen = (uint8_t)gen;
    tt->shared = 0;
    return 1;
}

/* W: float32 (phases, row) expanded weights, or the (1, 1) dummy NO_WEIGHTS. */
static int arg_weights(PyObject *o, Buf *b, Weights *W) {
    if (!buf_get(o, b, 0, 4, 'f', "weights")) return 0;
    W->w = (const float *)b->view.buf;
    W->n_phases = buf_dim(b, 0);
    W->row_len = b->view.ndim >= 2 ? buf_dim(b, 1) : 1;
    if (has_weights(W) && !patterns_weights_ok(W)) {  /* learned weights must be in their expanded form */
        buf_release(b);
        PyErr_SetString(PyExc_ValueError, "weights must be expand_weights() rows (phases, RAW_SIZE + 6)");
        return 0;
    }
    return 1;
}

/* ctl: int64 array of at least 4 (nodes, stop, select, spare), written by the search. */
static int arg_ctl(PyObject *o, Buf *b, i64 **ctl) {
    if (!buf_get(o, b, 1, 8, 'i', "ctl")) return 0;
    if (buf_len(b) < 4) {
        buf_release(b);
        PyErr_SetString(PyExc_ValueError, "ctl needs 4 int64 slots");
        return 0;
    }
    *ctl = (i64 *)b->view.buf;
    return 1;
}

/* A Search on the heap (its scratch is too large for a thread's stack). */
static Search *search_new(void) {
    Search *s = (Search *)PyMem_RawMalloc(sizeof(Search));
    if (!s) PyErr_NoMemory();
    else memset(s, 0, offsetof(Search, pv));
    return s;
}

#endif
