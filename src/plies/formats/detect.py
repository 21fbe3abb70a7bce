"""Automatic format detection: give it a file's bytes or pasted text, get games and positions back.

Order of the checks (each is unambiguous against the later ones): WTHOR (binary: a 16-byte header whose game
count matches the size; .JOU/.TRN by name), GGF (starts with ``(;``), tagged transcripts (start with a tag
``[Name "value"]``, as ``plies tournament export`` writes them), OBF (a board followed by ``;``), board
+ side to move (one per line), transcript (one game, or one per line).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from . import board as board_fmt
from . import ggf, obf, tagged, transcript, wthor
from .errors import FormatError
from .model import OthelloGame

FORMATS = ("wthor", "wthor-players", "wthor-tournaments", "ggf", "tagged", "obf", "board", "transcript")
MAX_LINE = 4096
"""Longest line of a transcript, board or OBF text: longer than any game or board written out."""


@dataclass
class Loaded:
    """What a file or text held: games (transcripts, GGF, WTHOR), positions (boards, OBF) or names (.JOU/.TRN)."""

    format: str
    games: list[OthelloGame] = field(default_factory=list)
    positions: list[obf.ObfPosition] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    source: str | None = None


def _text(data: bytes | str) -> str:
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")  # (a byte-order mark first is dropped)
    except UnicodeDecodeError:
        return data.decode("latin-1")


def binary_kind(data: bytes, name: str | None = None) -> str | None:
    """The WTHOR format of these bytes (games, or the players' or tournaments' names, by the file's suffix), or
    None: a text format."""
    suffix = Path(name).suffix.lower() if name else ""
    if suffix == ".jou":
        return "wthor-players"
    if suffix == ".trn":
        return "wthor-tournaments"
    if suffix == ".wtb" or wthor.looks_like_wtb(data):
        return "wthor"
    return None


def detect(data: bytes | str, name: str | None = None) -> str:
    """The format name of ``data`` (see FORMATS); FormatError when it is none of them."""
    binary = binary_kind(data, name) if isinstance(data, bytes) else None
    if binary is not None:
        return binary
    text = _text(data)
    stripped = text.strip()
    if not stripped:
        raise FormatError("empty input", source=name)
    if ggf.looks_like_ggf(stripped):
        return "ggf"
    if tagged.looks_like_tagged(stripped):
        return "tagged"
    if obf.looks_like_obf(text):
        return "obf"
    where, longest = longest_line(stripped)
    if longest > MAX_LINE:
        raise FormatError(f"line {where} has {longest} characters: longer than any game or board (at most "
                          f"{MAX_LINE}); not a transcript, board or OBF file", where, None, name)
    lines = [x for x in stripped.splitlines() if x.strip()]
    if all(board_fmt.looks_like_board(x) for x in lines) or board_fmt.looks_like_board(stripped):
        return "board"
    if transcript.looks_like_transcript(stripped):
        return "transcript"
    # name the most likely culprit precisely: the transcript error with its line and column
    try:
        transcript.tokens(stripped, name)
    except FormatError as e:
        raise FormatError(f"not a transcript, board, OBF, GGF or WTHOR file ({e.reason})", e.line, e.column,
                          name) from None
    raise FormatError("unrecognised format", source=name)  # pragma: no cover


def longest_line(text: str) -> tuple[int, int]:
    """(1-based number, length) of the longest line of ``text``, without splitting it into a list."""
    best, best_line, line, pos = 0, 1, 1, 0
    while True:
        nl = text.find("\n", pos)
        end = len(text) if nl < 0 else nl
        if end - pos > best:
            best, best_line = end - pos, line
        if nl < 0:
            return best_line, best
        pos, line = nl + 1, line + 1


def saved_headers(text: str) -> tuple[dict[str, str], str]:
    """What ``save`` in ``plies play`` writes, split: its ``# start BOARD`` / ``# game NAME`` lines (as
    {"start": BOARD, "game": NAME}; other comment lines dropped) and the moves' text."""
    headers: dict[str, str] = {}
    body = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            key, _, value = stripped[1:].strip().partition(" ")
            if key in ("start", "game") and value.strip():
                headers[key] = value.strip()
            continue
        body.append(line)
    return headers, "\n".join(body)


