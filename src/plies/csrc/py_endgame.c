/* Python bindings of the endgame solver (plies.engine.endgame). */
#include "py_common.h"

#define END_BOUND 10000  /* windows beyond +-this are refused (scores are within +-64) */

static int arg_window(PyObject *a, PyObject *b, i64 *alpha, i64 *beta) {
    if (!arg_i64(a, alpha) || !arg_i64(b, beta)) return 0;
    if (*alpha < -END_BOUND || *alpha > END_BOUND || *beta < -END_BOUND || *beta > END_BOUND) {
        PyErr_SetString(PyExc_ValueError, "window bounds out of range");
        return 0;
    }
    return 1;
}

/* The tables, weights and control words of a solve: a Search on the heap, its buffers held in b. */
typedef struct {
    Buf tt, mtt, w, ctl, mpc;
} EndBufs;

static void end_release(EndBufs *b, Search *s) {
    buf_release(&b->tt);
    buf_release(&b->mtt);
    buf_release(&b->w);
    buf_release(&b->ctl);
    buf_release(&b->mpc);
    if (s) PyMem_RawFree(s);
}

/* mpc: the probcut statistics (float64, MPC_CELLS) whose exact row the selective searches read, or None. */
static Search *end_search(PyObject *tt, PyObject *ctl, PyObject *W, PyObject *mtt, PyObject *mpc, EndBufs *b) {
    b->tt.held = b->mtt.held = b->w.held = b->ctl.held = b->mpc.held = 0;
    Search *s = search_new();
    if (!s) return NULL;
    memset(s->mt, 0, sizeof s->mt);  /* the solver's own table starts empty (the midgame never reads it) */
    if (!arg_tt(tt, &b->tt, &s->tt) || !arg_tt(mtt, &b->mtt, &s->mtt) || !arg_weights(W, &b->w, &s->W) ||
        !arg_ctl(ctl, &b->ctl, &s->ctl)) {
        end_release(b, s);
        return NULL;
    }
    if (mpc && mpc != Py_None) {
        if (!buf_get(mpc, &b->mpc, 0, 8, 'f', "probcut statistics")) {
            end_release(b, s);
            return NULL;
        }
        if (buf_len(&b->mpc) != MPC_CELLS) {
            end_release(b, s);
            PyErr_SetString(PyExc_ValueError, "probcut statistics: wrong size");
            return NULL;
        }
        s->mpc = (const double *)b->mpc.view.buf;
    }
    if (has_weights(&s->W) && !patterns_weights_ok(&s->W)) {  /* W is read without bounds checks */
        end_release(b, s);
        PyErr_SetString(PyExc_ValueError, "weights: not the expanded pattern weights (or the (1, 1) dummy)");
        return NULL;
    }
    return s;
}

/* end_solve_root(P, O, alpha, beta, root_moves, multipv, values, flags, root_pv, root_pv_len, tt, ctl, W,
 * mtt[, threads[, mpc]]) -> moves completed (see endgame.c). */
static PyObject *py_end_solve_root(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 14 || nargs > 16) {
        PyErr_Format(PyExc_TypeError, "end_solve_root() takes 14 to 16 arguments (%zd given)", nargs);
        return NULL;
    }
    int threads;
    if (!arg_threads(args, nargs, 14, &threads)) return NULL;
    u64 P, O;
    i64 alpha, beta, multipv;
    if (!arg_board(args, &P, &O) || !arg_window(args[2], args[3], &alpha, &beta) || !arg_i64(args[5], &multipv))
        return NULL;
    if (multipv < 1) {
        PyErr_SetString(PyExc_ValueError, "multipv must be at least 1");
        return NULL;
    }
    PyObject *ra[5] = {args[4], args[6], args[7], args[8], args[9]};
    RootArrays r;
    if (!arg_root(ra, &r) || !root_moves_free(&r, P | O)) return NULL;
    const i64 *moves = (const i64 *)r.root.view.buf;
    EndBufs b;
    Search *s = end_search(args[10], args[11], args[12], args[13], nargs > 15 ? args[15] : NULL, &b);
    if (!s) {
        root_release(&r);
        return NULL;
    }
    i64 done;
    RootJob job = {ROOT_ENDGAME, P, O, 0, (double)alpha, (double)beta, moves, r.n, multipv, r.stride};
    Py_BEGIN_ALLOW_THREADS
    done = parallel_root(s, threads, &job, (double *)r.values.view.buf, (i64 *)r.flags.view.buf,
                         (int8_t *)r.pv.view.buf, (i64 *)r.pv_len.view.buf);
    Py_END_ALLOW_THREADS
    root_release(&r);
    end_release(&b, s);
    return PyLong_FromLongLong(done);
}

/* end_solve(P, O, alpha, beta, ctl, tt, W, mtt[, mpc]) -> score within the window, fail-soft. */
static PyObject *py_end_solve(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8 && nargs != 9) {
        PyErr_Format(PyExc_TypeError, "end_solve() takes 8 or 9 arguments (%zd given)", nargs);
        return NULL;
    }
    u64 P, O;
    i64 alpha, beta, v;
    if (!arg_board(args, &P, &O) || !arg_window(args[2], args[3], &alpha, &beta)) return NULL;
    EndBufs b;
    Search *s = end_search(args[5], args[4], args[6], args[7], nargs > 8 ? args[8] : NULL, &b);
    if (!s) return NULL;
    Py_BEGIN_ALLOW_THREADS
    v = end_solve(s, P, O, alpha, beta);
    Py_END_ALLOW_THREADS
    end_release(&b, s);
    return PyLong_FromLongLong(v);
}

