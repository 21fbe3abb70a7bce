"""Analysis a player reads: every legal move valued, in discs, and the review of a whole game.

``analyse_position(state, level)`` values every legal move of a position with one search: on 8x8 Othello the
fast engine at an engine level (multi-PV over all moves; the learned evaluation is in discs and the endgame is
solved exactly from the level's number of empties), elsewhere the textbook alpha-beta.  Every answer says its
``unit``:

- ``"discs"``: a predicted (or, with ``exact``, the proven) final disc difference;
- ``"result"``: a win, draw or loss game (its type's ``result``) solved to the end (tic-tac-toe), or over:
  +1 win, 0 draw, -1 loss;
- a heuristic's name (``"weighted-squares heuristic"``): that heuristic's own value, which is *not* discs;
  front-ends show it apart and name it.

Move values are from the mover's view; ``value`` (the position's) is from Black's (player 0's) view, the
default point of view of every graph and list.  ``review_game`` turns the analyses of a game's positions into
the discs each move lost against the best move, the mistakes, and a sum per player.

``Analyst`` runs analyses on background threads with a cache, newest request first, so that the evaluation of
a live game is computed without delaying the computer's move (which runs on the app's own workers).
"""

from __future__ import annotations

import asyncio
import heapq
import importlib
import itertools
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any, TypedDict

from plies.game import PASS, WIN, PliesError, State
from plies.games import type_of
from plies.games.record import Game, move_names
from plies.search import alphabeta
from plies.web import levels

DEFAULT_ANALYSIS_LEVEL = 8
"""Engine level of the analysis (graph, hints, values on the board, review) unless the person picks another."""
MIN_ANALYSIS_LEVEL = 1
MISTAKE_DISCS = 2.0
"""A move that loses at least this many discs against the best move is a mistake."""
ENGINE_HASH_MB = 16


# --- values -------------------------------------------------------------------------------------------------
def discs_text(value: float | None, exact: bool = False) -> str:
    """A value in discs as people read it: a sign, one decimal at most (``+3.5``, ``-2``, ``0``)."""
    if value is None:
        return ""
    r = round(float(value), 1)
    if r == 0:
        return "0"
    text = f"{r:+.1f}"
    return text[:-2] if text.endswith(".0") else text


def value_text(value: float | None, unit: str, exact: bool = False) -> str:
    """``value`` in its unit for a person: ``+3.5 discs``, ``+4 discs (exact)``, ``win``/``draw``/``loss``, or
    ``weighted-squares heuristic +24`` (a heuristic's value, named)."""
    if value is None:
        return ""
    if unit == "discs":
        return f"{discs_text(value)} discs" + (" (exact)" if exact else "")
    if unit == "result":
        return "win" if value > 0 else "loss" if value < 0 else "draw"
    return f"{unit} {discs_text(value)}"


def from_search(value: float, exact: bool) -> tuple[float, bool]:
    """A search value (side to move's view) as (discs or heuristic units, proven exact): a finished game inside
    the horizon is worth ±(WIN + disc difference) and becomes that disc difference, exact."""
    v = float(value)
    if abs(v) >= WIN:
        return v - math.copysign(WIN, v), True
    if math.isnan(v) or math.isinf(v):
        return 0.0, False
    return v, exact


def _r(v: float) -> float:
    return round(float(v), 2) + 0.0


def final_unit(state: State) -> str:
    """The unit of a final score: ``result`` (+1/0/-1) in a win, draw or loss game, else ``discs``."""
    t = type_of(state)
    return "result" if t is not None and t.result == "result" else "discs"


def unit_for(state: State, use_engine: bool) -> str:
    """The unit ``analyse_position`` answers in for this game."""
    t = type_of(state)
    if t is not None and t.solved_depth is not None:  # searched to the end: final scores
        return final_unit(state)
    if use_engine:
        return "discs"
    return heuristic_unit(levels.evaluation_for(state.game))


