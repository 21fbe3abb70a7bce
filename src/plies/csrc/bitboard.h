/* Bitboards of 8x8 Othello: legal moves, flips, counts (the one move generator of plies).
 *
 * A position is (P, O): the discs of the side to move and of its opponent, square sq = bit sq, a1 = 0, h1 = 7,
 * a2 = 8 ... h8 = 63.  The 4 line directions (shifts 1, 8, 9, 7) are the 4 lanes of one vector.  Legal moves
 * fill runs of opponent discs from every own disc, left and right (Kogge-Stone fill, as Edax's AVX2 code);
 * flips look along the rays of one square for the first square that is not the opponent's (the lowest set bit
 * above it, the highest below it).  GCC/Clang vector extensions compile both to AVX2 where the build allows it
 * and to NEON on ARM64; x86-64's baseline build and the plain-C path (portable.h: MSVC, or -DPLIES_PORTABLE) run
 * the same code one lane at a time (PLIES_VECTOR_LANES); the AVX-512 build has its own two: flips finds the
 * highest square below with a vector leading-zero count, and moves fill all 8 directions in one 512-bit register
 * (left shifts and right ones as rotations: a bit that wraps around lands on an edge square that the lane's mask
 * clears).
 * Scalar references (shifts one direction at a time; table look-ups by lines) check the vector versions.
 */
#ifndef PLIES_BITBOARD_H
#define PLIES_BITBOARD_H

#include <stdint.h>
#include "portable.h"
#if PLIES_GNU && defined(__AVX512F__)
#include <immintrin.h>
#endif

typedef uint64_t u64;
typedef int64_t i64;

#define ONE ((u64)1)
#define CORNERS 0x8100000000000081ULL
#define NOT_COL_A 0xFEFEFEFEFEFEFEFEULL
#define NOT_COL_H 0x7F7F7F7F7F7F7F7FULL
#define INNER_COLS 0x7E7E7E7E7E7E7E7EULL
#define FILE_A 0x0101010101010101ULL
#define GATHER_FILE 0x0102040810204080ULL  /* file a's bits (8 apart) to one byte, row k to bit k */
#define GATHER_BYTES 0x0101010101010101ULL /* one square per column to one byte, column c to bit c */

static inline i64 popcount(u64 x) { return (i64)bit_count(x); }
/* Index of the lowest set bit; x must not be 0. */
static inline int lowest_index(u64 x) { return bit_first(x); }

/* The four lanes as one vector where that pays: GCC/Clang on x86-64 with AVX2 (and AVX-512), and elsewhere (NEON
 * on ARM64).  x86-64's baseline build (SSE2 only) runs them one lane at a time, as the plain-C path does: the
 * vector code lowered to SSE2 ran perft at half the rate. */
#if PLIES_GNU && (!PLIES_X86 || defined(__AVX2__))
#define PLIES_VECTOR_LANES 1
#else
#define PLIES_VECTOR_LANES 0
#endif

#if PLIES_VECTOR_LANES
typedef u64 v4u __attribute__((vector_size(32)));
typedef int64_t v4i __attribute__((vector_size(32)));
#define V4_LANE(v, k) ((v)[k])

static inline v4u v4_splat(u64 x) { return (v4u){x, x, x, x}; }
static inline u64 v4_or_lanes(v4u v) { return v[0] | v[1] | v[2] | v[3]; }

#define V4_SHIFT ((v4u){1, 8, 9, 7})
#define V4_SHIFT2 ((v4u){2, 16, 18, 14})
/* per lane: the opponent discs that can lie inside a run (no wrap around the board's edge) */
#define V4_INNER ((v4u){0x7E7E7E7E7E7E7E7EULL, 0x00FFFFFFFFFFFF00ULL, 0x007E7E7E7E7E7E00ULL, 0x007E7E7E7E7E7E00ULL})

/* Opponent discs reached from `start` by runs in each lane's direction, left (l) and right (r): two single
 * steps, then two double steps over pairs of opponent discs (runs of up to 6). */
