/* What a search (midgame or endgame) carries: the control words shared with Python, the tables, the weights
 * and the scratch arrays (no allocation inside a search). */
#ifndef PLIES_SEARCH_H
#define PLIES_SEARCH_H

#include "bitboard.h"
#include "hashtable.h"
#include "patterns.h"

#define MAX_PLY 128
#define PASS_MOVE (-1)
#define LIST_SLOTS 48  /* int64 slots of one move list of the solver's search_mid: 16 (square, key, flips) */

/* ctl (an int64 array of Python's Engine): node count, stop flag (set from any thread), the endgame's probcut
 * confidence (t x 100; 0 = exact), spare */
enum { CTL_NODES = 0, CTL_STOP = 1, CTL_SELECT = 2 };

/* Positions some thread of a parallel HexThello search is searching now, so that the others search a node's
 * other moves first and come back to these later (the simplified ABDADA of Kerrigan): one 64-bit key per slot,
 * written and read without locks (a lost or stale key only changes the order of the moves, never a value). */
#define BUSY_SLOTS (1 << 14)
typedef struct {
    u64 key[BUSY_SLOTS];
} Busy;

static inline int busy_check(Busy *b, u64 k) {
    return atomic_get(&b->key[k & (BUSY_SLOTS - 1)], MO_RELAXED) == k;
}
static inline void busy_enter(Busy *b, u64 k) { atomic_set(&b->key[k & (BUSY_SLOTS - 1)], k, MO_RELAXED); }
static inline void busy_leave(Busy *b, u64 k) {
    u64 expected = k;
    atomic_swap_if(&b->key[k & (BUSY_SLOTS - 1)], &expected, 0, MO_RELAXED, MO_RELAXED);
}

/* In a parallel search's first pass over a node's moves (never its first move): 1 when another thread is
 * searching the child of Busy key k (never 0), to be tried after the others; else 0, with the child marked as
 * searched by this thread and *key set to what busy_leave releases afterwards. */
static inline int defer_key(Busy *busy, u64 k, u64 *key) {
    if (busy_check(busy, k)) return 1;
    busy_enter(busy, k);
    *key = k;
    return 0;
}

/* Lazy selection sort of a node's move list: the move with the highest key among slots i..n-1 to slot i. */
static inline void select_move(int *mb, i64 *kb, u64 *fb, int i, int n) {
    int b = i;
    for (int j = i + 1; j < n; j++)
        if (kb[j] > kb[b]) b = j;
    if (b != i) {
        int tm = mb[i]; mb[i] = mb[b]; mb[b] = tm;
        i64 tk = kb[i]; kb[i] = kb[b]; kb[b] = tk;
        u64 tf = fb[i]; fb[i] = fb[b]; fb[b] = tf;
    }
}

/* Swaps move i with the first (the hash move to the front, to be tried before the others are ordered). */
static inline void swap_first(int *mb, u64 *fb, int i) {
    int tm = mb[0]; mb[0] = mb[i]; mb[i] = tm;
    u64 tf = fb[0]; fb[0] = fb[i]; fb[i] = tf;
}

/* An entry of a solver thread's own table for the nodes of its search_mid (few empties): bounds of the exact
 * value (a position's exact value never changes, so no depth or date) and the best move; the key (0, 0), no
 * position, marks an empty slot.  One slot per hash, the newest position kept: small enough for the cache. */
typedef struct {
    u64 P, O;
    int8_t lower, upper, move, pad;
} MidEntry;
#define MT_BITS 15  /* 2**15 slots, 768 KB a thread (under half of a 2 MB second-level cache) */

typedef struct Pool Pool;
typedef struct SplitPoint SplitPoint;

typedef struct {
    i64 *ctl;
    Pool *pool;   /* the threads of a parallel search (ybwc.h); NULL with one thread */
    SplitPoint *sp;  /* the split point this thread works under (innermost), NULL at the root */
    int tid;         /* this thread's number in the pool (0: the caller) */
    TT tt;        /* this search's table */
    TT mtt;       /* the endgame: the midgame table (best moves of the presearch) */
    Weights W;
    int eval_id;
    const double *mpc;  /* the midgame's probcut statistics (MPC_CELLS), NULL: no selectivity (see midgame.c) */
    double mpc_t;       /* its confidence: t standard deviations */
    int8_t pv[MAX_PLY + 1][MAX_PLY + 1];
    i64 pv_len[MAX_PLY + 2];
    int mbuf[MAX_PLY + 1][64];
    i64 kbuf[MAX_PLY + 1][64];
    u64 fbuf[MAX_PLY + 1][64];
    i64 lists[65 * LIST_SLOTS];
    MidEntry mt[1 << MT_BITS];
} Search;

static inline int stopped(const Search *s) { return ((volatile i64 *)s->ctl)[CTL_STOP] != 0; }

/* Multi-ProbCut statistics of the midgame search (plies.engine.probcut): for each number of empties e (0-60)
 * and depth d (0-MPC_DEPTHS-1), MPC_COLUMNS doubles at ((e * MPC_DEPTHS) + d) * MPC_COLUMNS: the shallow depth
 * d' (0: no cut at this depth), the slope a, offset b and standard deviation sigma of the depth-d value
 * predicted from the depth-d' one (v_d ~ a v_d' + b), and the same three for the static evaluation (depth 0),
 * which decides whether a shallow search is worth trying. */
#define MPC_DEPTHS 64
#define MPC_COLUMNS 8
#define MPC_CELLS (61 * MPC_DEPTHS * MPC_COLUMNS)
#define MPC_EXACT (MPC_DEPTHS - 1)  /* the row that predicts the exact final score (the solver's probcut) */

/* Square quality for move ordering: corners first, then A/B-squares and edges, C and X squares last. */
extern const i64 SQUARE_VALUE[64];

/* The k-th largest value among the first count entries whose flag is not 1 (-inf if fewer). */
double kth_best(const double *values, const i64 *flags, i64 count, i64 k);

/* The position after root move sq (PASS_MOVE: the same discs, the other side to move), in *cp, *co. */
static inline void root_child(u64 P, u64 O, int sq, u64 *cp, u64 *co) {
    if (sq == PASS_MOVE) {
        *cp = O;
        *co = P;
        return;
    }
    u64 f = flips(P, O, sq);
    *cp = O ^ f;
    *co = P ^ f ^ (ONE << sq);
}

/* Root move i searched from window (a, beta) to value v: its value, its flag (0 exact, 1 upper bound, 2 lower
 * bound) and its variation (sq, then the search's variation from ply 1) in row i of root_pv. */
static inline void root_record(const Search *s, i64 i, int sq, double v, double a, double beta, double *values,
                               i64 *flags, int8_t *root_pv, i64 pv_stride, i64 *root_pv_len) {
    values[i] = v;
    flags[i] = v <= a ? 1 : (v >= beta ? 2 : 0);
    int8_t *row = root_pv + i * pv_stride;
    row[0] = (int8_t)sq;
    i64 k = s->pv_len[1];
    if (k > pv_stride - 1) k = pv_stride - 1;
    for (i64 j = 0; j < k; j++) row[j + 1] = s->pv[1][j];
    root_pv_len[i] = k + 1;
}

#endif
