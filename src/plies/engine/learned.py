"""The learned pattern evaluation as an ordinary Othello heuristic (``learned``), in plain Python.

Slow (``evaluate_python``, about a millisecond a call) but exactly the engine's ``learned`` evaluation, so the
textbook ``plies.search`` can check the engine and teach with it.  8x8 only; values in discs.  The heuristics
registry imports this module the first time the name ``learned`` is asked for (``plies.heuristics.lazy()``).
"""

from __future__ import annotations

import numpy as np

from plies.game import ParseError
from plies.games.othello import OthelloState
from plies.heuristics import Heuristic, register
from plies.i18n import N_

_WEIGHTS: list[np.ndarray] = []


def _weights() -> np.ndarray:
    if not _WEIGHTS:
        from plies.engine.weights import load_weights

        _WEIGHTS.append(load_weights())
    return _WEIGHTS[0]


def learned(state: OthelloState, player: int) -> float:
    """Predicted final disc difference from ``player``'s view (the side to move's prediction, negated for
    the other side, as the engine's negamax reads it)."""
    from plies.engine.patterns import evaluate_python

    if getattr(state, "n", 8) != 8:
        raise ParseError("the learned evaluation is for 8x8 Othello only")
    own, opp = (state.black, state.white) if state.to_move == 0 else (state.white, state.black)
    v = evaluate_python(own, opp, _weights())
    return v if player == state.to_move else -v


LEARNED = register(Heuristic("learned", "othello", learned,
                             N_("pattern weights learned by `plies train` (8x8; predicted disc difference)")))

__all__ = ["LEARNED", "learned"]