static inline void v4_fill(v4u start, v4u inner, v4u *l, v4u *r) {
    const v4u s1 = V4_SHIFT, s2 = V4_SHIFT2;
    v4u pairs_l = inner & (inner << s1), pairs_r = inner & (inner >> s1);
    v4u a = inner & (start << s1), b = inner & (start >> s1);
    a |= inner & (a << s1);
    b |= inner & (b >> s1);
    a |= pairs_l & (a << s2);
    b |= pairs_r & (b >> s2);
    a |= pairs_l & (a << s2);
    b |= pairs_r & (b >> s2);
    *l = a;
    *r = b;
}

#else
/* One lane at a time (the plain-C path, x86-64's baseline build): the four lanes as an array, each lane's code the
 * vector code's. */
typedef struct {
    u64 lane[4];
} v4u;
#define V4_LANE(v, k) ((v).lane[k])
static const int V4_SHIFTS[4] = {1, 8, 9, 7};
static const u64 V4_INNERS[4] = {0x7E7E7E7E7E7E7E7EULL, 0x00FFFFFFFFFFFF00ULL, 0x007E7E7E7E7E7E00ULL,
                                 0x007E7E7E7E7E7E00ULL};
#endif

/* The rays from each square in the lanes' four directions, towards higher squares (RAY_UP: +1, +8, +9, +7)
 * and lower ones (RAY_DOWN: -1, -8, -9, -7); filled by bitboard_init. */
extern v4u RAY_UP[64], RAY_DOWN[64];

/* Opponent discs turned over by a disc of P on empty square sq (0: the move is illegal).  A run ends at the
 * first square of the ray that is not the opponent's: upwards the lowest set bit of ~O & ray (x & -x),
 * downwards the highest, found by smearing those squares down the ray and erasing all but the top one; the
 * run flips when that square is P's. */
#if PLIES_GNU && defined(__AVX512CD__) && defined(__AVX512VL__)
/* the same with AVX-512: the upward run by the mask of lanes that have an end, the downward end by lzcnt */
static inline u64 flips(u64 P, u64 O, int sq) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i own = _mm256_set1_epi64x((long long)P), opp = _mm256_set1_epi64x((long long)O);
    __m256i up = (__m256i)RAY_UP[sq], down = (__m256i)RAY_DOWN[sq];
    __m256i x = _mm256_andnot_si256(opp, up);
    __m256i end = _mm256_and_si256(_mm256_and_si256(x, _mm256_sub_epi64(zero, x)), own);
    __m256i f = _mm256_maskz_and_epi64(_mm256_test_epi64_mask(end, end),
                                       _mm256_add_epi64(end, _mm256_set1_epi64x(-1)), up);
    __m256i y = _mm256_andnot_si256(opp, down);
    end = _mm256_and_si256(_mm256_srlv_epi64(_mm256_set1_epi64x((long long)0x8000000000000000ULL),
                                             _mm256_lzcnt_epi64(y)), own);
    f = _mm256_ternarylogic_epi64(f, _mm256_sub_epi64(zero, _mm256_slli_epi64(end, 1)), down, 0xF8);
    __m128i r = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256(f, 1));
    return (u64)_mm_cvtsi128_si64(_mm_or_si128(r, _mm_unpackhi_epi64(r, r)));
}
#elif !PLIES_VECTOR_LANES
static inline u64 flips(u64 P, u64 O, int sq) {
    u64 f = 0;
    for (int k = 0; k < 4; k++) {
        const int s1 = V4_SHIFTS[k];
        u64 up = RAY_UP[sq].lane[k], down = RAY_DOWN[sq].lane[k];
        u64 x = ~O & up;
        u64 end = x & (0 - x) & P;
        f |= (end - (end != 0)) & up;
        u64 y = ~O & down;
        u64 z = y | (y >> s1);
        z |= z >> (s1 + s1);
        z |= z >> (s1 << 2);
        end = y & ~(z >> s1) & P;
        f |= (0 - (end << 1)) & down;
    }
    return f;
}
#else
static inline u64 flips(u64 P, u64 O, int sq) {
    const v4u s1 = V4_SHIFT;
    v4u own = v4_splat(P), not_opp = ~v4_splat(O);
    v4u up = RAY_UP[sq], down = RAY_DOWN[sq];
    v4u x = not_opp & up;
    v4u end = x & -x & own;
    v4u f = (end + (v4u)(end != 0)) & up; /* the squares below the end: (end - 1) when there is one */
    v4u y = not_opp & down;
    v4u z = y | (y >> s1);
    z |= z >> (s1 + s1);
    z |= z >> (s1 << 2);
    end = y & ~(z >> s1) & own;
    f |= -(end << 1) & down;              /* the squares above the end */
    return v4_or_lanes(f);
}
#endif

