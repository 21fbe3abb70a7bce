/* Exact endgame solver (plies.engine.endgame): the final disc difference under perfect play (or just
 * win/draw/loss).
 *
 * Three layers: with many empties (search_deep), principal-variation search with the transposition table,
 * enhanced transposition cut-offs, stability cut-offs (and probcut in a selective search); the hash move (or the
 * midgame presearch's move where the solver has none yet, from 13 empties) is searched before the other moves
 * are ordered, since it mostly cuts off; they go by a shallow search with the learned evaluation (15+ empties),
 * fastest first, the mover's stable discs at the corners, corners and quadrant parity; from MID_EMPTIES down
 * (search_mid), fastest first without the shared table or the evaluation (from REPLY_ORDER_EMPTIES down by the
 * replies, square and parity alone), bounds and best moves kept in the thread's own small table (MidEntry, its move
 * again searched first, and from MID_ETC_EMPTIES up the children's bounds cut off as ETC does with the shared
 * one); from SHALLOW_EMPTIES down
 * (search_shallow), no move ordering: the legal moves in parity order (odd quadrants first), and the last four
 * empties written out (the last one only counts flips, the opponent's only when they can change the result).
 * Values are int64 from the side to move's view, empty squares going to the winner.
 *
 * A selective search (ctl[CTL_SELECT] > 0) also cuts a node off when a shallow search with the learned
 * evaluation predicts, with that confidence, that the exact value falls outside the window (Buro's probcut).
 * Its table entries are tagged (SELECTIVE_TAG + empties) so an exact search takes their moves, never their
 * bounds.
 *
 * With several threads, search_deep's null-window nodes of SPLIT_EMPTIES or more share their moves after the
 * first with idle threads (split_node, Young Brothers Wait: ybwc.h, parallel.c).
 */
#include "search.h"
#include "eval.h"
#include "ybwc.h"

#define NONE (-100)             /* below any score */
#define SHALLOW_EMPTIES 5       /* <= this: parity order, no move ordering */
#define MID_EMPTIES 10          /* <= this: search_mid (no shared table, no evaluation in the move order, no variation) */
#define MID_TT_EMPTIES 6        /* >= this: search_mid keeps bounds and best moves in the thread's own table */
#define MID_ETC_EMPTIES 9       /* >= this (and search_deep's nodes above MID_EMPTIES): ETC by the thread's table */
#define REPLY_ORDER_EMPTIES 7   /* <= this: search_mid orders by the replies, square and parity only */
#define PRESEARCH_MOVE_EMPTIES 13 /* >= this: the midgame presearch's best move where the solver has none */
#define ETC_EMPTIES 12          /* >= this: enhanced transposition cut-offs (by the shared table) */
#define SORT_SEARCH2_EMPTIES 21 /* >= this: ordering by a two-ply search of the evaluation */
#define SORT_SEARCH_EMPTIES 18  /* >= this: by a one-ply search */
#define SORT_EVAL_EMPTIES 15    /* >= this: by the static evaluation */
#define ORDER_LEARNED_SCALE 5.0 /* learned evaluation (discs) to default-evaluation units, for ordering */
#define SELECTIVE_TAG 64        /* table depth of a selective result: 64 + empties */
#define PROBCUT_EMPTIES 14      /* >= this: probcut in a selective search */
#define PC_SIGMA 5.0            /* spread (discs) of the exact score around the shallow search's value */
#define ORDER_CORNER_STABLE 20  /* bonus per stable disc of the mover at a corner (64 = one reply fewer) */
#define ORDER_PARITY 16         /* bonus for a move into an odd quadrant */
#define ORDER_CORNER_REPLY 64   /* penalty per corner the opponent could take next (on top of 64 a reply) */

#define A1_QUADRANT 0x000000000F0F0F0FULL  /* a1-d4; the others are its shifts by 4, 32 and 36 */
#define MOVES_UNKNOWN (~(u64)0)  /* search_shallow's and search_mid's moves when the caller has not generated them */

/* Stability cut-off is tried only when alpha is high enough for it to have a chance (by empties). */
static const i64 STABILITY_THRESHOLD[70] = {
    99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38,
    40, 42, 44, 46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64};

/* probcut's shallow search depth by empties: max(2, 2 * ((e - 10) // 4)) (floor division) */
static inline int pc_depth(int e) {
    int q = e - 10 >= 0 ? (e - 10) / 4 : -((13 - e) / 4);
    return q > 1 ? 2 * q : 2;
}

/* Score with one empty square sq (P to move), exact unless it is at most alpha: when P cannot play sq, the
 * opponent's flips only lower the score, so they are not counted if it already fails low (Edax's lazy last
 * move). */
