/* The line tables of bitboard.h, computed once when the module loads. */
#include "bitboard.h"

uint8_t OUTFLANK[8][64];
uint8_t FLIPPED[8][256];
u64 DIAG_MASK[64], ANTI_MASK[64], FILE_SPREAD[256];
uint8_t LINE_FLIPS[8][256];
v4u RAY_UP[64], RAY_DOWN[64];

void bitboard_init(void) {
    for (int pos = 0; pos < 8; pos++) {
        for (int o6 = 0; o6 < 64; o6++) {
            int opp = o6 << 1;
            uint8_t out = 0;
            if (!(opp >> pos & 1)) {
                for (int step = 1; step >= -1; step -= 2) {
                    int k = pos + step;
                    if (!(k >= 0 && k < 8 && (opp >> k & 1))) continue;
                    while (k >= 0 && k < 8 && (opp >> k & 1)) k += step;
                    if (k >= 0 && k < 8) out |= (uint8_t)(1 << k);
                }
            }
            OUTFLANK[pos][o6] = out;
        }
        for (int ends = 0; ends < 256; ends++) {
            uint8_t f = 0;
            for (int k = 0; k < 8; k++) {
                if (!(ends >> k & 1)) continue;
                int lo = k < pos ? k : pos, hi = k < pos ? pos : k;
                for (int j = lo + 1; j < hi; j++) f |= (uint8_t)(1 << j);
            }
            FLIPPED[pos][ends] = f;
        }
    }
    for (int sq = 0; sq < 64; sq++) {
        int r = sq / 8, c = sq % 8;
        u64 d = 0, a = 0;
        for (int k = 0; k < 64; k++) {
            if (k / 8 - k % 8 == r - c) d |= ONE << k;
            if (k / 8 + k % 8 == r + c) a |= ONE << k;
        }
        DIAG_MASK[sq] = d;
        ANTI_MASK[sq] = a;
    }
    static const int DROW[4] = {0, 1, 1, 1}, DCOL[4] = {1, 0, 1, -1}; /* the lanes' directions: +1, +8, +9, +7 */
    for (int sq = 0; sq < 64; sq++) {
        for (int k = 0; k < 4; k++) {
            u64 up = 0, down = 0;
            for (int sign = 1; sign >= -1; sign -= 2) {
                int r = sq / 8 + sign * DROW[k], c = sq % 8 + sign * DCOL[k];
                for (; r >= 0 && r < 8 && c >= 0 && c < 8; r += sign * DROW[k], c += sign * DCOL[k]) {
                    if (sign > 0) up |= ONE << (8 * r + c);
                    else down |= ONE << (8 * r + c);
                }
            }
            V4_LANE(RAY_UP[sq], k) = up;
            V4_LANE(RAY_DOWN[sq], k) = down;
        }
    }
    for (int b = 0; b < 256; b++) {
        u64 s = 0;
        for (int k = 0; k < 8; k++)
            if (b >> k & 1) s |= ONE << (8 * k);
        FILE_SPREAD[b] = s;
    }
    for (int pos = 0; pos < 8; pos++) {
        for (int bits = 0; bits < 256; bits++) {
            uint8_t n = 0;
            if (!(bits >> pos & 1)) {
                int opponent = 0xFF & ~bits & ~(1 << pos);
                n = (uint8_t)bit_count(FLIPPED[pos][OUTFLANK[pos][opponent >> 1 & 63] & bits]);
            }
            LINE_FLIPS[pos][bits] = n;
        }
    }
}
