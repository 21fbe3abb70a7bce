/* Python bindings of the HexThello kernels (hexthello.c).  A board is an int8 array of 289 cells (see
 * plies.hexsearch.kernels.to_padded), copied and checked before a search runs; the side to move is 1 (black)
 * or 2 (white).  The engine's tables are plies.hexsearch.kernels.new_tables()'s arrays, written in place. */
#include "pyutil.h"

#define HEX_MAX_DEPTH 400

static int hex_check_ready(void) {
    if (!hex_ready) {
        PyErr_SetString(PyExc_RuntimeError, "the HexThello kernels need hex_init first (import plies.hexsearch)");
        return 0;
    }
    return 1;
}

/* 1 when board (289 cells) is a HexThello board, else 0 with ValueError. */
static int hex_check_board(const int8_t *board) {
    int8_t want[HEX_N];
    memset(want, HEX_WALL, sizeof want);
    for (int k = 0; k < HEX_NCELLS; k++) want[hex_cells[k]] = 0;
    for (int p = 0; p < HEX_N; p++) {
        if (want[p] == HEX_WALL ? board[p] != HEX_WALL : (board[p] < 0 || board[p] > 3)) {
            PyErr_Format(PyExc_ValueError, "bad board cell %d (value %d): 0..3 on the hexagon, 3 elsewhere", p,
                         (int)board[p]);
            return 0;
        }
    }
    return 1;
}

/* The board: 289 int8 cells, 0..2 on the 169 hexagon cells (3 for a hole, the course's ILLEGAL) and 3 elsewhere. */
static int hex_arg_board(PyObject *o, int8_t *board) {
    Buf b;
    if (!buf_get(o, &b, 0, 1, 'i', "board")) return 0;
    if (buf_len(&b) != HEX_N) {
        buf_release(&b);
        PyErr_Format(PyExc_ValueError, "a HexThello board has %d int8 cells", HEX_N);
        return 0;
    }
    memcpy(board, b.view.buf, HEX_N);
    buf_release(&b);
    return hex_check_board(board);
}

static int hex_arg_side(PyObject *o, int *me, const char *what) {
    int64_t v;
    if (!arg_i64(o, &v)) return 0;
    if (v != HEX_BLACK && v != HEX_WHITE) {
        PyErr_Format(PyExc_ValueError, "%s must be 1 (black) or 2 (white)", what);
        return 0;
    }
    *me = (int)v;
    return 1;
}

static int hex_arg_depth(PyObject *o, int *depth, int lo) {
    int64_t v;
    if (!arg_i64(o, &v)) return 0;
    if (v < lo || v > HEX_MAX_DEPTH) {
        PyErr_Format(PyExc_ValueError, "depth must be %d..%d", lo, HEX_MAX_DEPTH);
        return 0;
    }
    *depth = (int)v;
    return 1;
}

static HexSearch *hex_new(void) {
    HexSearch *S = (HexSearch *)PyMem_RawCalloc(1, sizeof(HexSearch));
    if (!S) PyErr_NoMemory();
    return S;
}

/* A search on a copy of the checked board `board` (NULL with the Python error set). */
static HexSearch *hex_new_on(PyObject *board) {
    HexSearch *S = hex_new();
    if (S && !hex_arg_board(board, S->board)) {
        PyMem_RawFree(S);
        return NULL;
    }
    return S;
}

/* hex_init(cells, doc004_table, engine_table, zobrist, zobrist_side, classes, edges): the tables Python builds
 * (classes: the learned evaluation's class of each of the 289 cells, 0..HEX_MAX_CLASSES-1; edges: its 6 x 10
 * edge-line cells). */
