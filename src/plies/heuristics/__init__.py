"""Named evaluation functions: ``evaluate(state, player) -> value`` from ``player``'s point of view.

Every heuristic the source documents describe is here under a name that says what it measures, plus the
document number as an alias (``doc000`` ...).  All are zero-sum: ``h(s, 0) == -h(s, 1)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from plies.game import ParseError

Evaluation = Callable[[Any, int], float]


@dataclass(frozen=True)
class Heuristic:
    """A named evaluation function for one game, with a one-line description for ``--help`` and menus."""

    name: str
    game: str
    function: Evaluation
    description: str
    aliases: tuple[str, ...] = field(default=())

    def __call__(self, state: Any, player: int) -> float:
        return self.function(state, player)


HEURISTICS: dict[str, dict[str, Heuristic]] = {}
"""game -> name -> Heuristic (aliases included)."""

DEFAULTS: dict[str, str] = {}


def register(h: Heuristic, default: bool = False) -> Heuristic:
    table = HEURISTICS.setdefault(h.game, {})
    for key in (h.name, *h.aliases):
        table[key] = h
    if default or h.game not in DEFAULTS:
        DEFAULTS[h.game] = h.name
    return h


def names(game: str) -> list[str]:
    """The canonical heuristic names for ``game`` (no aliases)."""
    return sorted({h.name for h in HEURISTICS.get(game, {}).values()})


def get(game: str, name: str | None = None) -> Heuristic:
    """The heuristic called ``name`` (or the game's default); ParseError listing the choices otherwise."""
    table = HEURISTICS.get(game)
    if not table:
        raise ParseError(f"no heuristics for game {game!r}")
    key = name or DEFAULTS[game]
    if key not in table:
        raise ParseError(f"unknown heuristic {key!r} for {game}; choose from: {', '.join(names(game))}")
    return table[key]


from plies.heuristics import hexthello as _hexthello  # noqa: E402,F401
from plies.heuristics import othello as _othello  # noqa: E402,F401  (registers)
from plies.heuristics import tictactoe as _tictactoe  # noqa: E402,F401
from plies.heuristics import tree as _tree  # noqa: E402,F401

__all__ = ["DEFAULTS", "HEURISTICS", "Evaluation", "Heuristic", "get", "names", "register"]