def heuristic_unit(h: Any) -> str:
    """The unit of a heuristic's values: ``weighted-squares heuristic`` (never just ``discs``: the ``discs``
    heuristic counts the discs on the board now, not the final margin)."""
    return f"{h.name} heuristic"


# --- one position ----------------------------------------------------------------------------------------------
def clamp_level(level: int | None) -> int:
    if level is None:
        return DEFAULT_ANALYSIS_LEVEL
    return max(MIN_ANALYSIS_LEVEL, min(levels.MAX_LEVEL, int(level)))


def level_text(level: int) -> str:
    """``fast engine, level 8: depth 10, exact from 14 empties``."""
    row = importlib.import_module("plies.engine.levels").LEVELS[level]
    return f"fast engine, level {level}: depth {row.depth}, exact from {row.exact_empties} empties"


def analyse_position(state: State, level: int | None = None, use_engine: bool | None = None,
                     engine: Any = None) -> dict[str, Any]:
    """Every legal move of ``state`` valued (best first), the position's value from Black's view, the unit.

    ``engine`` is a ``plies.engine.Engine`` to search with (one is made when needed); ``use_engine`` (default:
    whether the engine plays this game here) chooses the engine or the textbook search."""
    level = clamp_level(level)
    if use_engine is None:
        use_engine = levels.engine_applies(state)
    unit = unit_for(state, use_engine)
    out: dict[str, Any] = {"game": state.game, "position": state.to_text(), "unit": unit, "level": level,
                           "to_move": None if state.is_over() else state.to_move}
    if state.is_over():
        s = float(state.score())
        out["unit"] = unit = final_unit(state)  # the final score
        out.update(value=_r(s if unit != "result" else (s > 0) - (s < 0)), exact=True, moves=[], depth=0,
                   source="the game is over")
        return out
    moves = state.legal_moves()
    if moves == [PASS]:
        child = analyse_position(state.play(PASS), level, use_engine, engine)
        line = ["pass"] + (child["moves"][0]["pv"] if child["moves"] else [])
        black = child["value"]  # a position's value is Black's view, whoever moves
        mover = black if state.to_move == 0 else -black
        out.update(value=_r(black), exact=child["exact"], depth=child["depth"], source=child["source"],
                   moves=[{"move": "pass", "index": PASS, "value": _r(mover), "exact": child["exact"], "pv": line}])
        return out
    t = type_of(state)
    if use_engine:
        rows, depth, source = _engine_rows(state, level, engine)
    elif t is not None and t.solved_depth is not None:  # every leaf is the end of the game: any evaluation will do
        rows, depth, source = _textbook_rows(state, t.solved_depth, levels.evaluation_for(state.game), True)
    else:
        h = levels.evaluation_for(state.game)
        empties = _empties(state)
        limit = t.exact_empties if t is not None else -1
        if 0 <= empties <= limit:  # 2 * empties + 1 plies reach the end of every line: the evaluation is never read
            rows, depth, source = _textbook_rows(state, 2 * empties + 1, h, True)
            unit = out["unit"] = final_unit(state)  # solved to the end: final scores
        else:
            # the horizon on Black's move whoever moves here, as the engine's (leaf_depth): a heuristic that
            # counts discs favours the side that moved last, which would zigzag the graph from move to move
            rows, depth, source = _textbook_rows(state, leaf_depth(levels.hint_depth(state), state.to_move), h,
                                                 False)
    _sort(rows)
    _place(state, rows)
    best = rows[0]
    if unit == "result":
        for r in rows:
            r["value"] = float((r["value"] > 0) - (r["value"] < 0))
    black = best["value"] if state.to_move == 0 else -best["value"]
    out.update(value=_r(black), exact=bool(best["exact"]), depth=depth, source=source, moves=rows)
    return out


def _sort(rows: list[dict[str, Any]]) -> None:
    """Best first, by the search's own value where a row keeps it (``search``, dropped here): a game won inside
    the horizon before every heuristic value and a lost one after, although each shows its final score (Connect
    Four's win is +1, below a heuristic's +30)."""
    rows.sort(key=lambda r: -r.get("search", r["value"]))
    for r in rows:
        r.pop("search", None)


