"""Compiled evaluations of 8x8 positions, from the side to move's view (``P``), as float64.

The seeds' heuristics are compiled here from the same tables (``plies.heuristics.othello.tables(8)``) and the
same arithmetic, so they return exactly the numbers of ``plies.heuristics.othello``; that is what lets the
engine be checked against the textbook search.  ``default`` is a hand-made evaluation in the classic style:
mobility, potential mobility (frontier), corners, X/C-squares next to empty corners, stable discs, parity.
"""

# ruff: noqa: E741  (P and O, the discs of the player to move and of the opponent, as in Edax)

from __future__ import annotations

import numpy as np
from numba import njit

from plies.engine.bitboard import CORNERS, ONE, U64, ZERO, get_moves, lowest_index, popcount, potential_moves
from plies.game import ParseError
from plies.heuristics import get as get_heuristic
from plies.heuristics.othello import corner_neighbours, masks, tables
from plies.train.patterns import evaluate_patterns

EVALUATIONS: dict[str, int] = {
    "handmade": 0,
    "discs": 1,
    "parity-mobility-corners": 2,
    "corner-edge-blocking": 3,
    "disc-mobility-stability": 4,
    "weighted-squares": 5,
    "learned": 6,
}
"""Evaluation name -> id used by the compiled search (seed heuristics keep their ``plies.heuristics`` names)."""

LEARNED = 6
"""Id of the learned pattern evaluation (``plies.train``): the only one that reads the weight array ``W``."""

DEFAULT_EVALUATION = "learned"
"""What the engine evaluates with unless told otherwise (``eval=default`` and ``eval=engine`` name it too)."""

DESCRIPTIONS = {
    "handmade": "engine's hand-made evaluation: mobility, frontier, corners, X/C-squares, stable discs, parity",
    "learned": "pattern weights learned by `plies train` (src/plies/train/data/weights.npz), in discs; the default",
}

NO_WEIGHTS = np.zeros((1, 1), dtype=np.float32)
"""The weight argument of the compiled search for every evaluation but ``learned`` (same type, one compile)."""


def weights_for(eval_id: int) -> np.ndarray:
    """The weight array the compiled search takes for ``eval_id``: the shipped learned weights in their
    expanded (faster) form for ``learned``, else a dummy.  Passed as an argument, never a numba global, so
    the compiled code and its cache do not freeze a copy of them."""
    if eval_id != LEARNED:
        return NO_WEIGHTS
    return _learned_weights()


_LEARNED_W: list[np.ndarray] = []


def _learned_weights() -> np.ndarray:
    if not _LEARNED_W:
        _LEARNED_W.append(load_expanded(None))
    return _LEARNED_W[0]


def load_expanded(path: str | None) -> np.ndarray:
    """A weights file (``plies train fit``; None: the shipped one) in the expanded form the search reads."""
    from plies.train.fit import load_weights
    from plies.train.patterns import expand_weights

    return np.ascontiguousarray(expand_weights(load_weights(path)), dtype=np.float32)


def evaluation_id(name: str | None) -> int:
    """The compiled id of an evaluation name or alias (``doc001``, ``squares`` ...); ParseError if unknown."""
    key = (name or DEFAULT_EVALUATION).strip().lower()
    if key in ("default", "engine"):
        key = DEFAULT_EVALUATION
    if key in EVALUATIONS:
        return EVALUATIONS[key]
    try:
        h = get_heuristic("othello", key)
    except ParseError:
        raise ParseError(f"unknown evaluation {name!r}; choose from: {', '.join(EVALUATIONS)}") from None
    if h.name not in EVALUATIONS:
        raise ParseError(f"evaluation {h.name!r} has no compiled version; choose from: {', '.join(EVALUATIONS)}")
    return EVALUATIONS[h.name]


def evaluation_name(eval_id: int) -> str:
    return next(k for k, v in EVALUATIONS.items() if v == eval_id)


def _byte_table(weights: tuple[int, ...]) -> np.ndarray:
    """T[row, byte] = sum of the weights of the squares set in ``byte`` of ``row``: 8 lookups per bitboard."""
    t = np.zeros((8, 256), dtype=np.int64)
    for row in range(8):
        for b in range(256):
            t[row, b] = sum(weights[row * 8 + c] for c in range(8) if b >> c & 1)
    return t


_T = tables(8)
WEIGHTED = _byte_table(_T["weighted"])
STABILITY = _byte_table(_T["stability"])
_M = masks(8)
EDGES = U64(_M["edges"])
NOT_EDGES_CORNERS = U64(~(_M["edges"] | _M["corners"]) & 0xFFFFFFFFFFFFFFFF)
_CN = corner_neighbours(8)
CORNER_BITS = np.array([c for c, _ in _CN], dtype=np.uint64)
CORNER_GUARDS = np.array([g for _, g in _CN], dtype=np.uint64)
X_SQUARES = np.array([1 << 9, 1 << 14, 1 << 49, 1 << 54], dtype=np.uint64)
C_SQUARES = np.array([g for _, g in _CN], dtype=np.uint64)