static inline i64 solve_1(u64 P, int sq, u64 O, i64 alpha) {
    i64 p = popcount(P);
    i64 n = last_flip_count(P, sq);
    if (n) return 2 * (p + n + 1) - 64;
    i64 d = 2 * p - 63;
    d = d > 0 ? d + 1 : d - 1;  /* the score if nobody can play sq: an upper bound when only O can */
    if (d <= alpha) return d;
    n = last_flip_count(O, sq);
    if (n) return 2 * (p - n) - 64;
    return d;
}

/* The upper bound 64 - 2 x (the opponent's stable discs) when it is at most alpha (a cut-off), else NONE;
 * only tried when alpha is high enough for the count to be worth it. */
static inline i64 stability_cut(u64 P, u64 O, i64 alpha, int empties) {
    if (alpha >= STABILITY_THRESHOLD[empties] && 64 - 2 * popcount(O) <= alpha) {
        i64 bound = 64 - 2 * popcount(stable_discs_enough(O, P, (65 - alpha) / 2));
        if (bound <= alpha) return bound;
    }
    return NONE;
}

/* Exact-within-window score with two empties x1, x2. */
static i64 solve_2(Search *s, u64 P, u64 O, i64 alpha, i64 beta, int x1, int x2, int passed) {
    i64 best = NONE, n = 1;
    u64 f = flips(P, O, x1);
    if (f) {
        n++;
        best = -solve_1(O ^ f, x2, P ^ f ^ (ONE << x1), -beta);
        if (best >= beta) {
            s->ctl[CTL_NODES] += n;
            return best;
        }
    }
    f = flips(P, O, x2);
    if (f) {
        n++;
        i64 v = -solve_1(O ^ f, x1, P ^ f ^ (ONE << x2), -beta);
        if (v > best) best = v;
    }
    s->ctl[CTL_NODES] += n;
    if (best == NONE) {
        if (passed) return final_score(P, O);
        return -solve_2(s, O, P, -beta, -alpha, x1, x2, 1);
    }
    return best;
}

/* The squares of the quadrants holding an odd number of the empties E (parity ordering): each quadrant's
 * parity folded into one bit, then spread back over it. */
static inline u64 parity_mask(u64 E) {
    u64 x = E ^ (E >> 1);
    x ^= x >> 2;   /* at columns a and e: the parity of the row's four squares from there */
    x ^= x >> 8;
    x ^= x >> 16;  /* at a1, e1, a5, e5: the parity of each quadrant */
    return (x & 0x0000001100000011ULL) * A1_QUADRANT;  /* each odd quadrant's bit spread over it */
}

/* Quadrant of a square: row half x 2 + column half (0 a1-d4, 1 e1-h4, 2 a5-d8, 3 e5-h8). */
static inline int quadrant(int sq) { return (sq >> 5) * 2 + ((sq >> 2) & 1); }

static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }

/* -(value after P plays sq, the two other empties y < z left), NONE when sq is illegal. */
static inline i64 try_3(Search *s, u64 P, u64 O, i64 alpha, i64 beta, int sq, int y, int z) {
    u64 f = flips(P, O, sq);
    if (!f) return NONE;
    return -solve_2(s, O ^ f, P ^ f ^ (ONE << sq), -beta, -alpha, y, z, 0);
}

/* Exact-within-window score with three empties x1 < x2 < x3: a square alone in its quadrant first. */
static i64 solve_3(Search *s, u64 P, u64 O, i64 alpha, i64 beta, int x1, int x2, int x3, int passed) {
    s->ctl[CTL_NODES]++;
    int q1 = quadrant(x1), q2 = quadrant(x2), q3 = quadrant(x3);
    int a = x1, b = x2, c = x3;  /* play order: the odd-quadrant squares first, each group by index */
    if (q1 == q2 && q1 != q3) {
        a = x3; b = x1; c = x2;
    } else if (q1 == q3 && q1 != q2) {
        a = x2; b = x1; c = x3;
    }
    i64 best = try_3(s, P, O, alpha, beta, a, imin(b, c), imax(b, c));
    if (best >= beta) return best;
    if (best > alpha) alpha = best;
    i64 v = try_3(s, P, O, alpha, beta, b, imin(a, c), imax(a, c));
    if (v > best) {
        best = v;
        if (v >= beta) return v;
        if (v > alpha) alpha = v;
    }
    v = try_3(s, P, O, alpha, beta, c, imin(a, b), imax(a, b));
    if (v > best) best = v;
    if (best == NONE) {
        if (passed) return final_score(P, O);
        return -solve_3(s, O, P, -beta, -alpha, x1, x2, x3, 1);
    }
    return best;
}

