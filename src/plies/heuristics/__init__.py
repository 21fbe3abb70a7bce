"""Named evaluation functions: ``evaluate(state, player) -> value`` from ``player``'s point of view.

Every heuristic the source documents describe is here under a name that says what it measures, plus the
document number as an alias (``doc000`` ...).  All are zero-sum: ``h(s, 0) == -h(s, 1)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from plies.game import ParseError, State

Evaluation = Callable[[Any, int], float]


@dataclass(frozen=True)
class Heuristic:
    """A named evaluation function for one game, with a one-line description for ``--help`` and menus."""

    name: str
    game: str
    function: Evaluation
    description: str
    aliases: tuple[str, ...] = field(default=())
    bound: float | None = None
    """The largest size of value it gives (the win-loss evaluation: 1), where it has one."""

    def __call__(self, state: State, player: int) -> float:
        return self.function(state, player)


HEURISTICS: dict[str, dict[str, Heuristic]] = {}
"""game -> name -> Heuristic (aliases included)."""

DEFAULTS: dict[str, str] = {}


@lru_cache(maxsize=1)
def lazy() -> dict[tuple[str, str], EntryPoint]:
    """(game, name) -> the module that registers that heuristic, imported the first time the name is asked for:
    heuristics defined above this layer (the engine's learned patterns), declared as entry points of the group
    ``plies.heuristics`` (``othello.learned = plies.engine.learned``)."""
    return {(g, n): ep for ep in entry_points(group="plies.heuristics") for g, _, n in [ep.name.partition(".")]}


def register(h: Heuristic, default: bool = False) -> Heuristic:
    table = HEURISTICS.setdefault(h.game, {})
    for key in (h.name, *h.aliases):
        table[key] = h
    if default or h.game not in DEFAULTS:
        DEFAULTS[h.game] = h.name
    return h


def names(game: str) -> list[str]:
    """The canonical heuristic names for ``game`` (no aliases)."""
    return sorted({h.name for h in HEURISTICS.get(game, {}).values()} | {name for g, name in lazy() if g == game})


def _load_lazy(game: str, key: str) -> None:
    ep = lazy().get((game, key))
    if ep is not None and key not in HEURISTICS.get(game, {}):
        try:
            ep.load()
        except ImportError as e:
            raise ParseError(f"heuristic {key!r} for {game} is not available: {e}") from None


def get(game: str, name: str | None = None) -> Heuristic:
    """The heuristic called ``name`` (or the game's default); ParseError listing the choices otherwise."""
    table = HEURISTICS.get(game)
    if not table:
        raise ParseError(f"no heuristics for game {game!r}")
    key = DEFAULTS[game] if name is None else name
    if key not in table:
        _load_lazy(game, key)
    if key not in table:
        raise ParseError(f"unknown heuristic {key!r} for {game}; choose from: {', '.join(names(game))}")
    return table[key]


def evaluation(game: str, name: str | None = None) -> Heuristic:
    """The named heuristic of ``game`` (its default without a name); a game with none registered (one a plug-in
    adds) is evaluated by its running score (disc difference), so a search can still play it."""
    if HEURISTICS.get(game):
        return get(game, name)
    if name and name != RUNNING_SCORE:
        raise ParseError(f"{game} has no named heuristics; leave the heuristic empty")
    return Heuristic(RUNNING_SCORE, game, _score, "running disc difference (no heuristic registered)")


RUNNING_SCORE = "disc-difference"


def _score(state: State, player: int) -> float:
    s = float(state.score())
    return s if player == 0 else -s


from plies.heuristics import connect4 as _connect4  # noqa: E402,F401
from plies.heuristics import hexthello as _hexthello  # noqa: E402,F401
from plies.heuristics import othello as _othello  # noqa: E402,F401  (registers)
from plies.heuristics import tictactoe as _tictactoe  # noqa: E402,F401
from plies.heuristics import tree as _tree  # noqa: E402,F401

__all__ = ["DEFAULTS", "HEURISTICS", "Evaluation", "Heuristic", "evaluation", "get", "names", "register"]
