/* Young Brothers Wait: how the threads of a parallel search share the work (the searches are midgame.c's and
 * endgame.c's, the threads and the split points parallel.c's).
 *
 * A null-window node deep enough whose first move did not cut off may hand its remaining moves to idle
 * threads: it becomes a split point, and the owner and its helpers take the moves one at a time, each with its
 * own Search (the transposition table is shared).  A move that cuts off ends the split point: every thread
 * still under it (at any depth) sees the cut-off and drops what it was doing, without storing it.  The owner
 * waits for the helpers that started on it (helping them below its split point meanwhile; those that had not
 * started when the last move was handed out it takes the job back from) before going on, so a node's value is
 * always complete and the values are those of the one-thread search.  Helpers wait in the pool between jobs
 * and may join any split point that still has moves.
 */
#ifndef PLIES_YBWC_H
#define PLIES_YBWC_H

#include "search.h"

#ifndef SPLIT_EMPTIES
#define SPLIT_EMPTIES 13  /* the exact solver splits nodes with at least this many empties ... */
#endif
#ifndef SPLIT_DEPTH
#define SPLIT_DEPTH 4     /* ... the midgame search nodes at least this deep (smaller trees: not worth it) */
#endif

struct SplitPoint {
    SplitPoint *parent;      /* the split point its owner works under: its cut-off ends this one too */
    u64 P, O;
    double alpha, beta;      /* the window: a null window, or at a PV node alpha rises as moves improve it */
    int midgame;             /* 1: the midgame search to depth, 0: the exact solver with depth empties */
    int pv_node;             /* the midgame's full-window node: null-window tests, re-searched when they pass */
    int depth, ply;
    int n, next;             /* the moves still to search, and the next one to hand out (under lock) */
    int moves[64];
    u64 flips[64];
    double best;             /* the best value so far and its move (under lock) */
    int best_move;
    int cutoff;              /* a move reached beta: the others are dropped */
    int8_t pv[MAX_PLY + 1];  /* at a PV node: the best move's variation from the split point (under lock) */
    int pv_len;
    int workers;             /* helpers working here (the owner not counted) */
    uint8_t lock;
};

#define MAX_THREADS 256

struct Pool {
    struct Worker *w;
    int n;
    int idle;                /* how many helpers wait for a job (a hint read without the lock) */
    int quit;
    const i64 *stop;         /* the calling search's control words: its stop flag ends everything */
    SplitPoint *open[MAX_THREADS];  /* by thread (0: the caller): its newest split point, joinable (under lock) */
    uint8_t lock;
};

/* The search must drop what it is doing: stopped, or a split point above it was cut off. */
static inline int aborted(const Search *s) {
    if (stopped(s)) return 1;
    if (!s->pool) return 0;
    if (atomic_get(&s->pool->stop[CTL_STOP], MO_RELAXED)) return 1;
    for (const SplitPoint *sp = s->sp; sp; sp = sp->parent)
        if (atomic_get(&sp->cutoff, MO_RELAXED)) return 1;
    return 0;
}

static inline int pool_has_idle(const Pool *p) { return atomic_get(&p->idle, MO_RELAXED) > 0; }

/* Publish sp as the thread's joinable split point and give it to every idle helper (parallel.c); returns the
 * split point it published before (to restore with pool_close). */
static SplitPoint *pool_open(Pool *p, int tid, SplitPoint *sp);
/* The thread's split point is no longer joinable: prev (what pool_open returned) is again. */
static void pool_close(Pool *p, int tid, SplitPoint *prev);
/* Take sp back from the helpers it was given to that have not started on it (its moves are all handed out). */
static void pool_revoke(Pool *p, SplitPoint *sp);
/* Join a published split point that still has moves to hand out, one under `under` when it is not NULL (an
 * owner waiting for its helpers helps them only below its own split point); 0 when there is none. */
static int pool_join(Pool *p, Search *s, const SplitPoint *under);
/* Search the split point's moves with the others until none is left or one cuts off. */
static void split_work(Search *s, SplitPoint *sp);
/* The moves from slot t on of a node with window (alpha, beta), searched by this thread and the idle ones
 * together (best: the value of the moves before t); returns the node's value, its best move in *best_move.
 * The exact solver splits only null windows; the midgame also its PV nodes.  The node's variation goes to
 * s->pv[ply]: at a PV node the whole line of the thread that found the best move, else that move alone. */
static double split_node(Search *s, u64 P, u64 O, double alpha, double beta, int midgame, int depth, int ply,
                         int *mb, i64 *kb, u64 *fb, int t, int n, double best, int *best_move);

#endif