static PyObject *py_hex_init(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("hex_init", 7);
    Buf bc, bd, be, bz, bk, bl;
    bc.held = bd.held = be.held = bz.held = bk.held = bl.held = 0;
    uint64_t side;
    PyObject *ret = NULL;
    hex_cells_init();
    if (!arg_u64(args[4], &side)) return NULL;
    if (!buf_get(args[0], &bc, 0, 8, 'i', "cells") || !buf_get(args[1], &bd, 0, 8, 'i', "doc004 table") ||
        !buf_get(args[2], &be, 0, 8, 'i', "engine table") || !buf_get(args[3], &bz, 0, 8, 'i', "zobrist") ||
        !buf_get(args[5], &bk, 0, 8, 'i', "classes") || !buf_get(args[6], &bl, 0, 8, 'i', "edges"))
        goto out;
    if (buf_len(&bc) != HEX_NCELLS || buf_len(&bd) != HEX_N || buf_len(&be) != HEX_N || buf_len(&bz) != HEX_N * 3 ||
        buf_len(&bk) != HEX_N || buf_len(&bl) != HEX_EDGES * HEX_EDGE_LEN) {
        PyErr_SetString(PyExc_ValueError, "hex_init: tables of 169, 289, 289, 289 x 3, 289 and 6 x 10 int64");
        goto out;
    }
    for (int k = 0; k < HEX_NCELLS; k++) {
        if (((const int64_t *)bc.view.buf)[k] != hex_cells[k]) {
            PyErr_SetString(PyExc_ValueError, "hex_init: the cells differ from the kernels' hexagon");
            goto out;
        }
    }
    const int64_t *cls = (const int64_t *)bk.view.buf, *edges = (const int64_t *)bl.view.buf;
    for (int p = 0; p < HEX_N; p++) {
        if (cls[p] < 0 || cls[p] >= HEX_MAX_CLASSES) {
            PyErr_Format(PyExc_ValueError, "hex_init: cell classes are 0..%d", HEX_MAX_CLASSES - 1);
            goto out;
        }
    }
    for (int k = 0; k < HEX_EDGES * HEX_EDGE_LEN; k++) {
        if (edges[k] < 0 || edges[k] >= HEX_N) {
            PyErr_SetString(PyExc_ValueError, "hex_init: edge cells are padded indices 0..288");
            goto out;
        }
    }
    memcpy(hex_doc004_table, bd.view.buf, sizeof hex_doc004_table);
    memcpy(hex_engine_table, be.view.buf, sizeof hex_engine_table);
    memcpy(hex_zobrist, bz.view.buf, sizeof hex_zobrist);
    for (int p = 0; p < HEX_N; p++) hex_class[p] = (int8_t)cls[p];
    for (int k = 0; k < HEX_EDGES * HEX_EDGE_LEN; k++) hex_edge[k / HEX_EDGE_LEN][k % HEX_EDGE_LEN] = (int16_t)edges[k];
    hex_zobrist_side = side;
    hex_ready = 1;
    ret = Py_NewRef(Py_None);
out:
    buf_release(&bc);
    buf_release(&bd);
    buf_release(&be);
    buf_release(&bz);
    buf_release(&bk);
    buf_release(&bl);
    return ret;
}

/* The learned evaluation's weights: int32 (HEX_PHASES, HEX_ROW); a view into o (kept by b). */
static int hex_arg_weights(PyObject *o, Buf *b, const int32_t **w) {
    if (!buf_get(o, b, 0, 4, 'i', "weights")) return 0;
    if (buf_len(b) != (Py_ssize_t)HEX_PHASES * HEX_ROW) {
        buf_release(b);
        PyErr_Format(PyExc_ValueError, "HexThello weights are %d x %d int32", HEX_PHASES, HEX_ROW);
        return 0;
    }
    *w = (const int32_t *)b->view.buf;
    return 1;
}

/* hex_perft(board, me, depth) -> leaves. */
static PyObject *py_hex_perft(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("hex_perft", 3);
    int me, depth;
    if (!hex_check_ready() || !hex_arg_side(args[1], &me, "me") || !hex_arg_depth(args[2], &depth, 0)) return NULL;
    HexSearch *S = hex_new_on(args[0]);
    if (!S) return NULL;
    int64_t n;
    Py_BEGIN_ALLOW_THREADS
    n = hex_perft(S->board, me, depth, 0, S->stack, 0);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(S);
    return PyLong_FromLongLong(n);
}

/* hex_doc004_root(board, me, depth, prune) -> (cell or -1 to pass, value, nodes). */
static PyObject *py_hex_doc004_root(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("hex_doc004_root", 4);
    int me, depth;
    if (!hex_check_ready() || !hex_arg_side(args[1], &me, "me") || !hex_arg_depth(args[2], &depth, 1)) return NULL;
    int prune = PyObject_IsTrue(args[3]);
    if (prune < 0) return NULL;
    HexSearch *S = hex_new_on(args[0]);
    if (!S) return NULL;
    S->prune = prune;
    int cell;
    int64_t value, nodes;
    Py_BEGIN_ALLOW_THREADS
    nodes = hex_doc004_root(S, me, depth, &cell, &value);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(S);
    return Py_BuildValue("(iLL)", cell, (long long)value, (long long)nodes);
}

