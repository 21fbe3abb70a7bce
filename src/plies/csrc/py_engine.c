/* Python bindings of the bitboards, the rules' kernels, perft, the evaluations, the table and the midgame
 * search.  Bitboards are Python ints (or numpy uint64 scalars) in and Python ints out. */
#include "py_common.h"
#include "eval.h"

static PyObject *py_cpu_has_avx512(PyObject *self, PyObject *unused) {
#if PLIES_GNU && PLIES_X86
    __builtin_cpu_init();
    return PyBool_FromLong(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                           __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx2") &&
                           __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt"));
#else
    Py_RETURN_FALSE;
#endif
}

static PyObject *py_cpu_has_avx2(PyObject *self, PyObject *unused) {
#if PLIES_GNU && PLIES_X86
    __builtin_cpu_init();
    return PyBool_FromLong(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") &&
                           __builtin_cpu_supports("popcnt"));
#else
    Py_RETURN_FALSE;
#endif
}

static int args_po(PyObject *const *args, u64 *P, u64 *O) { return arg_u64(args[0], P) && arg_u64(args[1], O); }

/* P and O of a position that is searched or evaluated: no square owned by both (a pattern index would run past
 * the weights). */
static int arg_board(PyObject *const *args, u64 *P, u64 *O) {
    if (!args_po(args, P, O)) return 0;
    if (*P & *O) {
        PyErr_SetString(PyExc_ValueError, "P and O overlap");
        return 0;
    }
    return 1;
}

static int arg_square(PyObject *o, i64 *sq) {
    if (!arg_i64(o, sq)) return 0;
    if (*sq < 0 || *sq > 63) {
        PyErr_SetString(PyExc_ValueError, "square out of range 0..63");
        return 0;
    }
    return 1;
}

#define PO_FUNCTION(pyname, expr)                                                     \
    static PyObject *py_##pyname(PyObject *self, PyObject *const *args, Py_ssize_t nargs) { \
        CHECK_NARGS(#pyname, 2);                                                       \
        u64 P, O;                                                                      \
        if (!args_po(args, &P, &O)) return NULL;                                       \
        return expr;                                                                   \
    }

PO_FUNCTION(get_moves, PyLong_FromUnsignedLongLong(get_moves(P, O)))
PO_FUNCTION(get_moves_by_shifts, PyLong_FromUnsignedLongLong(get_moves_by_shifts(P, O)))
PO_FUNCTION(potential_moves, PyLong_FromUnsignedLongLong(potential_moves(P, O)))
PO_FUNCTION(final_score, PyLong_FromLongLong(final_score(P, O)))
PO_FUNCTION(stable_discs, PyLong_FromUnsignedLongLong(stable_discs(P, O)))
PO_FUNCTION(evaluate_default, PyLong_FromLongLong(evaluate_default(P, O)))
PO_FUNCTION(legal_mask8, PyLong_FromUnsignedLongLong(get_moves(P, O)))

static PyObject *py_flips(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("flips", 3);
    u64 P, O;
    i64 sq;
    if (!args_po(args, &P, &O) || !arg_square(args[2], &sq)) return NULL;
    if ((P | O) >> sq & 1) return PyLong_FromLong(0);
    return PyLong_FromUnsignedLongLong(flips(P, O, (int)sq));
}

static PyObject *py_flips_by_lines(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("flips_by_lines", 3);
    u64 P, O;
    i64 sq;
    if (!args_po(args, &P, &O) || !arg_square(args[2], &sq)) return NULL;
    if ((P | O) >> sq & 1) return PyLong_FromLong(0);
    return PyLong_FromUnsignedLongLong(flips_by_lines(P, O, (int)sq));
}

/* The rules' move: (own after, opp after, the opponent's legal squares after), (0, 0, 0) when illegal. */
#define FULL_LINES_FUNCTION(fn)                                                            \
    static PyObject *py_##fn(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {         \
        CHECK_NARGS(#fn, 1);                                                                    \
        u64 occ, h, v, d, a;                                                                    \
        if (!arg_u64(args[0], &occ)) return NULL;                                               \
        fn(occ, &h, &v, &d, &a);                                                                \
        return Py_BuildValue("(KKKK)", (unsigned long long)h, (unsigned long long)v, (unsigned long long)d, \
                             (unsigned long long)a);                                            \
    }

FULL_LINES_FUNCTION(full_lines)
FULL_LINES_FUNCTION(full_lines_by_empties)
FULL_LINES_FUNCTION(full_lines_by_lines)

static PyObject *py_play8(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("play8", 3);
    u64 P, O;
    i64 sq;
    if (!args_po(args, &P, &O) || !arg_i64(args[2], &sq)) return NULL;
    if (sq < 0 || sq > 63 || ((P | O) >> sq & 1)) return tuple3_u64(0, 0, 0);
    u64 f = flips(P, O, (int)sq);
    if (!f) return tuple3_u64(0, 0, 0);
    P |= f | (ONE << sq);
    O ^= f;
    return tuple3_u64(P, O, get_moves(O, P));
}

static PyObject *py_perft(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("perft", 3);
    u64 P, O;
    i64 depth, n;
    if (!args_po(args, &P, &O) || !arg_i64(args[2], &depth)) return NULL;
    if (depth < 0 || depth > 60) {
        PyErr_SetString(PyExc_ValueError, "perft depth must be 0..60");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    n = perft(P, O, (int)depth);
    Py_END_ALLOW_THREADS
    return PyLong_FromLongLong(n);
}

static PyObject *py_evaluate(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("evaluate", 4);
    u64 P, O;
    i64 eval_id;
    Buf wb;
    Weights W;
    if (!arg_board(args, &P, &O) || !arg_i64(args[2], &eval_id)) return NULL;
    if (eval_id < 0 || eval_id > EVAL_LEARNED) {
        PyErr_SetString(PyExc_ValueError, "unknown evaluation id");
        return NULL;
    }
    if (!arg_weights(args[3], &wb, &W)) return NULL;
    if (eval_id == EVAL_LEARNED && !has_weights(&W)) {
        buf_release(&wb);
        PyErr_SetString(PyExc_ValueError, "the learned evaluation needs its weights");
        return NULL;
    }
    double v = evaluate(P, O, (int)eval_id, &W);
    buf_release(&wb);
    return PyFloat_FromDouble(v);
}

/* tt_probe(tt, P, O): index of the entry holding (P, O), or -1. */
static PyObject *py_tt_probe(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("tt_probe", 3);
    Buf tb;
    TT tt;
    u64 P, O;
    if (!arg_u64(args[1], &P) || !arg_u64(args[2], &O)) return NULL;
    if (!arg_tt(args[0], &tb, &tt)) return NULL;
    long i = (long)tt_find(&tt, P, O);
    buf_release(&tb);
    return PyLong_FromLong(i);
}

/* Root-move arrays shared by the midgame and endgame roots. */
typedef struct {
    Buf root, values, flags, pv, pv_len;
    i64 n, stride;
} RootArrays;

static void root_release(RootArrays *r) {
    buf_release(&r->root);
    buf_release(&r->values);
    buf_release(&r->flags);
    buf_release(&r->pv);
    buf_release(&r->pv_len);
}

static int arg_root(PyObject *const *a, RootArrays *r) {
    r->root.held = r->values.held = r->flags.held = r->pv.held = r->pv_len.held = 0;
    if (!buf_get(a[0], &r->root, 0, 8, 'i', "root moves") || !buf_get(a[1], &r->values, 1, 8, 'f', "values") ||
        !buf_get(a[2], &r->flags, 1, 8, 'i', "flags") || !buf_get(a[3], &r->pv, 1, 1, 'i', "root pv") ||
        !buf_get(a[4], &r->pv_len, 1, 8, 'i', "root pv lengths")) {
        root_release(r);
        return 0;
    }
    r->n = buf_len(&r->root);
    r->stride = buf_dim(&r->pv, 1);
    if (buf_len(&r->values) < r->n || buf_len(&r->flags) < r->n || buf_dim(&r->pv, 0) < r->n ||
        buf_len(&r->pv_len) < r->n || r->stride < 2) {
        root_release(r);
        PyErr_SetString(PyExc_ValueError, "root arrays are too small");
        return 0;
    }
    for (i64 i = 0; i < r->n; i++) {
        i64 m = ((i64 *)r->root.view.buf)[i];
        if (m < -1 || m > 63) {
            root_release(r);
            PyErr_SetString(PyExc_ValueError, "root move out of range");
            return 0;
        }
    }
    return 1;
}

/* 1 when no root move (but a pass) is on an occupied square; else 0 with the arrays released and ValueError. */
static int root_moves_free(RootArrays *r, u64 occupied) {
    const i64 *moves = (const i64 *)r->root.view.buf;
    for (i64 i = 0; i < r->n; i++) {
        if (moves[i] >= 0 && (occupied >> moves[i] & 1)) {
            root_release(r);
            PyErr_SetString(PyExc_ValueError, "root move on an occupied square");
            return 0;
        }
    }
    return 1;
}

/* Optional trailing argument: the number of threads (1 when absent). */
static int arg_threads(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t at, int *threads) {
    *threads = 1;
    if (nargs <= at) return 1;
    i64 t;
    if (!arg_i64(args[at], &t)) return 0;
    if (t < 1 || t > 256) {
        PyErr_SetString(PyExc_ValueError, "threads must be 1..256");
        return 0;
    }
    *threads = (int)t;
    return 1;
}

/* mid_search_root(P, O, depth, alpha, beta, root_moves, multipv, values, flags, root_pv, root_pv_len, tt,
 * eval_id, W, ctl[, threads[, mpc, t]]) -> moves completed (see midgame.c and parallel.c).  mpc: the probcut
 * statistics (float64, MPC_CELLS) for a selective search of confidence t, or None. */
static PyObject *py_mid_search_root(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 15 && nargs != 16 && nargs != 18) {
        PyErr_Format(PyExc_TypeError, "mid_search_root() takes 15, 16 or 18 arguments (%zd given)", nargs);
        return NULL;
    }
    double mpc_t = 0.0;
    if (nargs == 18 && args[16] != Py_None) {
        if (!arg_double(args[17], &mpc_t)) return NULL;
        if (!(mpc_t >= 0.0 && mpc_t <= 100.0)) {
            PyErr_SetString(PyExc_ValueError, "probcut confidence must be 0..100");
            return NULL;
        }
    }
    int threads;
    if (!arg_threads(args, nargs, 15, &threads)) return NULL;
    u64 P, O;
    i64 depth, multipv, eval_id;
    double alpha, beta;
    if (!arg_board(args, &P, &O) || !arg_i64(args[2], &depth) || !arg_double(args[3], &alpha) ||
        !arg_double(args[4], &beta) || !arg_i64(args[6], &multipv) || !arg_i64(args[12], &eval_id))
        return NULL;
    if (depth < 1 || depth > MAX_PLY - 2 || eval_id < 0 || eval_id > EVAL_LEARNED || multipv < 1) {
        PyErr_SetString(PyExc_ValueError, "depth, evaluation or multipv out of range");
        return NULL;
    }
    PyObject *ra[5] = {args[5], args[7], args[8], args[9], args[10]};
    RootArrays r;
    Buf tb, wb, cb, mb;
    tb.held = wb.held = cb.held = mb.held = 0;
    Search *s = NULL;
    i64 done = -1;
    if (!arg_root(ra, &r) || !root_moves_free(&r, P | O)) return NULL;
    s = search_new();
    if (!s || !arg_tt(args[11], &tb, &s->tt) || !arg_weights(args[13], &wb, &s->W) || !arg_ctl(args[14], &cb, &s->ctl))
        goto out;
    if (nargs == 18 && args[16] != Py_None) {
        if (!buf_get(args[16], &mb, 0, 8, 'f', "probcut statistics")) goto out;
        if (buf_len(&mb) != MPC_CELLS) {
            PyErr_SetString(PyExc_ValueError, "probcut statistics: wrong size");
            goto out;
        }
        s->mpc = (const double *)mb.view.buf;
        s->mpc_t = mpc_t;
    }
    if (eval_id == EVAL_LEARNED && !has_weights(&s->W)) {
        PyErr_SetString(PyExc_ValueError, "the learned evaluation needs its weights");
        goto out;
    }
    s->eval_id = (int)eval_id;
    RootJob job = {ROOT_MIDGAME, P, O, (int)depth, alpha, beta, (const i64 *)r.root.view.buf, r.n, multipv, r.stride};
    Py_BEGIN_ALLOW_THREADS
    done = parallel_root(s, threads, &job, (double *)r.values.view.buf, (i64 *)r.flags.view.buf,
                         (int8_t *)r.pv.view.buf, (i64 *)r.pv_len.view.buf);
    Py_END_ALLOW_THREADS
out:
    root_release(&r);
    buf_release(&tb);
    buf_release(&wb);
    buf_release(&cb);
    buf_release(&mb);
    if (s) PyMem_RawFree(s);
    if (done < 0) return NULL;
    return PyLong_FromLongLong(done);
}

/* mobility_many(own, opp, out): for each position i (uint64 arrays of n), out[i] (int64 rows of 4) = the legal
 * moves of own, of opp, and the potential mobility of own and of opp (the pattern model's dense features). */
static PyObject *py_mobility_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("mobility_many", 3);
    Buf ob, pb, rb;
    if (!buf_get(args[0], &ob, 0, 8, 'u', "own")) return NULL;
    if (!buf_get(args[1], &pb, 0, 8, 'u', "opp")) {
        buf_release(&ob);
        return NULL;
    }
    if (!buf_get(args[2], &rb, 1, 8, 'i', "out")) {
        buf_release(&ob);
        buf_release(&pb);
        return NULL;
    }
    Py_ssize_t n = buf_len(&ob);
    if (buf_len(&pb) != n || buf_len(&rb) != 4 * n) {
        buf_release(&ob);
        buf_release(&pb);
        buf_release(&rb);
        PyErr_SetString(PyExc_ValueError, "mobility_many: own and opp of n positions, out of n x 4");
        return NULL;
    }
    const u64 *own = (const u64 *)ob.view.buf, *opp = (const u64 *)pb.view.buf;
    i64 *out = (i64 *)rb.view.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        u64 P = own[i] & ~opp[i], O = opp[i];
        out[4 * i] = count_moves(P, O);
        out[4 * i + 1] = count_moves(O, P);
        out[4 * i + 2] = popcount(potential_moves(P, O));
        out[4 * i + 3] = popcount(potential_moves(O, P));
    }
    Py_END_ALLOW_THREADS
    buf_release(&ob);
    buf_release(&pb);
    buf_release(&rb);
    Py_RETURN_NONE;
}

