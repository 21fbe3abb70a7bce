/* Evaluations of 8x8 positions (plies.engine.eval): the seeds' heuristics with the same tables and arithmetic
 * as plies.heuristics.othello (so the engine can be checked against the textbook search), the hand-made
 * default, stable discs, and the learned patterns (patterns.c). */
#include "eval.h"

/* plies.heuristics.othello.tables(8): "weighted" and "stability", index = row * 8 + col */
static const i64 WEIGHTED_SQ[64] = {
    100, -20, 10, 5, 5, 10, -20, 100, -20, -50, -2, -2, -2, -2, -50, -20,
    10, -2, -1, -1, -1, -1, -2, 10, 5, -2, -1, -1, -1, -1, -2, 5,
    5, -2, -1, -1, -1, -1, -2, 5, 10, -2, -1, -1, -1, -1, -2, 10,
    -20, -50, -2, -2, -2, -2, -50, -20, 100, -20, 10, 5, 5, 10, -20, 100};
static const i64 STABILITY_SQ[64] = {
    10, 5, 5, 5, 5, 5, 5, 10, 5, -10, -5, -5, -5, -5, -10, 5,
    5, -5, 3, 3, 3, 3, -5, 5, 5, -5, 3, 0, 0, 3, -5, 5,
    5, -5, 3, 0, 0, 3, -5, 5, 5, -5, 3, 3, 3, 3, -5, 5,
    5, -10, -5, -5, -5, -5, -10, 5, 10, 5, 5, 5, 5, 5, 5, 10};
#define EDGES 0x7E8181818181817EULL
#define NOT_EDGES_CORNERS (~(EDGES | CORNERS))
static const u64 CORNER_BITS[4] = {0x1ULL, 0x80ULL, 0x100000000000000ULL, 0x8000000000000000ULL};
static const u64 CORNER_GUARDS[4] = {0x102ULL, 0x8040ULL, 0x201000000000000ULL, 0x4080000000000000ULL};
static const u64 X_SQUARES[4] = {1ULL << 9, 1ULL << 14, 1ULL << 49, 1ULL << 54};

static inline i64 table_sum(const i64 *t, u64 b) {
    i64 s = 0;
    while (b) {
        s += t[lowest_index(b)];
        b &= b - 1;
    }
    return s;
}

static inline double ratio_(i64 a, i64 b) { return a + b ? 100.0 * (double)(a - b) / (double)(a + b) : 0.0; }

static i64 doc001_side(u64 me, i64 my_moves, i64 their_moves) {
    i64 value = 1000 * popcount(me & CORNERS);
    u64 guarded = 0;
    for (int k = 0; k < 4; k++)
        if (me & CORNER_BITS[k]) guarded |= CORNER_GUARDS[k];
    value += 800 * popcount(me & guarded);
    value += 500 * popcount(me & EDGES & ~guarded);
    value += 50 * popcount(me & NOT_EDGES_CORNERS);
    value -= 100 * their_moves;
    if (my_moves && !their_moves) value += 700;
    return value;
}

/* --- stable discs --------------------------------------------------------------------------------------- */

#define COL_A 0x0101010101010101ULL
#define COL_H 0x8080808080808080ULL
#define ROW_1 0xFFULL
#define ROW_8 0xFF00000000000000ULL
#define BORDER (COL_A | COL_H | ROW_1 | ROW_8)
#define FEW_EMPTIES 12 /* up to this many empties, the full lines are found from the empties */

static u64 LINES_THROUGH[64][4]; /* row, column, diagonal, anti-diagonal through each square */
static u64 LINES_H[8], LINES_V[8], LINES_D[15], LINES_A[15];
/* EDGE_STABLE[p][o]: the discs of p on an edge (a line of 8, bit k = square k) that no sequence of moves on it
 * can flip; a disc on an edge can only be flipped along that edge */
static uint8_t EDGE_STABLE[256][256];

/* Fills EDGE_STABLE (after bitboard_init): the stable discs of p are those that stay p's after every move of
 * either side on an empty square (legal or not on the edge alone: the move may be legal through another line),
 * so the table is filled from full edges up, each edge from the edges one disc fuller. */
