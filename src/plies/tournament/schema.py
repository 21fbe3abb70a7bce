"""The JSON of an event's results: the standings (``--json``) and a game for the grading sheet's replayer."""

from __future__ import annotations

from typing import TypedDict

Elo = dict[str, float | str | None]
"""``EloEstimate.to_dict``: elo, low, high (a number, or ``"inf"``/``"-inf"``) and los."""
Ply = list[str | list[list[int | None]]]
"""A replayed ply: ``[move name, changed]``, ``changed`` the ``[cell, value]`` pairs it changed."""


class Ranked(TypedDict):
    """A player's line of the standings, best first."""

    rank: int
    name: str
    games: int
    points: float
    wins: int
    draws: int
    losses: int
    score: float
    elo: Elo
    failures: dict[str, int]
    moves: int
    seconds_per_move: float | None


class PairResult(TypedDict):
    """One pairing from ``a``'s view."""

    a: str
    b: str
    games: int
    wins: int
    draws: int
    losses: int
    points: float
    mean_margin: float | None
    elo: Elo


class StandingsDict(TypedDict):
    games: int
    standings: list[Ranked]
    ratings_regularized: bool
    pairs: list[PairResult]
    failures: list[dict[str, object]]


class Replay(TypedDict):
    """A game for the sheet's replayer: the board's shape, the start's cells and each ply."""

    shape: str
    rows: int
    cols: int
    on: list[int] | None
    cells: list[int | None]
    plies: list[Ply]
