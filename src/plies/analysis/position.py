"""Every legal move of a position valued, and the hints read from it: what a player sees, in the terminal or the
browser.

``analyse_position(state, level)`` values every legal move with one search: on 8x8 Othello the fast engine at
an engine level (multi-PV over all moves; the learned evaluation is in discs and the endgame is solved exactly
from the level's number of empties), elsewhere the textbook alpha-beta.  Every answer says its ``unit``
(``plies.analysis.value``).  Move values are from the mover's view; ``value`` (the position's) is from Black's
(player 0's) view, the default point of view of every graph and list.
"""

from __future__ import annotations

import logging
import math
import threading
from typing import TYPE_CHECKING, NotRequired, TypedDict, cast

from plies.game import PASS, Move, State
from plies.games import TYPES, type_of
from plies.games.othello import OthelloState
from plies.games.record import move_names
from plies.heuristics import Heuristic, evaluation
from plies.heuristics import get as get_heuristic
from plies.i18n import _
from plies.search import alphabeta

from . import levels
from .value import DISCS, RESULT, Value, final_unit, from_search, heuristic_unit

if TYPE_CHECKING:
    from plies.engine import Engine

log = logging.getLogger("plies.analysis")

MIN_ANALYSIS_LEVEL = 1
ENGINE_HASH_MB = 16


class MoveValue(TypedDict):
    """One legal move valued: its name and index, its value from the mover's view, proven or not, its line
    (``pv``, from the move on) and the cell a click plays (None where the board has none)."""

    move: str
    index: Move
    value: float
    exact: bool
    pv: list[str]
    cell: NotRequired[int | None]


class Analysis(TypedDict):
    """A position valued: every legal move (best first), the position's value from Black's view, its unit, the
    depth searched and the search that gave it (``source``)."""

    game: str
    position: str
    unit: str
    level: int | None
    to_move: int | None
    value: float
    exact: bool
    depth: int
    source: str
    moves: list[MoveValue]


class Hint(TypedDict):
    """One of the best moves as a hint shows it: ``value_text`` is its ``Value`` printed."""

    move: str
    value: float
    exact: bool
    unit: str
    value_text: str
    pv: list[str]
    then: list[str]


class Hints(TypedDict):
    hints: list[Hint]
    source: str
    unit: str


def move_value(a: Analysis, row: MoveValue) -> Value:
    """A move's value as a ``Value``: a proven value under a heuristic is the final score (a result, or discs)."""
    unit = a["unit"]
    if row["exact"] and unit not in (DISCS, RESULT):
        t = TYPES.get(a["game"])
        unit = RESULT if t is not None and t.result == RESULT else DISCS
    return Value(row["value"], unit, row["exact"], a["depth"] or None)


def _r(v: float) -> float:
    return round(float(v), 2) + 0.0


def clamp_level(level: int | None) -> int:
    """An analysis level within 1..MAX_LEVEL (the default for None)."""
    if level is None:
        return levels.DEFAULT_ANALYSIS_LEVEL
    return max(MIN_ANALYSIS_LEVEL, min(levels.MAX_LEVEL, int(level)))


def leaf_depth(depth: int, to_move: int) -> int:
    """The level's ``depth``, or one less (one more from depth 1), so that the search's horizon always falls on a
    position with Black to move.  The evaluation at the horizon leans towards the side that has just moved (a
    depth-9 search of the start gives Black +7, a depth-10 search -1.4); with the horizon always on the same
    side, consecutive positions are valued alike (no zigzag in the graph) and a position's value is the value of
    the move that led to it."""
    if (depth % 2 == 0) == (to_move == 0):
        return depth
    return depth - 1 if depth > 1 else 2


Rows = list[tuple[float, MoveValue]]
"""Valued moves with the search's own value to sort them by (a win inside the horizon before any heuristic)."""