/* end_last_flip_count(P, sq): discs P turns over by playing sq when the opponent owns every other square. */
static PyObject *py_end_last_flip_count(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("end_last_flip_count", 2);
    u64 P;
    i64 sq;
    if (!arg_u64(args[0], &P) || !arg_square(args[1], &sq)) return NULL;
    return PyLong_FromLongLong(last_flip_count(P & ~(ONE << sq), (int)sq));
}

/* end_last_flip_counts(Ps, sqs) -> sum of last_flip_count over the arrays (the benchmark's loop in C). */
static PyObject *py_end_last_flip_counts(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("end_last_flip_counts", 2);
    Buf pb, sb;
    if (!buf_get(args[0], &pb, 0, 8, 'u', "Ps")) return NULL;
    if (!buf_get(args[1], &sb, 0, 8, 'i', "sqs")) {
        buf_release(&pb);
        return NULL;
    }
    Py_ssize_t n = buf_len(&pb);
    if (buf_len(&sb) != n) {
        buf_release(&pb);
        buf_release(&sb);
        PyErr_SetString(PyExc_ValueError, "Ps and sqs differ in length");
        return NULL;
    }
    const u64 *ps = (const u64 *)pb.view.buf;
    const i64 *sq = (const i64 *)sb.view.buf;
    i64 total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int q = (int)(sq[i] & 63);
        total += last_flip_count(ps[i] & ~(ONE << q), q);
    }
    buf_release(&pb);
    buf_release(&sb);
    return PyLong_FromLongLong(total);
}

/* end_flip_counts(Ps, Os, sqs) -> sum of popcount(flips) over the arrays (the general flips, for comparison). */
static PyObject *py_end_flip_counts(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("end_flip_counts", 3);
    Buf pb, ob, sb;
    if (!buf_get(args[0], &pb, 0, 8, 'u', "Ps")) return NULL;
    if (!buf_get(args[1], &ob, 0, 8, 'u', "Os")) {
        buf_release(&pb);
        return NULL;
    }
    if (!buf_get(args[2], &sb, 0, 8, 'i', "sqs")) {
        buf_release(&pb);
        buf_release(&ob);
        return NULL;
    }
    Py_ssize_t n = buf_len(&pb);
    PyObject *res = NULL;
    if (buf_len(&ob) != n || buf_len(&sb) != n) {
        PyErr_SetString(PyExc_ValueError, "Ps, Os and sqs differ in length");
    } else {
        const u64 *ps = (const u64 *)pb.view.buf, *os = (const u64 *)ob.view.buf;
        const i64 *sq = (const i64 *)sb.view.buf;
        i64 total = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            int q = (int)(sq[i] & 63);
            u64 m = ~(ONE << q);
            total += popcount(flips(ps[i] & m, os[i] & m & ~ps[i], q));
        }
        res = PyLong_FromLongLong(total);
    }
    buf_release(&pb);
    buf_release(&ob);
    buf_release(&sb);
    return res;
}

/* end_shallow_value(P, O, depth, W) -> the value of the selective solver's shallow search (probcut's
 * estimate: the learned evaluation, fastest first, passes not counted as plies), for fitting its statistics. */
static PyObject *py_end_shallow_value(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("end_shallow_value", 4);
    u64 P, O;
    i64 depth;
    if (!arg_board(args, &P, &O) || !arg_i64(args[2], &depth)) return NULL;
    if (depth < 0 || depth > 30) {
        PyErr_SetString(PyExc_ValueError, "depth must be 0..30");
        return NULL;
    }
    Search *s = search_new();
    if (!s) return NULL;
    Buf wb;
    i64 ctl[4] = {0, 0, 0, 0};
    s->ctl = ctl;
    if (!arg_weights(args[3], &wb, &s->W)) {
        PyMem_RawFree(s);
        return NULL;
    }
    if (!has_weights(&s->W) || !patterns_weights_ok(&s->W)) {
        buf_release(&wb);
        PyMem_RawFree(s);
        PyErr_SetString(PyExc_ValueError, "the shallow search needs the expanded learned weights");
        return NULL;
    }
    double v;
    Py_BEGIN_ALLOW_THREADS
    v = shallow_value(s, P, O, (int)depth, -1e9, 1e9);
    Py_END_ALLOW_THREADS
    buf_release(&wb);
    PyMem_RawFree(s);
    return PyFloat_FromDouble(v);
}

/* end_corner_stable(P): P's corners and its edge squares next to them (the move ordering's count). */
static PyObject *py_end_corner_stable(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("end_corner_stable", 1);
    u64 P;
    if (!arg_u64(args[0], &P)) return NULL;
    return PyLong_FromUnsignedLongLong(corner_stable(P));
}

static PyMethodDef endgame_methods[] = {
    FAST(end_solve_root, "end_solve_root(P, O, alpha, beta, root_moves, multipv, values, flags, root_pv, "
                         "root_pv_len, tt, ctl, W, mtt): exact values of the root moves; moves completed."),
    FAST(end_solve, "end_solve(P, O, alpha, beta, ctl, tt, W, mtt): exact score within (alpha, beta), fail-soft."),
    FAST(end_last_flip_count, "end_last_flip_count(P, sq): discs turned by P at sq on an otherwise full board."),
    FAST(end_last_flip_counts, "end_last_flip_counts(Ps, sqs): sum of end_last_flip_count over uint64/int64 arrays."),
    FAST(end_flip_counts, "end_flip_counts(Ps, Os, sqs): sum of popcount(flips) over the arrays."),
    FAST(end_corner_stable, "end_corner_stable(P): P's corners and its edge squares beside them."),
    FAST(end_shallow_value, "end_shallow_value(P, O, depth, W): the value of the selective solver's shallow search."),
    {NULL, NULL, 0, NULL}};