/* hex_doc004_search(board, me, depth, alpha, beta, root, prune) -> (value from root's view, nodes). */
static PyObject *py_hex_doc004_search(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("hex_doc004_search", 7);
    int me, depth, root;
    int64_t alpha, beta;
    if (!hex_check_ready() || !hex_arg_side(args[1], &me, "me") || !hex_arg_depth(args[2], &depth, 0) ||
        !arg_i64(args[3], &alpha) || !arg_i64(args[4], &beta) || !hex_arg_side(args[5], &root, "root"))
        return NULL;
    int prune = PyObject_IsTrue(args[6]);
    if (prune < 0) return NULL;
    HexSearch *S = hex_new_on(args[0]);
    if (!S) return NULL;
    S->prune = prune;
    int64_t value;
    Py_BEGIN_ALLOW_THREADS
    value = hex_doc004_search(S, me, depth, alpha, beta, root, 0);
    Py_END_ALLOW_THREADS
    int64_t nodes = S->nodes;
    PyMem_RawFree(S);
    return Py_BuildValue("(LL)", (long long)value, (long long)nodes);
}

/* hex_root_search(board, me, depth, tt_key, tt_val, tt_depth, tt_flag, tt_move, history, limit, first, ctl,
 * eval_id, weights, threads) -> (cell or -1 to pass, value, nodes, aborted).  Past `limit` nodes (of the calling
 * thread) or when ctl[1] is set the search stops (aborted True, the value then meaningless); `first` (a cell or
 * -1) is searched first; eval_id 0 classic, 1 learned (weights: hex_arg_weights; ignored by the classic
 * evaluation); threads 1..256 (parallel.c). */
static PyObject *py_hex_root_search(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("hex_root_search", 15);
    int me, depth;
    int64_t limit, first, eval_id, threads;
    if (!hex_check_ready() || !hex_arg_side(args[1], &me, "me") || !hex_arg_depth(args[2], &depth, 1) ||
        !arg_i64(args[9], &limit) || !arg_i64(args[10], &first) || !arg_i64(args[12], &eval_id) ||
        !arg_i64(args[14], &threads))
        return NULL;
    if (eval_id != 0 && eval_id != 1) {
        PyErr_SetString(PyExc_ValueError, "eval_id: 0 (classic) or 1 (learned)");
        return NULL;
    }
    if (threads < 1 || threads > MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "threads must be 1..%d", MAX_THREADS);
        return NULL;
    }
    if (first < -1 || first >= HEX_N) first = -1;
    static const char *names[6] = {"tt_key", "tt_val", "tt_depth", "tt_flag", "tt_move", "history"};
    static const Py_ssize_t sizes[6] = {8, 4, 2, 1, 2, 8};
    Buf b[6], bctl, bw;
    for (int i = 0; i < 6; i++) b[i].held = 0;
    bctl.held = bw.held = 0;
    PyObject *ret = NULL;
    HexSearch *S = NULL;
    i64 *ctl = NULL;
    const int32_t *weights = NULL;
    for (int i = 0; i < 6; i++)
        if (!buf_get(args[3 + i], &b[i], 1, sizes[i], 'i', names[i])) goto out;
    if (!arg_ctl(args[11], &bctl, &ctl)) goto out;
    if (eval_id == 1 && !hex_arg_weights(args[13], &bw, &weights)) goto out;
    Py_ssize_t L = buf_len(&b[0]);
    if (L < 1 || (L & (L - 1)) != 0) {
        PyErr_SetString(PyExc_ValueError, "the table's length must be a power of two");
        goto out;
    }
    for (int i = 1; i < 5; i++) {
        if (buf_len(&b[i]) != L) {
            PyErr_SetString(PyExc_ValueError, "the table's arrays differ in length");
            goto out;
        }
    }
    if (buf_len(&b[5]) != 3 * HEX_N) {
        PyErr_Format(PyExc_ValueError, "the history is 3 x %d int64", HEX_N);
        goto out;
    }
    S = hex_new();
    if (!S || !hex_arg_board(args[0], S->board)) goto out;
    S->tt_key = (int64_t *)b[0].view.buf;
    S->tt_val = (int32_t *)b[1].view.buf;
    S->tt_depth = (int16_t *)b[2].view.buf;
    S->tt_flag = (int8_t *)b[3].view.buf;
    S->tt_move = (int16_t *)b[4].view.buf;
    S->history = (int64_t *)b[5].view.buf;
    S->tt_mask = (uint64_t)L - 1;
    S->limit = limit;
    S->ctl = ctl;
    S->eval_id = (int)eval_id;
    S->weights = weights;
    int cell, aborted;
    int64_t value;
    Py_BEGIN_ALLOW_THREADS
    aborted = hex_parallel_root(S, (int)threads, me, depth, (int)first, &cell, &value);
    Py_END_ALLOW_THREADS
    ret = Py_BuildValue("(iLLO)", cell, (long long)value, (long long)S->nodes, aborted ? Py_True : Py_False);
