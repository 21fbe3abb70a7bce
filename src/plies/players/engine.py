"""The ``engine`` player kind: ``engine``, ``engine:level=7``, ``engine:time=1`` (a second a move on average: what
a quick move leaves over goes to the harder ones, at most 2 s to one), ``engine:clock=5+2`` (a game clock of 5
minutes and 2 s a move, see ``plies.engine.clock``), ``engine:depth=8,eval=NAME``,
``engine:exact=12`` (solve from 12 empties), ``engine:hash=128`` (megabytes), ``engine:threads=4`` (default: the
machine's cores), ``engine:book=off`` (no opening book), ``engine:seed=3`` (the weak levels' slips),
``engine:weights=FILE`` (learned weights from ``plies train fit`` instead of the shipped ones),
``engine:probcut=off`` (no selective midgame cuts) or ``engine:probcut=T`` (their confidence, in standard
deviations), ``engine:stats=FILE`` (probcut statistics from ``plies train probcut``)."""

from __future__ import annotations

import math
import os
import random
import time as _time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from plies import players
from plies.engine.api import PROBCUT, Engine, check_threads, default_threads
from plies.engine.clock import Clock, parse_clock
from plies.engine.eval import LEARNED
from plies.engine.levels import DEFAULT_LEVEL, get_level
from plies.game import Move, ParseError, PliesError, State
from plies.games.othello import OthelloState
from plies.search.result import SearchResult, Stats

if TYPE_CHECKING:
    from plies.engine.book import Book

THREADS_ENV = "PLIES_ENGINE_THREADS"
"""Environment variable: the threads of an ``engine`` player whose spec names none (match workers set it to 1,
so that games played side by side do not compete for the cores)."""


def player_threads() -> int:
    """Threads of an ``engine`` player without ``threads=``: ``$PLIES_ENGINE_THREADS``, else the machine's cores."""
    raw = os.environ.get(THREADS_ENV, "")
    if raw.strip().isdigit() and int(raw) >= 1:
        return min(256, int(raw))
    return default_threads()


UNITS_PER_DISC = {0: 10.0}
"""Evaluation units per disc by evaluation id, for the weak levels' temperature (learned and exact: 1)."""


class EnginePlayer(players.Player):
    """Plays with the compiled engine at a level, a fixed depth or a time per move."""

    def __init__(self, level: int | None = None, depth: int | None = None, time: float | None = None,
                 evaluation: str = "default", exact_empties: int | None = None, hash_mb: int = 64,
                 book: bool = True, seed: int | None = None, weights: str | None = None,
                 threads: int | None = None, probcut: float | None = PROBCUT, statistics: str | None = None,
                 clock: str | None = None) -> None:
        if clock is not None and (time is not None or depth is not None or level is not None):
            raise ParseError("engine: give clock= alone, not with time, depth or level")
        self.clock_spec = clock
        if level is None and depth is None and time is None and clock is None:
            level = DEFAULT_LEVEL
        self.temperature = get_level(level).temperature if level is not None else 0.0
        self.use_book = book and self.temperature == 0.0
        self._book: Book | None = None
        self.rng = random.Random(seed)
        self.level = level
        self.depth = depth
        self.time = time
        self.clock: Clock | None = self._full_clock()
        self.exact_empties = exact_empties
        self.engine = Engine(hash_mb=hash_mb, evaluation=evaluation, weights=weights,
                             threads=threads if threads is not None else player_threads(), probcut=probcut,
                             statistics=statistics)
        if self.clock is not None:  # read the weights now, not while the first move's clock runs
            _ = self.engine.weights, self.engine.mpc
        parts = []
        if level is not None:
            parts.append(f"level={level}")
        if depth is not None:
            parts.append(f"depth={depth}")
        if clock is not None:
            parts.append(f"clock={clock}")
        elif time is not None:
            parts.append(f"time={time:g}")
        if evaluation != "default":
            parts.append(f"eval={self.engine.evaluation}")
        if weights is not None:
            parts.append(f"weights={weights}")
        if exact_empties is not None:
            parts.append(f"exact={exact_empties}")
        if not book:
            parts.append("book=off")
        if threads is not None:
            parts.append(f"threads={threads}")
        if probcut != PROBCUT:
            parts.append("probcut=off" if probcut is None else f"probcut={probcut:g}")
        if statistics is not None:
            parts.append(f"stats={statistics}")
        self.name = "engine:" + ",".join(parts)

    def _full_clock(self) -> Clock | None:
        """A full clock for a new game: ``clock=`` as given, or ``time=T``'s credit of T a move; None by depth."""
        if self.clock_spec is not None:
            return parse_clock(self.clock_spec)
        if self.time is not None:
            return Clock.per_move(self.time)
        return None

    def new_game(self, state: State) -> None:
        self.clock = self._full_clock()

    def set_clock(self, remaining: float, increment: float = 0.0) -> None:
        """What a front-end's game clock says is left (seconds) and adds after each move: the next moves are
        budgeted from it."""
        self.clock = Clock.game(max(remaining, 0.001), increment)

    def choose(self, state: State) -> Move:
        move, self.last_result = self.decide(state)
        return move

    def decide(self, state: State, seconds: float | None = None) -> tuple[Move, SearchResult]:
        """The move and its search; ``seconds`` (a front-end's clock) caps this search instead of the player's
        own time or clock, which it leaves as they are."""
        if not isinstance(state, OthelloState) or state.n != 8:
            raise ParseError("the engine plays 8x8 Othello only")
        t0 = _time.perf_counter()
        time = self.time if seconds is None else seconds
        result = self._from_book(state) if self.use_book else None
        watch = self._progress if self.on_progress is not None else None  # (nobody watching: no callbacks)
        if result is None:
            exact = self.exact_empties is not None and state.empties() <= self.exact_empties
            if self.temperature > 0 and not exact:
                result = self._slip(state, time)
            elif seconds is None and self.clock is not None and len(state.legal_moves()) > 1:
                aim, limit = self.clock.budget(state.empties())
                result = self.engine.search(state, time=aim, max_time=limit, exact=exact, on_progress=watch)
            else:
                result = self.engine.search(state, depth=self.depth, time=time, level=self.level, exact=exact,
                                            on_progress=watch)
        if seconds is None and self.clock is not None:
            self.clock.spend(_time.perf_counter() - t0)
        return result.move, result

    def stop(self) -> None:
        self.engine.stop()

    def _progress(self, results: list[SearchResult]) -> None:
        """Each completed depth's best line, to ``on_progress`` when a front-end watches."""
        if self.on_progress is not None and results:
            self.on_progress(results[0])

    def _from_book(self, state: State) -> SearchResult | None:
        """The opening book's best move (``plies.engine.book``'s shipped book), or None out of book."""
        if self._book is None:
            from plies.engine.book import load_book

            self._book = load_book()
        moves = self._book.lookup(state)
        if not moves or moves[0][0] not in state.legal_moves():
            return None
        move, value = moves[0]
        return SearchResult(value, move, [move], Stats(), "book", str(self._book.meta.get("evaluation", "")))

    def _slip(self, state: OthelloState, time: float | None) -> SearchResult:
        """A learner's move: every move valued by the level's search, one drawn with weight
        exp(-(best - value) / temperature), the values in discs."""
        results = self.engine.analyse(state, depth=self.depth, time=time, level=self.level,
                                      multipv=len(state.legal_moves()))
        if len(results) == 1:
            return results[0]
        exact_or_discs = results[0].exact or self.engine.eval_id == LEARNED
        unit = 1.0 if exact_or_discs else UNITS_PER_DISC.get(self.engine.eval_id, 1.0)
        best = float(results[0].value)
        weights = [math.exp(-(best - float(r.value)) / (self.temperature * unit)) for r in results]
        return self.rng.choices(results, weights)[0]

    def close(self) -> None:
        self.engine.stop()


