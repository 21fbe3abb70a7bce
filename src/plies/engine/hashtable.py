"""Transposition table in a numpy record array: full-key check, lower/upper bounds, best move, two-way buckets.

The compiled searches read and write it in place (``src/plies/csrc/hashtable.h`` has the same record layout
and the probe/store rules): each bucket has two entries, the first keeps the deepest (or newest-search)
result, the second is always replaced.  Depths of 64 and more are the endgame solver's selective results
(64 + empties).  Keys are the full ``(P, O)`` pair, so a hit is never a collision.
"""

# ruff: noqa: E741  (P and O, the discs of the player to move and of the opponent, as in Edax)

from __future__ import annotations

import numpy as np

from plies.core import lib

NO_MOVE = -2
# one record per entry, so a probe touches one place in memory (the layout of ``Entry`` in hashtable.h)
ENTRY = np.dtype([("P", np.uint64), ("O", np.uint64), ("lower", np.float64), ("upper", np.float64),
                  ("depth", np.int8), ("move", np.int8), ("date", np.uint8), ("lock", np.uint8)], align=True)
ENTRY_BYTES = ENTRY.itemsize

TableArrays = tuple[np.ndarray, int, int]
"""What the compiled searches take: (records, 64 - bits, generation)."""


class HashTable:
    """A transposition table of ``2**bits`` entries sized to about ``mb`` megabytes."""

    def __init__(self, mb: int = 64) -> None:
        entries = max(1024, int(mb * 1024 * 1024 // ENTRY_BYTES))
        self.bits = max(10, entries.bit_length() - 1)
        self.generation = 0
        self.mode = ""
        self.fresh = True
        self.clear()

    def clear(self) -> None:
        """No entries: all records zero (the key (0, 0) is no position, so a zero record never matches), in
        fresh memory, which the system hands out zeroed page by page as the searches touch it."""
        self.records = np.zeros(1 << self.bits, dtype=ENTRY)
        self.move = self.records["move"]
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

    def arrays(self) -> TableArrays:
        """The tuple the compiled searches take."""
        return (self.records, 64 - self.bits, self.generation)


def probe(tt: TableArrays, P: int, O: int) -> int:
    """Index of the entry holding (P, O) in the table ``tt`` (``HashTable.arrays()``), or -1."""
    return int(lib.tt_probe(tt, int(P), int(O)))