/* -(value after P plays sq, one of the four empties x1 < x2 < x3 < x4), NONE when sq is illegal. */
static inline i64 try_4(Search *s, u64 P, u64 O, i64 alpha, i64 beta, int sq, int x1, int x2, int x3, int x4) {
    u64 f = flips(P, O, sq);
    if (!f) return NONE;
    int y1 = x1, y2 = x2, y3 = x3;  /* the three others, in index order */
    if (sq == x1) {
        y1 = x2; y2 = x3; y3 = x4;
    } else if (sq == x2) {
        y2 = x3; y3 = x4;
    } else if (sq == x3) {
        y3 = x4;
    }
    return -solve_3(s, O ^ f, P ^ f ^ (ONE << sq), -beta, -alpha, y1, y2, y3, 0);
}

/* Exact-within-window score with four empties x1 < x2 < x3 < x4: stability cut-off, then the squares in
 * search_shallow's parity order, found from the four quadrants once. */
static i64 solve_4(Search *s, u64 P, u64 O, i64 alpha, i64 beta, int x1, int x2, int x3, int x4, int passed) {
    s->ctl[CTL_NODES]++;
    i64 bound = stability_cut(P, O, alpha, 4);
    if (bound != NONE) return bound;
    int q1 = quadrant(x1), q2 = quadrant(x2), q3 = quadrant(x3), q4 = quadrant(x4);
    /* Odd quadrants first: with sizes 1+1+1+1 or 3+1 every square is in an odd one, with 2+2 or 4 none, so
     * index order; only with 2+1+1 (one equal pair among the six) do the two single squares go first. */
    int o[4] = {x1, x2, x3, x4};
    if ((q1 == q2) + (q1 == q3) + (q1 == q4) + (q2 == q3) + (q2 == q4) + (q3 == q4) == 1) {
        if (q1 == q2) {
            o[0] = x3; o[1] = x4; o[2] = x1; o[3] = x2;
        } else if (q1 == q3) {
            o[0] = x2; o[1] = x4; o[2] = x1; o[3] = x3;
        } else if (q1 == q4) {
            o[0] = x2; o[1] = x3; o[2] = x1; o[3] = x4;
        } else if (q2 == q3) {
            o[0] = x1; o[1] = x4; o[2] = x2; o[3] = x3;
        } else if (q2 == q4) {
            o[0] = x1; o[1] = x3; o[2] = x2; o[3] = x4;
        }  /* else q3 == q4: the single squares x1, x2 already come first */
    }
    i64 best = NONE;
    for (int k = 0; k < 4; k++) {
        i64 v = try_4(s, P, O, alpha, beta, o[k], x1, x2, x3, x4);
        if (v > best) {
            best = v;
            if (v >= beta) return v;
            if (v > alpha) alpha = v;
        }
    }
    if (best == NONE) {
        if (passed) return final_score(P, O);
        return -solve_4(s, O, P, -beta, -alpha, x1, x2, x3, x4, 1);
    }
    return best;
}

/* Alpha-beta over the legal moves in parity order (odd quadrants first), for few empties (2 or more);
 * four, three and two empties have their own code. */
static i64 search_shallow(Search *s, u64 P, u64 O, i64 alpha, i64 beta, int empties, int passed, u64 moves) {
    u64 E = ~(P | O);
    if (empties <= 4) {
        int x1 = lowest_index(E);
        E &= E - 1;
        int x2 = lowest_index(E);
        if (empties == 2) return solve_2(s, P, O, alpha, beta, x1, x2, passed);
        E &= E - 1;
        int x3 = lowest_index(E);
        if (empties == 3) return solve_3(s, P, O, alpha, beta, x1, x2, x3, passed);
        return solve_4(s, P, O, alpha, beta, x1, x2, x3, lowest_index(E & (E - 1)), passed);
    }
    s->ctl[CTL_NODES]++;
    i64 bound = stability_cut(P, O, alpha, empties);
    if (bound != NONE) return bound;
    u64 odd = parity_mask(E);
    u64 legal = moves != MOVES_UNKNOWN ? moves : get_moves(P, O);  /* cheaper than trying each empty */
    i64 best = NONE;
    for (int part = 0; part < 2; part++) {
        u64 m = part == 0 ? legal & odd : legal & ~odd;
        while (m) {
            int sq = lowest_index(m);
            m &= m - 1;
            u64 f = flips(P, O, sq);  /* never 0: sq is a legal move */
            i64 v;
            if (empties == 5) {
                u64 r = E ^ (ONE << sq);
                int x1 = lowest_index(r);
                r &= r - 1;
                int x2 = lowest_index(r);
                r &= r - 1;
                int x3 = lowest_index(r);
                v = -solve_4(s, O ^ f, P ^ f ^ (ONE << sq), -beta, -alpha, x1, x2, x3, lowest_index(r & (r - 1)),
                             0);
            } else {
                v = -search_shallow(s, O ^ f, P ^ f ^ (ONE << sq), -beta, -alpha, empties - 1, 0, MOVES_UNKNOWN);
            }
            if (v > best) {
                best = v;
                if (v >= beta) return v;
                if (v > alpha) alpha = v;
            }
        }
    }
    if (best == NONE) {
        if (passed) return final_score(P, O);
        return -search_shallow(s, O, P, -beta, -alpha, empties, 1, MOVES_UNKNOWN);
    }
    return best;
}

