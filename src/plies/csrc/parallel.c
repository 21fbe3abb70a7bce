/* Parallel search on several threads that share the search's transposition table: Young Brothers Wait
 * (ybwc.h).  The calling thread searches as with one thread; a null-window node whose first move did not cut
 * off hands its other moves to the helpers waiting in the pool; an owner waiting for its helpers helps them
 * below its split point, and an idle helper may join any split point that still has moves.  The calling
 * thread's values are the answer, equal to the one-thread search's (the table holds only sound bounds); the
 * node count is the sum of all threads'.  The HexThello engine runs the simplified ABDADA instead (end of the
 * file). */
#include <stdlib.h>

#include "search.h"
#include "ybwc.h"

typedef enum { ROOT_MIDGAME, ROOT_ENDGAME } RootKind;

typedef struct {
    RootKind kind;
    u64 P, O;
    int depth;             /* midgame */
    double alpha, beta;    /* the window (the endgame's as integers) */
    const i64 *moves;
    i64 n, multipv, stride;
} RootJob;

static i64 run_root(Search *s, const RootJob *j, double *values, i64 *flags, int8_t *pv, i64 *pv_len) {
    if (j->kind == ROOT_MIDGAME)
        return mid_search_root(s, j->P, j->O, j->depth, j->alpha, j->beta, j->moves, j->n, j->multipv, values,
                               flags, pv, j->stride, pv_len);
    return end_solve_root(s, j->P, j->O, (i64)j->alpha, (i64)j->beta, j->moves, j->n, j->multipv, values, flags,
                          pv, j->stride, pv_len);
}

/* A short sleep while waiting: a spinning thread would take the CPU from the threads it waits for when the
 * machine has fewer free cores than threads. */
static void nap(void) { thread_nap(); }

struct Worker {
    Search *s;
    SplitPoint *job;     /* set by pool_open; cleared by the worker as it starts, or by pool_revoke before */
    int idle;            /* under the pool's lock */
    i64 ctl[4];
    thread_id thread;
    int started;
};

/* One move of a PV split point: a null-window test against the split point's alpha, searched again with the
 * window from the (maybe higher) alpha to beta when it passes. */
static double split_pv_move(Search *s, SplitPoint *sp, u64 cp, u64 co) {
    double nw = null_window(s->eval_id);
    spin_lock(&sp->lock);
    double a = sp->alpha;
    spin_unlock(&sp->lock);
    double v = -pvs(s, cp, co, sp->depth - 1, -a - nw, -a, sp->ply + 1);
    if (v > a && v < sp->beta && !aborted(s)) {
        spin_lock(&sp->lock);
        a = sp->alpha;
        spin_unlock(&sp->lock);
        v = -pvs(s, cp, co, sp->depth - 1, -sp->beta, -a, sp->ply + 1);
    }
    return v;
}

static void split_work(Search *s, SplitPoint *sp) {
    SplitPoint *outer = s->sp;
    s->sp = sp;
    for (;;) {
        spin_lock(&sp->lock);
        if (sp->cutoff || sp->next >= sp->n) {
            spin_unlock(&sp->lock);
            break;
        }
        int i = sp->next++;
        spin_unlock(&sp->lock);
        int sq = sp->moves[i];
        u64 f = sp->flips[i];
        u64 cp = sp->O ^ f, co = sp->P ^ f ^ (ONE << sq);
        double v;
        if (sp->pv_node)
            v = split_pv_move(s, sp, cp, co);
        else if (sp->midgame)
            v = -pvs(s, cp, co, sp->depth - 1, -sp->beta, -sp->alpha, sp->ply + 1);
        else
            v = (double)-end_child(s, cp, co, (i64)-sp->beta, (i64)-sp->alpha, sp->depth - 1, sp->ply + 1);
        if (aborted(s)) break;
        spin_lock(&sp->lock);
        if (v > sp->best) {
            sp->best = v;
            sp->best_move = sq;
            if (v >= sp->beta) atomic_set(&sp->cutoff, 1, MO_RELAXED);
        }
        if (sp->pv_node && v > sp->alpha) {
            sp->alpha = v;
            i64 m = s->pv_len[sp->ply + 1];
            sp->pv[0] = (int8_t)sq;
            for (i64 k = 0; k < m; k++) sp->pv[k + 1] = s->pv[sp->ply + 1][k];
            sp->pv_len = (int)m + 1;
        }
        spin_unlock(&sp->lock);
    }
    s->sp = outer;
}

