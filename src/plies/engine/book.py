"""Opening book look-up: positions near the start with the values of their good moves (the engine plays them
before it searches).

Positions are stored once per symmetry class: under the canonical one of their 8 images (the smallest
``(own, opp)`` pair), with moves in that image's frame; ``Book.lookup`` maps them back.  ``plies train book``
(``plies.train.book.build_book``) makes the file.

File: compressed .npz with ``own``/``opp`` (uint64, side to move / opponent, canonical), ``start`` (int32 row
offsets), ``moves`` (int8, -1 is a pass), ``values`` (float32, side to move's view), ``meta`` (JSON).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np

from plies.engine.patterns import INVERSE, SYMMETRIES
from plies.game import PASS, PliesError, State
from plies.games import OthelloState

DEFAULT_BOOK = Path(__file__).parent / "data" / "book.npz"

_SYM = [[1 << int(SYMMETRIES[g, sq]) for sq in range(64)] for g in range(8)]


def transform(b: int, g: int) -> int:
    """Bitboard ``b`` under board symmetry ``g``."""
    table = _SYM[g]
    out = 0
    while b:
        low = b & -b
        out |= table[low.bit_length() - 1]
        b ^= low
    return out


def canonical(own: int, opp: int) -> tuple[tuple[int, int], int]:
    """((own, opp) of the canonical image, symmetry g that maps the position onto it)."""
    best = (own, opp)
    best_g = 0
    for g in range(1, 8):
        image = (transform(own, g), transform(opp, g))
        if image < best:
            best, best_g = image, g
    return best, best_g


def _to_frame(move: int, g: int) -> int:
    return move if move == PASS else int(SYMMETRIES[g, move])


def _from_frame(move: int, g: int) -> int:
    return move if move == PASS else int(INVERSE[g, move])


class Book:
    """Positions (canonical under symmetry) -> [(move, value)] best first; values for the side to move."""

    def __init__(self, entries: dict[tuple[int, int], list[tuple[int, float]]] | None = None,
                 meta: dict | None = None) -> None:
        self.entries = entries or {}
        self.meta = meta or {}

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, state: object) -> bool:
        return isinstance(state, State) and bool(self.lookup(state))

    def add(self, state: OthelloState, moves: list[tuple[int, float]]) -> None:
        """Store the (move, value) list of a position (moves in the position's own frame)."""
        key, g = canonical(*state.own_opp())
        self.entries[key] = sorted(((_to_frame(m, g), float(v)) for m, v in moves), key=lambda mv: -mv[1])

    def lookup(self, state: State) -> list[tuple[int, float]]:
        """The book's (move, value) pairs for ``state``, best first; [] when it is not in the book."""
        if not isinstance(state, OthelloState) or state.n != 8:
            return []
        key, g = canonical(*state.own_opp())
        return [(_from_frame(m, g), v) for m, v in self.entries.get(key, [])]

    def choose(self, state: State, rng: random.Random | None = None, margin: float = 0.0) -> int | None:
        """A book move: the best, or (with ``rng``) any within ``margin`` of the best; None when out of book."""
        moves = self.lookup(state)
        if not moves:
            return None
        best = moves[0][1]
        good = [m for m, v in moves if v >= best - margin]
        return rng.choice(good) if rng is not None else good[0]

    # --- files ------------------------------------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        keys = sorted(self.entries)
        start = np.zeros(len(keys) + 1, dtype=np.int32)
        moves: list[int] = []
        values: list[float] = []
        for k, key in enumerate(keys):
            for m, v in self.entries[key]:
                moves.append(m)
                values.append(v)
            start[k + 1] = len(moves)
        with open(path, "wb") as f:
            np.savez_compressed(
                f,
                own=np.array([k[0] for k in keys], dtype=np.uint64),
                opp=np.array([k[1] for k in keys], dtype=np.uint64),
                start=start,
                moves=np.array(moves, dtype=np.int8),
                values=np.array(values, dtype=np.float32),
                meta=np.array(json.dumps({"format": "plies-book", "version": 1, **self.meta})),
            )

    @classmethod
    def load(cls, path: str | Path | None = None) -> Book:
        """A book file (the shipped book by default)."""
        p = Path(path) if path is not None else DEFAULT_BOOK
        try:
            with np.load(p) as z:
                own, opp, start, moves, values = (z[k] for k in ("own", "opp", "start", "moves", "values"))
                meta = json.loads(str(z["meta"])) if "meta" in z else {}
        except FileNotFoundError:
            raise PliesError(f"no book file {p}") from None
        except (OSError, ValueError, KeyError) as e:
            raise PliesError(f"{p} is not a book file: {e}") from None
        entries = {}
        for k in range(len(own)):
            a, b = int(start[k]), int(start[k + 1])
            entries[(int(own[k]), int(opp[k]))] = [(int(moves[j]), float(values[j])) for j in range(a, b)]
        return cls(entries, meta)


def load_book(path: str | Path | None = None) -> Book:
    """The shipped opening book (or the book file ``path``)."""
    return Book.load(path)


__all__ = ["DEFAULT_BOOK", "Book", "canonical", "load_book", "transform"]
