"""Reading a set-up: a transcript whose moves become the game's history, or a board (from the board editor or
pasted) with the side to move.  Errors name the bad move and its place ("move 5 (c9): c9 is off the board").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from plies.game import PASS, IllegalMoveError, ParseError, PliesError, State
from plies.games import start_position
from plies.games.hexthello import ON_BOARD, HexThelloState
from plies.games.othello import OthelloState
from plies.games.tictactoe import TicTacToeState

BOARD_CHARS = re.compile(r"[XxOo0*.\-_BW#]+")
BOARD_NAMES = {"othello": "an Othello", "tictactoe": "a tic-tac-toe", "hexthello": "a HexThello"}


def start_for(game: str, size: int | None = None) -> State:
    """The start position of ``game`` (``othello`` with ``size`` 4-10 for the other boards)."""
    name = game.strip().lower()
    if size is not None and name not in ("othello", "reversi"):
        raise PliesError(f"only Othello has board sizes; {game} has one board")
    if size is not None and size != 8:
        if size % 2:
            raise PliesError(f"Othello boards have an even size, not {size}")
        return start_position(f"othello{size}")
    return start_position(name)


def _cells(start: State) -> int:
    """How many characters a board of this game has before the side to move (0: boards not accepted)."""
    if isinstance(start, OthelloState):
        return start.n ** 2
    if start.game == "tictactoe":
        return 9
    if isinstance(start, HexThelloState):
        return len(ON_BOARD)
    return 0


def looks_like_board(start: State, text: str) -> bool:
    compact = "".join(text.split())
    n = _cells(start)
    return bool(n) and len(compact) == n + 1 and bool(BOARD_CHARS.fullmatch(compact))


def read_board(start: State, text: str) -> State:
    """A board of ``start``'s game: its cells (X/O/-) in the game's order, then the side to move (X or O)."""
    compact = "".join(text.split())
    n = _cells(start)
    if len(compact) != n + 1:
        raise ParseError(f"{BOARD_NAMES.get(start.game, 'a ' + start.game)} board is {n} cells then the side to move "
                         f"(X or O), not {len(compact)} characters")
    side = compact[-1]
    if side not in "XxOo0*BW":
        raise ParseError(f"the last character says who moves: X or O, not {side!r}")
    bad = next((c for c in compact[:-1] if c not in "XxOo0*.-_BW#"), None)
    if bad is not None:
        raise ParseError(f"a board cell is X, O or -, not {bad!r}")
    if not isinstance(start, OthelloState | TicTacToeState | HexThelloState):
        raise ParseError(f"{start.game} positions are not set up from a board")
    return type(start).from_text(compact)


def tokens(start: State, text: str) -> list[tuple[str, int]]:
    """The moves of a transcript of ``start``'s game as (text, 1-based character position)."""
    if start.game == "othello":
        from plies.formats.errors import FormatError
        from plies.formats.transcript import tokens as othello_tokens

        try:
            return [(t.text, t.index + 1) for t in othello_tokens(text)]
        except FormatError as e:
            raise ParseError(f"cannot read the transcript at character {e.column}: {e.reason}") from None
    if start.game == "tictactoe":
        out = []
        for m in re.finditer(r"[a-cA-C][1-3]|\S", text):
            if m.group(0) in ",;.":
                continue
            out.append((m.group(0), m.start() + 1))
        return out
    if start.game == "hexthello":
        return _hex_tokens(text)
    return [(m.group(0), m.start() + 1) for m in re.finditer(r"[^\s,;]+", text)]


