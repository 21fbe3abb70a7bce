/* Scaling of the parallel search without Python: the compiled core's kernels called directly (parallel_root),
 * for machines where plies itself is not installed.  Inputs from export.py (weights.bin, positions as "P O"
 * hex lines).
 *
 *   gcc -O2 -std=gnu11 -pthread -mavx2 -mbmi -mbmi2 -mpopcnt -Wno-psabi -I src/plies/csrc \
 *       benchmarks/scaling/scaling.c -o scaling -lm
 *   ./scaling weights.bin ffo.txt 1 2 4 8 16               # exact solves from a full window
 *   ./scaling --depth 13 weights.bin openings.txt 1 2 4    # midgame searches to depth 13
 *   ./scaling --perft                                       # perft(11) leaves/s, three runs
 *
 * Each position gets a fresh 2^22-entry table; the line per thread count gives the wall time, the nodes of all
 * threads and the best value of each position (the same at every thread count).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <time.h>
#define PyMem_RawMalloc malloc
#define PyMem_RawFree free
#include "search.h"
#include "bitboard.c"
#include "patterns.c"
#include "eval.c"
#include "midgame.c"
#include "endgame.c"
#include "hexthello.c"
#include "parallel.c"

#define TABLE_BITS 22
#define MAX_POSITIONS 64

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int usage(void) {
    fprintf(stderr, "usage: scaling [--depth D] WEIGHTS POSITIONS THREADS...  |  scaling --perft\n");
    return 2;
}

int main(int argc, char **argv) {
    bitboard_init();
    eval_init();
    if (argc == 2 && strcmp(argv[1], "--perft") == 0) {
        for (int r = 0; r < 3; r++) {
            double t0 = now();
            i64 n = perft(0x0000000810000000ULL, 0x0000001008000000ULL, 11);
            double t = now() - t0;
            printf("perft(11) = %lld in %.3f s: %.1f M leaves/s\n", (long long)n, t, (double)n / t / 1e6);
        }
        return 0;
    }
    int a = 1, depth = 0;
    if (argc > 2 && strcmp(argv[1], "--depth") == 0) {
        depth = atoi(argv[2]);
        a = 3;
    }
    if (argc < a + 3 || depth < 0) return usage();
    FILE *wf = fopen(argv[a], "rb");
    i64 shape[2];
    if (!wf || fread(shape, sizeof(i64), 2, wf) != 2 || shape[0] <= 0 || shape[1] <= 0) return usage();
    size_t count = (size_t)(shape[0] * shape[1]);
    float *w = malloc(count * sizeof(float));
    if (!w || fread(w, sizeof(float), count, wf) != count) return usage();
    fclose(wf);
    u64 Ps[MAX_POSITIONS], Os[MAX_POSITIONS];
    int np = 0;
    FILE *pf = fopen(argv[a + 1], "r");
    if (!pf) return usage();
    unsigned long long p, o;
    while (np < MAX_POSITIONS && fscanf(pf, "%llx %llx", &p, &o) == 2) {
        Ps[np] = p;
        Os[np] = o;
        np++;
    }
    fclose(pf);
    size_t entries = (size_t)1 << TABLE_BITS;
    for (int k = a + 2; k < argc; k++) {
        int threads = atoi(argv[k]);
        if (threads < 1) return usage();
        double total = 0;
        i64 nodes = 0;
        printf("threads %2d:", threads);
        char values[1024] = "";
        for (int i = 0; i < np; i++) {
            Entry *tt = calloc(entries, sizeof(Entry)), *mtt = calloc(1024, sizeof(Entry));
            Search *s = calloc(1, sizeof(Search));
            i64 ctl[4] = {0, 0, 0, 0};
            if (!tt || !mtt || !s) return 1;
            s->ctl = ctl;
            s->tt = (TT){tt, 64 - TABLE_BITS, 1, 0};
            s->mtt = (TT){mtt, 54, 1, 0};
            s->W = (Weights){w, shape[0], shape[1]};
            s->eval_id = EVAL_LEARNED;
            i64 moves[64], n = 0;
            for (u64 m = get_moves(Ps[i], Os[i]); m; m &= m - 1) moves[n++] = lowest_index(m);
            double vals[64];
            i64 flags[64], pv_len[64];
            static int8_t pv[64 * (MAX_PLY + 2)];
            RootJob job = {ROOT_ENDGAME, Ps[i], Os[i], 0, -65.0, 65.0, moves, n, 1, MAX_PLY + 2};
            if (depth) {
                job.kind = ROOT_MIDGAME;
                job.depth = depth;
                job.alpha = -INFINITY;
                job.beta = INFINITY;
            }
            double t0 = now();
            i64 done = n ? parallel_root(s, threads, &job, vals, flags, pv, pv_len) : 0;
            total += now() - t0;
            nodes += ctl[CTL_NODES];
            double best = -INFINITY;
            for (i64 j = 0; j < done; j++)
                if (vals[j] > best) best = vals[j];
            char one[32];
            snprintf(one, sizeof one, depth ? " %+.2f" : " %+.0f", best);
            if (strlen(values) + strlen(one) < sizeof values) strcat(values, one);
            free(tt);
            free(mtt);
            free(s);
        }
        printf(" %8.2f s wall, %14lld nodes, values%s\n", total, (long long)nodes, values);
        fflush(stdout);
    }
    free(w);
    return 0;
}