static void edge_stable_init(void) {
    static uint8_t ep[6561], eo[6561], en[6561];
    for (int t = 0; t < 6561; t++) {  /* every edge once: base 3, digit k = square k (0 empty, 1 p, 2 o) */
        int p = 0, o = 0, n = 0;
        for (int k = 0, r = t; k < 8; k++, r /= 3) {
            if (r % 3 == 1) p |= 1 << k;
            else if (r % 3 == 2) o |= 1 << k;
            else n++;
        }
        ep[t] = (uint8_t)p, eo[t] = (uint8_t)o, en[t] = (uint8_t)n;
    }
    for (int empties = 0; empties <= 8; empties++)
        for (int t = 0; t < 6561; t++) {
            if (en[t] != empties) continue;
            int p = ep[t], o = eo[t], stable = p;
            for (int x = 0; x < 8 && stable; x++) {
                if ((p | o) >> x & 1) continue;
                int f = (int)line_flips_(x, (u64)p, (u64)o);  /* p plays x (the line tables of bitboard.c) */
                stable &= EDGE_STABLE[(p | f | (1 << x))][o & ~f];
                f = (int)line_flips_(x, (u64)o, (u64)p);      /* o plays x */
                stable &= EDGE_STABLE[p & ~f][(o | f | (1 << x))];
            }
            EDGE_STABLE[p][o] = (uint8_t)stable;
        }
}

static void eval_init(void) {
    edge_stable_init();
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) {
            u64 b = ONE << (r * 8 + c);
            LINES_H[r] |= b;
            LINES_V[c] |= b;
            LINES_D[c - r + 7] |= b;
            LINES_A[c + r] |= b;
        }
    for (int sq = 0; sq < 64; sq++) {
        int r = sq / 8, c = sq % 8;
        LINES_THROUGH[sq][0] = LINES_H[r];
        LINES_THROUGH[sq][1] = LINES_V[c];
        LINES_THROUGH[sq][2] = LINES_D[c - r + 7];
        LINES_THROUGH[sq][3] = LINES_A[c + r];
    }
}

/* Masks of the squares whose horizontal, vertical, diagonal and anti-diagonal lines are full: every line is
 * full but those through an empty square (fewer steps with few empties) ... */
static inline void full_lines_by_empties(u64 occ, u64 *h, u64 *v, u64 *d, u64 *a) {
    u64 E = ~occ, hh = 0, vv = 0, dd = 0, aa = 0;
    while (E) {
        int sq = lowest_index(E);
        E &= E - 1;
        hh |= LINES_THROUGH[sq][0];
        vv |= LINES_THROUGH[sq][1];
        dd |= LINES_THROUGH[sq][2];
        aa |= LINES_THROUGH[sq][3];
    }
    *h = ~hh, *v = ~vv, *d = ~dd, *a = ~aa;
}

/* ... or by testing each of the 46 lines. */
static inline void full_lines_by_lines(u64 occ, u64 *h, u64 *v, u64 *d, u64 *a) {
    u64 hh = 0, vv = 0, dd = 0, aa = 0;
    for (int i = 0; i < 8; i++) {
        if ((occ & LINES_H[i]) == LINES_H[i]) hh |= LINES_H[i];
        if ((occ & LINES_V[i]) == LINES_V[i]) vv |= LINES_V[i];
    }
    for (int i = 0; i < 15; i++) {
        if ((occ & LINES_D[i]) == LINES_D[i]) dd |= LINES_D[i];
        if ((occ & LINES_A[i]) == LINES_A[i]) aa |= LINES_A[i];
    }
    *h = hh, *v = vv, *d = dd, *a = aa;
}

static inline void full_lines(u64 occ, u64 *h, u64 *v, u64 *d, u64 *a) {
    if (popcount(~occ) <= FEW_EMPTIES) full_lines_by_empties(occ, h, v, d, a);
    else full_lines_by_lines(occ, h, v, d, a);
}

/* P's stable discs on the four edges, exactly (EDGE_STABLE). */
static inline u64 edge_stable(u64 P, u64 O) {
    u64 s = EDGE_STABLE[P & 0xFF][O & 0xFF];
    s |= (u64)EDGE_STABLE[P >> 56][O >> 56] << 56;
    s |= FILE_SPREAD[EDGE_STABLE[((P & COL_A) * GATHER_FILE) >> 56][((O & COL_A) * GATHER_FILE) >> 56]];
    s |= FILE_SPREAD[EDGE_STABLE[(((P >> 7) & COL_A) * GATHER_FILE) >> 56][(((O >> 7) & COL_A) * GATHER_FILE) >> 56]]
         << 7;
    return s;
}