/* P's corners and P's edge squares next to its corners (stable: a cheap count for move ordering). */
static inline u64 corner_stable(u64 P) {
    u64 c = P & CORNERS;
    u64 s = ((c & 0x0100000000000001ULL) << 1) | ((c & 0x8000000000000080ULL) >> 1);
    s |= ((c & 0x81ULL) << 8) | ((c & 0x8100000000000000ULL) >> 8);
    return (s & P) | c;
}

/* Fewer opponent replies first (corners count double), then the square's quality: the part of the move order
 * that probcut's shallow searches use too. */
static inline i64 reply_key(u64 reply, int sq) {
    return -64 * popcount(reply) - ORDER_CORNER_REPLY * popcount(reply & CORNERS) + SQUARE_VALUE[sq];
}

/* Fastest first: reply_key, then the mover's discs made stable at the corners (as Edax) and parity.  The
 * replies go to *replies (the child's moves). */
static inline i64 order_key_r(u64 P, u64 O, int sq, u64 f, u64 odd, u64 *replies) {
    u64 np_ = P ^ f ^ (ONE << sq), no = O ^ f;
    u64 reply = get_moves(no, np_);
    *replies = reply;
    i64 key = reply_key(reply, sq);
    key += ORDER_CORNER_STABLE * popcount(corner_stable(np_));
    if (odd & (ONE << sq)) key += ORDER_PARITY;
    return key;
}

static inline i64 order_key(u64 P, u64 O, int sq, u64 f, u64 odd) {
    u64 r;
    return order_key_r(P, O, sq, f, odd, &r);
}

/* Evaluation that orders moves, in default-evaluation units (about 10 a disc): the learned evaluation when
 * its weights are given, else the hand-made default. */
static inline i64 order_eval(u64 P, u64 O, const Weights *W) {
    if (has_weights(W)) return (i64)(ORDER_LEARNED_SCALE * evaluate_patterns(P, O, W));
    return evaluate_default(P, O);
}

/* A one-ply search with the ordering evaluation (move ordering with many empties). */
static i64 eval_1ply(u64 P, u64 O, const Weights *W) {
    u64 moves = get_moves(P, O);
    if (moves == 0) return -order_eval(O, P, W);
    i64 best = -((i64)1 << 40);
    for (; moves; moves &= moves - 1) {
        int sq = lowest_index(moves);
        u64 f = flips(P, O, sq);
        i64 v = -order_eval(O ^ f, P ^ f ^ (ONE << sq), W);
        if (v > best) best = v;
    }
    return best;
}

/* A two-ply search with the ordering evaluation, from the opponent's side (ordering near the root). */
static i64 eval_1ply_min(u64 P, u64 O, const Weights *W) {
    u64 moves = get_moves(P, O);
    if (moves == 0) return eval_1ply(O, P, W);
    i64 worst = (i64)1 << 40;
    for (; moves; moves &= moves - 1) {
        int sq = lowest_index(moves);
        u64 f = flips(P, O, sq);
        i64 v = eval_1ply(O ^ f, P ^ f ^ (ONE << sq), W);
        if (v < worst) worst = v;
    }
    return worst;
}

/* Fail-soft alpha-beta to depth with the learned evaluation (discs), fastest first: probcut's estimate.  A
 * stopped search's estimate is meaningless, but its caller drops the node's result then (search_deep checks
 * after each child). */
static double shallow_value(Search *s, u64 P, u64 O, int depth, double alpha, double beta) {
    s->ctl[CTL_NODES]++;
    if (depth == 0) return evaluate_patterns(P, O, &s->W);
    if (depth >= 3 && aborted(s)) return 0.0;
    u64 moves = get_moves(P, O);
    if (moves == 0) {
        if (get_moves(O, P) == 0) return (double)final_score(P, O);
        return -shallow_value(s, O, P, depth, -beta, -alpha);
    }
    double best = -1e9;
    if (depth == 1) {  /* the children are leaves: in square order, each flip computed only when it is tried */
        for (; moves; moves &= moves - 1) {
            int sq = lowest_index(moves);
            u64 f = flips(P, O, sq);
            double v = -shallow_value(s, O ^ f, P ^ f ^ (ONE << sq), 0, -beta, -alpha);
            if (v > best) {
                best = v;
                if (v >= beta) return v;
                if (v > alpha) alpha = v;
            }
        }
        return best;
    }
    int mb[32];
    i64 kb[32];
    u64 fb[32];
    int n = 0;
    for (; moves; moves &= moves - 1) {  /* fastest first (from 2 plies above the horizon: halves the search) */
        int sq = lowest_index(moves);
        u64 f = flips(P, O, sq);
        mb[n] = sq;
        fb[n] = f;
        kb[n] = reply_key(get_moves(O ^ f, P ^ f ^ (ONE << sq)), sq);
        n++;
    }
    for (int i = 0; i < n; i++) {
        select_move(mb, kb, fb, i, n);
        int sq = mb[i];
        u64 f = fb[i];
        double v = -shallow_value(s, O ^ f, P ^ f ^ (ONE << sq), depth - 1, -beta, -alpha);
        if (v > best) {
            best = v;
            if (v >= beta) return v;
            if (v > alpha) alpha = v;
        }
    }
    return best;
}

