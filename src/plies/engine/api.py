"""The ``Engine``: one object that searches 8x8 Othello positions by depth, by time, by level or exactly.

It drives the compiled kernels from Python: iterative deepening with aspiration windows over the root moves,
multi-PV analysis, progress callbacks after each completed depth, and a clock whose watchdog thread sets the
stop flag the compiled search polls at every node (so a deadline is always respected and the best move of
the last completed depth is returned).  ``stop()`` uses the same flag from any thread.
"""

# ruff: noqa: E741  (P and O, the discs of the player to move and of the opponent, as in Edax)

from __future__ import annotations

import math
import os
import threading
import time as _time
from collections.abc import Callable

import numpy as np

from plies.engine import endgame, midgame
from plies.engine import probcut as probcut_stats
from plies.engine.bitboard import position
from plies.engine.eval import LEARNED, NO_WEIGHTS, evaluation_id, evaluation_name, load_expanded, weights_for
from plies.engine.hashtable import HashTable, TableArrays, probe
from plies.engine.levels import DEFAULT_LEVEL, get_level
from plies.game import PASS, WIN, PliesError
from plies.games.othello import OthelloState
from plies.search.result import SearchResult, Stats

Progress = Callable[[list[SearchResult]], None]

ASPIRATION = 40.0          # half-width of the first aspiration window (evaluation units: ~10 per disc)
ASPIRATION_LEARNED = 4.0   # the same for the learned evaluation, whose values are in discs
SAFETY = 0.03              # seconds kept back from a time budget for the answer to travel back ...
SAFETY_SHARE = 0.15        # ... or this share of it, up to SAFETY_MAX, for a busy machine's scheduling delays
SAFETY_MAX = 0.15
MAX_DEPTH = 60
PRESEARCH_MAX = 12
PRESEARCH_OFFSET = 6
END_ASPIRATION = 3  # half-width in discs of the first window of an exact solve
# Exact solves first run selective (probcut) searches: (from how many empties, confidence in hundredths of a
# standard deviation).  A second pass pays only from 26 empties; below, it costs more than its moves save.
SOLVE_STEPS = ((18, 100), (26, 200))
# Timed play from just above time_exact_empties up to time_selective_empties: the midgame iterations for a share
# of the budget, then selective endgame searches of growing confidence and at last an exact solve, while time lasts
SELECTIVE_PLAY_EMPTIES = 30  # never from more empties than this
SELECTIVE_AT_1S = 28  # the range's top at 1 s a move (3 empties more for each doubling of the budget)
MIDGAME_SHARE = 0.1   # the midgame iterations start no new depth past this share of the budget
SELECTIVE_YIELD = 0.5  # the first selective search not done by this share of the budget gives the clock back to
                       # the midgame iterations (its time is unforeseeable: 0.05 s to several seconds at 27 empties)
YIELD_GAP = 8          # ... when their depth was this many plies short of the end (nearer, they see the end too)
YIELDED = 2            # the stop word's value for that yield (stop() and the clock write 1)
SELECTIVE_STEPS = (100, 150, 200, 260, 330)  # confidences (t x 100) of the selective searches, then exact
FILL = 1.0            # a plain timed search starts a new depth when it expects to finish it within this share of
                      # its aim (the next depth's time foreseen from the growth of the last ones)
UNSETTLED = 2.0       # ... of this many times the budget (within the hard limit) when the best move just changed
MAX_CLOCK = 1e7       # seconds: the clock of a longer budget stops the search then (a timer cannot wait forever)
PROBCUT = 1.5         # the midgame's multi-ProbCut confidence (standard deviations) unless told otherwise
SAME_PARITY_WINDOW = True  # aspiration windows around the value of depth d - 2 rather than d - 1


def safety_margin(seconds: float) -> float:
    """Seconds a timed search keeps back from its budget: enough that ``time=1`` answers within the second on a
    busy machine (a loaded 2-core VM overran by 36 ms with a flat 30 ms), little for small budgets."""
    return max(SAFETY, min(SAFETY_MAX, SAFETY_SHARE * seconds))


def default_threads() -> int:
    """The machine's cores (those this process may run on)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def _root_arrays(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What a root search of n moves fills: values, flags, variations (one row each) and their lengths."""
    return (np.zeros(n, dtype=np.float64), np.zeros(n, dtype=np.int64),
            np.zeros((n, midgame.MAX_PLY + 2), dtype=np.int8), np.zeros(n, dtype=np.int64))


