/* The compiled core's kernels without Python: a test driver for builds that Python cannot load here (other
 * architectures under an emulator, Windows under wine, the strict ISO C build of the portable path).
 *
 *     core_check CASES WEIGHTS [THREADS]
 *
 * CASES and WEIGHTS are what tools/core_check_data.py writes.  Each case is checked against the value Python
 * gave: perft counts, the learned evaluation (against the plain-Python reference), exact FFO solves with one
 * thread and the first of them again through the parallel search's threads, on THREADS (default 2).  Prints one line a case and a
 * summary; exits 1 when a case fails.  Built by tools/cross_check.sh and tests/engine/test_portable.py. */
#include "portable.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "search.h"

#include "bitboard.c"
#include "patterns.c"
#include "eval.c"
#include "midgame.c"
#include "endgame.c"
#include "hexthello.c"
#include "parallel.c"

#define TT_BITS 20
#define MTT_BITS 16

static int failures = 0;

static Search *new_search(Entry *tt, Entry *mtt, const Weights *W, i64 *ctl) {
    Search *s = (Search *)calloc(1, sizeof(Search));
    if (!s) return NULL;
    s->ctl = ctl;
    s->tt.e = tt;
    s->tt.shift = 64 - TT_BITS;
    s->tt.gen = 1;
    s->mtt.e = mtt;
    s->mtt.shift = 64 - MTT_BITS;
    s->mtt.gen = 1;
    s->W = *W;
    s->eval_id = EVAL_LEARNED;
    return s;
}

static void check(int ok, const char *what) {
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) failures++;
}

/* The exact score of (P, O) from a parallel root search over its moves on `threads` threads. */
static i64 solve_parallel(Search *s, u64 P, u64 O, int threads) {
    i64 moves[64], flags[64], pv_len[64];
    double values[64];
    static int8_t pv[64 * (MAX_PLY + 2)];
    i64 n = 0;
    for (u64 m = get_moves(P, O); m; m &= m - 1) moves[n++] = lowest_index(m);
    if (n == 0) return -end_solve(s, O, P, -64, 64);
    RootJob job = {ROOT_ENDGAME, P, O, 0, -64.0, 64.0, moves, n, 1, MAX_PLY + 2};
    i64 done = parallel_root(s, threads, &job, values, flags, pv, pv_len);
    return done == n ? (i64)kth_best(values, flags, n, 1) : -1000;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: core_check CASES WEIGHTS [THREADS]\n");
        return 2;
    }
    int threads = argc > 3 ? atoi(argv[3]) : 2;
    (void)hex_ready; /* (the HexThello bindings' flag: not used here) */
    bitboard_init();
    eval_init();
    patterns_init();
    FILE *cases = fopen(argv[1], "r");
    if (!cases) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    Weights W = {NULL, 0, 0};
    float *w = NULL;
    Entry *tt = (Entry *)calloc((size_t)1 << TT_BITS, sizeof(Entry));
    Entry *mtt = (Entry *)calloc((size_t)1 << MTT_BITS, sizeof(Entry));
    i64 ctl[4] = {0, 0, 0, 0};
    char line[512], what[600];
    double worst_eval = 0;
    int evals = 0, parallel_done = 0;
    printf("core_check: %s path, %s, %s, %d-bit pointers\n", PLIES_GNU ? "GNU C" : "plain C",
           PLIES_VECTOR_LANES ? "vector lanes" : "lanes one at a time",
#if defined(_WIN32)
           "Windows",
#else
           "POSIX",
#endif
           (int)(8 * sizeof(void *)));
    while (fgets(line, sizeof line, cases)) {
        char kind[16];
        if (sscanf(line, "%15s", kind) != 1) continue;
        if (strcmp(kind, "weights") == 0) {
            long long phases, row;
            if (sscanf(line, "%*s %lld %lld", &phases, &row) != 2) return 2;
            size_t n = (size_t)(phases * row);
            w = (float *)malloc(n * sizeof(float));
            FILE *f = fopen(argv[2], "rb");
            if (!w || !f || fread(w, sizeof(float), n, f) != n) {
                fprintf(stderr, "cannot read %zu floats from %s\n", n, argv[2]);
                return 2;
            }
            fclose(f);
            W.w = w;
            W.n_phases = phases;
            W.row_len = row;
            check(patterns_weights_ok(&W), "weights: the expanded pattern weights");
        } else if (strcmp(kind, "perft") == 0) {
            u64 P, O;
            long long leaves;
            int depth;
            if (sscanf(line, "%*s %" SCNx64 " %" SCNx64 " %d %lld", &P, &O, &depth, &leaves) != 4) return 2;
            i64 got = perft(P, O, depth);
            sprintf(what, "perft %d: %lld leaves (expected %lld)", depth, (long long)got, leaves);
            check(got == leaves, what);
        } else if (strcmp(kind, "eval") == 0) {
            u64 P, O;
            double expected;
            if (sscanf(line, "%*s %" SCNx64 " %" SCNx64 " %lf", &P, &O, &expected) != 3) return 2;
            double d = fabs(evaluate_patterns(P, O, &W) - expected);
            if (d > worst_eval) worst_eval = d;
            evals++;
        } else if (strcmp(kind, "solve") == 0) {
            u64 P, O;
            int id;
            long long expected;
            if (sscanf(line, "%*s %d %" SCNx64 " %" SCNx64 " %lld", &id, &P, &O, &expected) != 4) return 2;
            Search *s = new_search(tt, mtt, &W, ctl);
            if (!s) return 2;
            memset(tt, 0, sizeof(Entry) << TT_BITS);
            ctl[CTL_NODES] = 0;
            clock_t t0 = clock();
            i64 got = end_solve(s, P, O, -64, 64);
            double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
            sprintf(what, "FFO #%d: %+lld (expected %+lld), %lld nodes, %.2f s", id, (long long)got, expected,
                    (long long)ctl[CTL_NODES], secs);
            check(got == expected, what);
            if (threads > 1 && !parallel_done) { /* the first solve again on several threads */
                parallel_done = 1;
                memset(tt, 0, sizeof(Entry) << TT_BITS);
                ctl[CTL_NODES] = 0;
                got = solve_parallel(s, P, O, threads);
                sprintf(what, "FFO #%d on %d threads: %+lld (expected %+lld)", id, threads, (long long)got,
                        expected);
                check(got == expected, what);
            }
            free(s);
        }
    }
    fclose(cases);
    if (evals) {
        sprintf(what, "learned evaluation of %d positions: largest difference from the Python reference %.3g",
                evals, worst_eval);
        check(worst_eval < 1e-6, what);
    }
    printf("%s: %d failed\n", failures ? "FAILED" : "passed", failures);
    free(w);
    free(tt);
    free(mtt);
    return failures ? 1 : 0;
}
