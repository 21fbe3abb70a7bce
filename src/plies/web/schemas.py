"""Request bodies of the JSON API (pydantic models, so FastAPI validates them and documents them at /docs)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from plies.analysis.levels import MAX_LEVEL


class PlayerSpec(BaseModel):
    """One side: a person on this browser, a friend on another (seated by the game's invite code), or the
    computer at a level (1-5: textbook search at that depth; 6+: engine)."""

    kind: Literal["human", "computer", "friend"] = "human"
    level: int = Field(3, ge=1, le=MAX_LEVEL, description="difficulty; levels 1-5 are the search depth")
    algorithm: Literal["alphabeta", "minimax"] = Field("alphabeta", description="textbook search for levels 1-5")
    heuristic: str | None = Field(None, max_length=60, description="evaluation name (default: the game's)")
    name: str | None = Field(None, max_length=40, description="name to show for this side")


def _default_players() -> list[PlayerSpec]:
    return [PlayerSpec(kind="human"), PlayerSpec(kind="computer", level=3)]


class ClockSpec(BaseModel):
    """A time control: the same time for both sides, and an increment added after each move."""

    minutes: float = Field(5.0, ge=0.01, le=600,
                           description="each side's time in minutes (0.5 = 30 seconds; at least 0.01, 0.6 s)")
    increment: float = Field(0.0, ge=0, le=600, description="seconds added after each move")


class StartGame(BaseModel):
    """Start a game (``POST /api/games/new``): which game, a set-up position (a transcript's moves are kept as the
    game's history: undo goes back into them, a finished game opens for review; a board from the board editor
    starts without history), the two sides (Black/X first), an optional clock that times both sides, and the
    analysis level."""

    game: str = Field("othello", max_length=30, description="a game's name, as GET /api/info lists them")
    size: int | None = Field(None, ge=4, le=10,
                             description="the board size of a game played on several (Othello: even, 4-10; default 8)")
    position: str | None = Field(None, max_length=60_000,
                                 description="a transcript (f5d6c3), a board with the side to move (64 + 1), or a "
                                             "game file: GGF, tagged transcripts, a game plies play saved")
    players: list[PlayerSpec] = Field(default_factory=_default_players, min_length=2, max_length=2)
    delay: float = Field(0.0, ge=0.0, le=5.0, description="seconds the computer waits before moving (watching)")
    replaces: str | None = Field(None, max_length=64, description="id of this browser's previous game to stop")
    moves: list[str] | None = Field(None, max_length=400,
                                    description="moves played from ``position`` (a board), kept as history")
    index: int = Field(1, ge=1, le=1_000_000, description="which game of a file of several (1: the first)")
    clock: ClockSpec | None = Field(None, description="time control; none for an untimed game")
    analysis_level: int | None = Field(None, ge=1, le=MAX_LEVEL,
                                       description="engine level of the graph, hints and review (default 8)")


MOVE_MAX_LENGTH = 20  # a move's text (the REST calls and the WebSocket): d3, pass, 12 13


class MoveIn(BaseModel):
    move: str = Field(..., min_length=1, max_length=MOVE_MAX_LENGTH,
                      description="a move in the game's notation (d3, pass)")


class FileIn(BaseModel):
    """A game file's text (GGF, tagged transcripts), to list its games."""

    text: str = Field(..., min_length=1, max_length=60_000)


class JoinIn(BaseModel):
    """Take the friend's seat of a game: its invite ``code`` and the name the other player sees."""

    code: str = Field(..., min_length=1, max_length=20, description="the invite code (any case, dashes ignored)")
    name: str | None = Field(None, max_length=40, description="your name, as the other player sees it")


class HintIn(BaseModel):
    count: int = Field(3, ge=1, le=20)


class BranchIn(BaseModel):
    """Go back to the position after ``ply`` moves and play ``move`` there (or let the side to move play on)."""

    ply: int = Field(..., ge=0, le=1000)
    move: str | None = Field(None, max_length=20)


class SettingsIn(BaseModel):
    analysis_level: int = Field(..., ge=1, le=MAX_LEVEL)


class AnalysisIn(BaseModel):
    """Analyse any position: the game, its board size (a game played on several), and a position (board + side,
    or a transcript)."""

    game: str = Field("othello", max_length=30)
    size: int | None = Field(None, ge=4, le=10)
    position: str = Field(..., min_length=1, max_length=4000)
    moves: list[str] | None = Field(None, max_length=400, description="moves played from the position first")
    level: int | None = Field(None, ge=1, le=MAX_LEVEL)


class ReviewIn(BaseModel):
    """Review a game: a live one (``game_id``), a finished one from the history (``history_id``) or the library
    (``library_id``), or a
    transcript (``game``, ``size``, ``transcript``); at an engine ``level`` (default: the analysis level)."""

    game_id: str | None = Field(None, max_length=64)
    history_id: str | None = Field(None, max_length=64)
    library_id: int | None = Field(None, ge=0, le=10**9, description="a game of the library (plies web --games)")
    game: str = Field("othello", max_length=30)
    size: int | None = Field(None, ge=4, le=10)
    transcript: str | None = Field(None, max_length=4000)
    level: int | None = Field(None, ge=1, le=MAX_LEVEL)