/* The bound (beta or alpha) that a shallow search puts the exact value beyond by ctl[CTL_SELECT] / 100
 * standard deviations, or NONE when it cannot say.  The prediction of the exact score from the shallow value
 * (slope, offset, sigma by empties) is the probcut statistics' exact row when the search has them
 * (plies.engine.probcut, fitted against this very shallow search), else the value itself with PC_SIGMA. */
static i64 probcut(Search *s, u64 P, u64 O, i64 alpha, i64 beta, int empties) {
    double slope = 1.0, offset = 0.0, sigma = PC_SIGMA;
    if (s->mpc) {
        const double *m = s->mpc + ((i64)empties * MPC_DEPTHS + MPC_EXACT) * MPC_COLUMNS;
        if (m[1] > 0.0) {
            slope = m[1];
            offset = m[2];
            sigma = m[3];
        }
    }
    double margin = (double)s->ctl[CTL_SELECT] * 0.01 * sigma;
    int d = pc_depth(empties);
    if (beta < 64) {
        double b = ((double)beta + margin - offset) / slope;
        if (shallow_value(s, P, O, d, b - 0.01, b) >= b) return beta;
    }
    if (alpha > -64) {
        double a = ((double)alpha - margin - offset) / slope;
        if (shallow_value(s, P, O, d, a, a + 0.01) <= a) return alpha;
    }
    return NONE;
}

/* Bounds lo <= value <= up narrow (alpha, beta); 1 with the node's value in *value when they decide it. */
static inline int bounds_cut(i64 lo, i64 up, i64 *alpha, i64 *beta, i64 *value) {
    if (lo >= *beta) {
        *value = lo;
        return 1;
    }
    if (up <= *alpha) {
        *value = up;
        return 1;
    }
    if (lo > *alpha) *alpha = lo;
    if (up < *beta) *beta = up;
    if (*alpha >= *beta) {
        *value = *alpha;
        return 1;
    }
    return 0;
}

/* The same for a shared-table entry (infinite bounds stored as +-inf). */
static inline int table_cut(const Entry *e, i64 *alpha, i64 *beta, i64 *value) {
    return bounds_cut(e->lower > -1000.0 ? (i64)e->lower : NONE, e->upper < 1000.0 ? (i64)e->upper : -NONE, alpha,
                      beta, value);
}


/* The slot of (P, O) in the thread's own table of search_mid's results. */
static inline MidEntry *mid_entry(Search *s, u64 P, u64 O) { return &s->mt[tt_hash(P, O) >> (64 - MT_BITS)]; }

/* Record search_mid's value of (P, O) from window (alpha, beta) in its slot (replacing another position). */
static inline void mid_store(MidEntry *me, u64 P, u64 O, i64 alpha, i64 beta, i64 value, int move) {
    if (me->P != P || me->O != O) {
        me->P = P;
        me->O = O;
        me->lower = NONE;
        me->upper = -NONE;
    }
    if (value <= alpha) {
        if (value < me->upper) me->upper = (int8_t)value;
    } else if (value >= beta) {
        if (value > me->lower) me->lower = (int8_t)value;
    } else {
        me->lower = me->upper = (int8_t)value;
    }
    me->move = (int8_t)move;
}

static i64 search_mid(Search *s, u64 P, u64 O, i64 alpha, i64 beta, int empties, int passed, u64 moves);

/* Enhanced transposition cut-off by the thread's own table (cheap: the children's slots were prefetched): the
 * index among moves sqs[0..n) (flips fl) of one whose child's upper bound already puts (P, O) at beta or above,
 * with that value in *value; -1 when there is none. */
static inline int mid_etc(Search *s, u64 P, u64 O, const int *sqs, const u64 *fl, int n, i64 beta, i64 *value) {
    for (int i = 0; i < n; i++) {
        u64 cp = O ^ fl[i], co = P ^ fl[i] ^ (ONE << sqs[i]);
        const MidEntry *c = mid_entry(s, cp, co);
        if (c->P == cp && c->O == co && -(i64)c->upper >= beta) {
            *value = -(i64)c->upper;
            return i;
        }
    }
    return -1;
}

