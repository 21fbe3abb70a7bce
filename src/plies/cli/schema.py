"""The JSON objects the commands print with ``--json`` (one per command, for scripts and the other front-ends)."""

from __future__ import annotations

from typing import NotRequired, TypedDict


class Line(TypedDict):
    """One analysed line of ``plies analyse``: the value for the side to move, the move and its variation."""

    score: float
    value: float
    unit: str
    move: str | None
    pv: list[str]
    nodes: int
    seconds: float
    depth: int
    exact: bool
    selectivity: NotRequired[float]


class GameJson(TypedDict):
    """A game of ``plies show --json``."""

    black: str
    white: str
    date: str
    place: str
    result: float | None
    finished: bool
    moves: list[str]
    evals: list[float | None]
    times: list[float | None]
    transcript: str
    start: str
    final: str
    props: dict[str, str]


class PositionJson(TypedDict):
    """A test position of ``plies show --json``: its known scores and best moves."""

    board: str
    to_move: str
    empties: int
    legal: list[str]
    scores: dict[str, int]
    best_score: int | None
    best_moves: list[str]
    id: int | None
    comment: str