_BYTE = U64(0xFF)


@njit(cache=True, inline="always")
def table_sum(T, b):  # type: ignore[no-untyped-def]
    s = np.int64(0)
    for row in range(8):
        s += T[row, (b >> U64(8 * row)) & _BYTE]
    return s


@njit(cache=True, inline="always")
def _ratio(a, b):  # type: ignore[no-untyped-def]
    if a + b:
        return 100.0 * (a - b) / (a + b)
    return 0.0


@njit(cache=True)
def _doc001_side(me, op, my_moves, their_moves):  # type: ignore[no-untyped-def]
    value = 1000 * np.int64(popcount(me & CORNERS))
    guarded = ZERO
    for k in range(4):
        if me & CORNER_BITS[k]:
            guarded |= CORNER_GUARDS[k]
    value += 800 * np.int64(popcount(me & guarded))
    value += 500 * np.int64(popcount(me & EDGES & ~guarded))
    value += 50 * np.int64(popcount(me & NOT_EDGES_CORNERS))
    value -= 100 * their_moves
    if my_moves and not their_moves:
        value += 700
    return value


# --- stable discs -------------------------------------------------------------------------------------------

_COL_A = U64(0x0101010101010101)
_COL_H = U64(0x8080808080808080)
_ROW_1 = U64(0xFF)
_ROW_8 = U64(0xFF00000000000000)
_BORDER = _COL_A | _COL_H | _ROW_1 | _ROW_8


def _lines() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rows = [sum(1 << (r * 8 + c) for c in range(8)) for r in range(8)]
    cols = [sum(1 << (r * 8 + c) for r in range(8)) for c in range(8)]
    diag = [sum(1 << (r * 8 + c) for r in range(8) for c in range(8) if c - r == k) for k in range(-7, 8)]
    anti = [sum(1 << (r * 8 + c) for r in range(8) for c in range(8) if c + r == k) for k in range(15)]
    return tuple(np.array(x, dtype=np.uint64) for x in (rows, cols, diag, anti))  # type: ignore[return-value]


LINES_H, LINES_V, LINES_D, LINES_A = _lines()


def _lines_through() -> np.ndarray:
    """LINES_THROUGH[sq]: the 4 lines (row, column, diagonal, anti-diagonal) through square ``sq``."""
    out = np.zeros((64, 4), dtype=np.uint64)
    for sq in range(64):
        r, c = divmod(sq, 8)
        out[sq] = (LINES_H[r], LINES_V[c], LINES_D[c - r + 7], LINES_A[c + r])
    return out


LINES_THROUGH = _lines_through()
FEW_EMPTIES = 12  # up to this many empties, the full lines are found from the empties (fewer steps)


@njit(cache=True)
def full_lines_by_empties(occ):  # type: ignore[no-untyped-def]
    """``full_lines`` for few empties: every line is full but those through an empty square."""
    E = ~occ
    h = v = d = a = ZERO
    while E:
        sq = lowest_index(E)
        E &= E - ONE
        h |= LINES_THROUGH[sq, 0]
        v |= LINES_THROUGH[sq, 1]
        d |= LINES_THROUGH[sq, 2]
        a |= LINES_THROUGH[sq, 3]
    return ~h, ~v, ~d, ~a


@njit(cache=True)
def full_lines_by_lines(occ):  # type: ignore[no-untyped-def]
    """``full_lines`` by testing each of the 46 lines."""
    h = ZERO
    v = ZERO
    for i in range(8):
        if occ & LINES_H[i] == LINES_H[i]:
            h |= LINES_H[i]
        if occ & LINES_V[i] == LINES_V[i]:
            v |= LINES_V[i]
    d = ZERO
    a = ZERO
    for i in range(15):
        if occ & LINES_D[i] == LINES_D[i]:
            d |= LINES_D[i]
        if occ & LINES_A[i] == LINES_A[i]:
            a |= LINES_A[i]
    return h, v, d, a


@njit(cache=True)
def full_lines(occ):  # type: ignore[no-untyped-def]
    """Masks of the squares whose horizontal, vertical, diagonal and anti-diagonal lines are full (found from
    the empties when there are few, as in the endgame solver: fewer steps than testing 46 lines)."""
    if popcount(~occ) <= FEW_EMPTIES:
        return full_lines_by_empties(occ)
    return full_lines_by_lines(occ)