/* A child of search_mid: the parity search from SHALLOW_EMPTIES down. */
static inline i64 mid_child(Search *s, u64 P, u64 O, i64 alpha, i64 beta, int empties, u64 moves) {
    if (empties <= SHALLOW_EMPTIES) return search_shallow(s, P, O, alpha, beta, empties, 0, moves);
    return search_mid(s, P, O, alpha, beta, empties, 0, moves);
}

/* Alpha-beta with fastest-first ordering, stability cut-off and (from MID_TT_EMPTIES) the table's bounds and best
 * move, for a medium number of empties; moves: the legal moves when the caller knows them (its move ordering
 * counted them).  Its values are exact also inside a selective search (probcut starts higher up), so they are
 * stored with depth = empties. */
static i64 search_mid(Search *s, u64 P, u64 O, i64 alpha, i64 beta, int empties, int passed, u64 moves) {
    s->ctl[CTL_NODES]++;
    i64 bound;
    int hash_move = NO_MOVE;
    i64 a0 = alpha, b0 = beta;
    MidEntry *me = empties >= MID_TT_EMPTIES ? mid_entry(s, P, O) : NULL;
    if (me && me->P == P && me->O == O) {
        hash_move = me->move;
        if (bounds_cut(me->lower, me->upper, &alpha, &beta, &bound)) return bound;
    }
    bound = stability_cut(P, O, alpha, empties);
    if (bound != NONE) return bound;
    if (moves == MOVES_UNKNOWN) moves = get_moves(P, O);
    if (moves == 0) {
        if (passed || get_moves(O, P) == 0) return final_score(P, O);
        return -search_mid(s, O, P, -beta, -alpha, empties, 1, MOVES_UNKNOWN);
    }
    i64 best = NONE;
    int best_move = NO_MOVE;
    if (hash_move != NO_MOVE && (moves >> hash_move & 1)) {  /* before the others are ordered: it mostly cuts off */
        u64 f = flips(P, O, hash_move);
        best = -mid_child(s, O ^ f, P ^ f ^ (ONE << hash_move), -beta, -alpha, empties - 1, MOVES_UNKNOWN);
        best_move = hash_move;
        if (best >= beta) {
            mid_store(me, P, O, a0, b0, best, best_move);
            return best;
        }
        if (best > alpha) alpha = best;
        moves ^= ONE << hash_move;
    }
    u64 odd = parity_mask(~(P | O));
    int sqs[32];
    i64 keys[32];
    u64 fl[32], rp[32];
    int n = 0;
    for (; moves; moves &= moves - 1) {
        int sq = lowest_index(moves);
        u64 f = flips(P, O, sq);
        sqs[n] = sq;
        if (empties > MID_TT_EMPTIES)  /* the child's slot on its way to the cache while the moves are ordered */
            prefetch(mid_entry(s, O ^ f, P ^ f ^ (ONE << sq)));
        if (empties <= REPLY_ORDER_EMPTIES) {  /* few empties: no corner terms, cheaper than the moves they save */
            rp[n] = get_moves(O ^ f, P ^ f ^ (ONE << sq));
            keys[n] = -64 * popcount(rp[n]) + SQUARE_VALUE[sq] + ((odd >> sq & 1) ? ORDER_PARITY : 0);
        } else {
            keys[n] = order_key_r(P, O, sq, f, odd, &rp[n]);
        }
        fl[n] = f;
        n++;
    }
    if (empties >= MID_ETC_EMPTIES) {
        int k = mid_etc(s, P, O, sqs, fl, n, beta, &bound);
        if (k >= 0) {
            mid_store(me, P, O, a0, b0, bound, sqs[k]);
            return bound;
        }
    }
    for (int i = 0; i < n; i++) {
        int b = i;  /* selection: the best remaining key; the move at i takes its slot */
        i64 kb = keys[i];
        for (int j = i + 1; j < n; j++)
            if (keys[j] > kb) {
                b = j;
                kb = keys[j];
            }
        int sq = sqs[b];
        u64 f = fl[b], r = rp[b];
        if (b != i) {
            sqs[b] = sqs[i];
            keys[b] = keys[i];
            fl[b] = fl[i];
            rp[b] = rp[i];
        }
        i64 v = -mid_child(s, O ^ f, P ^ f ^ (ONE << sq), -beta, -alpha, empties - 1, r);
        if (v > best) {
            best = v;
            best_move = sq;
            if (v >= beta) break;
            if (v > alpha) alpha = v;
        }
    }
    if (me) mid_store(me, P, O, a0, b0, best, best_move);
    return best;
}

static i64 search_deep(Search *s, u64 P, u64 O, i64 alpha, i64 beta, int empties, int passed, int ply);

