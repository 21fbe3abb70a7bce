/* Argument helpers of the Python bindings: integers (Python ints or numpy scalars) and numpy arrays through
 * the buffer protocol (no numpy headers needed).  Every helper sets a Python exception and returns 0 on
 * failure, 1 on success. */
#ifndef PLIES_PYUTIL_H
#define PLIES_PYUTIL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

static int arg_u64(PyObject *o, uint64_t *out) {
    PyObject *i = PyNumber_Index(o);
    if (!i) return 0;
    unsigned long long v = PyLong_AsUnsignedLongLongMask(i);
    Py_DECREF(i);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return 0;
    *out = (uint64_t)v;
    return 1;
}

static int arg_i64(PyObject *o, int64_t *out) {
    PyObject *i = PyNumber_Index(o);
    if (!i) return 0;
    long long v = PyLong_AsLongLong(i);
    Py_DECREF(i);
    if (v == -1 && PyErr_Occurred()) return 0;
    *out = (int64_t)v;
    return 1;
}

static int arg_double(PyObject *o, double *out) {
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred()) return 0;
    *out = v;
    return 1;
}

/* A C-contiguous buffer whose items are `itemsize` bytes (and, if kind is not 0, of numpy kind 'i', 'u' or
 * 'f'); released by buf_release. */
typedef struct {
    Py_buffer view;
    int held;
} Buf;

static int buf_get(PyObject *o, Buf *b, int writable, Py_ssize_t itemsize, char kind, const char *what) {
    b->held = 0;
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(o, &b->view, flags) != 0) return 0;
    b->held = 1;
    const char *f = b->view.format ? b->view.format : "B";
    while (*f == '<' || *f == '=' || *f == '@' || *f == '|') f++;
    int ok = b->view.itemsize == itemsize;
    if (ok && kind) {
        char c = f[0];
        if (kind == 'f') ok = (c == 'f' || c == 'd');
        else if (kind == 'i') ok = (c == 'b' || c == 'h' || c == 'i' || c == 'l' || c == 'q');
        else if (kind == 'u') ok = (c == 'B' || c == 'H' || c == 'I' || c == 'L' || c == 'Q');
    }
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "%s: wrong array type (format '%s', item size %zd; want %zd bytes, kind %c)",
                     what, f, b->view.itemsize, itemsize, kind ? kind : '?');
        PyBuffer_Release(&b->view);
        b->held = 0;
        return 0;
    }
    return 1;
}

static void buf_release(Buf *b) {
    if (b->held) PyBuffer_Release(&b->view);
    b->held = 0;
}

static inline Py_ssize_t buf_len(const Buf *b) { return b->view.len / b->view.itemsize; }
static inline Py_ssize_t buf_dim(const Buf *b, int k) {
    return k < b->view.ndim ? b->view.shape[k] : 1;
}

static PyObject *tuple3_u64(uint64_t a, uint64_t b, uint64_t c) {
    return Py_BuildValue("(KKK)", (unsigned long long)a, (unsigned long long)b, (unsigned long long)c);
}

#define CHECK_NARGS(name, n)                                                                   \
    if (nargs != (n)) {                                                                        \
        PyErr_Format(PyExc_TypeError, name "() takes %d arguments (%zd given)", (int)(n), nargs); \
        return NULL;                                                                           \
    }

#endif