static double split_node(Search *s, u64 P, u64 O, double alpha, double beta, int midgame, int depth, int ply,
                         int *mb, i64 *kb, u64 *fb, int t, int n, double best, int *best_move) {
    SplitPoint sp;
    sp.parent = s->sp;
    sp.P = P;
    sp.O = O;
    sp.alpha = alpha;
    sp.beta = beta;
    sp.midgame = midgame;
    sp.pv_node = midgame && beta - alpha > 1.5 * null_window(s->eval_id);
    sp.pv_len = 0;
    sp.depth = depth;
    sp.ply = ply;
    sp.n = 0;
    sp.next = 0;
    for (int j = t; j < n; j++, sp.n++) {
        select_move(mb, kb, fb, j, n);
        sp.moves[sp.n] = mb[j];
        sp.flips[sp.n] = fb[j];
    }
    sp.best = best;
    sp.best_move = *best_move;
    sp.cutoff = 0;
    sp.workers = 0;
    sp.lock = 0;
    SplitPoint *prev = pool_open(s->pool, s->tid, &sp);
    split_work(s, &sp);
    pool_close(s->pool, s->tid, prev);
    pool_revoke(s->pool, &sp);
    for (unsigned spins = 0; atomic_get(&sp.workers, MO_ACQUIRE) > 0;) {
        if (pool_join(s->pool, s, &sp)) spins = 0;  /* help the helpers with their own split points */
        else if (++spins < 256) cpu_relax();
        else nap();  /* the helpers are deep in moves that do not split, or the machine is busy */
    }
    if (sp.pv_len > 0) {  /* a move of a PV split point raised alpha: its variation, from whichever thread */
        for (int k = 0; k < sp.pv_len; k++) s->pv[ply][k] = sp.pv[k];
        s->pv_len[ply] = sp.pv_len;
    } else if (sp.best > alpha) {  /* a null window's cut-off: its move alone */
        s->pv[ply][0] = (int8_t)sp.best_move;
        s->pv_len[ply] = 1;
    }
    *best_move = sp.best_move;
    return sp.best;
}

static SplitPoint *pool_open(Pool *p, int tid, SplitPoint *sp) {
    spin_lock(&p->lock);
    SplitPoint *prev = p->open[tid];
    p->open[tid] = sp;
    for (int i = 0; i < p->n; i++) {
        struct Worker *w = &p->w[i];
        if (!w->idle) continue;
        w->idle = 0;
        atomic_sub(&p->idle, 1, MO_RELAXED);
        atomic_add(&sp->workers, 1, MO_RELAXED);
        atomic_set(&w->job, sp, MO_RELEASE);
    }
    spin_unlock(&p->lock);
    return prev;
}

static void pool_close(Pool *p, int tid, SplitPoint *prev) {
    spin_lock(&p->lock);
    p->open[tid] = prev;
    spin_unlock(&p->lock);
}

/* Take sp back from the helpers it was handed to that have not started on it yet (napping, or not yet
 * scheduled): no move is left for them, and the owner need not wait until they wake up to find that out. */
static void pool_revoke(Pool *p, SplitPoint *sp) {
    for (int i = 0; i < p->n; i++) {
        struct Worker *w = &p->w[i];
        SplitPoint *expected = sp;
        if (atomic_get(&w->job, MO_RELAXED) != sp ||
            !atomic_swap_ptr_if(&w->job, &expected, NULL, MO_ACQ_REL, MO_RELAXED))
            continue;  /* not handed sp, or already working on it */
        atomic_sub(&sp->workers, 1, MO_RELAXED);
        spin_lock(&p->lock);  /* idle again: no split point handed it a job meanwhile, as it was not idle */
        w->idle = 1;
        atomic_add(&p->idle, 1, MO_RELAXED);
        spin_unlock(&p->lock);
    }
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
        if (t == s->tid || !c || atomic_get(&c->cutoff, MO_RELAXED)) continue;
        if (atomic_get(&c->next, MO_RELAXED) >= c->n) continue;  /* every move handed out */
        if (under && !below(c, under)) continue;
        sp = c;
        atomic_add(&sp->workers, 1, MO_RELAXED);  /* its owner waits for this thread now */
    }
    spin_unlock(&p->lock);
    if (!sp) return 0;
    split_work(s, sp);
    atomic_sub(&sp->workers, 1, MO_RELEASE);
    return 1;
}