out:
    for (int i = 0; i < 6; i++) buf_release(&b[i]);
    buf_release(&bctl);
    buf_release(&bw);
    if (S) PyMem_RawFree(S);
    return ret;
}

/* hex_evaluate(board, me, which, weights) -> value from me's view: which 0 document 004's, 1 the engine's classic
 * evaluation, 2 its learned one (weights: hex_arg_weights; None for the others). */
static PyObject *py_hex_evaluate(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("hex_evaluate", 4);
    int me;
    int64_t which;
    int8_t board[HEX_N];
    if (!hex_check_ready() || !hex_arg_side(args[1], &me, "me") || !arg_i64(args[2], &which)) return NULL;
    if (which < 0 || which > 2) {
        PyErr_SetString(PyExc_ValueError, "which: 0 (document 004), 1 (classic) or 2 (learned)");
        return NULL;
    }
    if (!hex_arg_board(args[0], board)) return NULL;
    if (which < 2) return PyLong_FromLongLong(which ? hex_eval_engine(board, me) : hex_eval_doc004(board, me));
    Buf bw;
    const int32_t *w;
    if (!hex_arg_weights(args[3], &bw, &w)) return NULL;
    int64_t v = hex_eval_learned(board, me, w);
    buf_release(&bw);
    return PyLong_FromLongLong(v);
}

/* hex_features(boards, mes, phase, feat, edge, over) -> None: the learned evaluation's features of n positions
 * (boards int8 (n, 289), each checked; mes int8 (n,) 1 or 2): phase int32 (n,), feat int32 (n, HEX_NFEAT),
 * edge int32 (n, 6), over int64 (n,): 0 for a game in play, else 1 + (my discs - the opponent's) + 200. */
static PyObject *py_hex_features(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("hex_features", 6);
    Buf bb, bm, bp, bf, be, bo;
    bb.held = bm.held = bp.held = bf.held = be.held = bo.held = 0;
    PyObject *ret = NULL;
    if (!hex_check_ready() || !buf_get(args[0], &bb, 0, 1, 'i', "boards") || !buf_get(args[1], &bm, 0, 1, 'i', "mes") ||
        !buf_get(args[2], &bp, 1, 4, 'i', "phase") || !buf_get(args[3], &bf, 1, 4, 'i', "feat") ||
        !buf_get(args[4], &be, 1, 4, 'i', "edge") || !buf_get(args[5], &bo, 1, 8, 'i', "over"))
        goto out;
    Py_ssize_t n = buf_len(&bm);
    if (buf_len(&bb) != n * HEX_N || buf_len(&bp) != n || buf_len(&bf) != n * HEX_NFEAT ||
        buf_len(&be) != n * HEX_EDGES || buf_len(&bo) != n) {
        PyErr_Format(PyExc_ValueError, "hex_features: n boards of %d cells, n sides, n phases, n x %d features, "
                     "n x %d edges, n flags", HEX_N, HEX_NFEAT, HEX_EDGES);
        goto out;
    }
    const int8_t *mes = (const int8_t *)bm.view.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        int8_t board[HEX_N];
        if (mes[i] != HEX_BLACK && mes[i] != HEX_WHITE) {
            PyErr_SetString(PyExc_ValueError, "hex_features: a side is 1 (black) or 2 (white)");
            goto out;
        }
        memcpy(board, (const int8_t *)bb.view.buf + i * HEX_N, HEX_N);
        if (!hex_check_board(board)) goto out;
        int phase;
        int64_t d, guard;
        int over = hex_features(board, mes[i], &phase, (int32_t *)bf.view.buf + i * HEX_NFEAT,
                                (int32_t *)be.view.buf + i * HEX_EDGES, &d, &guard);
        ((int32_t *)bp.view.buf)[i] = phase;
        ((int64_t *)bo.view.buf)[i] = over ? 1 + d + 200 : 0;
    }
    ret = Py_NewRef(Py_None);
