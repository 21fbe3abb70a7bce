"""The review of a game: each move against the best move of its position, the discs (or results, or a
heuristic's units) it lost, the mistakes, and a sum per player; ``plies review`` and the browser's Review button.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NotRequired, TypedDict

from plies.game import PASS, Move, State
from plies.games.record import Game

from . import levels
from .book import in_book
from .position import Analysis, _r, analyse_position, new_engine
from .value import DISCS, RESULT

MISTAKE_DISCS = 2.0
"""A move that loses at least this many discs against the best move is a mistake."""


class Worst(TypedDict):
    ply: int
    move: str
    loss: float
    best: str


class PlayerSum(TypedDict):
    """One side's line of a review: its moves, mistakes, discs lost in all and its worst move."""

    side: int
    name: str
    moves: int
    mistakes: int
    lost: float
    worst: Worst | None
    book: int


class ReviewedMove(TypedDict):
    """One move of a review; a forced pass, or a move without an analysis, has no value."""

    ply: int
    move: str
    side: int
    loss: float
    mistake: bool
    forced: NotRequired[bool]
    value: NotRequired[float]
    exact: NotRequired[bool]
    best: NotRequired[str]
    best_value: NotRequired[float]
    best_line: NotRequired[list[str]]
    line: NotRequired[list[str]]
    only: NotRequired[bool]
    unit: NotRequired[str]
    book: NotRequired[bool]


class Eval(TypedDict):
    value: float
    exact: bool
    unit: str


class Review(TypedDict):
    """A game reviewed: its moves, the sums per player, each position's value (the graph), the final score."""

    game: str
    start: str
    unit: str
    threshold: float
    source: str
    level: int | None
    moves: list[ReviewedMove]
    players: list[PlayerSum]
    evals: list[Eval | None]
    over: bool
    score: float | None
    side_names: list[str]


def review_game(start: State, moves: Sequence[Move], analyses: Sequence[Analysis | None],
                threshold: float | None = None) -> Review:
    """The review of a game from the analyses of its positions (``analyses[i]`` of the position before move
    ``i``, then the final position's).  A mistake loses at least ``threshold`` discs (default ``MISTAKE_DISCS``);
    in tic-tac-toe it turns a result into a worse one; valued by a heuristic, it falls far below the best move
    of its position (a quarter of the spread of its moves' values).  A move of the opening book is marked
    ``book`` (8x8 Othello)."""
    states = Game(start, moves).states
    units = [a["unit"] for a in analyses if a and a["moves"]] or [a["unit"] for a in analyses if a] or [DISCS]
    unit = max(set(units), key=units.count)  # the textbook search solves only the last moves exactly (discs)
    discs_threshold = MISTAKE_DISCS if threshold is None else threshold  # ``threshold`` is in discs
    threshold = discs_threshold if unit == DISCS else 1.0 if unit == RESULT else 0.0
    rows: list[ReviewedMove] = []
    names = list(start.player_names)
    players: list[PlayerSum] = [{"side": p, "name": names[p], "moves": 0, "mistakes": 0, "lost": 0.0, "worst": None,
                             "book": 0}
                                for p in (0, 1)]
    for i, m in enumerate(moves):
        state = states[i]
        side = state.to_move
        row: ReviewedMove = {"ply": i + 1, "move": state.move_str(m), "side": side, "loss": 0.0, "mistake": False}
        if m != PASS and in_book(state, m):  # the game followed the opening book here
            row["book"] = True
            players[side]["book"] += 1
        a = analyses[i] if i < len(analyses) else None
        played = next((x for x in a["moves"] if x["index"] == m), None) if a is not None and m != PASS else None
        if a is None or played is None:  # a forced pass, or a position not analysed
            rows.append({**row, "forced": m == PASS})
            continue
        best = a["moves"][0]
        loss = max(0.0, best["value"] - played["value"])
        row_unit = a["unit"]
        if row_unit not in (DISCS, RESULT):  # a heuristic: a mistake is a move far below the best of its position
            spread = best["value"] - a["moves"][-1]["value"]
            mistake = loss > 0 and loss >= max(threshold if row_unit == unit else 0.0, 0.25 * spread)
        else:
            mistake = loss >= (discs_threshold if row_unit == DISCS else 1.0) and loss > 0
        rows.append({**row, "value": played["value"], "exact": bool(played["exact"] and best["exact"]),
                     "best": best["move"], "best_value": best["value"], "best_line": best["pv"], "line": played["pv"],
                     "loss": _r(loss), "mistake": bool(mistake), "only": len(a["moves"]) == 1, "unit": row_unit})
        p = players[side]
        p["moves"] += 1
        p["mistakes"] += bool(mistake)
        if row_unit != unit:  # the sum is in the review's unit; a move valued in another counts as a mistake only
            continue
        p["lost"] = _r(p["lost"] + loss)
        if loss > 0 and (p["worst"] is None or loss > p["worst"]["loss"]):
            p["worst"] = {"ply": i + 1, "move": row["move"], "loss": _r(loss), "best": best["move"]}
    evals: list[Eval | None] = []
    for i in range(len(states)):
        a = analyses[i] if i < len(analyses) else None
        evals.append(None if a is None else {"value": a["value"], "exact": a["exact"], "unit": a["unit"]})
    final = states[-1]
    return {
        "game": start.game, "start": start.to_text(), "unit": unit, "threshold": threshold,
        "source": next((a["source"] for a in analyses if a and a["moves"]), ""),
        "level": next((a["level"] for a in analyses if a), None), "moves": rows, "players": players,
        "evals": evals, "over": final.is_over(), "score": float(final.score()) if final.is_over() else None,
        "side_names": names,
    }


def review(start: State, moves: Sequence[Move], level: int | None = None, use_engine: bool | None = None,
           on_progress: Callable[[int, int], None] | None = None, threshold: float | None = None,
           threads: int = 1) -> Review:
    """Analyse every position of a game in turn (``on_progress(done, total)`` after each) and review it; the
    engine searches on ``threads`` threads."""
    states = Game(start, moves).states
    if use_engine is None:
        use_engine = levels.engine_applies(start)
    engine = new_engine(64, threads) if use_engine else None
    todo = to_analyse(moves)
    analyses: list[Analysis | None] = [None] * len(states)
    for k, i in enumerate(todo):
        analyses[i] = analyse_position(states[i], level, use_engine, engine)
        if on_progress is not None:
            on_progress(k + 1, len(todo))
    fill_passes(moves, analyses)
    return review_game(start, moves, analyses, threshold)


def to_analyse(moves: Sequence[Move]) -> list[int]:
    """The positions a review analyses: each before a move that is not a pass, and the final one."""
    return [i for i, m in enumerate(moves) if m != PASS] + [len(moves)]


def fill_passes(moves: Sequence[Move], analyses: list[Analysis | None]) -> None:
    """Give each position before a forced pass the analysis of the position after it (the same value)."""
    for i in range(len(moves) - 1, -1, -1):
        after = analyses[i + 1]
        if moves[i] == PASS and analyses[i] is None and after is not None:
            analyses[i] = {**after, "moves": []}


__all__ = ["MISTAKE_DISCS", "PlayerSum", "Review", "ReviewedMove", "fill_passes", "review", "review_game",
           "to_analyse"]
