/* Parallel search on several threads that share the search's transposition table.
 *
 * The exact solve splits its tree (Young Brothers Wait, ybwc.h): the calling thread searches as with one thread,
 * and a null-window node whose first move did not cut off hands its other moves to the helpers waiting in the
 * pool; an owner waiting for its helpers helps them below its split point, and an idle helper may join any
 * split point that still has moves.  The midgame search runs the simplified ABDADA (Kerrigan): each helper
 * runs the same root search, starting from another root move, and moves on to a node's other moves when
 * another thread is already searching one (search.h's Busy), leaving exact results in the table.  Either way
 * the calling thread's values are the answer, equal to the one-thread search's (the table holds only sound
 * bounds); the node count is the sum of all threads'. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "search.h"

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

/* --- the exact solve: Young Brothers Wait (ybwc.h) -------------------------------------------------------- */

struct Worker {
    Search *s;
    SplitPoint *job;     /* set by pool_recruit, cleared by the worker when done */
    int idle;            /* under the pool's lock */
    i64 ctl[4];
    pthread_t thread;
    int started;
};

static SplitPoint *pool_open(Pool *p, int tid, SplitPoint *sp) {
    spin_lock(&p->lock);
    SplitPoint *prev = p->open[tid];
    p->open[tid] = sp;
    for (int i = 0; i < p->n; i++) {
        struct Worker *w = &p->w[i];
        if (!w->idle) continue;
        w->idle = 0;
        __atomic_sub_fetch(&p->idle, 1, __ATOMIC_RELAXED);
        __atomic_add_fetch(&sp->workers, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&w->job, sp, __ATOMIC_RELEASE);
    }
    spin_unlock(&p->lock);
    return prev;
}

static void pool_close(Pool *p, int tid, SplitPoint *prev) {
    spin_lock(&p->lock);
    p->open[tid] = prev;
    spin_unlock(&p->lock);
}

static int below(const SplitPoint *sp, const SplitPoint *under) {
    for (; sp; sp = sp->parent)
        if (sp == under) return 1;
    return 0;
}

static int pool_join(Pool *p, Search *s, const SplitPoint *under) {
    SplitPoint *sp = NULL;
    spin_lock(&p->lock);
    for (int t = 0; t <= p->n && !sp; t++) {
        SplitPoint *c = p->open[t];
        if (t == s->tid || !c || __atomic_load_n(&c->cutoff, __ATOMIC_RELAXED)) continue;
        if (__atomic_load_n(&c->next, __ATOMIC_RELAXED) >= c->n) continue;  /* every move handed out */
        if (under && !below(c, under)) continue;
        sp = c;
        __atomic_add_fetch(&sp->workers, 1, __ATOMIC_RELAXED);  /* its owner waits for this thread now */
    }
    spin_unlock(&p->lock);
    if (!sp) return 0;
    split_work(s, sp);
    __atomic_sub_fetch(&sp->workers, 1, __ATOMIC_RELEASE);
    return 1;
}

/* A helper: wait for a split point, work on it, tell its owner, wait again, until the pool closes. */
static void *worker_main(void *arg) {
    struct Worker *w = (struct Worker *)arg;
    Pool *p = w->s->pool;
    unsigned spins = 0;
    for (;;) {
        SplitPoint *sp = __atomic_load_n(&w->job, __ATOMIC_ACQUIRE);
        if (sp) {
            split_work(w->s, sp);
            __atomic_store_n(&w->job, NULL, __ATOMIC_RELAXED);
            __atomic_sub_fetch(&sp->workers, 1, __ATOMIC_RELEASE);  /* the owner may go on (sp is its stack) */
            spin_lock(&p->lock);
            w->idle = 1;
            __atomic_add_fetch(&p->idle, 1, __ATOMIC_RELAXED);
            spin_unlock(&p->lock);
            spins = 0;
            continue;
        }
        if (__atomic_load_n(&p->quit, __ATOMIC_ACQUIRE)) break;
        if ((spins & 63) == 0) {  /* now and then: join a split point that is already running */
            spin_lock(&p->lock);
            int mine = w->idle && !__atomic_load_n(&w->job, __ATOMIC_RELAXED);
            if (mine) {  /* not idle while it works: no split point may hand it a job meanwhile */
                w->idle = 0;
                __atomic_sub_fetch(&p->idle, 1, __ATOMIC_RELAXED);
            }
            spin_unlock(&p->lock);
            if (mine) {
                int joined = pool_join(p, w->s, NULL);
                spin_lock(&p->lock);
                w->idle = 1;
                __atomic_add_fetch(&p->idle, 1, __ATOMIC_RELAXED);
                spin_unlock(&p->lock);
                if (joined) {
                    spins = 0;
                    continue;
                }
            }
        }
        if (++spins < 4096) cpu_relax();
        else sched_yield();  /* a long wait (the owner is in a small subtree, or the machine is busy) */
    }
    return NULL;
}

/* The exact solve's root on `threads` threads; 0 if the helpers could not be had (then the caller runs it
 * alone). */
static int ybwc_root(Search *s, int threads, const RootJob *job, double *values, i64 *flags, int8_t *pv,
                     i64 *pv_len, i64 *done) {
    Pool pool;
    memset(&pool, 0, sizeof pool);
    pool.w = (struct Worker *)calloc((size_t)threads - 1, sizeof(struct Worker));
    if (!pool.w) return 0;
    pool.stop = s->ctl;
    TT tt0 = s->tt;
    s->tt.shared = 1;
    s->pool = &pool;
    s->sp = NULL;
    s->tid = 0;
    for (int k = 0; k < threads - 1; k++) {
        struct Worker *w = &pool.w[k];
        w->s = (Search *)PyMem_RawMalloc(sizeof(Search));
        if (!w->s) break;
        memcpy(w->s, s, offsetof(Search, pv));  /* the same tables, weights, settings and pool ... */
        w->ctl[CTL_SELECT] = s->ctl[CTL_SELECT];
        w->s->ctl = w->ctl;                     /* ... its own node count */
        w->s->sp = NULL;
        w->s->tid = k + 1;
        w->idle = 1;
        pool.n = k + 1;
        pool.idle = k + 1;
        if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
            w->idle = 0;
            pool.idle = k;
            break;
        }
        w->started = 1;
    }
    *done = run_root(s, job, job->moves, values, flags, pv, pv_len);
    __atomic_store_n(&pool.quit, 1, __ATOMIC_RELEASE);
    for (int k = 0; k < threads - 1; k++) {
        struct Worker *w = &pool.w[k];
        if (w->started) {
            pthread_join(w->thread, NULL);
            s->ctl[CTL_NODES] += w->ctl[CTL_NODES];
        }
        PyMem_RawFree(w->s);
    }
    free(pool.w);
    s->tt = tt0;
    s->pool = NULL;
    return 1;
}

/* --- the midgame: simplified ABDADA --------------------------------------------------------------------- */

/* Run the root job on `threads` threads (the caller's included); the caller's Search holds the answer.
 * Without the GIL.  Falls back to one thread when memory or a thread cannot be had. */
static i64 parallel_root(Search *s, int threads, const RootJob *job, double *values, i64 *flags, int8_t *pv,
                         i64 *pv_len) {
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    if (threads <= 1 || job->n < 1) return run_root(s, job, job->moves, values, flags, pv, pv_len);
    if (job->kind == ROOT_ENDGAME) {
        i64 done;
        if (ybwc_root(s, threads, job, values, flags, pv, pv_len, &done)) return done;
        return run_root(s, job, job->moves, values, flags, pv, pv_len);
    }
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
