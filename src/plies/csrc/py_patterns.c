/* Python bindings of the learned pattern evaluation (plies.engine.patterns): weights are expanded float32
 * (phases, RAW_SIZE + 6) arrays, C-contiguous. */
#include "py_common.h"
#include "patterns.h"

static int arg_pattern_weights(PyObject *o, Buf *b, Weights *W) {
    if (!arg_weights(o, b, W)) return 0;
    if (b->view.ndim != 2 || !patterns_weights_ok(W)) {
        buf_release(b);
        PyErr_Format(PyExc_ValueError, "pattern weights must be expanded: float32 (phases, %d)", (int)PATTERN_ROW_LEN);
        return 0;
    }
    return 1;
}

static PyObject *py_patterns_evaluate(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("patterns_evaluate", 3);
    u64 P, O;
    Buf wb;
    Weights W;
    if (!arg_u64(args[0], &P) || !arg_u64(args[1], &O)) return NULL;
    if (!arg_pattern_weights(args[2], &wb, &W)) return NULL;
    double v = evaluate_patterns(P, O, &W);
    buf_release(&wb);
    return PyFloat_FromDouble(v);
}

/* patterns_evaluate_many(own, opp, W, out): out[i] = the value of (own[i], opp[i]); uint64 and float64 arrays
 * of one length.  Runs without the GIL. */
static PyObject *py_patterns_evaluate_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("patterns_evaluate_many", 4);
    Buf ob, pb, wb, rb;
    Weights W;
    if (!buf_get(args[0], &ob, 0, 8, 'u', "own")) return NULL;
    if (!buf_get(args[1], &pb, 0, 8, 'u', "opp")) {
        buf_release(&ob);
        return NULL;
    }
    if (!arg_pattern_weights(args[2], &wb, &W)) {
        buf_release(&ob);
        buf_release(&pb);
        return NULL;
    }
    if (!buf_get(args[3], &rb, 1, 8, 'f', "out")) {
        buf_release(&ob);
        buf_release(&pb);
        buf_release(&wb);
        return NULL;
    }
    Py_ssize_t n = buf_len(&ob);
    PyObject *ret = NULL;
    if (buf_len(&pb) != n || buf_len(&rb) != n) {
        PyErr_SetString(PyExc_ValueError, "own, opp and out must have the same length");
    } else {
        const u64 *own = (const u64 *)ob.view.buf, *opp = (const u64 *)pb.view.buf;
        double *out = (double *)rb.view.buf;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < n; i++) out[i] = evaluate_patterns(own[i], opp[i], &W);
        Py_END_ALLOW_THREADS
        ret = Py_None;
        Py_INCREF(ret);
    }
    buf_release(&ob);
    buf_release(&pb);
    buf_release(&wb);
    buf_release(&rb);
    return ret;
}

static PyMethodDef patterns_methods[] = {
    FAST(patterns_evaluate, "patterns_evaluate(P, O, W): the learned patterns' value of (P, O), W expanded weights."),
    FAST(patterns_evaluate_many, "patterns_evaluate_many(own, opp, W, out): patterns_evaluate of arrays into out."),
    {NULL, NULL, 0, NULL},
};
