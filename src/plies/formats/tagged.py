"""Tagged transcripts: the games ``plies tournament export --transcript`` writes, each as tags in brackets
(``[Black "random"]``, ``[Position "... X"]``), a blank line, the numbered moves and the result (``1-0``,
``0-1``, ``1/2-1/2``, ``*``), read back as Othello games (another game's records are refused by name)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from . import board as board_fmt
from . import transcript
from .errors import FormatError
from .model import OthelloGame

TAG = re.compile(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]')
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def looks_like_tagged(text: str) -> bool:
    """The text starts with a tag line ``[Name "value"]``."""
    first = text.lstrip().split("\n", 1)[0].strip()
    return TAG.fullmatch(first) is not None


def read_tagged(text: str, source: str | None = None) -> list[OthelloGame]:
    """Every game of the text; FormatError naming the line of a bad tag, a game of another kind or an illegal
    move."""
    return list(iter_tagged(text.splitlines(), source))


def iter_tagged(lines: Iterable[str], source: str | None = None) -> Iterator[OthelloGame]:
    """The games of a tagged transcript read line by line (a large file streams), as ``read_tagged``."""
    tags: dict[str, str] = {}
    body: list[str] = []
    tag_line = body_line = 0
    number = 0
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if line.startswith("["):
            if body:  # the next game's tags: the game before is complete
                number += 1
                yield _game(tags, body, tag_line, body_line, number, source)
                tags, body = {}, []
            m = TAG.fullmatch(line)
            if m is None:
                raise FormatError('a tag is written [Name "value"]', n, 1, source)
            if not tags:
                tag_line = n
            tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
        elif line:
            if not body:
                body_line = n
            body.append(line)
    if tags or body:
        yield _game(tags, body, tag_line, body_line, number + 1, source)


def _game(tags: dict[str, str], body: list[str], tag_line: int, body_line: int, number: int,
          source: str | None) -> OthelloGame:
    variant = tags.get("Variant", "othello")
    if not variant.startswith("othello"):
        raise FormatError(f"game {number} is a {variant} game: only Othello games are read here", tag_line, 1,
                          source)
    try:
        start = board_fmt.read_board(tags["Position"], source) if "Position" in tags else None
    except FormatError as e:
        raise FormatError(f"game {number}'s Position: {e.reason}", tag_line, 1, source) from None
    words = " ".join(body).split()
    if words and words[-1] in RESULTS:
        words = words[:-1]
    moves = " ".join(w for w in words if not re.fullmatch(r"\d+\.", w))
    try:
        game = transcript.read_transcript(moves, start=start, source=source)
    except FormatError as e:
        raise FormatError(f"game {number}: {e.reason}", body_line, 1, source) from None
    game.black, game.white = tags.get("Black", ""), tags.get("White", "")
    game.date = tags.get("Date", "")
    if "Score" in tags:
        try:
            game.result = float(tags["Score"])  # the final disc difference from Black's view
        except ValueError:
            raise FormatError(f"game {number}'s Score is not a number", tag_line, 1, source) from None
    game.props = {k: v for k, v in tags.items() if k not in ("Black", "White", "Date", "Score", "Position")}
    return game


__all__ = ["looks_like_tagged", "read_tagged"]
