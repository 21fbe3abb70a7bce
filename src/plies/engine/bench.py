"""Measurements shared by ``plies bench`` and ``benchmarks/engine_*.py``: perft, endgame suite, midgame.

Each returns plain numbers (wall seconds and the CPU seconds of the thread that ran the search: the machine may
be shared, and that thread's CPU time is what the engine itself used, without numpy's idle helper threads).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from plies.engine.api import Engine
from plies.engine.perft import perft
from plies.game import PliesError
from plies.games.othello import OthelloState
from plies.search.perft import perft_othello


class SuitePosition(Protocol):
    """A test position as ``plies.formats.suite`` reads it (FFO, OBF): the state, its best moves and score."""

    id: int
    state: OthelloState
    best_moves: list[int]
    score: int | None


@dataclass
class Timing:
    count: int
    wall: float
    cpu: float

    @property
    def rate(self) -> float:
        """Per CPU second (falls back to wall time when the CPU clock is too coarse)."""
        t = self.cpu if self.cpu > 0 else self.wall
        return self.count / t if t > 0 else 0.0


def timed(fn: Callable[[], int]) -> Timing:
    w, c = time.perf_counter(), time.thread_time()
    n = fn()
    return Timing(n, time.perf_counter() - w, time.thread_time() - c)


def load_core() -> float:
    """Load the compiled core (a C extension: an import, no compile) and run it once; the seconds it took,
    printed apart from the rates, which measure the work only."""
    t0 = time.perf_counter()
    perft(OthelloState.start(), 2)
    return time.perf_counter() - t0


def perft_compiled(depth: int) -> Timing:
    return timed(lambda: perft(OthelloState.start(), depth))


def perft_python(depth: int) -> Timing:
    s = OthelloState.start()
    own, opp = s.own_opp()
    return timed(lambda: perft_othello(own, opp, 8, depth))


@dataclass
class SolveRow:
    position: SuitePosition
    score: int
    move: int
    pv: list[int]
    nodes: int
    wall: float
    cpu: float
    threads: int = 1
    wld: bool = False  # a win/draw/loss solve: score is -1, 0 or +1
    wld_move_ok: bool | None = None  # for such a solve, whether a move outside best_moves keeps the result

    @property
    def score_ok(self) -> bool:
        expected = self.position.score
        if expected is None:
            return True
        if self.wld:
            return _sign(self.score) == _sign(expected)
        return self.score == expected

    @property
    def move_ok(self) -> bool:
        if not self.position.best_moves or self.move in self.position.best_moves:
            return True
        return bool(self.wld_move_ok)

    @property
    def nps(self) -> float:
        """Nodes per CPU second with one thread, per wall second with several."""
        t = self.cpu if self.cpu > 0 and self.threads == 1 else self.wall
        return self.nodes / t if t > 0 else 0.0


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _keeps_result(engine: Engine, state: OthelloState, move: int, result: int) -> bool:
    """Whether ``move`` keeps ``result`` (+1, 0, -1: the win, draw or loss of ``state``); any move keeps a loss."""
    if result < 0:
        return True
    return _sign(-int(engine.analyse(state.play(move), exact=True, wld=True)[0].value)) == result


def _cpu_clock(threads: int) -> Callable[[], float]:
    """The searching thread's CPU time for one thread, the whole process's for several."""
    return time.thread_time if threads == 1 else time.process_time


def solve_suite(positions: Iterable[SuitePosition], engine: Engine | None = None, wld: bool = False,
                on_row: Callable[[SolveRow], None] | None = None,
                cancel: threading.Event | None = None) -> list[SolveRow]:
    """Solve each position exactly (or win/draw/loss) with the engine's threads (one by default); rows in
    order.  Once ``cancel`` is set (with the engine stopped) no more rows come: the position being solved then
    has no finished result."""
    positions = list(positions)
    over = [p.id for p in positions if p.state.is_over()]
    if over:  # refused before any solve, so that no row is lost
        raise PliesError(f"the game is over in position {', '.join(f'#{i}' for i in over)}: nothing to solve")
    engine = engine or Engine(hash_mb=64)
    clock = _cpu_clock(engine.threads)
    rows = []
    for p in positions:
        if cancel is not None and cancel.is_set():
            break
        w, c = time.perf_counter(), clock()
        r = engine.analyse(p.state, exact=True, wld=wld)[0]
        if cancel is not None and cancel.is_set():
            break
        row = SolveRow(p, int(r.value), int(r.move), list(r.pv), r.stats.nodes,
                       time.perf_counter() - w, clock() - c, engine.threads, wld)
        if wld and p.best_moves and row.move not in p.best_moves:  # another move may keep the result too
            row.wld_move_ok = _keeps_result(engine, p.state, row.move, row.score)
        rows.append(row)
        if on_row:
            on_row(row)
    return rows


def opening_positions(count: int = 8, plies: int = 8, seed: int = 2026) -> list[OthelloState]:
    """Reproducible midgame test positions: ``plies`` seeded random moves from the start."""
    rng = random.Random(seed)
    out: list[OthelloState] = []
    while len(out) < count:
        s = OthelloState.start()
        for _ in range(plies):
            moves = s.legal_moves()
            if not moves:
                break
            s = s.play(rng.choice(moves))
        if not s.is_over():
            out.append(s)
    return out


@dataclass
class MidRow:
    state: OthelloState
    depth: int
    value: float
    move: int
    nodes: int
    wall: float
    cpu: float
    threads: int = 1

    @property
    def nps(self) -> float:
        """Nodes per CPU second with one thread, per wall second with several."""
        t = self.cpu if self.cpu > 0 and self.threads == 1 else self.wall
        return self.nodes / t if t > 0 else 0.0


def midgame_bench(depth: int = 10, count: int = 8, evaluation: str = "default",
                  on_row: Callable[[MidRow], None] | None = None, threads: int = 1, plies: int = 8) -> list[MidRow]:
    """Fixed-depth searches from ``opening_positions`` (``plies`` random moves in); one fresh engine per position."""
    clock = _cpu_clock(threads)
    rows = []
    for s in opening_positions(count, plies):
        e = Engine(hash_mb=64, evaluation=evaluation, threads=threads)
        w, c = time.perf_counter(), clock()
        r = e.search(s, depth=depth)
        row = MidRow(s, depth, r.value, int(r.move), r.stats.nodes, time.perf_counter() - w, clock() - c, threads)
        rows.append(row)
        if on_row:
            on_row(row)
    return rows