@njit(cache=True)
def stable_discs(P, O):  # type: ignore[no-untyped-def]
    """Discs of ``P`` that can never be flipped (a sound under-estimate): along each of the 4 lines the disc
    touches the border or a stable disc of its own, or the line is full.  Grows from the corners."""
    occ = P | O
    if not (P & CORNERS):
        return ZERO
    h, v, d, a = full_lines(occ)
    h |= _COL_A | _COL_H
    v |= _ROW_1 | _ROW_8
    d |= _BORDER
    a |= _BORDER
    stable = P & CORNERS
    while True:
        hh = h | (stable << U64(1)) & ~_COL_A | (stable >> U64(1)) & ~_COL_H
        vv = v | (stable << U64(8)) | (stable >> U64(8))
        dd = d | (stable << U64(9)) & ~_COL_A | (stable >> U64(9)) & ~_COL_H
        aa = a | (stable << U64(7)) & ~_COL_H | (stable >> U64(7)) & ~_COL_A
        new = P & hh & vv & dd & aa
        new |= stable
        if new == stable:
            return stable
        stable = new


# --- the evaluations ----------------------------------------------------------------------------------------


@njit(cache=True)
def evaluate_default(P, O):  # type: ignore[no-untyped-def]
    """Hand-made evaluation (integer-valued, roughly 10 units per disc of advantage)."""
    mP = get_moves(P, O)
    mO = get_moves(O, P)
    empties = 64 - np.int64(popcount(P | O))
    mob = np.int64(popcount(mP)) - np.int64(popcount(mO))
    mob += np.int64(popcount(mP & CORNERS)) - np.int64(popcount(mO & CORNERS))
    pot = np.int64(popcount(potential_moves(P, O))) - np.int64(popcount(potential_moves(O, P)))
    corners = np.int64(popcount(P & CORNERS)) - np.int64(popcount(O & CORNERS))
    danger = np.int64(0)
    occ = P | O
    for k in range(4):
        if not (occ & CORNER_BITS[k]):
            x = X_SQUARES[k]
            c = C_SQUARES[k]
            danger += 3 * (np.int64(popcount(P & x)) - np.int64(popcount(O & x)))
            danger += np.int64(popcount(P & c)) - np.int64(popcount(O & c))
    stable = np.int64(popcount(stable_discs(P, O))) - np.int64(popcount(stable_discs(O, P)))
    value = 9 * mob + 3 * pot + 70 * corners - 12 * danger + 12 * stable
    if empties <= 14:
        value += 4 * (np.int64(popcount(P)) - np.int64(popcount(O)))
        value += 6 if empties & 1 else -6
    return value


@njit(cache=True, _nrt=False)
def evaluate(P, O, eval_id, W):  # type: ignore[no-untyped-def]
    """Value of a position that is not over, for the side to move, with evaluation ``eval_id`` (float64).
    ``W`` is the learned weight array (``weights_for``): read only by ``learned``, a dummy otherwise."""
    if eval_id == 0:
        return float(evaluate_default(P, O))
    if eval_id == 1:
        return float(np.int64(popcount(P)) - np.int64(popcount(O)))
    if eval_id == 5:
        return float(table_sum(WEIGHTED, P) - table_sum(WEIGHTED, O))
    if eval_id == 6:
        return evaluate_patterns(P, O, W)
    mp = np.int64(popcount(get_moves(P, O)))
    mo = np.int64(popcount(get_moves(O, P)))
    if eval_id == 2:
        parity = _ratio(np.int64(popcount(P)), np.int64(popcount(O)))
        mobility = _ratio(mp, mo)
        corner = _ratio(np.int64(popcount(P & CORNERS)), np.int64(popcount(O & CORNERS)))
        return parity + mobility + corner
    if eval_id == 3:
        return float(_doc001_side(P, O, mp, mo) - _doc001_side(O, P, mo, mp))
    # eval_id == 4
    d = np.int64(popcount(P)) - np.int64(popcount(O))
    stab = table_sum(STABILITY, P) - table_sum(STABILITY, O)
    return float(10 * d + 5 * (mp - mo) + 3 * stab)


def evaluate_state(state: object, name: str | None = None) -> float:
    """Evaluate an 8x8 ``OthelloState`` for its side to move (Python helper for tests and tools)."""
    from plies.engine.bitboard import position

    P, O = position(state)
    eval_id = evaluation_id(name)
    return float(evaluate(P, O, np.int64(eval_id), weights_for(eval_id)))


__all__ = ["DEFAULT_EVALUATION", "EVALUATIONS", "LEARNED", "NO_WEIGHTS", "ONE", "evaluate", "evaluate_state",
           "evaluation_id", "evaluation_name", "stable_discs", "weights_for"]
