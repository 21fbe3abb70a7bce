/* Parallel search: the threads of one search share its transposition table and the table of positions being
 * searched (search.h's Busy).  The calling thread runs the root as with one thread and its result is the
 * answer; each helper thread runs the same root search, starting from another root move, and moves on to a
 * node's other moves when another thread is already searching one (the simplified ABDADA), so the threads
 * spread over the tree and leave each other exact results in the table.  Values are those of the one-thread
 * search (the table holds only sound bounds); the node count is the sum of all threads'.  The HexThello engine
 * runs the same scheme (end of the file). */
#include <pthread.h>
#include <stdlib.h>

#include "search.h"

#define MAX_THREADS 256

typedef enum { ROOT_MIDGAME, ROOT_ENDGAME } RootKind;

typedef struct {
    RootKind kind;
    u64 P, O;
    int depth;             /* midgame */
    double alpha, beta;    /* the window (the endgame's as integers) */
    const i64 *moves;
    i64 n, multipv, stride;
} RootJob;

typedef struct {
    Search *s;
    const RootJob *job;
    i64 ctl[4];
    i64 *moves;            /* the root moves, rotated */
    double *values;
    i64 *flags, *pv_len;
    int8_t *pv;
    pthread_t thread;
    int started;
} Helper;

static i64 run_root(Search *s, const RootJob *j, const i64 *moves, double *values, i64 *flags, int8_t *pv,
                    i64 *pv_len) {
    if (j->kind == ROOT_MIDGAME)
        return mid_search_root(s, j->P, j->O, j->depth, j->alpha, j->beta, moves, j->n, j->multipv, values, flags,
                               pv, j->stride, pv_len);
    return end_solve_root(s, j->P, j->O, (i64)j->alpha, (i64)j->beta, moves, j->n, j->multipv, values, flags, pv,
                          j->stride, pv_len);
}

static void *helper_main(void *arg) {
    Helper *h = (Helper *)arg;
    run_root(h->s, h->job, h->moves, h->values, h->flags, h->pv, h->pv_len);
    return NULL;
}

static void helper_free(Helper *h) {
    PyMem_RawFree(h->s);
    free(h->moves);
    free(h->values);
    free(h->flags);
    free(h->pv_len);
    free(h->pv);
}

/* Run the root job on `threads` threads (the caller's included); the caller's Search holds the answer.
 * Without the GIL.  Falls back to one thread when memory or a thread cannot be had. */
static i64 parallel_root(Search *s, int threads, const RootJob *job, double *values, i64 *flags, int8_t *pv,
                         i64 *pv_len) {
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    if (threads <= 1 || job->n < 1) return run_root(s, job, job->moves, values, flags, pv, pv_len);
    Busy *busy = (Busy *)calloc(1, sizeof(Busy));
    Helper *helpers = (Helper *)calloc((size_t)threads - 1, sizeof(Helper));
    if (!busy || !helpers) {
        free(busy);
        free(helpers);
        return run_root(s, job, job->moves, values, flags, pv, pv_len);
    }
    TT tt0 = s->tt;
    s->tt.shared = 1;
    s->busy = busy;
    int started = 0;
    for (int k = 0; k < threads - 1; k++) {
        Helper *h = &helpers[k];
        h->job = job;
        h->s = (Search *)PyMem_RawMalloc(sizeof(Search));
        h->moves = (i64 *)malloc((size_t)job->n * sizeof(i64));
        h->values = (double *)calloc((size_t)job->n, sizeof(double));
        h->flags = (i64 *)calloc((size_t)job->n, sizeof(i64));
        h->pv_len = (i64 *)calloc((size_t)job->n, sizeof(i64));
        h->pv = (int8_t *)calloc((size_t)(job->n * job->stride), 1);
        if (!h->s || !h->moves || !h->values || !h->flags || !h->pv_len || !h->pv) break;
        memcpy(h->s, s, offsetof(Search, pv));  /* the same tables, weights and settings ... */
        h->ctl[CTL_SELECT] = s->ctl[CTL_SELECT];
        h->s->ctl = h->ctl;                     /* ... its own node count and stop flag */
        for (i64 i = 0; i < job->n; i++) h->moves[i] = job->moves[(i + k + 1) % job->n];
        if (pthread_create(&h->thread, NULL, helper_main, h) != 0) break;
        h->started = 1;
        started++;
    }
    i64 done = run_root(s, job, job->moves, values, flags, pv, pv_len);
    for (int k = 0; k < threads - 1; k++)
        __atomic_store_n(&helpers[k].ctl[CTL_STOP], 1, __ATOMIC_RELAXED);
    for (int k = 0; k < threads - 1; k++) {
        if (helpers[k].started) {
            pthread_join(helpers[k].thread, NULL);
            s->ctl[CTL_NODES] += helpers[k].ctl[CTL_NODES];
        }
        helper_free(&helpers[k]);
    }
    (void)started;
    s->tt = tt0;
    s->busy = NULL;
    free(busy);
    free(helpers);
    return done;
}

