"""What plays for the fast engine where plies' compiled core is not built or does not load (installed without a C
compiler, or ``PLIES_CORE=none``): the textbook alpha-beta in pure Python with the engine's learned evaluation
(the ``learned`` heuristic, exactly the engine's numbers, in discs), solving the end of the game exactly once few
squares are left.  Slower and shallower than the engine, but every level, hint and review still plays.

``engine:level=N`` builds ``FallbackEnginePlayer`` here when the engine cannot load (``plies.players`` asks);
``plies.analysis`` values positions with ``FALLBACK_LEVELS`` in the same way.  The first use says so once, in one
line on stderr (``announce``).
"""

from __future__ import annotations

import sys
import threading
import time as _time
from typing import NamedTuple

from plies import players
from plies.game import Move, ParseError, State
from plies.games import type_of
from plies.heuristics import get as get_heuristic
from plies.search import alphabeta
from plies.search.result import SearchResult


class FallbackLevel(NamedTuple):
    """A level without the compiled core: alpha-beta ``depth`` plies with the learned evaluation, the game solved
    to the end from ``exact_empties`` empty squares."""

    depth: int
    exact_empties: int


FALLBACK_LEVELS: dict[int, FallbackLevel] = {
    1: FallbackLevel(1, 4), 2: FallbackLevel(2, 6), 3: FallbackLevel(2, 6), 4: FallbackLevel(3, 8),
    5: FallbackLevel(3, 8), 6: FallbackLevel(4, 10), 7: FallbackLevel(4, 10), 8: FallbackLevel(5, 10),
    9: FallbackLevel(5, 11), 10: FallbackLevel(6, 12), 11: FallbackLevel(6, 12),
    12: FallbackLevel(6, 12),
}
"""Level -> what the pure-Python stand-in searches: a fraction of a second to a few seconds a move (the learned
evaluation takes 2-3 ms a call in Python; an exact solve at 12 empties a few seconds)."""
DEFAULT_LEVEL = 8
EVALUATION = "learned"

_ANNOUNCED = threading.Event()
_ANNOUNCE_LOCK = threading.Lock()


def core_error() -> str | None:
    """Why the compiled core does not load here (None when it does)."""
    try:
        import plies.core  # noqa: F401
    except ImportError as e:
        return str(e)
    return None


def announce(reason: str | None = None) -> None:
    """Say once per process, in one line on stderr, that the engine's levels, hints and review run the pure-Python
    stand-in."""
    with _ANNOUNCE_LOCK:
        if _ANNOUNCED.is_set():
            return
        _ANNOUNCED.set()
    why = reason or core_error() or "not built"
    print(f"plies: no compiled core ({why}); the engine's levels, hints and review use a pure-Python "
          "alpha-beta with the learned evaluation (slower, shallower)", file=sys.stderr, flush=True)


def fallback_level(level: int) -> FallbackLevel:
    if level not in FALLBACK_LEVELS:
        raise ParseError(f"engine level must be 1 to {max(FALLBACK_LEVELS)}, not {level}")
    return FALLBACK_LEVELS[level]


def empties(state: State) -> int:
    t = type_of(state)
    return t.empties(state) if t is not None else -1


def solve_depth(state: State) -> int:
    """Plies that reach the end of every line from ``state`` (each empty square a move, each pass another)."""
    return 2 * max(0, empties(state)) + 1


def search(state: State, depth: int, exact_empties: int, evaluation: str = EVALUATION) -> SearchResult:
    """Alpha-beta with the learned evaluation to ``depth``, or to the end of the game (exact) from
    ``exact_empties`` empty squares."""
    t = type_of(state)
    h = get_heuristic(state.game, evaluation)
    exact = 0 <= empties(state) <= exact_empties
    result = alphabeta(state, solve_depth(state) if exact else depth, h, order=t.order if t is not None else None)
    result.evaluation = h.name
    result.exact = exact
    result.algorithm = "alphabeta"
    return result


class FallbackEnginePlayer(players.Player):
    """``engine:level=N`` (or ``depth=``, ``time=``, ``exact=``, ``eval=``) without the compiled core: the
    textbook alpha-beta with the learned evaluation.  The engine's options that only the compiled search has
    (hash, threads, book, probcut, statistics, weights, seed) are accepted and have no effect."""

    def __init__(self, level: int | None = None, depth: int | None = None, time: float | None = None,
                 exact_empties: int | None = None, evaluation: str = EVALUATION) -> None:
        if level is None and depth is None and time is None:
            level = DEFAULT_LEVEL
        row = fallback_level(level) if level is not None else FALLBACK_LEVELS[DEFAULT_LEVEL]
        self.level = level
        self.depth = depth if depth is not None else row.depth
        self.time = time
        self.exact_empties = exact_empties if exact_empties is not None else row.exact_empties
        self.evaluation = get_heuristic("othello", evaluation).name
        what = f"level={level}" if level is not None else f"time={time:g}" if time is not None else f"depth={depth}"
        self.name = f"engine:{what} (pure Python)"
        announce()

    def search(self, state: State, seconds: float | None = None) -> SearchResult:
        budget = seconds if seconds is not None else self.time
        if budget is None or 0 <= empties(state) <= self.exact_empties:
            return search(state, self.depth, self.exact_empties, self.evaluation)
        start = _time.perf_counter()  # iterative deepening while the next iteration fits the budget
        result = search(state, 1, self.exact_empties, self.evaluation)
        depth = 1
        while True:
            spent = _time.perf_counter() - start
            if spent * 8 > budget or depth >= solve_depth(state):
                return result
            depth += 1
            result = search(state, depth, -1, self.evaluation)

    def choose(self, state: State) -> Move:
        self.last_result = self.search(state)
        return self.last_result.move

    def decide(self, state: State, seconds: float | None = None) -> tuple[Move, SearchResult | None]:
        self.last_result = self.search(state, seconds)
        return self.last_result.move, self.last_result


IGNORED = ("hash", "threads", "book", "probcut", "stats", "weights", "seed", "clock")
"""The engine player's options that only the compiled engine uses."""


def _factory(game: str, params: dict[str, str], raw: str) -> players.Player:
    if game != "othello":
        raise ParseError("the engine plays 8x8 Othello only")
    level = players.number(params, "level", int)
    depth = players.number(params, "depth", int)
    exact = players.number(params, "exact", int)
    raw_time = params.pop("time", None)
    try:
        seconds = float(raw_time) if raw_time is not None else None
    except ValueError:
        raise ParseError(f"engine: time must be seconds, not {raw_time!r}") from None
    evaluation = params.pop("eval", EVALUATION)
    if evaluation == "default":
        evaluation = EVALUATION
    for key in IGNORED:
        params.pop(key, None)
    players._no_more(params, "engine")
    return FallbackEnginePlayer(level, depth, seconds, exact, evaluation)


def register_fallback() -> None:
    """Make ``engine:...`` specs build the stand-in (``plies.players`` does when the engine cannot load)."""
    players.register("engine", _factory)

__all__ = ["FALLBACK_LEVELS", "FallbackEnginePlayer", "FallbackLevel", "announce", "core_error", "fallback_level",
           "register_fallback", "search"]