def _place(state: State, rows: list[dict[str, Any]]) -> None:
    """Each row's ``cell``: where the move is played on the board (its square; in Connect Four the cell the disc
    drops to), for the pages that draw values on the board."""
    t = type_of(state)
    if t is None:
        return
    v = t.view(state)
    for r in rows:
        r["cell"] = v.cell_of(r["index"])


def _empties(state: State) -> int:
    fn = getattr(state, "empties", None)
    return int(fn()) if callable(fn) else -1


_ENGINES: list[Any] = []
_ENGINES_LOCK = threading.Lock()


def leaf_depth(depth: int, to_move: int) -> int:
    """The level's ``depth``, or one less (one more from depth 1), so that the search's horizon always falls on a
    position with Black to move.  The evaluation at the horizon leans towards the side that has just moved (a
    depth-9 search of the start gives Black +7, a depth-10 search -1.4); with the horizon always on the same
    side, consecutive positions are valued alike (no zigzag in the graph) and a position's value is the value of
    the move that led to it."""
    if (depth % 2 == 0) == (to_move == 0):
        return depth
    return depth - 1 if depth > 1 else 2


def _engine_rows(state: State, level: int, engine: Any) -> tuple[list[dict[str, Any]], int, str]:
    borrowed = engine is None
    if borrowed:
        with _ENGINES_LOCK:
            engine = _ENGINES.pop() if _ENGINES else importlib.import_module("plies.engine").Engine(
                hash_mb=ENGINE_HASH_MB)
    row = importlib.import_module("plies.engine.levels").LEVELS[level]
    exact = _empties(state) <= row.exact_empties
    try:
        results = engine.analyse(state, depth=leaf_depth(row.depth, state.to_move), exact=exact,
                                 multipv=len(state.legal_moves()))
    finally:
        if borrowed:
            with _ENGINES_LOCK:
                _ENGINES.append(engine)
    rows = []
    depth = 0
    for r in results:
        value, exact = from_search(r.value, bool(r.exact))
        depth = max(depth, int(getattr(r.stats, "depth", 0) or 0))
        rows.append({"move": state.move_str(r.move), "index": r.move, "value": _r(value), "exact": exact,
                     "pv": move_names(state, r.pv or [r.move])})
    searched = leaf_depth(row.depth, state.to_move)
    text = level_text(level)
    if _empties(state) > row.exact_empties and searched != row.depth:  # the horizon on Black's move (leaf_depth)
        text = text.replace(f"depth {row.depth},", f"depth {searched} here,")
    return rows, depth, text


def _textbook_rows(state: State, depth: int, h: Any, solved: bool) -> tuple[list[dict[str, Any]], int, str]:
    me = state.to_move
    t = type_of(state)
    to_the_end = t is not None and t.solves(depth)
    order = levels.order_for(state)
    rows = []
    for m in state.legal_moves():
        child = state.play(m)
        line: list[Any] = []
        if child.is_over():
            v = child.utility(me)
        elif depth <= 1:
            v = h(child, me)
        else:
            r = alphabeta(child, depth - 1, h, order=order)
            v = r.value if child.to_move == me else -r.value
            line = list(r.pv)
        value, exact = from_search(v, child.is_over())
        if to_the_end:
            exact = True
        rows.append({"move": state.move_str(m), "index": m, "value": _r(value), "exact": exact,
                     "pv": [state.move_str(m)] + move_names(child, line),
                     "search": float(v) if math.isfinite(float(v)) else _r(value)})
    if to_the_end and t is not None:
        source = f"{t.noun} solved to the end"
    elif solved:
        source = "alpha-beta to the end of the game (exact)"
    else:
        source = f"alpha-beta depth {depth}, {h.name}"
    return rows, depth, source


