"""Game files in and out of the browser: a GGF game, tagged transcripts or a game ``plies play`` saved, opened
through the readers of ``plies.formats`` (with their players' names); a game saved as a transcript file and, for
Othello, as GGF."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from plies.game import ParseError, State
from plies.games import parse_position, type_of
from plies.games.othello import OthelloState
from plies.games.record import Game
from plies.web.setup import start_for

DEFAULT_GAME = "othello"
"""The game a transcript file names with no ``# game`` line (what ``plies play`` saves)."""


@dataclass
class Opened:
    """The first game of a file: its start, its moves, its players' names (empty when the file names none),
    how many games the file holds and its format."""

    start: State
    moves: list[Any] = field(default_factory=list)
    names: tuple[str, str] = ("", "")
    games: int = 1
    format: str = "transcript"


def open_file(game: str, size: int | None, text: str) -> Opened | None:
    """The first game of ``text`` when it is a game file (GGF, tagged transcripts, a game ``plies play`` saved with
    its ``# game`` or ``# start`` line); None when it is a bare transcript or a board (``read_setup`` reads those).
    ParseError (a FormatError naming the line and column) when the file is bad."""
    from plies.formats import ggf, tagged
    from plies.formats.detect import load, saved_headers

    stripped = text.lstrip()
    if ggf.looks_like_ggf(stripped) or tagged.looks_like_tagged(stripped):
        loaded = load(text)
        if not loaded.games:
            raise ParseError(f"the {loaded.format.upper()} text holds no game")
        first = loaded.games[0]
        return Opened(first.start, list(first.moves), (first.black.strip(), first.white.strip()), len(loaded.games),
                      loaded.format)
    if stripped.startswith("#"):
        headers, body = saved_headers(text)
        if not headers:
            return None
        name = headers.get("game", game if "start" in headers else DEFAULT_GAME)
        start = parse_position(headers["start"], game=name) if "start" in headers else start_for(name, size)
        return Opened(start, Game.from_transcript(type_of(start), body, start).moves)
    return None


def transcript_file(game: Game[State]) -> str:
    """The game as ``plies play`` saves it, which ``plies play @FILE``, ``plies review FILE`` and the start screen
    read back: a ``# game`` line for a game other than Othello, a ``# start`` line for a set-up board, the moves."""
    start = game.start
    header = [] if start.game == DEFAULT_GAME else [f"# game {start.game}"]
    t = type_of(start)
    standard = t.start(t.board_size(start), "standard") if t is not None else None
    if start != standard:
        header.append(f"# start {start.to_text()}")
    return "".join(h + "\n" for h in header) + game.transcript() + "\n"


def ggf_file(game: Game[State], black: str, white: str, date: str = "") -> str | None:
    """An Othello game as one GGF line (players, date, start board, moves, result); None for other games."""
    from plies.formats.ggf import holds, write_ggf
    from plies.formats.model import OthelloGame

    start = game.start
    if not holds(start):
        return None

    out = game.outcome()
    result = out.score if out is not None else None
    played = OthelloGame(cast(OthelloState, start), list(game.moves), black, white, result=result, date=date[:10])
    return write_ggf(played) + "\n"


__all__ = ["Opened", "ggf_file", "open_file", "transcript_file"]