static PyObject *py_search_bytes(PyObject *self, PyObject *unused) { return PyLong_FromSize_t(sizeof(Search)); }

/* Ctrl-C during a search on Python's main thread.  Python runs its SIGINT handler's work only between bytecodes,
 * so a compiled search would finish first (minutes for a hard solve).  While the hook is on, SIGINT also sets
 * the stop flag of the given control words, then calls the handler it replaced: the search stops at once and
 * Python raises KeyboardInterrupt when it returns.  Only the main thread sets or clears the hook. */
#ifndef _WIN32
#include <signal.h>

static Buf sigint_buf;
static i64 *volatile sigint_ctl;
static struct sigaction sigint_prev;
static int sigint_hooked;

static void on_sigint(int sig) {
    i64 *ctl = sigint_ctl;
    if (ctl) atomic_set(&ctl[CTL_STOP], 1, MO_RELAXED);
    sigint_prev.sa_handler(sig);
}

static void sigint_unhook(void) {
    if (!sigint_hooked) return;
    struct sigaction now;  /* the handler put back only if still ours: a search's caller may have set another */
    if (sigaction(SIGINT, NULL, &now) == 0 && !(now.sa_flags & SA_SIGINFO) && now.sa_handler == on_sigint)
        sigaction(SIGINT, &sigint_prev, NULL);
    sigint_ctl = NULL;
    buf_release(&sigint_buf);
    sigint_hooked = 0;
}

