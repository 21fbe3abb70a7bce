"""Transposition table in a numpy record array: full-key check, lower/upper bounds, best move, two-way buckets.

Each bucket has two entries: the first keeps the deepest (or newest-search) result, the second is always
replaced.  Depths of 64 and more are the endgame solver's selective results (64 + empties): they rank by
their empties.  Keys are the full ``(P, O)`` pair, so a hit is never a collision.  The index is a multiplicative
64-bit hash of the pair (the side to move is implicit: ``P`` always belongs to it).
"""

# ruff: noqa: E741  (P and O, the discs of the player to move and of the opponent, as in Edax)

from __future__ import annotations

import numpy as np
from numba import njit

from plies.engine.bitboard import U64

_K1 = U64(0x9E3779B97F4A7C15)
_K2 = U64(0xC2B2AE3D27D4EB4F)
_K3 = U64(0x165667B19E3779F9)
_S29 = U64(29)

NO_MOVE = -2
# one record per entry, so a probe touches one place in memory rather than one per field (the fields are
# strided views of the records: the compiled searches index them like plain arrays)
ENTRY = np.dtype([("P", np.uint64), ("O", np.uint64), ("lower", np.float64), ("upper", np.float64),
                  ("depth", np.int8), ("move", np.int8), ("date", np.uint8)], align=True)
ENTRY_BYTES = ENTRY.itemsize


class HashTable:
    """A transposition table of ``2**bits`` entries sized to about ``mb`` megabytes."""

    def __init__(self, mb: int = 64) -> None:
        entries = max(1024, int(mb * 1024 * 1024 // ENTRY_BYTES))
        self.bits = max(10, entries.bit_length() - 1)
        n = 1 << self.bits
        self.records = np.zeros(n, dtype=ENTRY)
        self.keys_p = self.records["P"]
        self.keys_o = self.records["O"]
        self.lower = self.records["lower"]
        self.upper = self.records["upper"]
        self.depth = self.records["depth"]
        self.move = self.records["move"]
        self.date = self.records["date"]
        self.depth.fill(-1)
        self.move.fill(NO_MOVE)
        self.generation = 0
        self.mode = ""
        self.fresh = True

    def clear(self) -> None:
        self.keys_p.fill(0)
        self.keys_o.fill(0)
        self.depth.fill(-1)
        self.move.fill(NO_MOVE)
        self.date.fill(0)
        self.generation = 0

    def reset(self) -> None:
        """Back to a new table: no entries and no mode (the next ``prepare`` starts afresh)."""
        self.clear()
        self.mode = ""
        self.fresh = True

    def prepare(self, mode: str) -> None:
        """Start a new search in ``mode`` (evaluation name or ``exact``): entries of another mode are dropped,
        entries of older searches become replaceable."""
        if mode != self.mode:
            if not self.fresh:
                self.clear()
            self.mode = mode
        self.fresh = False
        self.generation = (self.generation + 1) % 255 + 1

    def arrays(self) -> tuple:
        """The tuple the compiled searches take."""
        return (self.keys_p, self.keys_o, self.lower, self.upper, self.depth, self.move, self.date,
                np.uint8(self.generation), np.uint64(64 - self.bits))


@njit(cache=True, _nrt=False, inline="always")
def bucket(P, O, shift):  # type: ignore[no-untyped-def]
    """Index of the first entry of the bucket of (P, O) (even index; the pair is i, i + 1)."""
    h = (P * _K1) ^ (O * _K2)
    h ^= h >> _S29
    h *= _K3
    return np.int64(h >> shift) & ~np.int64(1)


@njit(cache=True, _nrt=False, inline="always")
def probe(tt, P, O):  # type: ignore[no-untyped-def]
    """Index of the entry holding (P, O), or -1."""
    keys_p, keys_o = tt[0], tt[1]
    i = bucket(P, O, tt[8])
    if keys_p[i] == P and keys_o[i] == O and tt[4][i] >= 0:
        return i
    if keys_p[i + 1] == P and keys_o[i + 1] == O and tt[4][i + 1] >= 0:
        return i + 1
    return np.int64(-1)


@njit(cache=True, _nrt=False, inline="always")
def _priority(depth):  # type: ignore[no-untyped-def]
    """How much an entry of ``depth`` is worth keeping: selective endgame tags (64 + empties) as their empties."""
    return depth & 63 if depth >= 0 else depth


@njit(cache=True, _nrt=False)
def store(tt, P, O, depth, alpha, beta, value, move):  # type: ignore[no-untyped-def]
    """Record ``value`` of a search of (P, O) to ``depth`` with window (alpha, beta) and its best move."""
    keys_p, keys_o, lower, upper, depths, moves, dates, gen = tt[0], tt[1], tt[2], tt[3], tt[4], tt[5], tt[6], tt[7]
    i = bucket(P, O, tt[8])
    if keys_p[i] == P and keys_o[i] == O and depths[i] >= 0:
        j = i
    elif keys_p[i + 1] == P and keys_o[i + 1] == O and depths[i + 1] >= 0:
        j = i + 1
    elif _priority(depth) >= _priority(depths[i]) or dates[i] != gen:
        j = i
        if depths[i] >= 0 and dates[i] == gen:
            # keep the displaced deep entry in the always-replace slot
            keys_p[i + 1] = keys_p[i]
            keys_o[i + 1] = keys_o[i]
            lower[i + 1] = lower[i]
            upper[i + 1] = upper[i]
            depths[i + 1] = depths[i]
            moves[i + 1] = moves[i]
            dates[i + 1] = dates[i]
        depths[j] = -1
        moves[j] = -2
    else:
        j = i + 1
        depths[j] = -1
        moves[j] = -2
    if depths[j] != depth:
        lower[j] = -np.inf
        upper[j] = np.inf
    if value <= alpha:
        if value < upper[j]:
            upper[j] = value
    elif value >= beta:
        if value > lower[j]:
            lower[j] = value
    else:
        lower[j] = value
        upper[j] = value
    if lower[j] > upper[j]:  # inconsistent with an older search of the same depth: trust the new one
        if value <= alpha:
            lower[j] = -np.inf
        else:
            upper[j] = np.inf
    keys_p[j] = P
    keys_o[j] = O
    depths[j] = depth
    if move >= 0:
        moves[j] = move
    dates[j] = gen