static inline i64 end_child(Search *s, u64 P, u64 O, i64 alpha, i64 beta, int empties, int ply) {
    if (empties <= MID_EMPTIES) {
        if (empties <= SHALLOW_EMPTIES) return search_shallow(s, P, O, alpha, beta, empties, 0, MOVES_UNKNOWN);
        return search_mid(s, P, O, alpha, beta, empties, 0, MOVES_UNKNOWN);
    }
    return search_deep(s, P, O, alpha, beta, empties, 0, ply);
}

/* Keys (larger first) of the moves mb[from..n) of a search_deep node: fastest first, then the ordering
 * evaluation's view of the child, searched one or two plies from 18 and 21 empties. */
static void deep_order(u64 P, u64 O, int empties, u64 odd, const Weights *W, const int *mb, const u64 *fb, i64 *kb,
                       int from, int n) {
    for (int j = from; j < n; j++) {
        int sq = mb[j];
        u64 f = fb[j], cp = O ^ f, co = P ^ f ^ (ONE << sq);
        i64 k = order_key(P, O, sq, f, odd);
        if (empties >= SORT_SEARCH2_EMPTIES) k += 8 * eval_1ply_min(cp, co, W);
        else if (empties >= SORT_SEARCH_EMPTIES) k -= 8 * eval_1ply(cp, co, W);
        else if (empties >= SORT_EVAL_EMPTIES) k -= 8 * order_eval(cp, co, W);
        kb[j] = k;
    }
}

/* PVS with transposition table, ETC and stability cut-offs (many empties); probcut when selective. */
static i64 search_deep(Search *s, u64 P, u64 O, i64 alpha, i64 beta, int empties, int passed, int ply) {
    s->ctl[CTL_NODES]++;
    s->pv_len[ply] = 0;
    if (aborted(s)) return 0;
    i64 bound = stability_cut(P, O, alpha, empties);
    if (bound != NONE) return bound;
    u64 moves = get_moves(P, O);
    if (moves == 0) {
        if (passed || get_moves(O, P) == 0) return final_score(P, O);
        i64 v = -search_deep(s, O, P, -beta, -alpha, empties, 1, ply + 1);
        i64 n = s->pv_len[ply + 1];
        s->pv[ply][0] = PASS_MOVE;
        for (i64 k = 0; k < n; k++) s->pv[ply][k + 1] = s->pv[ply + 1][k];
        s->pv_len[ply] = n + 1;
        return v;
    }
    int selective = s->ctl[CTL_SELECT] != 0;
    int tag = selective ? empties + SELECTIVE_TAG : empties;  /* the table depth of this search's results */
    int hash_move = NO_MOVE;
    Entry e;
    if (!tt_probe(&s->tt, P, O, &e)) {  /* not solved yet: the midgame presearch's best move, if it saw the node */
        Entry m;
        if (empties >= PRESEARCH_MOVE_EMPTIES && tt_probe(&s->mtt, P, O, &m)) hash_move = m.move;
    } else {
        hash_move = e.move;
        /* exact bounds serve every search, selective ones only */
        if ((e.depth == empties || e.depth == tag) && table_cut(&e, &alpha, &beta, &bound)) return bound;
    }
    if (selective && empties >= PROBCUT_EMPTIES && has_weights(&s->W)) {
        i64 v = probcut(s, P, O, alpha, beta, empties);
        if (v != NONE) return v;
    }
    i64 a0 = alpha, b0 = beta;
    u64 odd = parity_mask(~(P | O));
    int *mb = s->mbuf[ply];
    i64 *kb = s->kbuf[ply];
    u64 *fb = s->fbuf[ply];
    const Weights *W = &s->W;
    int n = 0;
    for (; moves; moves &= moves - 1) {
        int sq = lowest_index(moves);
        u64 f = flips(P, O, sq);
        u64 cp = O ^ f, co = P ^ f ^ (ONE << sq);
        if (empties >= ETC_EMPTIES) {
            Entry c;
            if (tt_probe(&s->tt, cp, co, &c) && (c.depth == empties - 1 || c.depth == tag - 1) && c.upper < 1000.0) {
                i64 v = -(i64)c.upper;
                if (v >= beta) {
                    tt_store(&s->tt, P, O, tag, (double)a0, (double)b0, (double)v, sq);
                    return v;
                }
            }
        }
        if (empties - 1 <= MID_EMPTIES) prefetch(mid_entry(s, cp, co));  /* as in search_mid */
        mb[n] = sq;
        fb[n] = f;
        if (sq == hash_move) swap_first(mb, fb, n);  /* first, the others ordered only if it does not cut off */
        n++;
    }
    if (empties - 1 <= MID_EMPTIES) {  /* the children are search_mid's: ETC by the thread's table */
        int k = mid_etc(s, P, O, mb, fb, n, beta, &bound);
        if (k >= 0) {
            tt_store(&s->tt, P, O, tag, (double)a0, (double)b0, (double)bound, mb[k]);
            s->pv[ply][0] = (int8_t)mb[k];
            s->pv_len[ply] = 1;
            return bound;
        }
    }
    int keyed = mb[0] != hash_move;  /* 0 while the hash move, first, is the only move with a key */
    if (keyed) deep_order(P, O, empties, odd, W, mb, fb, kb, 0, n);
    i64 best = NONE;
    int best_move = NO_MOVE;
    for (int i = 0; i < n; i++) {
        if (!keyed && i == 1) {
            deep_order(P, O, empties, odd, W, mb, fb, kb, 1, n);
            keyed = 1;
        }
        if (keyed) select_move(mb, kb, fb, i, n);
        if (s->pool && i > 0 && beta == alpha + 1 && empties >= SPLIT_EMPTIES && n - i >= 2 &&
            pool_has_idle(s->pool)) {  /* the eldest brother is done: the young ones to the idle threads */
            best = (i64)split_node(s, P, O, (double)alpha, (double)beta, 0, empties, ply, mb, kb, fb, i, n,
                                   (double)best, &best_move);
            if (aborted(s)) return 0;
            break;
        }
        int sq = mb[i];
        u64 f = fb[i];
        u64 cp = O ^ f, co = P ^ f ^ (ONE << sq);
        i64 v;
        if (i == 0) {
            v = -end_child(s, cp, co, -beta, -alpha, empties - 1, ply + 1);
        } else {
            v = -end_child(s, cp, co, -alpha - 1, -alpha, empties - 1, ply + 1);
            if (alpha < v && v < beta && !aborted(s)) v = -end_child(s, cp, co, -beta, -alpha, empties - 1, ply + 1);
        }
        if (aborted(s)) return 0;
        if (v > best) {
            best = v;
            best_move = sq;
            if (v > alpha) {
                /* the variation follows this move even when it cuts off: with a window narrowed by the table a
                 * cut-off can be the node's exact value, and an earlier move's variation would be wrong */
                i64 m = empties - 1 > MID_EMPTIES ? s->pv_len[ply + 1] : 0;
                s->pv[ply][0] = (int8_t)sq;
                for (i64 k = 0; k < m; k++) s->pv[ply][k + 1] = s->pv[ply + 1][k];
                s->pv_len[ply] = m + 1;
                if (v >= beta) break;
                alpha = v;
            }
        }
    }
    tt_store(&s->tt, P, O, tag, (double)a0, (double)b0, (double)best, best_move);
    return best;
}