/* --- HexThello ------------------------------------------------------------------------------------------ */

/* The same scheme for the HexThello engine (hexthello.c): the helpers share the transposition table (under
 * HEX_LOCKS bucket locks) and the Busy table; each has its own board, history and stop flag.  Here every helper
 * searches the root moves in the caller's order and the deferral alone spreads the threads: it leaves the
 * calling thread fewer nodes than starting each helper from another root move did (benchmarks/hexthello_speed.py
 * --threads prints the calling thread's nodes). */
typedef struct {
    HexSearch *S;
    int64_t ctl[4];
    int me, depth, first, cell;
    int64_t value;
    pthread_t thread;
    int started;
} HexHelper;

static void *hex_helper_main(void *arg) {
    HexHelper *h = (HexHelper *)arg;
    hex_root_search(h->S, h->me, h->depth, h->first, &h->cell, &h->value);
    return NULL;
}

static void hex_helper_free(HexHelper *h) {
    if (h->S) free(h->S->history);
    free(h->S);
}

/* hex_root_search on `threads` threads (the caller's included); the caller's result is the answer, S->nodes
 * the nodes of all threads and S->ctl[CTL_NODES] (when there is ctl) the caller's own.  Without the GIL.  Falls back to fewer threads when memory or a thread cannot be
 * had. */
static int hex_parallel_root(HexSearch *S, int threads, int me, int depth, int first, int *best_cell,
                             int64_t *best_value) {
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    if (threads <= 1) {
        int r = hex_root_search(S, me, depth, first, best_cell, best_value);
        if (S->ctl) S->ctl[CTL_NODES] = S->nodes;
        return r;
    }
    Busy *busy = (Busy *)calloc(1, sizeof(Busy));
    uint8_t *locks = (uint8_t *)calloc(HEX_LOCKS, 1);
    HexHelper *helpers = (HexHelper *)calloc((size_t)threads - 1, sizeof(HexHelper));
    if (!busy || !locks || !helpers) {
        free(busy);
        free(locks);
        free(helpers);
        return hex_root_search(S, me, depth, first, best_cell, best_value);
    }
    S->busy = busy;
    S->locks = locks;
    for (int k = 0; k < threads - 1; k++) {
        HexHelper *h = &helpers[k];
        h->S = (HexSearch *)malloc(sizeof(HexSearch));
        if (!h->S) break;
        memcpy(h->S, S, sizeof(HexSearch)); /* the same board, tables, evaluation ... */
        h->S->history = (int64_t *)malloc(3 * HEX_N * sizeof(int64_t));
        if (!h->S->history) break;
        memcpy(h->S->history, S->history, 3 * HEX_N * sizeof(int64_t)); /* ... its own history, */
        h->S->ctl = h->ctl;                                                /* stop flag */
        h->S->limit = INT64_MAX;                                           /* and no node limit */
        h->me = me;
        h->depth = depth;
        h->first = first;
        if (pthread_create(&h->thread, NULL, hex_helper_main, h) != 0) break;
        h->started = 1;
    }
    int stopped_ = hex_root_search(S, me, depth, first, best_cell, best_value);
    if (S->ctl) S->ctl[CTL_NODES] = S->nodes;
    for (int k = 0; k < threads - 1; k++) __atomic_store_n(&helpers[k].ctl[CTL_STOP], 1, __ATOMIC_RELAXED);
    for (int k = 0; k < threads - 1; k++) {
        if (helpers[k].started) {
            pthread_join(helpers[k].thread, NULL);
            S->nodes += helpers[k].S->nodes;
        }
        hex_helper_free(&helpers[k]);
    }
    S->busy = NULL;
    S->locks = NULL;
    free(busy);
    free(locks);
    free(helpers);
    return stopped_;
}