def analyse_position(state: State, level: int | None = None, use_engine: bool | None = None,
                     engine: Engine | None = None) -> Analysis:
    """Every legal move of ``state`` valued (best first), the position's value from Black's view, the unit.

    ``engine`` is a ``plies.engine.Engine`` to search with (one is borrowed when needed); ``use_engine``
    (default: whether the engine plays this game here) chooses the engine or the textbook search."""
    level = clamp_level(level)
    if use_engine is None:
        use_engine = levels.engine_applies(state)
    t = type_of(state)
    if t is not None and t.solved_depth is not None:  # searched to the end: final scores
        unit = final_unit(state)
    else:
        unit = DISCS if use_engine else heuristic_unit(evaluation(state.game))
    to_move = None if state.is_over() else state.to_move
    if state.is_over():
        s = float(state.score())
        unit = final_unit(state)  # the final score
        return _answer(state, unit, level, to_move, s if unit != RESULT else (s > 0) - (s < 0), True, 0,
                       "the game is over", [])
    if state.legal_moves() == [PASS]:
        child = analyse_position(state.play(PASS), level, use_engine, engine)
        line = ["pass"] + (child["moves"][0]["pv"] if child["moves"] else [])
        black = child["value"]  # a position's value is Black's view, whoever moves
        mover = black if state.to_move == 0 else -black
        return _answer(state, unit, level, to_move, black, child["exact"], child["depth"], child["source"],
                       [{"move": "pass", "index": PASS, "value": _r(mover), "exact": child["exact"], "pv": line}])
    if use_engine:
        rows, depth, source = _engine_rows(state, level, engine)
    elif levels.fallback_applies(state):  # no compiled core: the engine's pure-Python stand-in, in discs
        rows, depth, source, exact = _fallback_rows(state, level)
        unit = final_unit(state) if exact else DISCS
    elif t is not None and t.solved_depth is not None:  # every leaf is the end of the game: any evaluation will do
        rows, depth, source = _textbook_rows(state, t.solved_depth, evaluation(state.game), True)
    else:
        h = evaluation(state.game)
        empties = _empties(state)
        if 0 <= empties <= (t.exact_empties if t is not None else -1):
            # 2 * empties + 1 plies reach the end of every line: the evaluation is never read
            rows, depth, source = _textbook_rows(state, 2 * empties + 1, h, True)
            unit = final_unit(state)  # solved to the end: final scores
        else:
            # the horizon on Black's move whoever moves here, as the engine's (leaf_depth): a heuristic that
            # counts discs favours the side that moved last, which would zigzag the graph from move to move
            hint = t.hint_depth(state) if t is not None else 3
            rows, depth, source = _textbook_rows(state, leaf_depth(hint, state.to_move), h, False)
    return _best_first(state, unit, level, rows, depth, source)


def _best_first(state: State, unit: str, level: int | None, rows: Rows, depth: int, source: str) -> Analysis:
    """The answer from the valued moves: sorted best first, placed on the board, results as +1/0/-1."""
    rows.sort(key=lambda r: -r[0])
    moves = [r for _, r in rows]
    t = type_of(state)
    view = t.view(state) if t is not None else None
    for r in moves:
        if view is not None:
            r["cell"] = view.cell_of(r["index"])
        if unit == RESULT:
            r["value"] = float((r["value"] > 0) - (r["value"] < 0))
    best = moves[0]
    black = best["value"] if state.to_move == 0 else -best["value"]
    return _answer(state, unit, level, state.to_move, black, best["exact"], depth, source, moves)


def _answer(state: State, unit: str, level: int | None, to_move: int | None, black: float, exact: bool, depth: int,
            source: str, moves: list[MoveValue]) -> Analysis:
    return {"game": state.game, "position": state.to_text(), "unit": unit, "level": level, "to_move": to_move,
            "value": _r(black), "exact": bool(exact), "depth": depth, "source": source, "moves": moves}


def _empties(state: State) -> int:
    t = type_of(state)
    return t.empties(state) if t is not None else -1


_ENGINES: list[Engine] = []
_ENGINES_LOCK = threading.Lock()


def new_engine(hash_mb: int = ENGINE_HASH_MB, threads: int | None = None) -> Engine:
    """A ``plies.engine.Engine`` for analyses (imported here: the engine is optional).  It searches full width: a
    selective (ProbCut) value depends on the search's window, and an analysis gives every root move its own, so
    symmetric moves, or a position and the move that led to it, came out a disc apart (full width: 2.2x the time
    of a depth-10 analysis, 0.08 s a position on one thread)."""
    from plies.engine import Engine

    if threads is None:
        return Engine(hash_mb=hash_mb, probcut=None)
    return Engine(hash_mb=hash_mb, threads=threads, probcut=None)


def _engine_rows(state: State, level: int, engine: Engine | None) -> tuple[Rows, int, str]:
    from plies.engine.levels import LEVELS

    borrowed = engine is None
    if engine is None:
        with _ENGINES_LOCK:
            engine = _ENGINES.pop() if _ENGINES else new_engine()
    row = LEVELS[level]
    exact = _empties(state) <= row.exact_empties
    searched = leaf_depth(row.depth, state.to_move)
    try:
        results = engine.analyse(cast(OthelloState, state), depth=searched, exact=exact,
                                 multipv=len(state.legal_moves()))  # (the engine plays only 8x8 Othello)
    finally:
        if borrowed:
            with _ENGINES_LOCK:
                _ENGINES.append(engine)
    rows: Rows = []
    depth = 0
    for r in results:
        value, proven = from_search(r.value, bool(r.exact))
        depth = max(depth, int(r.stats.depth or 0))
        rows.append((_r(value), {"move": state.move_str(r.move), "index": r.move, "value": _r(value), "exact": proven,
                             "pv": move_names(state, r.pv or [r.move])}))
    shown = str(row.depth)
    if not exact and searched != row.depth:  # the horizon on Black's move (leaf_depth)
        shown = _("{depth} here").format(depth=searched)
    text = _("fast engine, level {level}: depth {depth}, exact from {empties} empties").format(
        level=level, depth=shown, empties=row.exact_empties)
    return rows, depth, text


