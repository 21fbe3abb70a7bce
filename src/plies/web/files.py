"""Game files in and out of the browser: a GGF game, tagged transcripts, an OBF file's position or a game ``plies
play`` saved, opened through the readers of ``plies.formats`` (with their players' names); a game saved as a
transcript file and, for Othello, as GGF.  WTHOR files, which are bytes, come through ``plies.web.uploads``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from plies.game import Move, ParseError, State
from plies.games import parse_position, type_of
from plies.games.othello import OthelloState
from plies.games.record import Game
from plies.web.setup import start_for

if TYPE_CHECKING:
    from plies.formats.detect import Loaded
    from plies.formats.obf import ObfPosition
    from plies.web.views import FileGames, ListedGame, ListedPosition

DEFAULT_GAME = "othello"
"""The game a transcript file names with no ``# game`` line (what ``plies play`` saves)."""


@dataclass
class Opened:
    """The first game of a file: its start, its moves, its players' names (empty when the file names none),
    how many games the file holds and its format."""

    start: State
    moves: list[Move] = field(default_factory=list)
    names: tuple[str, str] = ("", "")
    games: int = 1
    format: str = "transcript"


MAX_LISTED = 500
"""The most games ``list_games`` describes."""


def looks_like_obf(text: str) -> bool:
    """An OBF text: its first position line is a board, the side to move and ``;`` (a bare board is not one)."""
    from plies.formats import obf

    first = next((x for x in text.splitlines() if x.strip() and not x.lstrip().startswith(("#", "%"))), "")
    return ";" in first and obf.looks_like_obf(text)


def _file_games(text: str) -> Loaded | None:
    """The games of a GGF or tagged-transcripts text, the positions of an OBF text (format ``obf``); None for any
    other text."""
    from plies.formats import ggf, tagged
    from plies.formats.detect import load

    stripped = text.lstrip()
    if looks_like_obf(stripped):
        return load(text, None, "obf")
    if not (ggf.looks_like_ggf(stripped) or tagged.looks_like_tagged(stripped)):
        return None
    loaded = load(text)
    if not loaded.games:
        raise ParseError(f"the {loaded.format.upper()} text holds no game")
    return loaded


def list_games(text: str) -> FileGames:
    """The games of a game file (GGF, tagged transcripts) for a person to pick one: ``format``, ``total`` and
    ``games`` (the first ``MAX_LISTED``), each with its ``index`` (from 1), players, date, number of moves and
    result; an OBF file's positions, each with a ``label`` (side to move, empty squares, comment); no games for any
    other text.  ParseError when the file is bad."""
    found = _file_games(text)
    if found is None:
        return {"format": None, "total": 0, "games": []}
    if found.format == "obf":
        positions: list[ListedPosition] = [{"index": k, "label": _position_label(p)}
                                           for k, p in enumerate(found.positions[:MAX_LISTED], 1)]
        return {"format": "obf", "total": len(found.positions), "games": positions}
    out: list[ListedGame] = []
    for k, g in enumerate(found.games[:MAX_LISTED], 1):
        score = g.score()
        out.append({"index": k, "black": g.black.strip(), "white": g.white.strip(), "moves": len(g.moves),
                    "result": None if score is None else f"{score:+g}", "date": g.date})
    return {"format": found.format, "total": len(found.games), "games": out}


def open_file(game: str, size: int | None, text: str, index: int = 1) -> Opened | None:
    """Game number ``index`` (from 1) of ``text`` when it is a game file (GGF, tagged transcripts, a game ``plies
    play`` saved with its ``# game`` or ``# start`` line); None when it is a bare transcript or a board
    (``read_setup`` reads those).  ParseError (a FormatError naming the line and column) when the file is bad."""
    from plies.formats.detect import saved_headers

    found = _file_games(text)
    if found is not None:
        fmt = found.format
        count = len(found.positions) if fmt == "obf" else len(found.games)
        if not 1 <= index <= count:
            raise ParseError(f"the file holds {count} game{'s' if count > 1 else ''}: there is no game "
                             f"number {index}")
        if fmt == "obf":
            return Opened(found.positions[index - 1].state, [], ("", ""), count, fmt)
        g = found.games[index - 1]
        return Opened(g.start, list(g.moves), (g.black.strip(), g.white.strip()), count, fmt)
    stripped = text.lstrip()
    if stripped.startswith("#"):
        headers, body = saved_headers(text)
        if not headers:
            return None
        name = headers.get("game", game if "start" in headers else DEFAULT_GAME)
        start = parse_position(headers["start"], game=name) if "start" in headers else start_for(name, size)
        return Opened(start, Game.from_transcript(type_of(start), body, start).moves)
    return None


def _position_label(p: ObfPosition) -> str:
    """An OBF position as a line of the list: the side to move, the empty squares, the best score, the comment."""
    state = p.state
    who = "Black" if state.to_move == 0 else "White"
    parts = [f"{who} to move", f"{state.empties()} empties"]
    if p.best_score is not None:
        parts.append(f"best {p.best_score:+d}")
    if p.comment:
        parts.append(p.comment.strip()[:40])
    return ", ".join(parts)


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


__all__ = ["MAX_LISTED", "Opened", "ggf_file", "list_games", "looks_like_obf", "open_file", "transcript_file"]
