"""Bit tricks of the fast pattern evaluation: symmetric images of a bitboard and each pattern's base squares.

Shared by ``plies.train.patterns`` and the generated kernel ``plies.train.pattern_kernel``.
"""

# Instance k of a pattern lies on the squares SYMMETRIES[g_k, base], so on the board image B_g
# (B_g[s] = b[SYMMETRIES[g, s]]) it reads the base squares themselves.  The base squares of each pattern are
# extracted from a bitboard with a few shifts and masks (or a multiplication for the diagonals) into an n-bit
# number whose bit j is square j; a table turns that number into the ternary digits' value:
# raw = A[t, own bits] + 2 * A[t, opp bits].

from __future__ import annotations

import numpy as np
from numba import njit

_U = np.uint64


_K1 = _U(0x5555555555555555)
_K2 = _U(0x3333333333333333)
_K4 = _U(0x0F0F0F0F0F0F0F0F)
_B1 = _U(0x00FF00FF00FF00FF)
_B2 = _U(0x0000FFFF0000FFFF)
_T1 = _U(0x5500550055005500)
_T2 = _U(0x3333000033330000)
_T4 = _U(0x0F0F0F0F00000000)
_DIAG = _U(0x8040201008040201)
_DIAG_MASKS = tuple(_U(sum(1 << (i * 8 + i + d) for i in range(8 - d))) for d in range(5))
_SH = tuple(_U(k) for k in range(64))


@njit(cache=True, inline="always")
def image(x, g):  # type: ignore[no-untyped-def]
    """Board image B_g of bitboard x: bit s of the result is bit SYMMETRIES[g, s] of x."""
    if g & 2:  # rows reversed: byte swap
        x = ((x >> _SH[8]) & _B1) | ((x & _B1) << _SH[8])
        x = ((x >> _SH[16]) & _B2) | ((x & _B2) << _SH[16])
        x = (x >> _SH[32]) | (x << _SH[32])
    if g & 1:  # files reversed
        x = ((x >> _SH[1]) & _K1) | ((x & _K1) << _SH[1])
        x = ((x >> _SH[2]) & _K2) | ((x & _K2) << _SH[2])
        x = ((x >> _SH[4]) & _K4) | ((x & _K4) << _SH[4])
    if g & 4:  # transposed (a1-h8 diagonal)
        t = _T4 & (x ^ (x << _SH[28]))
        x ^= t ^ (t >> _SH[28])
        t = _T2 & (x ^ (x << _SH[14]))
        x ^= t ^ (t >> _SH[14])
        t = _T1 & (x ^ (x << _SH[7]))
        x ^= t ^ (t >> _SH[7])
    return x


@njit(cache=True, inline="always")
def extract(t, b):  # type: ignore[no-untyped-def]
    """Bits of pattern type t's base squares in b (bit j = square j of the pattern), as in ``PATTERNS``."""
    if t == 0:  # edge + 2 X-squares: a1..h1, b2, g2
        return (b & _U(0xFF)) | ((b >> _SH[1]) & _U(0x100)) | ((b >> _SH[5]) & _U(0x200))
    if t == 1:  # 3x3 corner
        return (b & _U(7)) | ((b >> _SH[5]) & _U(0x38)) | ((b >> _SH[10]) & _U(0x1C0))
    if t == 2:  # 2x5 corner
        return (b & _U(0x1F)) | ((b >> _SH[3]) & _U(0x3E0))
    if t <= 5:  # ranks 2, 3, 4
        return (b >> _SH[8 * (t - 2)]) & _U(0xFF)
    d = t - 6  # diagonals starting at a1 (d = 0), b1, c1, d1, e1: gather by file with one multiplication
    return ((b & _DIAG_MASKS[d]) * _U(0x0101010101010101)) >> _SH[56 + d]