def textbook_analysis(state: State, depth: int, heuristic: Any) -> dict[str, Any]:
    """``analyse_position``'s answer from the textbook alpha-beta with ``heuristic`` at ``depth`` (each move
    searched ``depth - 1`` plies below it): values in the heuristic's units, exact where the game ends inside
    the horizon (tic-tac-toe solved to the end reads as a result)."""
    if state.is_over() or state.legal_moves() == [PASS]:
        return analyse_position(state, use_engine=False)
    rows, depth, source = _textbook_rows(state, depth, heuristic, False)
    _sort(rows)
    _place(state, rows)
    unit = heuristic_unit(heuristic)
    if final_unit(state) == "result" and all(r["exact"] for r in rows):
        unit = "result"
        for r in rows:
            r["value"] = float((r["value"] > 0) - (r["value"] < 0))
    best = rows[0]
    black = best["value"] if state.to_move == 0 else -best["value"]
    return {"game": state.game, "position": state.to_text(), "unit": unit, "level": None, "to_move": state.to_move,
            "value": _r(black), "exact": bool(best["exact"]), "depth": depth, "source": source, "moves": rows}


# --- a whole game ----------------------------------------------------------------------------------------------
class PlayerSum(TypedDict):
    """One side's line of a review: its moves, mistakes, discs lost in all and its worst move."""

    side: int
    name: str
    moves: int
    mistakes: int
    lost: float
    worst: dict[str, Any] | None


def review_game(start: State, moves: Sequence[Any], analyses: Sequence[dict[str, Any] | None],
                threshold: float | None = None) -> dict[str, Any]:
    """The review of a game from the analyses of its positions (``analyses[i]`` of the position before move
    ``i``, then the final position's): each move's value, the best move and its line, the discs lost, the
    mistakes, and per player the sum of the discs lost.  A mistake loses at least ``threshold`` discs (default
    ``MISTAKE_DISCS``); in tic-tac-toe it turns a result into a worse one; valued by a heuristic, it falls far
    below the best move of its position (a quarter of the spread of its moves' values)."""
    states = Game(start, moves).states
    units = [a["unit"] for a in analyses if a and a["moves"]] or [a["unit"] for a in analyses if a] or ["discs"]
    unit = max(set(units), key=units.count)  # the textbook search solves only the last moves exactly (discs)
    discs_threshold = MISTAKE_DISCS if threshold is None else threshold  # ``threshold`` is in discs
    threshold = discs_threshold if unit == "discs" else 1.0 if unit == "result" else 0.0
    rows: list[dict[str, Any]] = []
    names = list(start.player_names)
    players: list[PlayerSum] = [{"side": p, "name": names[p], "moves": 0, "mistakes": 0, "lost": 0.0, "worst": None}
                                for p in (0, 1)]
    for i, m in enumerate(moves):
        state = states[i]
        side = state.to_move
        row: dict[str, Any] = {"ply": i + 1, "move": state.move_str(m), "side": side}
        a = analyses[i] if i < len(analyses) else None
        if m == PASS or a is None or not a["moves"]:
            row.update(forced=m == PASS, loss=0.0, mistake=False)
            rows.append(row)
            continue
        best = a["moves"][0]
        played = next((x for x in a["moves"] if x["index"] == m), None)
        if played is None:  # pragma: no cover - every legal move is analysed
            row.update(loss=0.0, mistake=False)
            rows.append(row)
            continue
        loss = max(0.0, best["value"] - played["value"])
        row_unit = a["unit"]
        if row_unit not in ("discs", "result"):  # a heuristic: a mistake is a move far below the best of its position
            spread = best["value"] - a["moves"][-1]["value"]
            mistake = loss > 0 and loss >= max(threshold if row_unit == unit else 0.0, 0.25 * spread)
        else:
            limit = discs_threshold if row_unit == "discs" else 1.0
            mistake = loss >= limit and loss > 0
        row.update(value=played["value"], exact=bool(played["exact"] and best["exact"]), best=best["move"],
                   best_value=best["value"], best_line=best["pv"], line=played["pv"], loss=_r(loss),
                   mistake=bool(mistake), only=len(a["moves"]) == 1, unit=row_unit)
        rows.append(row)
        p = players[side]
        p["moves"] += 1
        if row_unit != unit:  # the sum is in the review's unit; a move valued in another counts as a mistake only
            if mistake:
                p["mistakes"] += 1
            continue
        p["lost"] = _r(p["lost"] + loss)
        if mistake:
            p["mistakes"] += 1
        if loss > 0 and (p["worst"] is None or loss > p["worst"]["loss"]):
            p["worst"] = {"ply": i + 1, "move": row["move"], "loss": _r(loss), "best": best["move"]}
    evals = []
    for i in range(len(states)):
        a = analyses[i] if i < len(analyses) else None
        evals.append(None if a is None else {"value": a["value"], "exact": a["exact"], "unit": a["unit"]})
    final = states[-1]
    source = next((a["source"] for a in analyses if a and a["moves"]), "")
    return {
        "game": start.game, "start": start.to_text(), "unit": unit, "threshold": threshold, "source": source,
        "level": next((a["level"] for a in analyses if a), None), "moves": rows, "players": players,
        "evals": evals, "over": final.is_over(), "score": float(final.score()) if final.is_over() else None,
        "side_names": names,
    }