/* Bitmask of the legal moves of the side owning P. */
#if PLIES_GNU && defined(__AVX512F__)
/* lanes 0-3 fill runs towards higher squares (rotate left by 1, 8, 9, 7), lanes 4-7 towards lower ones (rotate
 * left by 64 minus those), as v4_fill does with two vectors */
static inline u64 get_moves(u64 P, u64 O) {
    const __m512i s1 = _mm512_set_epi64(57, 55, 56, 63, 7, 9, 8, 1);
    const __m512i s2 = _mm512_set_epi64(50, 46, 48, 62, 14, 18, 16, 2);
    const __m512i in = _mm512_set_epi64(0x007E7E7E7E7E7E00LL, 0x007E7E7E7E7E7E00LL, 0x00FFFFFFFFFFFF00LL,
                                        0x7E7E7E7E7E7E7E7ELL, 0x007E7E7E7E7E7E00LL, 0x007E7E7E7E7E7E00LL,
                                        0x00FFFFFFFFFFFF00LL, 0x7E7E7E7E7E7E7E7ELL);
    __m512i inner = _mm512_and_si512(_mm512_set1_epi64((long long)O), in);
    __m512i pairs = _mm512_and_si512(inner, _mm512_rolv_epi64(inner, s1));
    __m512i a = _mm512_and_si512(inner, _mm512_rolv_epi64(_mm512_set1_epi64((long long)P), s1));
    a = _mm512_ternarylogic_epi64(a, inner, _mm512_rolv_epi64(a, s1), 0xF8);
    a = _mm512_ternarylogic_epi64(a, pairs, _mm512_rolv_epi64(a, s2), 0xF8);
    a = _mm512_ternarylogic_epi64(a, pairs, _mm512_rolv_epi64(a, s2), 0xF8);
    a = _mm512_rolv_epi64(a, s1);
    __m256i h = _mm256_or_si256(_mm512_castsi512_si256(a), _mm512_extracti64x4_epi64(a, 1));
    __m128i r = _mm_or_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    return (u64)_mm_cvtsi128_si64(_mm_or_si128(r, _mm_unpackhi_epi64(r, r))) & ~(P | O);
}
#elif !PLIES_VECTOR_LANES
static inline u64 get_moves(u64 P, u64 O) {
    u64 m = 0;
    for (int k = 0; k < 4; k++) { /* v4_fill one lane at a time */
        const int s1 = V4_SHIFTS[k], s2 = 2 * s1;
        u64 inner = O & V4_INNERS[k];
        u64 pairs_l = inner & (inner << s1), pairs_r = inner & (inner >> s1);
        u64 a = inner & (P << s1), b = inner & (P >> s1);
        a |= inner & (a << s1);
        b |= inner & (b >> s1);
        a |= pairs_l & (a << s2);
        b |= pairs_r & (b >> s2);
        a |= pairs_l & (a << s2);
        b |= pairs_r & (b >> s2);
        m |= (a << s1) | (b >> s1);
    }
    return m & ~(P | O);
}
#else
static inline u64 get_moves(u64 P, u64 O) {
    const v4u s1 = V4_SHIFT;
    v4u l, r;
    v4_fill(v4_splat(P), v4_splat(O) & V4_INNER, &l, &r);
    return v4_or_lanes((l << s1) | (r >> s1)) & ~(P | O);
}
#endif

static inline i64 count_moves(u64 P, u64 O) { return popcount(get_moves(P, O)); }

/* Empty squares next to an opponent disc (potential mobility of P, the frontier of O). */
static inline u64 potential_moves(u64 P, u64 O) {
    u64 n = ((O << 1) & NOT_COL_A) | ((O >> 1) & NOT_COL_H) | (O << 8) | (O >> 8);
    n |= ((O << 9) & NOT_COL_A) | ((O >> 9) & NOT_COL_H) | ((O << 7) & NOT_COL_H) | ((O >> 7) & NOT_COL_A);
    return n & ~(P | O);
}

