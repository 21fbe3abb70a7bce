"""Learned evaluation and opening book for 8x8 Othello: pattern features, self-play data, fitting, book.

What the engine (or anyone) needs::

    from plies.train import load_weights, evaluate_patterns, load_book
    W = load_weights()                          # float32 (phases, N_PARAMS), the shipped weights
    v = evaluate_patterns(own_u64, opp_u64, W)  # compiled; predicted final disc difference, side to move
    book = load_book()                          # Book: book.lookup(state) -> [(move, value)], best first

The patterns, their evaluation and the weights' loading live in the engine (``plies.engine.patterns``,
``plies.engine.weights``); ``plies.train`` fits them.  The ``plies train`` commands make both files from
scratch (see docs/training.md).  Attributes load lazily so ``import plies.train`` stays cheap.
"""

from __future__ import annotations

from typing import Any

_LAZY = {
    "load_weights": ("plies.engine.weights", "load_weights"),
    "save_weights": ("plies.train.fit", "save_weights"),
    "evaluate_patterns": ("plies.engine.patterns", "evaluate_patterns"),
    "N_PARAMS": ("plies.engine.patterns", "N_PARAMS"),
    "Book": ("plies.train.book", "Book"),
    "load_book": ("plies.train.book", "load_book"),
    "BookPlayer": ("plies.train.players", "BookPlayer"),
    "LearnedPlayer": ("plies.train.players", "LearnedPlayer"),
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module 'plies.train' has no attribute {name!r}")