def _best_first(values: np.ndarray, flags: np.ndarray, done: int) -> list[int]:
    """The indices of the first ``done`` root moves, best value first and upper bounds (flag 1) last."""
    return sorted(range(done), key=lambda i: (flags[i] == 1, -values[i]))


def usable_threads(threads: int) -> int:
    """The threads a search runs on: ``threads``, but no more than the machine's cores.  A split point waits for
    the helpers it hands moves to, so a helper without a core of its own holds up every split (on 2 cores a
    20-empties solve took 1.49 s with 16 threads against 0.07 s with 2; 256 overran a 0.1 s budget by 22 s)."""
    return min(threads, default_threads())


def check_threads(threads: int) -> int:
    """``threads`` if it is 1..256, else PliesError."""
    if not isinstance(threads, int) or not 1 <= threads <= 256:
        raise PliesError(f"threads must be a whole number from 1 to 256, not {threads!r}")
    return threads


def _clean(v: float) -> float | int:
    """Integral values as int (JSON and equality with the textbook's int heuristics), others as float."""
    if math.isfinite(v) and float(v).is_integer():
        return int(v)
    return float(v)


def presearch_depth(empties: int) -> int:
    """Depth of the midgame search run before a solve: its table's best moves order the solver's first plies."""
    return max(1, min(PRESEARCH_MAX, empties - PRESEARCH_OFFSET))


def selectivity(confidence: int) -> float:
    """The percent a selective search of this probcut confidence (t x 100) shows, as Edax's ``@95%``: the chance
    that the exact value lies within t standard deviations of the shallow search's estimate, rounded down (to
    whole percents, to tenths from 99): 68 for t = 1, 95 for t = 2, 99.9 for t = 3.3; only an exact search is
    100."""
    p = 100 * math.erf(confidence / 100 / math.sqrt(2))
    return float(math.floor(p)) if p < 99 else min(99.9, math.floor(10 * p) / 10)


def next_depth_time(stamps: list[float]) -> float:
    """Seconds the next depth of an iterative deepening is expected to take, from ``stamps`` (when it started,
    then when each depth was completed): the last depth's time times the growth per depth over the last two (odd
    and even depths grow differently), between 1.2 and 4; 1.5 times the time so far while the depths are too quick
    to tell."""
    took = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
    if len(took) < 3 or took[-3] < 1e-3:
        return 1.5 * (stamps[-1] - stamps[0])
    growth = min(4.0, max(1.2, math.sqrt(took[-1] / took[-3])))
    return took[-1] * growth


def _end_window(guess: int) -> tuple[int, int]:
    """The first window of an exact solve: ``END_ASPIRATION`` discs either side of an estimate."""
    w = max(1, END_ASPIRATION)  # never an empty window: a bound must say which side it is on
    return max(-65, guess - w), min(65, guess + w)


_BYTE_BITS = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def _popcount(x: np.ndarray) -> np.ndarray:
    """Set bits of each uint64 of ``x``."""
    return _BYTE_BITS[np.ascontiguousarray(x, dtype=np.uint64).view(np.uint8)].reshape(-1, 8).sum(axis=1)


def time_exact_empties(seconds: float) -> int:
    """How many empties a solve is attempted from when playing by time (grows with the budget)."""
    return int(min(24, max(12, 14 + 2 * math.log2(max(seconds, 0.01)))))


def time_selective_empties(seconds: float) -> int:
    """Up to how many empties playing by time runs the selective endgame searches after the midgame ones (grows
    with the budget: where the first selective search usually finishes within it)."""
    return int(min(SELECTIVE_PLAY_EMPTIES, max(0, SELECTIVE_AT_1S + 3 * math.log2(max(seconds, 0.01)))))


