"""A WTHOR file opened from the start screen: its bytes (base64 in JSON), and those of a WTHOR.JOU for the players'
names, read by ``plies.formats.wthor``; the games listed to pick one, the one picked given back as a GGF game, which
the start screen opens as it opens any GGF game."""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING

from plies.formats import wthor
from plies.formats.errors import FormatError
from plies.formats.ggf import write_ggf
from plies.game import ParseError

if TYPE_CHECKING:
    from plies.web.views import FileGames, ListedGame

MAX_WTHOR = 1_500_000
"""Largest .wtb (with its WTHOR.JOU) the page sends, in bytes (about 22,000 games)."""
MAX_LISTED = 5000
"""Most games of a WTHOR file listed to pick from."""


def _bytes(text: str, what: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ParseError(f"the {what} did not arrive as base64 bytes") from None


def _read(data: str, players: str | None, name: str) -> tuple[wthor.WthorFile, list[str] | None]:
    raw = _bytes(data, "WTHOR file")
    if not raw:
        raise ParseError(f"{name} is empty")
    names = wthor.read_players(_bytes(players, "players file"), "WTHOR.JOU") if players else None
    try:
        return wthor.read_wtb(raw, name), names
    except FormatError as e:
        raise ParseError(f"not a WTHOR games file: {e}") from None


def _name(names: list[str] | None, number: int) -> str:
    return names[number].strip() if names is not None and 0 <= number < len(names) else f"player #{number}"


def list_wthor(data: str, players: str | None = None, name: str = "the file") -> FileGames:
    """The games of a .wtb file (base64), players named from a WTHOR.JOU (base64) when given: ``total`` and
    ``games`` (the first ``MAX_LISTED``, each with its ``index`` from 1, players, year, moves and Black's disc
    difference).  ParseError naming the byte of a bad record."""
    f, names = _read(data, players, name)
    year = str(f.header.year) if f.header.year else ""
    games: list[ListedGame] = [
        {"index": k, "black": _name(names, g.black), "white": _name(names, g.white), "moves": len(g.moves),
         "result": f"{2 * g.score - 64:+d}", "date": year} for k, g in enumerate(f.games[:MAX_LISTED], 1)]
    return {"format": "wthor", "total": len(f.games), "games": games, "named": names is not None}


def wthor_game(data: str, index: int, players: str | None = None, name: str = "the file") -> str:
    """Game ``index`` (from 1) of a .wtb file as one GGF game with its players' names; ParseError when there is no
    such game or its moves do not replay."""
    f, names = _read(data, players, name)
    if not 1 <= index <= len(f.games):
        raise ParseError(f"{name} holds {len(f.games)} games: there is no game number {index}")
    offset = wthor.HEADER_SIZE + (index - 1) * wthor.GAME_SIZE
    record = f.games[index - 1]
    game = record.to_game(None, None, f.header.year, name, offset)
    game.black, game.white = _name(names, record.black), _name(names, record.white)
    game.props.pop("tournament", None)
    game.props.pop("theoretical", None)
    game.place = ""
    return write_ggf(game) + "\n"


__all__ = ["MAX_LISTED", "MAX_WTHOR", "list_wthor", "wthor_game"]
