/* Depth-limited search (plies.engine.midgame): negamax principal-variation search with a transposition table.
 *
 * Values are doubles from the side to move's view, in evaluation units; a finished game is worth
 * +-(WIN + disc difference) as plies.game.terminal_value says, and a pass is a ply (as in the textbook
 * search), so with the same evaluation and depth the value equals plies.search.alphabeta's.  Move order: the
 * hash move (searched before the others are ordered: it mostly cuts off), then fastest-first (fewest replies for
 * the opponent) plus square quality.  The search stops
 * within a node when ctl[CTL_STOP] becomes non-zero (the clock's watchdog or Engine.stop).
 */
#include "search.h"
#include "eval.h"
#include "ybwc.h"

#define WIN 1000000.0

const i64 SQUARE_VALUE[64] = {
    18, 4, 16, 12, 12, 16, 4, 18, 4, 2, 6, 8, 8, 6, 2, 4,
    16, 6, 14, 10, 10, 14, 6, 16, 12, 8, 10, 0, 0, 10, 8, 12,
    12, 8, 10, 0, 0, 10, 8, 12, 16, 6, 14, 10, 10, 14, 6, 16,
    4, 2, 6, 8, 8, 6, 2, 4, 18, 4, 16, 12, 12, 16, 4, 18};

/* Search value of a finished game for the side to move. */
static inline double terminal_value(u64 P, u64 O) {
    i64 s = final_score(P, O);
    if (s > 0) return WIN + (double)s;
    if (s < 0) return -WIN + (double)s;
    return 0.0;
}

/* Width of the null windows: one unit for the integer-valued evaluations, 1/16 disc for the learned one. */
static inline double null_window(int eval_id) { return eval_id == EVAL_LEARNED ? 0.0625 : 1.0; }

static inline void copy_pv(Search *s, int ply, int move) {
    i64 n = s->pv_len[ply + 1];
    s->pv[ply][0] = (int8_t)move;
    for (i64 k = 0; k < n; k++) s->pv[ply][k + 1] = s->pv[ply + 1][k];
    s->pv_len[ply] = n + 1;
}

/* A node one ply above the horizon: its children are evaluated in place (no call, no table). */
static double frontier(Search *s, u64 P, u64 O, u64 moves, double alpha, double beta, int ply) {
    double best = -INFINITY;
    while (moves) {
        int sq = lowest_index(moves);
        moves &= moves - 1;
        u64 f = flips(P, O, sq);
        u64 cp = O ^ f, co = P ^ f ^ (ONE << sq);
        s->ctl[CTL_NODES]++;
        double v;
        if (get_moves(cp, co) == 0 && get_moves(co, cp) == 0) v = -terminal_value(cp, co);
        else v = -evaluate(cp, co, s->eval_id, &s->W);
        if (v > best) {
            best = v;
            if (v > alpha) {
                s->pv[ply][0] = (int8_t)sq;
                s->pv_len[ply] = 1;
                if (v >= beta) return v;
                alpha = v;
            }
        }
    }
    return best;
}

/* Keys (larger first) of the moves mb[from..n): fewer opponent replies (corners counting more), then the square;
 * at nodes ORDER_EVAL_DEPTH or more plies above the horizon of a selective learned search, also the child's
 * static evaluation (ORDER_EVAL_WEIGHT key units a disc: a disc of evaluation weighs as much as one opponent
 * reply).  To depth 15 from 40 positions (docs/engine.md): 13% fewer nodes than 4 units from 4 plies. */
#ifndef ORDER_EVAL_DEPTH
#define ORDER_EVAL_DEPTH 3
#endif
#ifndef ORDER_EVAL_WEIGHT
#define ORDER_EVAL_WEIGHT 16
#endif
static void order_moves(Search *s, u64 P, u64 O, const int *mb, const u64 *fb, i64 *kb, int from, int n, int depth) {
    int by_eval = depth >= ORDER_EVAL_DEPTH && s->mpc;
    for (int j = from; j < n; j++) {
        int sq = mb[j];
        u64 f = fb[j];
        u64 cp = O ^ f, co = P ^ f ^ (ONE << sq);
        u64 reply = get_moves(cp, co);
        kb[j] = SQUARE_VALUE[sq] - 16 * popcount(reply) - 24 * popcount(reply & CORNERS);
        if (by_eval) kb[j] -= (i64)(ORDER_EVAL_WEIGHT * evaluate(cp, co, s->eval_id, &s->W));
    }
}

/* Multi-ProbCut (Buro 1997) at a null-window node of depth >= MPC_MIN_DEPTH: a shallow search of depth d'
 * predicts the depth-d value as a v' + b with spread sigma (fitted from plies' own searches); when the
 * prediction lies t sigma beyond the window, the node is cut without the deep search.  The static evaluation,
 * with its own (wider) statistics, says which of the two tests can succeed, so a doomed shallow search is
 * not run.  1 with the bound in *value when the node is cut. */