/* interrupt_stops(ctl or None) -> bool: hook SIGINT to ctl's stop flag (True when hooked: not when SIGINT is
 * ignored, left to the system or handled by a handler taking siginfo), or unhook it (None). */
static PyObject *py_interrupt_stops(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("interrupt_stops", 1);
    sigint_unhook();
    if (args[0] == Py_None) Py_RETURN_FALSE;
    i64 *ctl;
    if (!arg_ctl(args[0], &sigint_buf, &ctl)) return NULL;
    struct sigaction now;
    if (sigaction(SIGINT, NULL, &now) != 0 || (now.sa_flags & SA_SIGINFO) || now.sa_handler == SIG_IGN ||
        now.sa_handler == SIG_DFL) {
        buf_release(&sigint_buf);
        Py_RETURN_FALSE;
    }
    sigint_prev = now;
    sigint_ctl = ctl;
    struct sigaction hook = now;
    hook.sa_handler = on_sigint;
    if (sigaction(SIGINT, &hook, NULL) != 0) {
        sigint_ctl = NULL;
        buf_release(&sigint_buf);
        Py_RETURN_FALSE;
    }
    sigint_hooked = 1;
    Py_RETURN_TRUE;
}
#else
static PyObject *py_interrupt_stops(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("interrupt_stops", 1);
    Py_RETURN_FALSE;
}
#endif