def _fallback_rows(state: State, level: int) -> tuple[Rows, int, str, bool]:
    """The engine level's values from its pure-Python stand-in (``plies.players.engine_fallback``): alpha-beta
    with the learned evaluation, exact near the end; (rows, depth, source, solved to the end)."""
    from plies.players.engine_fallback import announce, fallback_level

    announce()
    row = fallback_level(level)
    h = get_heuristic(state.game, "learned")
    empties = _empties(state)
    if 0 <= empties <= row.exact_empties:
        rows, depth, _ = _textbook_rows(state, 2 * empties + 1, h, True)
        return rows, depth, f"pure-Python alpha-beta, level {level}: exact from {row.exact_empties} empties", True
    searched = leaf_depth(row.depth, state.to_move)
    rows, depth, _ = _textbook_rows(state, searched, h, False)
    return rows, depth, f"pure-Python alpha-beta, level {level}: depth {searched}, learned evaluation", False


def _textbook_rows(state: State, depth: int, h: Heuristic, solved: bool) -> tuple[Rows, int, str]:
    me = state.to_move
    t = type_of(state)
    to_the_end = t is not None and t.solves(depth)
    order = t.order if t is not None else None
    rows: Rows = []
    for m in state.legal_moves():
        child = state.play(m)
        line: list[Move] = []
        if child.is_over():
            v = child.utility(me)
        elif depth <= 1:
            v = h(child, me)
        else:
            r = alphabeta(child, depth - 1, h, order=order)
            v = r.value if child.to_move == me else -r.value
            line = list(r.pv)
        value, exact = from_search(v, child.is_over())
        rows.append((float(v) if math.isfinite(float(v)) else _r(value),
                     {"move": state.move_str(m), "index": m, "value": _r(value), "exact": exact or to_the_end,
                      "pv": [state.move_str(m)] + move_names(child, line)}))
    if to_the_end and t is not None:
        source = _("{game} solved to the end").format(game=_(t.noun))
    elif solved:
        source = _("alpha-beta to the end of the game (exact)")
    else:
        source = _("alpha-beta depth {depth}, {name}").format(depth=depth, name=h.name)
    return rows, depth, source


def textbook_analysis(state: State, depth: int, heuristic: Heuristic) -> Analysis:
    """``analyse_position``'s answer from the textbook alpha-beta with ``heuristic`` at ``depth`` (each move
    searched ``depth - 1`` plies below it): values in the heuristic's units, exact where the game ends inside
    the horizon (tic-tac-toe solved to the end reads as a result)."""
    if state.is_over() or state.legal_moves() == [PASS]:
        return analyse_position(state, use_engine=False)
    rows, depth, source = _textbook_rows(state, depth, heuristic, False)
    solved = final_unit(state) == RESULT and all(r["exact"] for _, r in rows)
    answer = _best_first(state, RESULT if solved else heuristic_unit(heuristic), None, rows, depth, source)
    return answer


def hints(state: State, count: int = 3, use_engine: bool | None = None, level: int | None = None) -> Hints:
    """The best ``count`` moves of ``state``, best first: ``value`` from the mover's view in ``unit`` (``discs``
    with the engine, ``result`` in tic-tac-toe, else the heuristic's), ``value_text`` as a person reads it,
    ``exact``, ``pv`` (the line from the move on) and ``then`` (the line after the move); ``source`` says which
    search.  The same analysis as the graph and the review.

    ``use_engine`` (default: whether the engine applies here) is decided by the caller when this runs in a
    worker process, so the server's view of the engine holds there too."""
    if not state.legal_moves():
        return {"hints": [], "source": "game over", "unit": ""}
    if use_engine is None:
        use_engine = levels.engine_applies(state)
    try:
        a = analyse_position(state, level, use_engine)
        note = ""
    except Exception as e:  # a request must be answered: the textbook search answers, the log keeps the failure
        log.exception("the engine's hint search failed")
        a = analyse_position(state, level, False)
        note = f" (engine failed: {type(e).__name__})"
    rows: list[Hint] = []
    for r in a["moves"][: max(1, count)]:
        v = move_value(a, r)
        rows.append({"move": r["move"], "value": r["value"], "exact": r["exact"], "unit": v.unit,
                     "value_text": str(v), "pv": r["pv"], "then": r["pv"][1:]})
    return {"hints": rows, "source": a["source"] + note, "unit": a["unit"]}


__all__ = ["Analysis", "Hint", "Hints", "MoveValue", "analyse_position", "clamp_level", "hints", "leaf_depth",
           "move_value", "new_engine", "textbook_analysis"]