def _saved_game(text: str, name: str | None) -> Loaded | None:
    """A game ``save`` wrote (None when the text has no header line).  Othello games only: another game's file
    is refused by name."""
    headers, body = saved_headers(text)
    if not headers:
        return None
    game = headers.get("game", "othello").lower()
    if game == "othello" and "start" in headers and len("".join(headers["start"].split())) == 170:
        game = "hexthello"
    if game != "othello":
        raise FormatError(f"a {game} game saved by plies play: 'plies play @FILE' and 'plies review FILE' read it; "
                          "this command reads Othello games", source=name)
    start = board_fmt.read_board(headers["start"], name) if "start" in headers else None
    return Loaded("transcript", games=[transcript.read_transcript(body, start=start, source=name)], source=name)


def load(data: bytes | str, name: str | None = None, fmt: str | None = None) -> Loaded:
    """Parse ``data`` in format ``fmt`` (detected when None)."""
    if fmt in (None, "transcript") and not (isinstance(data, bytes) and binary_kind(data, name)):
        text = _text(data)
        saved = _saved_game(text, name) if text.lstrip().startswith("#") else None
        if saved is not None:
            return saved
    kind = fmt or detect(data, name)
    if kind == "wthor":
        if name and os.path.isfile(name):  # names from WTHOR.JOU / WTHOR.TRN beside it
            return Loaded(kind, games=wthor.load_wthor(name), source=name)
        raw = data if isinstance(data, bytes) else data.encode("latin-1")
        return Loaded(kind, games=wthor.wthor_games(raw, source=name), source=name)
    if kind in ("wthor-players", "wthor-tournaments"):
        raw = data if isinstance(data, bytes) else data.encode("latin-1")
        width = wthor.PLAYER_NAME_SIZE if kind == "wthor-players" else wthor.TOURNAMENT_NAME_SIZE
        return Loaded(kind, names=wthor.read_names(raw, width, name), source=name)
    text = _text(data)
    if kind == "ggf":
        return Loaded(kind, games=ggf.read_ggf_games(text, name), source=name)
    if kind == "tagged":
        return Loaded(kind, games=tagged.read_tagged(text, name), source=name)
    if kind == "obf":
        return Loaded(kind, positions=obf.read_obf(text, name), source=name)
    if kind == "board":
        lines = [x for x in text.splitlines() if x.strip()]
        if len(lines) > 1 and all(board_fmt.looks_like_board(x) for x in lines):
            return Loaded(kind, positions=[obf.ObfPosition(board_fmt.read_board(x, name)) for x in lines],
                          source=name)
        return Loaded(kind, positions=[obf.ObfPosition(board_fmt.read_board(text, name))], source=name)
    if kind == "transcript":
        return Loaded(kind, games=_transcripts(text, name), source=name)
    raise FormatError(f"unknown format {kind!r}; known: {', '.join(FORMATS)}", source=name)


def _transcripts(text: str, name: str | None) -> list[OthelloGame]:
    """One game, or one game per line when the lines do not replay as a single game.  When neither reading
    works, the error of the reading that got further into the text is reported."""
    try:
        return [transcript.read_transcript(text, source=name)]
    except FormatError as whole:
        lines = text.splitlines()
        if sum(1 for x in lines if x.strip()) < 2:
            raise
        games = []
        for i, line in enumerate(lines):
            if not line.strip():
                continue
            try:
                games.append(transcript.read_transcript(line, source=name))
            except FormatError as e:
                per_line = FormatError(e.reason, i + 1, e.column, name)
                if (whole.line or 0, whole.column or 0) >= (i + 1, e.column or 0):
                    raise whole from None
                raise per_line from None
        return games


__all__ = ["FORMATS", "Loaded", "binary_kind", "detect", "load", "saved_headers"]