class Engine:
    """The fast Othello engine.  Values are from the side to move's view: evaluation units in the midgame,
    the final disc difference when ``exact``."""

    def __init__(self, hash_mb: int = 64, evaluation: str = "default", weights: str | None = None,
                 threads: int = 1, probcut: float | None = PROBCUT, statistics: str | None = None) -> None:
        self._setup(hash_mb, evaluation, weights)
        self.threads = check_threads(threads)
        self._set_probcut(probcut, statistics)

    def _set_probcut(self, probcut: float | None, statistics: str | None) -> None:
        """The midgame search's selectivity: multi-ProbCut at ``probcut`` standard deviations with the statistics
        of ``statistics`` (None: the shipped ones, measured with the shipped weights; a file measured with other
        weights than the engine's is refused), or none (``probcut`` None, or an evaluation without statistics:
        every move searched to the full depth)."""
        if probcut is not None and not (isinstance(probcut, int | float) and 0 < probcut <= 100):
            raise PliesError(f"probcut must be a confidence above 0 (standard deviations), not {probcut!r}")
        self.probcut = float(probcut) if probcut is not None and self.eval_id == LEARNED else None
        self.statistics_file = statistics
        self._mpc: np.ndarray | None = None
        if statistics is not None:  # read now: a bad file, or one measured with other weights, fails here
            stats = probcut_stats.load_statistics(statistics)
            if self.eval_id == LEARNED:
                probcut_stats.check_measured_with(stats, self.weights_file)
            self._mpc = stats.table

    @property
    def mpc(self) -> np.ndarray | None:
        """The probcut table the midgame search reads, or None for a search without selectivity."""
        if self.probcut is None:
            return None
        return self.statistics_table

    @property
    def statistics_table(self) -> np.ndarray:
        """The probcut statistics (``statistics``, else the shipped ones): the midgame's selectivity and the
        exact solver's selective passes read them."""
        if self._mpc is None:
            self._mpc = probcut_stats.shipped().table
        return self._mpc

    def _setup(self, hash_mb: int, evaluation: str, weights: str | None = None) -> None:
        self.eval_id = evaluation_id(evaluation)
        self.evaluation = evaluation_name(self.eval_id)
        self.weights_file = weights
        if weights is not None:  # another weights file (``plies train fit``) for the learned evaluation
            if self.eval_id != LEARNED:
                raise PliesError(f"a weights file is for the learned evaluation, not {self.evaluation!r}")
            self._weights: np.ndarray | None = load_expanded(weights)  # read now: a bad file fails here
        else:
            self._weights = None  # read on first use (a solve of few empties never reads them)
        self.aspiration = ASPIRATION_LEARNED if self.eval_id == LEARNED else ASPIRATION
        half = max(1, hash_mb // 2)
        self.mid_tt = HashTable(half)
        self.end_tt = HashTable(half)
        self.ctl = np.zeros(4, dtype=np.int64)
        self._busy = threading.Lock()
        self._timer: threading.Timer | None = None
        self._hard: float | None = None  # the running timed search's hard limit (seconds)
        self.fill = FILL  # the clock's settings (attributes, so that matches can tune them)
        self.unsettled = UNSETTLED

    @property
    def weights(self) -> np.ndarray:
        """The learned weights (expanded) when the midgame evaluation is ``learned``, else a (1, 1) dummy."""
        if self.eval_id != LEARNED:
            return NO_WEIGHTS
        if self._weights is None:
            self._weights = weights_for(LEARNED)
        return self._weights

    @property
    def order_weights(self) -> np.ndarray:
        """The weights the exact solver orders its moves with: the learned ones (these weights when a file was
        given), whatever the midgame evaluation."""
        if self._weights is not None:
            return self._weights
        return weights_for(LEARNED)

    def _solver_weights(self, empties: int) -> np.ndarray:
        """``order_weights`` where the solver reads them (from ``endgame.SORT_EVAL_EMPTIES`` empties, and in
        the selective search), the dummy below: the same search, without loading the weights for it."""
        if empties >= min(endgame.SORT_EVAL_EMPTIES, endgame.PROBCUT_EMPTIES):
            return self.order_weights
        return NO_WEIGHTS

    def _solver_statistics(self, empties: int) -> np.ndarray | None:
        """The statistics the solver's selective passes read (where probcut runs, from
        ``endgame.PROBCUT_EMPTIES``, with the learned weights), None below."""
        if empties >= endgame.PROBCUT_EMPTIES:
            return self.statistics_table
        return None

    # --- public API ---------------------------------------------------------------------------------------
    def clear(self) -> None:
        """Forget every earlier search (empty hash tables), so the next results depend on nothing before."""
        self.mid_tt.reset()
        self.end_tt.reset()

    def search(self, state: OthelloState, *, depth: int | None = None, time: float | None = None,
               exact: bool = False, level: int | None = None, on_progress: Progress | None = None,
               max_time: float | None = None) -> SearchResult:
        """Best move and value of ``state`` by depth, time, level or exactly (default: level 8)."""
        return self.analyse(state, depth=depth, time=time, exact=exact, level=level, on_progress=on_progress,
                            max_time=max_time)[0]

    def analyse(self, state: OthelloState, *, depth: int | None = None, time: float | None = None,
                exact: bool = False, multipv: int = 1, on_progress: Progress | None = None,
                level: int | None = None, wld: bool = False, max_time: float | None = None) -> list[SearchResult]:
        """The ``multipv`` best moves with their values and variations, best first.  ``wld`` solves for
        win/draw/loss only (value -1, 0 or +1, faster than an exact solve).  ``time``: the seconds to aim for;
        ``max_time`` (at least ``time``; default ``time``): the hard limit, which the search may approach when
        the position needs it (the best move changed at the last depth)."""
        self._check(state)
        if multipv < 1:
            raise PliesError("multipv must be at least 1")
        if depth is not None and depth < 1:
            raise PliesError("depth must be at least 1")
        if time is not None and not 0 < time < math.inf:
            raise PliesError("time must be a positive, finite number of seconds")
        if max_time is not None:
            if time is None:
                raise PliesError("max_time needs time (the seconds to aim for)")
            if not time <= max_time < math.inf:
                raise PliesError("max_time must be finite and at least time")
        if not self._busy.acquire(blocking=False):
            raise PliesError("this engine is already searching")
        hooked = False
        try:
            self.ctl[:] = 0  # first thing: a stop() from here on stops this search
            self._hard = max_time if max_time is not None else time
            hooked = midgame.hook_interrupt(self.ctl)  # Ctrl-C on the main thread stops it at once
            if time is not None:  # the first read of the weights (0.1 s) before the clock starts, not in the budget
                _ = self.weights, self.mpc
            t0 = _time.perf_counter()
            if self._hard is not None:
                self._start_clock(self._hard)
            return self._analyse(state, depth, time, exact or wld, multipv, on_progress, level, wld, t0)
        finally:
            try:
                if hooked:
                    midgame.unhook_interrupt()
                if self._timer is not None:
                    self._timer.cancel()
                    self._timer = None
            finally:  # even if a Ctrl-C lands just above: the engine must not stay busy
                self._busy.release()

    def stop(self) -> None:
        """Ask the running search to stop now; it returns the best result of its last completed depth."""
        self.ctl[midgame.STOP] = 1

    # --- driver -------------------------------------------------------------------------------------------
    @staticmethod
    def _check(state: object) -> None:
        if not isinstance(state, OthelloState):
            raise PliesError("the engine plays Othello only")
        if state.n != 8:
            raise PliesError(f"the engine plays 8x8 Othello only, not {state.n}x{state.n}")

    def _start_clock(self, seconds: float) -> None:
        wait = min(max(0.0, seconds - safety_margin(seconds)), MAX_CLOCK)
        self._timer = threading.Timer(wait, self.stop)
        self._timer.daemon = True
        self._timer.start()

    def _analyse(self, state: OthelloState, depth: int | None, time: float | None, exact: bool, multipv: int,
                 on_progress: Progress | None, level: int | None, wld: bool, t0: float) -> list[SearchResult]:
        if state.is_over():
            s = state.score() if state.to_move == 0 else -state.score()
            return [SearchResult(s, None, [], Stats(seconds=0.0), "engine", "exact", exact=True)]
        empties = state.empties()
        if level is not None:
            lv = get_level(level)
            depth = depth or lv.depth
            exact = exact or empties <= lv.exact_empties
        if depth is None and time is None and not exact:
            lv = get_level(DEFAULT_LEVEL)
            depth = lv.depth
            exact = empties <= lv.exact_empties
        if time is not None and not exact and empties <= time_exact_empties(time):
            exact = True
        if (time is not None and not exact and depth is None and multipv == 1 and self.eval_id == LEARNED
                and empties <= time_selective_empties(time)):
            return self._endgame_by_time(state, time, on_progress, t0)
        if not exact:
            return self._iterate(state, depth or MAX_DEPTH, time, multipv, on_progress, t0)
        fallback: list[SearchResult] = []
        if time is not None or empties > 14:
            # a quick midgame search first: root move order for the solver, and the answer if time runs out
            fallback = self._iterate(state, presearch_depth(empties), None, multipv, None, t0)
            if self.ctl[midgame.STOP]:
                return fallback
        results = self._solve(state, multipv, on_progress, wld, t0, fallback)
        return results or fallback

    def _root_moves(self, state: OthelloState) -> np.ndarray:
        return np.array(state.legal_moves(), dtype=np.int64)

    def _iterate(self, state: OthelloState, max_depth: int, time: float | None, multipv: int,
                 on_progress: Progress | None, t0: float, share: float | None = None) -> list[SearchResult]:
        P, O = position(state)
        mpc = self.mpc
        self.mid_tt.prepare(self.evaluation if mpc is None else f"{self.evaluation}@{self.probcut:g}")
        tt = self.mid_tt.arrays()
        root = self._root_moves(state)
        n = len(root)
        k = min(multipv, n)
        best: list[SearchResult] = []
        last: float | None = None
        by_depth: dict[int, float] = {}  # the best value of each completed depth
        stamps = [_time.perf_counter() - t0]  # seconds from t0: this search's start, then each depth's end
        empties = state.empties()
        for d in range(1, max_depth + 1):
            # the window around the value of the last depth of the same parity: odd and even depths end on
            # different sides to move, and the evaluation's leaning to one side swings the value between them
            centre = by_depth.get(d - 2, last) if SAME_PARITY_WINDOW else last
            if centre is not None and k == 1 and d >= 3 and abs(centre) < WIN / 2:
                alpha, beta = centre - self.aspiration, centre + self.aspiration
            else:
                alpha, beta = -math.inf, math.inf
            while True:
                values, flags, rpv, rlen = _root_arrays(n)
                done = midgame.search_root(P, O, d, alpha, beta, root, k, values, flags, rpv, rlen, tt,
                                           self.eval_id, self.weights, self.ctl, usable_threads(self.threads),
                                           mpc=mpc, confidence=self.probcut or 0.0)
                if self.ctl[midgame.STOP]:
                    break
                top = float(values[:done].max())
                if k == 1 and top <= alpha:
                    alpha = -math.inf
                    continue
                if k == 1 and top >= beta:
                    beta = math.inf
                    continue
                break
            if self.ctl[midgame.STOP]:
                if k == 1 and best:
                    best = self._partial_best(state, best, root, values, flags, rpv, rlen, done, d, t0)
                break
            order = _best_first(values, flags, done)
            order += list(range(done, n))
            seconds = _time.perf_counter() - t0
            changed = bool(best) and int(root[order[0]]) != best[0].move
            best = [self._root_result(state, root, values, rpv, rlen, i, d, seconds) for i in order[:k]]
            root = root[order]
            last = float(values[order[0]])
            by_depth[d] = last
            if on_progress is not None:
                on_progress(list(best))
            if time is not None:
                elapsed = _time.perf_counter() - t0
                stamps.append(elapsed)
                aim = time
                if changed and d >= 4 and self._hard is not None:  # unsettled: more time, within the limit
                    aim = min(self._hard, self.unsettled * time)
                if share is not None:
                    if elapsed > share * aim:
                        break
                elif elapsed + next_depth_time(stamps) > self.fill * aim:
                    break
                if d >= empties and all(abs(r.value) >= WIN for r in best):
                    break
        if not best:
            best = self._depth_one(state, P, O, root, k, tt, t0)
        return best

    def _depth_one(self, state: OthelloState, P: int, O: int, root: np.ndarray, k: int, tt: TableArrays,
                   t0: float) -> list[SearchResult]:
        """The answer of a search stopped before depth 1 completed: depth 1 now, past the stop (microseconds: one
        evaluation a move), so that every answer has a searched value; the stop stands for what follows."""
        n = len(root)
        values, flags, rpv, rlen = _root_arrays(n)
        ctl = np.zeros_like(self.ctl)  # its own control words: a stop() arriving meanwhile lands in self.ctl
        done = midgame.search_root(P, O, 1, -math.inf, math.inf, root, k, values, flags, rpv, rlen, tt,
                                   self.eval_id, self.weights, ctl, 1)
        self.ctl[midgame.NODES] += ctl[midgame.NODES]
        order = _best_first(values, flags, done)
        seconds = _time.perf_counter() - t0
        return [self._root_result(state, root, values, rpv, rlen, i, 1, seconds) for i in order[:k]]

    def _partial_best(self, state: OthelloState, best: list[SearchResult], root: np.ndarray, values: np.ndarray,
                      flags: np.ndarray, rpv: np.ndarray, rlen: np.ndarray, done: int, depth: int,
                      t0: float) -> list[SearchResult]:
        """The answer of an iteration stopped part way: a later root move that the deeper search already proved
        better than the previous best (searched first) replaces it; else the previous iteration's answer stands."""
        better = [i for i in range(1, done) if flags[i] != 1]
        if not better:
            return best
        i = max(better, key=lambda j: values[j])
        return [self._root_result(state, root, values, rpv, rlen, i, depth, _time.perf_counter() - t0)]

    def _root_result(self, state: OthelloState, root: np.ndarray, values: np.ndarray, rpv: np.ndarray,
                     rlen: np.ndarray, i: int, depth: int, seconds: float) -> SearchResult:
        """Root move i of a midgame search to depth: its value, its variation (extended from the table), stats."""
        pv = self._extend_pv(state, [int(x) for x in rpv[i, : rlen[i]]], depth)
        stats = Stats(nodes=int(self.ctl[midgame.NODES]), seconds=seconds, depth=depth)
        value = float(values[i])
        if self.eval_id == LEARNED and abs(value) < WIN / 2:  # a predicted disc difference: never beyond 64
            value = max(-64.0, min(64.0, value))
        sel = None if self.probcut is None else selectivity(round(100 * self.probcut))
        return SearchResult(_clean(value), int(root[i]), pv, stats, "engine", self.evaluation, selectivity=sel)

    def _extend_pv(self, state: OthelloState, pv: list[int], depth: int) -> list[int]:
        """Follow the table's best moves past where the search's own variation stopped (cut by a hit)."""
        s = state
        try:
            for m in pv:
                s = s.play(m)
        except PliesError:
            return pv
        arrays = self.mid_tt.arrays()
        out = list(pv)
        while len(out) < depth and not s.is_over():
            moves = s.legal_moves()
            if moves == [PASS]:
                m = PASS
            else:
                P, O = position(s)
                e = probe(arrays, P, O)
                if e < 0:
                    break
                m = int(self.mid_tt.move[e])
                if m not in moves:
                    break
            out.append(m)
            s = s.play(m)
        return out

    def _endgame_by_time(self, state: OthelloState, time: float, on_progress: Progress | None,
                         t0: float) -> list[SearchResult]:
        """Timed play with a few too many empties for an exact solve in the budget: the midgame iterations for
        ``MIDGAME_SHARE`` of it, then selective endgame searches (probcut) of growing confidence
        (``SELECTIVE_STEPS``) and an exact solve, each one's window and root order from the one before, until the
        clock stops them (as Edax and Egaroucid do): the move of the last one finished.  A first selective
        search still running at ``SELECTIVE_YIELD`` of the budget is given up, and the midgame iterations go on
        with the rest of it (from their table: the depths done come back at once), unless they were already
        within ``YIELD_GAP`` plies of the end."""
        last_two: list[float] = []
        shown = 0  # the deepest midgame depth shown: iterations resumed after a yield show only deeper ones

        def keep(results: list[SearchResult]) -> None:
            nonlocal shown
            last_two[:] = [*last_two[-1:], float(results[0].value)]
            if on_progress is not None and results[0].stats.depth > shown:
                shown = results[0].stats.depth
                on_progress(results)

        best = self._iterate(state, MAX_DEPTH, time, 1, keep, t0, share=MIDGAME_SHARE)
        if self.ctl[midgame.STOP] or best[0].stats.depth == 0:
            return best
        P, O = position(state)
        empties = state.empties()
        self.end_tt.prepare("exact")
        tt = self.end_tt.arrays()
        first = best[0].move
        root_a = np.array([first] + [m for m in state.legal_moves() if m != first], dtype=np.int64)
        guess = sum(last_two) / len(last_two)  # odd and even depths swing either side of the value: their mean
        alpha, beta = _end_window(int(round(guess))) if abs(guess) < 64 else (-65, 65)
        # the endgame searches stop one more safety margin early: probcut's shallow searches poll the stop flag
        # only 3 or more plies above their horizon, so a stop reaches them later than it reaches the midgame
        hard = self._hard if self._hard is not None else time
        left = hard - 2 * safety_margin(hard) - (_time.perf_counter() - t0)
        early = threading.Timer(max(0.0, left), self.stop)
        early.daemon = True
        early.start()

        def give_up() -> None:  # a stop of its own, which one from stop() or the clock overwrites (never the reverse)
            if not self.ctl[midgame.STOP]:
                self.ctl[midgame.STOP] = YIELDED

        soft = threading.Timer(max(0.0, SELECTIVE_YIELD * time - (_time.perf_counter() - t0)), give_up)
        soft.daemon = True
        if empties - best[0].stats.depth >= YIELD_GAP:
            soft.start()
        try:
            for step, confidence in enumerate((*SELECTIVE_STEPS, 0)):
                self.ctl[endgame.SELECT] = confidence
                found = self._solve_window(P, O, alpha, beta, root_a, 1, tt)
                self.ctl[endgame.SELECT] = 0
                soft.cancel()
                if step == 0 and self.ctl[midgame.STOP] == YIELDED:  # given up (or done as the yield came: go on)
                    if found is None:
                        early.cancel()  # the midgame iterations stop at the clock's own time
                    if self._resume(hard, t0) and found is None:
                        return self._iterate(state, MAX_DEPTH, time, 1, keep, t0)
                if found is None:  # stopped by the clock: the last finished search answers
                    break
                values, flags, rpv, rlen, done, root_a = found
                i = max(range(done), key=lambda j: (flags[j] != 1, values[j]))
                v = int(values[i])
                pv = [int(x) for x in rpv[i, : rlen[i]]]
                stats = Stats(nodes=int(self.ctl[midgame.NODES]), seconds=_time.perf_counter() - t0, depth=empties)
                exact = confidence == 0
                best = [SearchResult(v, int(root_a[i]), pv, stats, "engine-exact" if exact else "engine-selective",
                                     "exact" if exact else self.evaluation, exact=exact,
                                     selectivity=None if exact else selectivity(confidence))]
                if on_progress is not None:
                    on_progress(list(best))
                if exact:
                    break
                root_a = np.concatenate([root_a[i:i + 1], np.delete(root_a, i)])
                alpha, beta = _end_window(v) if abs(v) < 64 else (-65, 65)
                self._retire_selective()
        finally:
            early.cancel()
            soft.cancel()
            self.ctl[endgame.SELECT] = 0
            self._retire_selective()
        return best

    def _resume(self, hard: float, t0: float) -> bool:
        """Clear the yield's stop, unless the clock's is due (then a stop stands): whether the search may go on.
        The time is read after the clear, so a clock stop that landed meanwhile is seen and set again."""
        self.ctl[midgame.STOP] = 0
        if _time.perf_counter() - t0 >= hard - 2 * safety_margin(hard):
            self.ctl[midgame.STOP] = 1
            return False
        return True

    def _retire_selective(self) -> None:
        """Keep the best moves of the endgame table's selective entries but not their bounds: a search of another
        confidence must not take them.  A selective entry's depth is 64 + its empties; one less matches no search
        of the position (exact ones take depth = empties, selective ones 64 + empties) and ranks about the same."""
        rec = self.end_tt.records
        idx = np.flatnonzero(rec["depth"] >= endgame.SELECTIVE_TAG)
        if len(idx) == 0:
            return
        sub = rec[idx]
        empties = 64 - _popcount(sub["P"] | sub["O"])
        fresh = idx[sub["depth"].astype(np.int64) == endgame.SELECTIVE_TAG + empties]
        rec["depth"][fresh] -= 1

    def _solve(self, state: OthelloState, multipv: int, on_progress: Progress | None, wld: bool, t0: float,
               fallback: list[SearchResult]) -> list[SearchResult]:
        P, O = position(state)
        self.end_tt.prepare("exact")
        tt = self.end_tt.arrays()
        if fallback:
            first = [r.move for r in fallback]
            root = first + [m for m in state.legal_moves() if m not in first]
        else:
            root = state.legal_moves()
        root_a = np.array(root, dtype=np.int64)
        n = len(root_a)
        k = min(multipv, n)
        alpha, beta = (-1, 1) if wld else (-65, 65)
        if not wld and k == 1 and fallback and self.eval_id == LEARNED and abs(fallback[0].value) < 64:
            # aspiration: a window around the presearch's estimate (in discs), widened on failure
            alpha, beta = _end_window(int(round(float(fallback[0].value))))
        for confidence in [c for e, c in SOLVE_STEPS if state.empties() >= e]:
            # selective searches first (much cheaper), each more confident than the one before: their best moves
            # fill the table and order the root, their values centre the next window
            self.ctl[endgame.SELECT] = confidence
            try:
                found = self._solve_window(P, O, alpha, beta, root_a, k, tt, widen=not wld)
            finally:
                self.ctl[endgame.SELECT] = 0
                self._retire_selective()  # the next search, of another confidence, takes their moves only
            if found is None:
                return []
            values, _, rpv, rlen, done, searched = found
            by_value = sorted(range(done), key=lambda i: -values[i])
            root_a = np.concatenate([searched[by_value], searched[done:]])
            if not wld and k == 1:  # and its value is a better guess than the midgame's for the window
                i = by_value[0]
                top = int(values[i])
                if abs(top) < 64:
                    alpha, beta = _end_window(top)
                if on_progress is not None:  # a long solve shows each pass's estimate as it comes
                    stats = Stats(nodes=int(self.ctl[midgame.NODES]), seconds=_time.perf_counter() - t0,
                                  depth=state.empties())
                    on_progress([SearchResult(top, int(searched[i]), [int(x) for x in rpv[i, : rlen[i]]], stats,
                                              "engine-selective", self.evaluation,
                                              selectivity=selectivity(confidence))])
        found = self._solve_window(P, O, alpha, beta, root_a, k, tt, widen=not wld)
        if found is None:
            return []
        values, flags, rpv, rlen, done, root_a = found
        order = _best_first(values, flags, done)
        seconds = _time.perf_counter() - t0
        out = []
        for i in order[:k]:
            v = int(values[i])
            pv = [int(x) for x in rpv[i, : rlen[i]]]
            if wld:  # a bound outside the window (-1, 1) says only which side of the draw the score is on
                v = max(-1, min(1, v))
            else:
                pv = self._complete_pv(state, pv, v, tt)
            stats = Stats(nodes=int(self.ctl[midgame.NODES]), seconds=seconds, depth=state.empties())
            out.append(SearchResult(v, int(root_a[i]), pv, stats, "engine-wld" if wld else "engine-exact",
                                    "exact", exact=not wld))
        if on_progress is not None:
            on_progress(list(out))
        return out

    def _solve_window(self, P: int, O: int, alpha: int, beta: int, root_a: np.ndarray, k: int,
                      tt: TableArrays, widen: bool = True) -> tuple | None:
        """``endgame.solve_root`` from the window (alpha, beta), widened and re-searched until the best value
        is inside it: (values, flags, variations, their lengths, moves done, root order), None if stopped.  A
        selective search's value depends on its window, so a re-search can fail on the side opposite the first
        failure; the window then opens fully, which no value can fail, so this ends after three searches at most.
        Without ``widen`` (win/draw/loss) one search: a value outside (-1, 1) already tells the side of the draw."""
        n = len(root_a)
        failed_low = failed_high = False
        while True:
            values, flags, rpv, rlen = _root_arrays(n)
            empties = 64 - (int(P) | int(O)).bit_count()
            done = endgame.solve_root(P, O, alpha, beta, root_a, k, values, flags, rpv, rlen, tt, self.ctl,
                                      self._solver_weights(empties), self.mid_tt.arrays(),
                                      usable_threads(self.threads), mpc=self._solver_statistics(empties))
            if self.ctl[midgame.STOP]:
                return None
            if not widen:
                break
            top = int(values[:done].max())
            if top <= alpha and alpha > -65:     # every move fails low: the value is at most top
                failed_low = True
                alpha, beta = -65, 65 if failed_high else top + 1
                continue
            if top >= beta and beta < 65:        # a move fails high: search it first with the window above
                failed_high = True
                i = int(np.argmax(values[:done]))
                root_a = np.concatenate([root_a[i:i + 1], np.delete(root_a, i)])
                alpha, beta = -65 if failed_low else top - 1, 65
                continue
            break
        return values, flags, rpv, rlen, done, root_a

    def _complete_pv(self, state: OthelloState, pv: list[int], value: int, tt: TableArrays) -> list[int]:
        """Extend an exact variation to the end of the game: at each step the move whose child solves to
        the negated value, the table's best move tried first (cheap: the solve left most of these positions in
        the table)."""
        s = state
        v = value
        try:
            for m in pv:
                s = s.play(m)
                v = -v
        except PliesError:
            return pv
        out = list(pv)
        while not s.is_over():
            moves = s.legal_moves()
            e = probe(tt, *position(s))
            if e >= 0 and int(self.end_tt.move[e]) in moves[1:]:
                hint = int(self.end_tt.move[e])
                moves = [hint] + [m for m in moves if m != hint]
            found = None
            for m in moves:
                c = s.play(m)
                if c.is_over():
                    cv = c.score() if c.to_move == 0 else -c.score()
                else:
                    cP, cO = position(c)
                    cv = int(endgame.solve(cP, cO, -v - 1, -v + 1, self.ctl, tt, self._solver_weights(c.empties()),
                                           self.mid_tt.arrays(), mpc=self._solver_statistics(c.empties())))
                if -cv == v:
                    found = m
                    break
            if found is None:
                break
            out.append(found)
            s = s.play(found)
            v = -v
        return out


__all__ = ["Engine", "time_exact_empties", "time_selective_empties"]