def review(start: State, moves: Sequence[Any], level: int | None = None, use_engine: bool | None = None,
           on_progress: Callable[[int, int], None] | None = None, threshold: float | None = None,
           threads: int = 1) -> dict[str, Any]:
    """Analyse every position of a game in turn (``on_progress(done, total)`` after each) and review it; the
    engine searches on ``threads`` threads."""
    states = Game(start, moves).states
    if use_engine is None:
        use_engine = levels.engine_applies(start)
    engine = importlib.import_module("plies.engine").Engine(hash_mb=64, threads=threads) if use_engine else None
    todo = [i for i, m in enumerate(moves) if m != PASS] + [len(moves)]
    analyses: list[dict[str, Any] | None] = [None] * len(states)
    for k, i in enumerate(todo):
        analyses[i] = analyse_position(states[i], level, use_engine, engine)
        if on_progress is not None:
            on_progress(k + 1, len(todo))
    fill_passes(moves, analyses)
    return review_game(start, moves, analyses, threshold)


def fill_passes(moves: Sequence[Any], analyses: list[dict[str, Any] | None]) -> None:
    """Give each position before a forced pass the analysis of the position after it (the same value)."""
    for i in range(len(moves) - 1, -1, -1):
        after = analyses[i + 1]
        if moves[i] == PASS and analyses[i] is None and after is not None:
            analyses[i] = {**after, "moves": []}


# --- background work -------------------------------------------------------------------------------------------
MAX_QUEUE = 5000
"""Most positions waiting for analysis at once (all games together); more is refused until the queue drains."""
URGENT, LIVE, REVIEW = 0, 1, 2
"""Priorities: a person waiting (hint, values on the board), a live game's graph, a review (oldest first)."""


class _Job:
    __slots__ = ("key", "state", "level", "use_engine", "future", "priority", "started", "waiters")

    def __init__(self, key: tuple[Any, ...], state: State, level: int, use_engine: bool) -> None:
        self.key = key
        self.state = state
        self.level = level
        self.use_engine = use_engine
        self.future: Future[dict[str, Any]] = Future()
        self.priority = REVIEW + 1
        self.started = False
        self.waiters = 0  # submits not withdrawn: the job is dropped when the last one withdraws before it starts