#define FAST(name, doc) {#name, (PyCFunction)(void (*)(void))py_##name, METH_FASTCALL, doc}

static PyMethodDef engine_methods[] = {
    {"cpu_has_avx2", py_cpu_has_avx2, METH_NOARGS, "True when this CPU runs the AVX2 build (AVX2, BMI2, POPCNT)."},
    {"cpu_has_avx512", py_cpu_has_avx512, METH_NOARGS, "True when this CPU runs the AVX-512 build (x86-64-v4)."},
    {"search_bytes", py_search_bytes, METH_NOARGS, "Bytes of one search's scratch."},
    FAST(get_moves, "get_moves(P, O): bitmask of the legal moves of the side owning P (vector code)."),
    FAST(get_moves_by_shifts, "get_moves_by_shifts(P, O): get_moves one direction at a time (reference)."),
    FAST(potential_moves, "potential_moves(P, O): empty squares next to an opponent disc."),
    FAST(final_score, "final_score(P, O): disc difference of a finished game, empties to the winner."),
    FAST(stable_discs, "stable_discs(P, O): discs of P that can never be flipped (an under-estimate)."),
    FAST(full_lines, "full_lines(occupied): squares whose row, column, diagonal, anti-diagonal are full."),
    FAST(full_lines_by_empties, "full_lines_by_empties(occupied): full_lines from the empty squares."),
    FAST(full_lines_by_lines, "full_lines_by_lines(occupied): full_lines by testing the 46 lines."),
    FAST(evaluate_default, "evaluate_default(P, O): the engine's hand-made evaluation (int)."),
    FAST(legal_mask8, "legal_mask8(own, opp): squares where the side owning own may play."),
    FAST(flips, "flips(P, O, sq): opponent discs turned by P playing sq (0 if illegal or occupied)."),
    FAST(flips_by_lines, "flips_by_lines(P, O, sq): flips by table look-ups (reference)."),
    FAST(play8, "play8(own, opp, sq): (own after, opp after, opponent's legal squares) or (0, 0, 0)."),
    FAST(mobility_many, "mobility_many(own, opp, out): moves and potential mobility of both sides, n positions."),
    FAST(perft, "perft(P, O, depth): leaves depth plies below (P, O)."),
    FAST(evaluate, "evaluate(P, O, eval_id, W): value of a position that is not over, side to move's view."),
    FAST(tt_probe, "tt_probe(tt, P, O): index of the table entry holding (P, O), or -1."),
    FAST(mid_search_root, "mid_search_root(...): PVS over the root moves (see plies.engine.midgame)."),
    FAST(interrupt_stops, "interrupt_stops(ctl or None): SIGINT also stops the search of ctl (None: no more)."),
    {NULL, NULL, 0, NULL}};