#define MPC_MIN_DEPTH 3
static double pvs(Search *s, u64 P, u64 O, int depth, double alpha, double beta, int ply);
static int mpc_cut(Search *s, u64 P, u64 O, int depth, double alpha, double beta, int ply, double *value) {
    int e = 64 - (int)popcount(P | O);
    const double *m = s->mpc + ((i64)e * MPC_DEPTHS + depth) * MPC_COLUMNS;
    int d = (int)m[0];
    if (d <= 0 || d >= depth || m[1] <= 0.0) return 0;
    double t = s->mpc_t, nw = null_window(s->eval_id);
    double err = t * m[3];
    double v0 = m[4] * evaluate(P, O, s->eval_id, &s->W) + m[5];  /* the deep value predicted from the evaluation */
    double gate = t * m[6];
    if (beta < WIN / 2 && v0 >= beta - gate) {
        double bound = (beta + err - m[2]) / m[1];  /* a shallow value at least this: deep >= beta */
        if (bound < WIN / 2 && pvs(s, P, O, d, bound - nw, bound, ply) >= bound && !aborted(s)) {
            *value = beta;
            return 1;
        }
    }
    if (alpha > -WIN / 2 && v0 <= alpha + gate) {
        double bound = (alpha - err - m[2]) / m[1];  /* a shallow value at most this: deep <= alpha */
        if (bound > -WIN / 2 && pvs(s, P, O, d, bound, bound + nw, ply) <= bound && !aborted(s)) {
            *value = alpha;
            return 1;
        }
    }
    return 0;
}

/* Negamax PVS value of (P, O) searched depth plies, fail-soft, window (alpha, beta). */
static double pvs(Search *s, u64 P, u64 O, int depth, double alpha, double beta, int ply) {
    s->ctl[CTL_NODES]++;
    s->pv_len[ply] = 0;
    if (aborted(s)) return 0.0;
    u64 moves = get_moves(P, O);
    if (moves == 0) {
        if (get_moves(O, P) == 0) return terminal_value(P, O);
        if (depth == 0) return evaluate(P, O, s->eval_id, &s->W);
        double v = -pvs(s, O, P, depth - 1, -beta, -alpha, ply + 1);
        copy_pv(s, ply, PASS_MOVE);
        return v;
    }
    if (depth == 0 || ply >= MAX_PLY) return evaluate(P, O, s->eval_id, &s->W);
    if (depth == 1) return frontier(s, P, O, moves, alpha, beta, ply);

    int hash_move = NO_MOVE;
    Entry e;
    if (tt_probe(&s->tt, P, O, &e)) {
        hash_move = e.move;
        /* equal, not deeper: values stay those of a depth-limited search; a selective search (whose values are
         * estimates anyway) also takes a deeper result of the same parity */
        if (e.depth == depth || (s->mpc && e.depth > depth && ((e.depth - depth) & 1) == 0)) {
            double lo = e.lower, up = e.upper;
            if (lo >= beta) return lo;
            if (up <= alpha) return up;
            if (lo == up) {
                s->pv[ply][0] = (int8_t)hash_move;
                s->pv_len[ply] = 1;
                return lo;
            }
            if (lo > alpha) alpha = lo;
            if (up < beta) beta = up;
        }
    }
    if (s->mpc && depth >= MPC_MIN_DEPTH && beta - alpha <= 1.5 * null_window(s->eval_id)) {
        double v;
        if (mpc_cut(s, P, O, depth, alpha, beta, ply, &v)) {
            s->pv_len[ply] = 0;
            tt_store(&s->tt, P, O, depth, alpha, beta, v, hash_move);
            return v;
        }
        if (aborted(s)) return 0.0;
    }
    double a0 = alpha, b0 = beta;
    int *mb = s->mbuf[ply];
    i64 *kb = s->kbuf[ply];
    u64 *fb = s->fbuf[ply];
    int n = 0;
    for (u64 m = moves; m; m &= m - 1) {
        int sq = lowest_index(m);
        mb[n] = sq;
        fb[n] = flips(P, O, sq);
        if (sq == hash_move) swap_first(mb, fb, n);  /* first, the others ordered only if it does not cut off */
        n++;
    }
    int keyed = mb[0] != hash_move;  /* 0 while the hash move, first, is the only move with a key */
    if (keyed) order_moves(s, P, O, mb, fb, kb, 0, n, depth);
    double best = -INFINITY;
    int best_move = NO_MOVE;
    double nw = null_window(s->eval_id);
    for (int i = 0; i < n; i++) {
        if (!keyed && i == 1) {
            order_moves(s, P, O, mb, fb, kb, 1, n, depth);
            keyed = 1;
        }
        if (keyed) select_move(mb, kb, fb, i, n);
        if (s->pool && i > 0 && depth >= SPLIT_DEPTH && n - i >= 2 &&
            pool_has_idle(s->pool)) {  /* the eldest brother is done: the young ones to the idle threads */
            best = split_node(s, P, O, alpha, beta, 1, depth, ply, mb, kb, fb, i, n, best, &best_move);
            if (aborted(s)) return 0.0;
            break;
        }
        int sq = mb[i];
        u64 f = fb[i];
        u64 cp = O ^ f, co = P ^ f ^ (ONE << sq);
        double v;
        if (i == 0) {
            v = -pvs(s, cp, co, depth - 1, -beta, -alpha, ply + 1);
        } else {
            v = -pvs(s, cp, co, depth - 1, -alpha - nw, -alpha, ply + 1);
            if (alpha < v && v < beta && !aborted(s)) v = -pvs(s, cp, co, depth - 1, -beta, -alpha, ply + 1);
        }
        if (aborted(s)) return 0.0;
        if (v > best) {
            best = v;
            best_move = sq;
            if (v > alpha) {
                copy_pv(s, ply, sq);
                if (v >= beta) break;
                alpha = v;
            }
        }
    }
    tt_store(&s->tt, P, O, depth, a0, b0, best, best_move);
    return best;
}