class Analyst:
    """Analyses on ``threads`` background threads (each with its own engine), cached by position and level;
    newest requests first within a priority, so the position on the screen is valued before older ones."""

    def __init__(self, threads: int = 2, cache_size: int = 20_000, max_queue: int = MAX_QUEUE) -> None:
        self.threads = max(1, threads)
        self.cache_size = cache_size
        self.max_queue = max_queue
        self._cache: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self._jobs: dict[tuple[Any, ...], _Job] = {}
        self._heap: list[tuple[int, int, _Job]] = []
        self._seq = itertools.count()
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._workers: list[threading.Thread] = []

    def key(self, state: State, level: int | None) -> tuple[Any, ...]:
        use_engine = levels.engine_applies(state)
        return (state.game, state, clamp_level(level) if use_engine else 0, use_engine)

    def cached(self, state: State, level: int | None) -> dict[str, Any] | None:
        with self._lock:
            return self._cache.get(self.key(state, level))

    def submit(self, state: State, level: int | None, priority: int = URGENT) -> Future[dict[str, Any]]:
        """A future of ``analyse_position(state, level)``: done at once when cached."""
        key = self.key(state, level)
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                done: Future[dict[str, Any]] = Future()
                done.set_result(hit)
                return done
            job = self._jobs.get(key)
            if job is None:
                if len(self._jobs) >= self.max_queue:
                    raise PliesError(f"the server has {len(self._jobs)} positions waiting to be analysed: "
                                     "try again in a moment")
                job = _Job(key, state, key[2] or DEFAULT_ANALYSIS_LEVEL, key[3])
                self._jobs[key] = job
            job.waiters += 1
            if priority < job.priority and not job.started:
                job.priority = priority
                seq = next(self._seq)
                heapq.heappush(self._heap, (priority, seq if priority == REVIEW else -seq, job))
                self._wake.notify()
            self._start_workers()
            return job.future

    def withdraw(self, state: State, level: int | None) -> None:
        """One submit of (state, level) no longer waits (a stopped review): the job leaves the queue when nobody
        else waits for it and it has not started."""
        key = self.key(state, level)
        with self._lock:
            job = self._jobs.get(key)
            if job is None or job.started:
                return
            job.waiters -= 1
            if job.waiters <= 0:
                del self._jobs[key]
                job.started = True  # its heap entries are skipped
                job.future.cancel()

    async def analyse(self, state: State, level: int | None, priority: int = URGENT) -> dict[str, Any]:
        # shielded: a waiter that goes away (a closed page) must not cancel the job others may wait for
        return await asyncio.shield(asyncio.wrap_future(self.submit(state, level, priority)))

    def _start_workers(self) -> None:
        while len(self._workers) < self.threads:
            t = threading.Thread(target=self._work, name=f"plies-analysis-{len(self._workers)}", daemon=True)
            self._workers.append(t)
            t.start()

    def _work(self) -> None:
        engine = None
        while True:
            with self._lock:
                while True:
                    while self._heap and (self._heap[0][2].started or self._heap[0][2].priority != self._heap[0][0]):
                        heapq.heappop(self._heap)  # already run, or queued again at a higher priority
                    if self._heap:
                        break
                    self._wake.wait()
                _, _, job = heapq.heappop(self._heap)
                job.started = True
            try:
                if job.use_engine and engine is None:
                    engine = importlib.import_module("plies.engine").Engine(hash_mb=ENGINE_HASH_MB)
                result = analyse_position(job.state, job.level, job.use_engine, engine if job.use_engine else None)
            except BaseException as e:  # handed to whoever waits; the thread goes on
                with self._lock:
                    self._jobs.pop(job.key, None)
                if not job.future.done():
                    job.future.set_exception(e)
                continue
            with self._lock:
                self._jobs.pop(job.key, None)
                self._cache[job.key] = result
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
            if not job.future.done():
                job.future.set_result(result)


_SHARED: list[Analyst] = []


def shared_analyst() -> Analyst:
    """The analyst of this process (one set of analysis threads whatever the number of games)."""
    if not _SHARED:
        _SHARED.append(Analyst())
    return _SHARED[0]


__all__ = ["DEFAULT_ANALYSIS_LEVEL", "Analyst", "analyse_position", "discs_text", "from_search", "review",
           "review_game", "shared_analyst", "textbook_analysis", "value_text"]
