"""The JSON the HexThello server hands out: the events its viewers get and the stored games it lists."""

from __future__ import annotations

from typing import Literal, TypedDict


class SummaryRow(TypedDict):
    """One name's running totals (``HexServer.summary_rows``)."""

    name: str
    games: int
    wins: int
    draws: int
    losses: int
    discs_for: int
    discs_against: int


class Played(TypedDict):
    """A finished game in the viewer's recent history."""

    match: int
    game: int
    black: str
    white: str
    result: str


class Playing(TypedDict):
    """A game in progress in the viewer's list."""

    game_id: int
    match: int
    game: int
    black: str
    white: str
    plies: int


Cell = list[int | str]
"""``[row, col, "X"|"O"|"#"|"."]``, as the viewer draws it."""


class Idle(TypedDict):
    """What a viewer sees before any game: the lobby and the empty board."""

    type: Literal["idle"]
    lobby: list[str]
    holes: list[list[int]]
    cells: list[Cell]


class StateEvent(TypedDict):
    """A position of a game in play (or just ended), with everything around it the viewer shows."""

    type: Literal["state"]
    match: int
    game: int
    game_id: int
    black: str
    white: str
    cells: list[Cell]
    score: dict[str, int]
    to_move: str | None
    last: list[int] | None
    last_text: str | None
    plies: int
    result: str | None
    human_to_move: bool
    legal: list[list[int]]
    must_pass: bool
    lobby: list[str]
    summary: list[SummaryRow]
    history: list[Played]
    holes: list[list[int]]
    live: list[Playing]
    featured: bool


class Notice(TypedDict):
    type: Literal["notice"]
    text: str


class Seated(TypedDict):
    type: Literal["seated"]
    game_id: int
    colour: str


class Lobby(TypedDict):
    type: Literal["lobby"]
    lobby: list[str]


class MatchOver(TypedDict):
    type: Literal["match_over"]
    match: int


Snapshot = Idle | StateEvent
"""The latest picture a new viewer is sent first."""
Event = Idle | StateEvent | Notice | Seated | Lobby | MatchOver
"""Anything the server publishes to its viewers."""


class StoredMove(TypedDict):
    ply: int
    colour: str
    row: int
    col: int
    seconds: float


class StoredGame(TypedDict):
    """A game as ``Store.games`` lists it (and ``plies hexthello games --export`` writes it)."""

    id: int
    match: int
    game: int
    black: str
    white: str
    started_at: str
    ended_at: str | None
    status: str
    winner: str | None
    black_discs: int
    white_discs: int
    reason: str
    moves: list[StoredMove]
