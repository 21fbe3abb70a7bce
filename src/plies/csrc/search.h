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

typedef struct {
    i64 *ctl;
    TT tt;        /* this search's table */
    TT mtt;       /* the endgame: the midgame table (best moves of the presearch) */
    Weights W;
    int eval_id;
    int8_t pv[MAX_PLY + 1][MAX_PLY + 1];
    i64 pv_len[MAX_PLY + 2];
    int mbuf[MAX_PLY + 1][64];
    i64 kbuf[MAX_PLY + 1][64];
    u64 fbuf[MAX_PLY + 1][64];
    i64 lists[65 * LIST_SLOTS];
} Search;

static inline int stopped(const Search *s) { return ((volatile i64 *)s->ctl)[CTL_STOP] != 0; }

/* Square quality for move ordering: corners first, then A/B-squares and edges, C and X squares last. */
extern const i64 SQUARE_VALUE[64];

/* The k-th largest value among the first count entries whose flag is not 1 (-inf if fewer). */
double kth_best(const double *values, const i64 *flags, i64 count, i64 k);

#endif