/* Exact disc difference for P of a finished game, empty squares to the winner. */
static inline i64 final_score(u64 P, u64 O) {
    i64 p = popcount(P), o = popcount(O);
    i64 e = 64 - p - o, d = p - o;
    if (d > 0) return d + e;
    if (d < 0) return d - e;
    return 0;
}

/* --- scalar references (tests check the vector code against them) --------------------------------------- */

static inline u64 dir_moves_(u64 P, u64 M, int d) {
    u64 fl = M & (P << d), fr = M & (P >> d);
    fl |= M & (fl << d);
    fr |= M & (fr >> d);
    u64 pl = M & (M << d), pr = pl >> d;
    fl |= pl & (fl << (2 * d));
    fr |= pr & (fr >> (2 * d));
    fl |= pl & (fl << (2 * d));
    fr |= pr & (fr >> (2 * d));
    return (fl << d) | (fr >> d);
}

/* get_moves one direction at a time with scalar shifts. */
static inline u64 get_moves_by_shifts(u64 P, u64 O) {
    u64 M = O & INNER_COLS;
    u64 m = dir_moves_(P, M, 1) | dir_moves_(P, O, 8) | dir_moves_(P, M, 7) | dir_moves_(P, M, 9);
    return m & ~(P | O);
}

/* Line tables (filled by bitboard_init): OUTFLANK[pos][o6] the squares of a line of 8 that close a run of
 * opponent discs from pos (o6: the opponent's 6 inner squares); FLIPPED[pos][ends] the squares between pos
 * and those ends; DIAG_MASK / ANTI_MASK[sq] the diagonals through sq; FILE_SPREAD[b] bit k of b to row k of
 * file a; LINE_FLIPS[pos][bits] the discs turned on a line by a move at pos when bits are the mover's and
 * every other square is the opponent's (the endgame's last-move count). */
extern uint8_t OUTFLANK[8][64];
extern uint8_t FLIPPED[8][256];
extern u64 DIAG_MASK[64], ANTI_MASK[64], FILE_SPREAD[256];
extern uint8_t LINE_FLIPS[8][256];
void bitboard_init(void);

static inline u64 line_flips_(int pos, u64 p8, u64 o8) {
    return (u64)FLIPPED[pos][OUTFLANK[pos][(o8 >> 1) & 63] & p8];
}

/* flips by table look-ups: each of the 4 lines through sq gathered into a byte, looked up, scattered back. */
static inline u64 flips_by_lines(u64 P, u64 O, int sq) {
    int r = sq >> 3, c = sq & 7;
    u64 f = line_flips_(c, (P >> (r * 8)) & 0xFF, (O >> (r * 8)) & 0xFF) << (r * 8);
    u64 p8 = (((P >> c) & FILE_A) * GATHER_FILE) >> 56, o8 = (((O >> c) & FILE_A) * GATHER_FILE) >> 56;
    f |= FILE_SPREAD[line_flips_(r, p8, o8)] << c;
    u64 m = DIAG_MASK[sq];
    f |= (line_flips_(c, ((P & m) * GATHER_BYTES) >> 56, ((O & m) * GATHER_BYTES) >> 56) * GATHER_BYTES) & m;
    m = ANTI_MASK[sq];
    f |= (line_flips_(c, ((P & m) * GATHER_BYTES) >> 56, ((O & m) * GATHER_BYTES) >> 56) * GATHER_BYTES) & m;
    return f;
}

/* Discs turned over by P playing sq when every other square is full (the opponent owns the rest). */
static inline i64 last_flip_count(u64 P, int sq) {
    int r = sq >> 3, c = sq & 7;
    i64 n = LINE_FLIPS[c][(P >> (r * 8)) & 0xFF];
    n += LINE_FLIPS[r][(((P >> c) & FILE_A) * GATHER_FILE) >> 56];
    n += LINE_FLIPS[c][((P & DIAG_MASK[sq]) * GATHER_BYTES) >> 56];
    n += LINE_FLIPS[c][((P & ANTI_MASK[sq]) * GATHER_BYTES) >> 56];
    return n;
}

#endif