/* Score of (P, O) within (alpha, beta), fail-soft, by the layer that fits its number of empties. */
static i64 end_solve(Search *s, u64 P, u64 O, i64 alpha, i64 beta) {
    int empties = 64 - (int)popcount(P | O);
    if (empties <= SHALLOW_EMPTIES) {
        if (empties == 0) return final_score(P, O);
        if (empties == 1) {
            s->ctl[CTL_NODES]++;
            return solve_1(P, lowest_index(~(P | O)), O, alpha);
        }
        return search_shallow(s, P, O, alpha, beta, empties, 0, MOVES_UNKNOWN);
    }
    if (empties <= MID_EMPTIES) return search_mid(s, P, O, alpha, beta, empties, 0, MOVES_UNKNOWN);
    return search_deep(s, P, O, alpha, beta, empties, 0, 1);
}

/* Exact values of the root moves in order, as mid_search_root (flags 0 exact, 1 upper, 2 lower); returns how
 * many were completed before a stop. */
static i64 end_solve_root(Search *s, u64 P, u64 O, i64 alpha, i64 beta, const i64 *root_moves, i64 n,
                          i64 multipv, double *values, i64 *flags, int8_t *root_pv, i64 pv_stride,
                          i64 *root_pv_len) {
    s->ctl[CTL_NODES]++;
    for (i64 i = 0; i < n; i++) {
        int sq = (int)root_moves[i];
        u64 cp, co;
        root_child(P, O, sq, &cp, &co);
        i64 a = alpha;
        if (i >= multipv) {  /* later moves only need to beat the multipv-th best value so far */
            double kth = kth_best(values, flags, i, multipv);
            if (kth > (double)a) a = (i64)kth;
        }
        s->pv_len[1] = 0;
        i64 v;
        if (i == 0 || a <= NONE) {
            v = -end_solve(s, cp, co, -beta, -a);
        } else {
            v = -end_solve(s, cp, co, -a - 1, -a);
            if (a < v && v < beta && !stopped(s)) v = -end_solve(s, cp, co, -beta, -a);
        }
        if (stopped(s)) return i;
        root_record(s, i, sq, (double)v, (double)a, (double)beta, values, flags, root_pv, pv_stride, root_pv_len);
        if (v >= beta && multipv == 1) return i + 1;
    }
    return n;
}