double kth_best(const double *values, const i64 *flags, i64 count, i64 k) {
    for (i64 i = 0; i < count; i++) {
        if (flags[i] == 1) continue;
        double v = values[i];
        i64 above = 0, equal = 0;
        for (i64 j = 0; j < count; j++) {
            if (flags[j] != 1) {
                if (values[j] > v) above++;
                else if (values[j] == v) equal++;
            }
        }
        if (above < k && k <= above + equal) return v;
    }
    return -INFINITY;
}

/* Search the root moves in the given order; returns how many were completed before a stop.  values[i] is
 * the value of root_moves[i]; flags[i] 0 = exact, 1 = upper bound (not among the best multipv), 2 = lower
 * bound (fail high); root_pv row i (pv_stride int8) its variation, root_pv_len[i] its length. */
static i64 mid_search_root(Search *s, u64 P, u64 O, int depth, double alpha, double beta, const i64 *root_moves,
                           i64 n, i64 multipv, double *values, i64 *flags, int8_t *root_pv, i64 pv_stride,
                           i64 *root_pv_len) {
    const int ROOT_PLY = 1;
    s->ctl[CTL_NODES]++;
    for (i64 i = 0; i < n; i++) {
        int sq = (int)root_moves[i];
        u64 cp, co;
        root_child(P, O, sq, &cp, &co);
        double a = alpha;
        if (i >= multipv) {
            double kth = kth_best(values, flags, i, multipv);
            if (kth > a) a = kth;
        }
        double v;
        if (i == 0 || a == -INFINITY) {
            v = -pvs(s, cp, co, depth - 1, -beta, -a, ROOT_PLY);
        } else {
            v = -pvs(s, cp, co, depth - 1, -a - null_window(s->eval_id), -a, ROOT_PLY);
            if (a < v && v < beta && !stopped(s)) v = -pvs(s, cp, co, depth - 1, -beta, -a, ROOT_PLY);
        }
        if (stopped(s)) return i;
        root_record(s, i, sq, v, a, beta, values, flags, root_pv, pv_stride, root_pv_len);
        if (v >= beta && multipv == 1) return i + 1;
    }
    return n;
}

/* Perft: leaves depth plies below (P, O) (passes are plies; a finished game is a leaf; bulk count at the
 * last ply). */
static i64 perft(u64 P, u64 O, int depth) {
    if (depth == 0) return 1;
    u64 moves = get_moves(P, O);
    if (moves == 0) {
        if (depth == 1 || get_moves(O, P) == 0) return 1;
        return perft(O, P, depth - 1);
    }
    if (depth == 1) return popcount(moves);
    i64 total = 0;
    if (depth == 2) {
        for (; moves; moves &= moves - 1) {
            int sq = lowest_index(moves);
            u64 f = flips(P, O, sq);
            u64 m2 = get_moves(O ^ f, P ^ f ^ (ONE << sq));
            total += m2 ? popcount(m2) : 1;
        }
        return total;
    }
    for (; moves; moves &= moves - 1) {
        int sq = lowest_index(moves);
        u64 f = flips(P, O, sq);
        total += perft(O ^ f, P ^ f ^ (ONE << sq), depth - 1);
    }
    return total;
}