/* A helper: wait for a split point, work on it, tell its owner, wait again, until the pool closes. */
static void *worker_main(void *arg) {
    struct Worker *w = (struct Worker *)arg;
    Pool *p = w->s->pool;
    unsigned spins = 0;
    for (;;) {
        SplitPoint *sp = atomic_get(&w->job, MO_ACQUIRE);
        if (sp && atomic_swap_ptr_if(&w->job, &sp, NULL, MO_ACQ_REL, MO_ACQUIRE)) {
            /* claimed (its owner can no longer take it back with pool_revoke) */
            split_work(w->s, sp);
            atomic_sub(&sp->workers, 1, MO_RELEASE);  /* the owner may go on (sp is its stack) */
            spin_lock(&p->lock);
            w->idle = 1;
            atomic_add(&p->idle, 1, MO_RELAXED);
            spin_unlock(&p->lock);
            spins = 0;
            continue;
        }
        if (atomic_get(&p->quit, MO_ACQUIRE)) break;
        if ((spins & 63) == 0) {  /* now and then: join a split point that is already running */
            spin_lock(&p->lock);
            int mine = w->idle && !atomic_get(&w->job, MO_RELAXED);
            if (mine) {  /* not idle while it works: no split point may hand it a job meanwhile */
                w->idle = 0;
                atomic_sub(&p->idle, 1, MO_RELAXED);
            }
            spin_unlock(&p->lock);
            if (mine) {
                int joined = pool_join(p, w->s, NULL);
                spin_lock(&p->lock);
                w->idle = 1;
                atomic_add(&p->idle, 1, MO_RELAXED);
                spin_unlock(&p->lock);
                if (joined) {
                    spins = 0;
                    continue;
                }
            }
        }
        if (++spins < 1024) cpu_relax();
        else nap();  /* a long wait (the owner is in a small subtree, or the machine is busy) */
    }
    return NULL;
}

/* Run the root job on `threads` threads (the caller's included); the caller's Search holds the answer.
 * Without the GIL.  Runs on fewer threads (one at least) when memory or a thread cannot be had. */
static i64 parallel_root(Search *s, int threads, const RootJob *job, double *values, i64 *flags, int8_t *pv,
                         i64 *pv_len) {
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    if (threads <= 1 || job->n < 1) return run_root(s, job, values, flags, pv, pv_len);
    Pool pool;
    memset(&pool, 0, sizeof pool);
    pool.w = (struct Worker *)calloc((size_t)threads - 1, sizeof(struct Worker));
    if (!pool.w) return run_root(s, job, values, flags, pv, pv_len);
    pool.stop = s->ctl;
    TT tt0 = s->tt;
    s->tt.shared = 1;
    s->pool = &pool;
    s->sp = NULL;
    s->tid = 0;
    for (int k = 0; k < threads - 1; k++) {
        struct Worker *w = &pool.w[k];
        w->s = (Search *)core_malloc(sizeof(Search));
        if (!w->s) break;
        memcpy(w->s, s, offsetof(Search, pv));  /* the same tables, weights, settings and pool ... */
        memset(w->s->mt, 0, sizeof w->s->mt);   /* (a table of its own for the solver's search_mid) */
        w->ctl[CTL_SELECT] = s->ctl[CTL_SELECT];
        w->s->ctl = w->ctl;                     /* ... its own node count */
        w->s->sp = NULL;
        w->s->tid = k + 1;
        w->idle = 1;
        atomic_set(&pool.n, k + 1, MO_RELEASE);
        /* atomic: the helpers started already count themselves in and out of the idle ones meanwhile */
        atomic_add(&pool.idle, 1, MO_RELAXED);
        if (thread_start(&w->thread, worker_main, w) != 0) {
            w->idle = 0;
            atomic_sub(&pool.idle, 1, MO_RELAXED);
            break;
        }
        w->started = 1;
    }
    i64 done = run_root(s, job, values, flags, pv, pv_len);
    atomic_set(&pool.quit, 1, MO_RELEASE);
    for (int k = 0; k < threads - 1; k++) {
        struct Worker *w = &pool.w[k];
        if (w->started) {
            thread_join(w->thread);
            s->ctl[CTL_NODES] += w->ctl[CTL_NODES];
        }
        core_free(w->s);
    }
    free(pool.w);
    s->tt = tt0;
    s->pool = NULL;
    return done;
}

/* --- HexThello ------------------------------------------------------------------------------------------ */

/* The simplified ABDADA for the HexThello engine (hexthello.c): the helpers share the transposition table (under
 * HEX_LOCKS bucket locks) and the Busy table; each has its own board, history and stop flag.  Here every helper
 * searches the root moves in the caller's order and the deferral alone spreads the threads: it leaves the
 * calling thread fewer nodes than starting each helper from another root move did (benchmarks/hexthello_speed.py
 * --threads prints the calling thread's nodes). */
typedef struct {
    HexSearch *S;
    int64_t ctl[4];
    int me, depth, first, cell;
    int64_t value;
    thread_id thread;
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
        if (thread_start(&h->thread, hex_helper_main, h) != 0) break;
        h->started = 1;
    }
    int stopped_ = hex_root_search(S, me, depth, first, best_cell, best_value);
    if (S->ctl) S->ctl[CTL_NODES] = S->nodes;
    for (int k = 0; k < threads - 1; k++) atomic_set(&helpers[k].ctl[CTL_STOP], 1, MO_RELAXED);
    for (int k = 0; k < threads - 1; k++) {
        if (helpers[k].started) {
            thread_join(helpers[k].thread);
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