N = TypeVar("N", int, float)


def _number(params: dict[str, str], key: str, kind: Callable[[str], N]) -> N | None:
    if key not in params:
        return None
    raw = params.pop(key)
    try:
        value = kind(raw)
    except ValueError:
        raise ParseError(f"engine option {key} must be a number, not {raw!r}") from None
    if not value > 0 or not math.isfinite(value):
        raise ParseError(f"engine option {key} must be a positive, finite number, not {raw!r}")
    return value


def _factory(game: str, params: dict[str, str], raw: str) -> players.Player:
    if game != "othello":
        raise ParseError(f"the engine plays Othello only, not {game}")
    level = _number(params, "level", int)
    depth = _number(params, "depth", int)
    time = _number(params, "time", float)
    exact = _number(params, "exact", int)
    hash_mb = _number(params, "hash", int) or 64
    evaluation = params.pop("eval", "default")
    book = params.pop("book", "on").lower()
    if book not in ("on", "off"):
        raise ParseError(f"engine option book must be on or off, not {book!r}")
    seed = None
    if "seed" in params:
        raw_seed = params.pop("seed")
        try:
            seed = int(raw_seed)
        except ValueError:
            raise ParseError(f"engine option seed must be a whole number, not {raw_seed!r}") from None
    weights = params.pop("weights", None)
    probcut: float | None = PROBCUT
    if params.get("probcut", "").lower() == "off":
        params.pop("probcut")
        probcut = None
    elif "probcut" in params:
        probcut = _number(params, "probcut", float)
    statistics = params.pop("stats", None)
    clock = params.pop("clock", None)
    if clock is not None:
        try:
            parse_clock(clock)
        except PliesError as e:
            raise ParseError(f"engine option {e}") from None
    threads = _number(params, "threads", int)
    if threads is not None:
        try:
            check_threads(threads)
        except PliesError as e:
            raise ParseError(f"engine option {e}") from None
    if params:
        raise ParseError(f"unknown option(s) for engine: {', '.join(params)} "
                         "(use level, depth, time, clock, eval, exact, hash, book, seed, weights, threads, probcut, "
                         "stats)")
    try:
        return EnginePlayer(level=level, depth=depth, time=time, evaluation=evaluation, exact_empties=exact,
                            hash_mb=hash_mb, book=book == "on", seed=seed, weights=weights, threads=threads,
                            probcut=probcut, statistics=statistics, clock=clock)
    except ParseError:
        raise
    except PliesError as e:  # a missing or malformed weights or statistics file, or weights= with another evaluation
        raise ParseError(f"engine option: {e}") from None


players.register("engine", _factory)
