"""Evaluations of 8x8 positions, from the side to move's view (``P``), as float64 (compiled:
``src/plies/csrc/eval.c``).

The seeds' heuristics are compiled from the same tables as ``plies.heuristics.othello.tables(8)`` and the same
arithmetic, so they return exactly the numbers of ``plies.heuristics.othello`` (tested); that is what lets the
engine be checked against the textbook search.  ``handmade`` is an evaluation in the classic style: mobility,
potential mobility (frontier), corners, X/C-squares next to empty corners, stable discs, parity.  ``learned``
is the pattern evaluation (``plies.engine.patterns``) with the shipped weights.
"""

# ruff: noqa: E741  (P and O, the discs of the player to move and of the opponent, as in Edax)

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from plies.core import lib
from plies.game import ParseError
from plies.heuristics import get as get_heuristic

if TYPE_CHECKING:
    from plies.games.othello import OthelloState

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
    "learned": "pattern weights learned by `plies train` (src/plies/engine/data/weights.npz), in discs; the default",
}

NO_WEIGHTS = np.zeros((1, 1), dtype=np.float32)
"""The weight argument of the compiled search for every evaluation but ``learned`` (a (1, 1) dummy)."""


def weights_for(eval_id: int) -> np.ndarray:
    """The weight array the compiled search takes for ``eval_id``: the shipped learned weights in their
    expanded (faster) form for ``learned``, else a dummy.  Passed as an argument to every search."""
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
    from plies.engine.weights import load_expanded as load

    return load(path)


def evaluation_id(name: str | None) -> int:
    """The compiled id of an evaluation name or alias (``doc001``, ``squares`` ...); ParseError if unknown."""
    key = (DEFAULT_EVALUATION if name is None else name).strip().lower()
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


def full_lines(occupied: int) -> tuple[int, int, int, int]:
    """Masks of the squares whose row, column, diagonal and anti-diagonal are full (found from the empties
    when there are few, as in the endgame solver: fewer steps than testing 46 lines)."""
    return lib.full_lines(occupied)


def full_lines_by_empties(occupied: int) -> tuple[int, int, int, int]:
    """``full_lines`` for few empties: every line is full but those through an empty square."""
    return lib.full_lines_by_empties(occupied)


def full_lines_by_lines(occupied: int) -> tuple[int, int, int, int]:
    """``full_lines`` by testing each of the 46 lines."""
    return lib.full_lines_by_lines(occupied)


def stable_discs(P: int, O: int) -> int:
    """Discs of ``P`` that can never be flipped (a sound under-estimate): along each of the 4 lines the disc
    touches the border or a stable disc of its own, or the line is full.  Exact on the edges (a table of every
    edge), grown inwards from them."""
    return int(lib.stable_discs(P, O))


def evaluate_default(P: int, O: int) -> int:
    """The hand-made evaluation (integer-valued, roughly 10 units per disc of advantage)."""
    return int(lib.evaluate_default(P, O))


def evaluate(P: int, O: int, eval_id: int, W: np.ndarray) -> float:
    """Value of a position that is not over, for the side to move, with evaluation ``eval_id`` (float64).
    ``W`` is the learned weight array (``weights_for``): read only by ``learned``, a dummy otherwise."""
    return float(lib.evaluate(int(P), int(O), int(eval_id), W))


def evaluate_state(state: OthelloState, name: str | None = None) -> float:
    """Evaluate an 8x8 ``OthelloState`` for its side to move (Python helper for tests and tools)."""
    from plies.engine.bitboard import position

    P, O = position(state)
    eval_id = evaluation_id(name)
    return evaluate(P, O, eval_id, weights_for(eval_id))


__all__ = ["DEFAULT_EVALUATION", "EVALUATIONS", "LEARNED", "NO_WEIGHTS", "evaluate", "evaluate_state",
           "evaluation_id", "evaluation_name", "stable_discs", "weights_for"]