/* P's discs that can never be flipped (an under-estimate): the edges' exact ones, then, growing inwards, a disc
 * whose every line is full or touches the border or a stable disc (none when no edge disc is stable).  With
 * need > 0 the growth stops as soon as it has found that many: the stability cut-off only asks whether there are
 * enough. */
static inline u64 stable_grown(u64 P, u64 O, i64 need) {
    if (!(P & BORDER)) return 0;
    u64 stable = edge_stable(P, O);
    if (!stable) return 0;
    u64 h, v, d, a;
    full_lines(P | O, &h, &v, &d, &a);
    h |= COL_A | COL_H;
    v |= ROW_1 | ROW_8;
    d |= BORDER;
    a |= BORDER;
    for (;;) {
        u64 hh = h | ((stable << 1) & ~COL_A) | ((stable >> 1) & ~COL_H);
        u64 vv = v | (stable << 8) | (stable >> 8);
        u64 dd = d | ((stable << 9) & ~COL_A) | ((stable >> 9) & ~COL_H);
        u64 aa = a | ((stable << 7) & ~COL_H) | ((stable >> 7) & ~COL_A);
        u64 nw = (P & hh & vv & dd & aa) | stable;
        if (nw == stable || (need > 0 && popcount(nw) >= need)) return nw;
        stable = nw;
    }
}

u64 stable_discs(u64 P, u64 O) { return stable_grown(P, O, 0); }

u64 stable_discs_enough(u64 P, u64 O, i64 need) { return stable_grown(P, O, need); }

/* --- the evaluations ------------------------------------------------------------------------------------ */

i64 evaluate_default(u64 P, u64 O) {
    u64 mP = get_moves(P, O), mO = get_moves(O, P);
    i64 empties = 64 - popcount(P | O);
    i64 mob = popcount(mP) - popcount(mO);
    mob += popcount(mP & CORNERS) - popcount(mO & CORNERS);
    i64 pot = popcount(potential_moves(P, O)) - popcount(potential_moves(O, P));
    i64 corners = popcount(P & CORNERS) - popcount(O & CORNERS);
    i64 danger = 0;
    u64 occ = P | O;
    for (int k = 0; k < 4; k++) {
        if (!(occ & CORNER_BITS[k])) {
            u64 x = X_SQUARES[k], c = CORNER_GUARDS[k];
            danger += 3 * (popcount(P & x) - popcount(O & x));
            danger += popcount(P & c) - popcount(O & c);
        }
    }
    i64 stable = popcount(stable_discs(P, O)) - popcount(stable_discs(O, P));
    i64 value = 9 * mob + 3 * pot + 70 * corners - 12 * danger + 12 * stable;
    if (empties <= 14) {
        value += 4 * (popcount(P) - popcount(O));
        value += (empties & 1) ? 6 : -6;
    }
    return value;
}

double evaluate(u64 P, u64 O, int eval_id, const Weights *W) {
    switch (eval_id) {
    case EVAL_HANDMADE: return (double)evaluate_default(P, O);
    case EVAL_DISCS: return (double)(popcount(P) - popcount(O));
    case EVAL_WEIGHTED: return (double)(table_sum(WEIGHTED_SQ, P) - table_sum(WEIGHTED_SQ, O));
    case EVAL_LEARNED: return evaluate_patterns(P, O, W);
    default: break;
    }
    i64 mp = popcount(get_moves(P, O)), mo = popcount(get_moves(O, P));
    if (eval_id == EVAL_DOC000)
        return ratio_(popcount(P), popcount(O)) + ratio_(mp, mo) + ratio_(popcount(P & CORNERS), popcount(O & CORNERS));
    if (eval_id == EVAL_DOC001) return (double)(doc001_side(P, mp, mo) - doc001_side(O, mo, mp));
    /* EVAL_DOC004 */
    i64 d = popcount(P) - popcount(O);
    i64 stab = table_sum(STABILITY_SQ, P) - table_sum(STABILITY_SQ, O);
    return (double)(10 * d + 5 * (mp - mo) + 3 * stab);
}
