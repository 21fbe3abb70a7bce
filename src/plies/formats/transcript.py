"""Othello transcripts: ``f5d6c3``, ``F5 D6 C3``, PlayOK's ``1. F5 f4 2. E3 f6``, with or without explicit
passes (``pass``, ``PA``, ``PS``, ``--``, ``@@``), any case.

This is the located superset of ``plies.games.othello.transcript_tokens``: the same tokens for every input the
core accepts (a test keeps the two in step), plus the line and column of every token so errors point at it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from plies.game import PASS, IllegalMoveError
from plies.games.othello import OthelloState, square_name

from .errors import FormatError, error_at
from .model import OthelloGame

PASS_TOKENS = ("pass", "pa", "ps", "--", "@@")
_SQUARE = re.compile(r"([a-jA-J])(10|[1-9])")
_MOVE_NUMBER = re.compile(r"\d+\.+")
_SEPARATORS = " \t\r\n,;"


@dataclass(frozen=True)
class Token:
    """One move of a transcript: ``f5`` (lower case) or ``pass``, and where it starts (0-based index)."""

    text: str
    index: int


def tokens(text: str, source: str | None = None) -> list[Token]:
    """Split a transcript into located tokens; FormatError at the first character that is not a move."""
    return list(iter_tokens(text, source))


def iter_tokens(text: str, source: str | None = None) -> Iterator[Token]:
    """``tokens`` one at a time: a reader that stops at the first illegal move never looks further."""
    pos = 0
    while pos < len(text):
        ch = text[pos]
        if ch in _SEPARATORS:
            pos += 1
            continue
        num = _MOVE_NUMBER.match(text, pos)
        if num and (pos == 0 or not text[pos - 1].isalpha()):
            pos = num.end()
            continue
        if text[pos : pos + 4].lower() == "pass":
            yield Token("pass", pos)
            pos += 4
            continue
        if text[pos : pos + 2].lower() in PASS_TOKENS:
            yield Token("pass", pos)
            pos += 2
            continue
        m = _SQUARE.match(text, pos)
        if not m:
            raise error_at(text, pos, f"not a move: {text[pos:pos + 6]!r} (moves look like f5; passes like pass)",
                           source)
        yield Token(m.group(0).lower(), pos)
        pos = m.end()


def read_transcript(
    text: str, start: OthelloState | None = None, n: int = 8, layout: str = "standard", source: str | None = None
) -> OthelloGame:
    """Replay a transcript from ``start`` (default: the standard start on n x n); forced passes may be left
    out.  An illegal move is a FormatError naming its line, column and the rule it breaks."""
    state = start if start is not None else OthelloState.start(n, layout)
    game = OthelloGame(start=state)
    for tok in iter_tokens(text, source):  # lazily: an endless text fails at its first illegal move
        try:
            if tok.text == "pass":
                move = PASS
                state = state.play(move)
            else:
                move = _square(tok.text, state.n)
                try:
                    state = state.play(move)
                except IllegalMoveError:
                    if state.legal_moves() != [PASS]:
                        raise
                    game.moves.append(PASS)  # a forced pass left out
                    state = state.play(PASS).play(move)
        except IllegalMoveError as e:
            raise error_at(text, tok.index, f"illegal move {tok.text} (move {len(game.moves) + 1}): {e}",
                           source) from None
        game.moves.append(move)
    game.evals = [None] * len(game.moves)
    game.times = [None] * len(game.moves)
    return game


def _square(name: str, n: int) -> int:
    c = ord(name[0]) - 97
    r = int(name[1:]) - 1
    if not (0 <= r < n and 0 <= c < n):
        raise IllegalMoveError(f"{name} is off the {n}x{n} board")
    return r * n + c


def write_transcript(game: OthelloGame, passes: bool = False, style: str = "compact", upper: bool = False) -> str:
    """The moves as text.  Styles: ``compact`` (``f5d6c3``), ``spaced`` (``f5 d6 c3``), ``playok``
    (``1. F5 f4 2. E3 f6``: numbered Black/White pairs, passes always written ``--`` to keep the pairs).
    ``passes`` writes the forced passes (as ``pass``, or ``--`` in compact style) instead of leaving them out."""
    n = game.start.n
    if style == "playok":
        parts: list[str] = []
        s = game.start
        number = 1
        if s.to_move == 1:
            parts.append("1. --")
        for m in game.moves:
            name = "--" if m == PASS else square_name(m, n)
            if s.to_move == 0:
                parts.append(f"{number}. {name.upper()}")
            else:
                parts.append(name.lower())
                number += 1
            s = s.play(m)
        return " ".join(parts)
    if style not in ("compact", "spaced"):
        raise FormatError(f"unknown transcript style {style!r}; use compact, spaced or playok")
    names = []
    for m in game.moves:
        if m == PASS:
            if passes:
                names.append("--" if style == "compact" else "pass")
            continue
        names.append(square_name(m, n).upper() if upper else square_name(m, n))
    return ("" if style == "compact" else " ").join(names)


def looks_like_transcript(text: str) -> bool:
    """True when ``text`` tokenises as a transcript of at least one move."""
    try:
        return bool(tokens(text))
    except FormatError:
        return False


__all__ = ["PASS_TOKENS", "Token", "iter_tokens", "looks_like_transcript", "read_transcript", "tokens",
           "write_transcript"]