def _hex_tokens(text: str) -> list[tuple[str, int]]:
    """HexThello moves: ``7 3, 6 5`` (row and column, commas between moves), or compact ``73 65`` / ``7365``."""
    if re.search(r"[,;]", text):
        out = []
        pos = 0
        for part in re.split(r"([,;])", text):
            if part not in (",", ";") and part.strip():
                out.append((part.strip(), pos + len(part) - len(part.lstrip()) + 1))
            pos += len(part)
        return out
    words = [(m.group(0), m.start() + 1) for m in re.finditer(r"\S+", text)]
    if words and all(w.isdigit() for w, _ in words) and any(len(w) == 1 for w, _ in words) and len(words) % 2 == 0:
        return [(f"{words[k][0]} {words[k + 1][0]}", words[k][1]) for k in range(0, len(words), 2)]
    if len(words) == 1 and len(words[0][0]) % 2 == 0 and len(words[0][0]) > 2:
        w, at = words[0]
        return [(w[k:k + 2], at + k) for k in range(0, len(w), 2)]
    return words


def replay(start: State, text: str) -> list[Any]:
    """The moves of a transcript from ``start``, forced passes written in; ParseError naming the bad move, its
    number and where it is in the text."""
    moves: list[Any] = []
    state = start
    for number, (tok, at) in enumerate(tokens(start, text), 1):
        if state.is_over():
            raise ParseError(f"move {number} ({tok}, character {at}): the game is already over after move "
                             f"{number - 1}")
        try:
            if tok.lower() in ("pass", "pa", "ps", "--", "@@"):
                move = state.parse_move("pass")
            else:
                try:
                    move = state.parse_move(tok)
                except IllegalMoveError:
                    if state.legal_moves() != [PASS]:
                        raise
                    passed = state.play(PASS)  # a forced pass left out of the transcript
                    move = passed.parse_move(tok)
                    moves.append(PASS)
                    state = passed
        except PliesError as e:
            raise ParseError(f"move {number} ({tok}, character {at}): {e}") from None
        moves.append(move)
        state = state.play(move)
    return moves


def play_names(start: State, names: Sequence[str], first: int = 1) -> list[Any]:
    """Moves given one by one in the game's notation (``["f5", "d6"]``) from ``start``; ParseError naming the
    bad one (numbered from ``first``)."""
    moves, state = [], start
    for k, text in enumerate(names, first):
        try:
            m = state.parse_move(text)
            state = state.play(m)
        except PliesError as e:
            raise ParseError(f"move {k} ({text}): {e}") from None
        moves.append(m)
    return moves


def read_setup(game: str, size: int | None, text: str | None,
               then: Sequence[str] | None = None) -> tuple[State, list[Any]]:
    """(start position, moves) of a set-up: nothing (the game's start), a board with the side to move, or a
    transcript whose moves are kept; ``then``: moves played after it (one per item)."""
    start, moves = _read_setup(game, size, text)
    if then:
        state = start
        for m in moves:
            state = state.play(m)
        moves = moves + play_names(state, then, len(moves) + 1)
    return start, moves


def _read_setup(game: str, size: int | None, text: str | None) -> tuple[State, list[Any]]:
    start = start_for(game, size)
    if not text or not text.strip():
        return start, []
    compact = "".join(text.split())
    if start.game == "othello" and size is None:  # a board of another size says which
        n = round((len(compact) - 1) ** 0.5)
        if n != 8 and n * n + 1 == len(compact) and n % 2 == 0 and 4 <= n <= 10 and BOARD_CHARS.fullmatch(compact):
            start = start_for(game, n)
    if looks_like_board(start, text) or (_cells(start) and len(compact) == _cells(start) + 1
                                         and BOARD_CHARS.fullmatch(compact[:-1])):
        return read_board(start, text), []  # (a board whose last letter is not a side is refused there)
    if _cells(start) and re.fullmatch(r"[XxOo0*.\-_BW\s]{20,}", text.strip()):
        read_board(start, text)  # a board of the wrong length: say so rather than read it as moves
    moves = replay(start, text)
    if not moves:
        raise ParseError("no moves in the transcript")
    return start, moves


__all__ = ["looks_like_board", "play_names", "read_board", "read_setup", "replay", "start_for", "tokens"]