out:
    buf_release(&bb);
    buf_release(&bm);
    buf_release(&bp);
    buf_release(&bf);
    buf_release(&be);
    buf_release(&bo);
    return ret;
}

/* hex_gen_moves(board, me) -> list of the legal cells in row-major order. */
static PyObject *py_hex_gen_moves(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("hex_gen_moves", 2);
    int me;
    int8_t board[HEX_N];
    int16_t moves[HEX_MAX_MOVES];
    if (!hex_check_ready() || !hex_arg_side(args[1], &me, "me") || !hex_arg_board(args[0], board)) return NULL;
    int n = hex_gen_moves(board, me, moves);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int k = 0; k < n; k++) {
        PyObject *v = PyLong_FromLong(moves[k]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, v);
    }
    return out;
}

/* hex_board_hash(board, me) -> the Zobrist key (a signed 64-bit int, as the table stores it). */
static PyObject *py_hex_board_hash(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("hex_board_hash", 2);
    int me;
    int8_t board[HEX_N];
    if (!hex_check_ready() || !hex_arg_side(args[1], &me, "me") || !hex_arg_board(args[0], board)) return NULL;
    return PyLong_FromLongLong((long long)(int64_t)hex_board_hash(board, me));
}

/* hex_guard(board, me) -> the fixed wipe-out guard both evaluations add, from me's view (me to move). */
static PyObject *py_hex_guard(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("hex_guard", 2);
    int me;
    int8_t board[HEX_N];
    if (!hex_check_ready() || !hex_arg_side(args[1], &me, "me") || !hex_arg_board(args[0], board)) return NULL;
    int phase;
    int32_t feat[HEX_NFEAT], edge[HEX_EDGES];
    int64_t d, guard;
    hex_features(board, me, &phase, feat, edge, &d, &guard);
    return PyLong_FromLongLong(guard);
}

/* hex_stats(board) -> (empties, black minus white discs, either side has 3 discs or fewer). */
static PyObject *py_hex_stats(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("hex_stats", 1);
    int8_t board[HEX_N];
    if (!hex_check_ready() || !hex_arg_board(args[0], board)) return NULL;
    return Py_BuildValue("(iiO)", hex_empties(board), hex_disc_diff(board, HEX_BLACK),
                         hex_few_discs(board) ? Py_True : Py_False);
}

static PyMethodDef hexthello_methods[] = {
    FAST(hex_init, "hex_init(cells, doc004_table, engine_table, zobrist, zobrist_side, classes, edges): the "
                   "kernels' tables."),
    FAST(hex_perft, "hex_perft(board, me, depth): leaves depth plies below (a forced pass is a ply)."),
    FAST(hex_doc004_root, "hex_doc004_root(board, me, depth, prune): document 004's (cell, value, nodes)."),
    FAST(hex_doc004_search, "hex_doc004_search(board, me, depth, alpha, beta, root, prune): (value, nodes)."),
    FAST(hex_root_search, "hex_root_search(board, me, depth, tt_key, tt_val, tt_depth, tt_flag, tt_move, history, "
                          "limit, first, ctl, eval_id, weights, threads): one PVS iteration, (cell, value, nodes, "
                          "aborted)."),
    FAST(hex_evaluate, "hex_evaluate(board, me, which, weights): document 004's (0), the engine's classic (1) or "
                       "learned (2) evaluation."),
    FAST(hex_features, "hex_features(boards, mes, phase, feat, edge, over): the learned evaluation's features."),
    FAST(hex_gen_moves, "hex_gen_moves(board, me): the legal cells, row-major."),
    FAST(hex_board_hash, "hex_board_hash(board, me): the Zobrist key of the engine's table."),
    FAST(hex_guard, "hex_guard(board, me): the fixed wipe-out guard of the evaluations, from me's view."),
    FAST(hex_stats, "hex_stats(board): (empties, black - white discs, a side has 3 discs or fewer)."),
    {NULL, NULL, 0, NULL}};
