"""Difficulty levels, the one mapping from a level to a player that the terminal and the browser share, and
whether the fast engine plays here.

Levels 1-5 are document 001's difficulty = search depth, with the textbook search asked for (alpha-beta or
minimax, and a named heuristic; the terminal also offers greedy, random and the engine's own weak levels).
Levels 6-12 are the fast engine (``engine:level=N``) on 8x8 Othello, and ``plies.search.alphabeta`` in the
other games; where plies was installed without its compiled core (no C compiler) 8x8 Othello's are the engine's
pure-Python stand-in (``plies.players.engine_fallback``: alpha-beta with the learned evaluation); every label
says which.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from plies.game import ParseError, State
from plies.games import TYPES, type_of
from plies.heuristics import evaluation
from plies.i18n import N_
from plies.players import Player, parse_player

if TYPE_CHECKING:
    from plies.engine.levels import Level

TEACHING_MAX = 5
"""Levels 1..TEACHING_MAX are the textbook searches at that depth."""
MAX_LEVEL = 12
"""Highest level offered: the engine's table (``plies.engine.levels.MAX_LEVEL``, checked by a test) without
importing the engine; without the engine the top levels all play alike."""
DEFAULT_LEVEL = 3
"""The computer's difficulty unless the person picks another: the terminal's menu and the browser's start screen."""
DEFAULT_ANALYSIS_LEVEL = 8
"""Engine level of the analysis (graph, hints, values on the board, review) unless the person picks another."""
FALLBACK_MAX_DEPTH = 6
"""Depth cap of the alpha-beta that stands in for the engine when it is missing (pure Python is slow)."""
ALGORITHMS = ("alphabeta", "minimax")
"""The textbook searches of levels 1-5."""
OTHERS = ("greedy", "random", "engine")
"""What else plays levels 1-5 (the terminal's menu): document 000's greedy player, random moves, the engine's
learner levels."""


@lru_cache(maxsize=1)
def engine_status() -> tuple[bool, str]:
    """(is the fast engine usable, a sentence saying which search the high levels use)."""
    try:
        import plies.players.engine  # noqa: F401  (the engine and its player kind)
    except ImportError as e:  # plies installed without its compiled core: every front-end still works
        return False, (f"fast engine not available ({e}); on 8x8 Othello levels above 5, hints and review use "
                       "a pure-Python alpha-beta with the learned evaluation")
    return True, N_("levels above 5 use the fast engine (plies.engine)")


ENGINE_READY = threading.Event()
"""Set once ``warm_engine`` has run."""


def warm_engine() -> None:
    """Import the engine and read its learned weights before the first game needs them (run in a worker at
    start-up; a fraction of a second: the compiled core is built at install)."""
    try:
        if engine_status()[0]:
            from plies.engine.eval import LEARNED, weights_for

            weights_for(LEARNED)
    finally:
        ENGINE_READY.set()


def engine_applies(state: State) -> bool:
    """Whether the fast engine plays this position (its game's type says so: 8x8 Othello) and loads here."""
    t = type_of(state)
    return t is not None and t.engine(state) == "engine" and engine_status()[0]


def fallback_applies(state: State) -> bool:
    """Whether the engine's pure-Python stand-in plays this position: a board the engine plays (8x8 Othello)
    where the compiled core does not load (``plies.players.engine_fallback``)."""
    return (state.game == "othello" and getattr(state, "n", 8) == 8 and not engine_status()[0])


def engine_games() -> str:
    """The boards the fast engine plays, for a label: ``8x8 Othello``."""
    names = []
    for t in TYPES.values():
        for b in (t.start(n, "standard") for n in (None, *t.sizes)):
            if t.engine(b) == "engine":
                n = t.board_size(b)
                names.append(f"{n}x{n} {t.title}" if n else t.title)
    return " and ".join(names) or "no game here"


def engine_level(level: int) -> Level | None:
    """The engine's row for ``level`` (depth, exact empties, measured times), None without the engine."""
    if not engine_status()[0]:
        return None
    from plies.engine.levels import LEVELS

    return LEVELS.get(level)


@dataclass(frozen=True)
class Difficulty:
    """What plays at a level: the player ``spec`` (``parse_player`` builds it), the words for a person, and
    which search it is (``minimax``, ``alphabeta``, ``greedy``, ``random``, ``engine``, ``alphabeta-fallback``)."""

    level: int
    spec: str
    label: str
    backend: str

    @property
    def heavy(self) -> bool:
        """Worth a trip to a worker process: minimax, or a textbook search 3 plies deep or more."""
        return self.backend == "minimax" or (self.level >= 3 and self.backend in ("alphabeta", "alphabeta-fallback"))

    def player(self, game: str) -> Player:
        return parse_player(self.spec, game)


def difficulty(state: State, level: int, algorithm: str = "alphabeta", heuristic: str | None = None) -> Difficulty:
    """Who plays ``state``'s game at ``level`` (1 to MAX_LEVEL) with ``algorithm`` (ALGORITHMS, or OTHERS at
    levels 1-5); ParseError for a bad level, algorithm or heuristic."""
    if not 1 <= level <= MAX_LEVEL:
        raise ParseError(f"level must be 1 to {MAX_LEVEL}, not {level}")
    if algorithm not in ALGORITHMS + OTHERS:
        raise ParseError(f"unknown algorithm {algorithm!r}; choose {', '.join(ALGORITHMS + OTHERS)}")
    game = state.game
    if level <= TEACHING_MAX and algorithm in ALGORITHMS:
        h = evaluation(game, heuristic or None)
        name = "alpha-beta" if algorithm == "alphabeta" else "minimax"
        return Difficulty(level, f"{algorithm}:depth={level},eval={h.name}",
                          f"level {level}: {name}, depth {level}, {h.name}", algorithm)
    if level <= TEACHING_MAX and algorithm in ("greedy", "random"):
        return Difficulty(level, algorithm, f"level {level}: {algorithm}", algorithm)
    if engine_applies(state):
        row = engine_level(level)
        detail = f"depth {row.depth}, exact from {row.exact_empties} empties" if row is not None else "full strength"
        return Difficulty(level, f"engine:level={level}", f"level {level}: fast engine, {detail}", "engine")
    if fallback_applies(state):
        from plies.players.engine_fallback import fallback_level

        stand_in = fallback_level(level)
        return Difficulty(level, f"engine:level={level}",
                          f"level {level}: pure-Python alpha-beta depth {stand_in.depth}, learned evaluation, exact "
                          f"from {stand_in.exact_empties} empties (no compiled core)", "alphabeta-fallback")
    t = TYPES.get(game)
    depth = t.solved_depth if t is not None and t.solved_depth else min(level, FALLBACK_MAX_DEPTH)
    h = evaluation(game, heuristic or None)
    why = f"engine plays {engine_games()} only" if engine_status()[0] else "engine not available"
    return Difficulty(level, f"alphabeta:depth={depth},eval={h.name},order=on",
                      f"level {level}: alpha-beta depth {depth} ({why})", "alphabeta-fallback")


__all__ = ["ALGORITHMS", "DEFAULT_ANALYSIS_LEVEL", "DEFAULT_LEVEL",
           "MAX_LEVEL", "TEACHING_MAX", "Difficulty", "difficulty",
           "engine_applies", "engine_games", "fallback_applies", "engine_level", "engine_status", "warm_engine"]
