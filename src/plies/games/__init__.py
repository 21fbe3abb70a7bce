"""The games plies knows, and one parser that turns any position argument into a State.

A position argument is a game name for its start position (``othello``, ``othello6``, ``tictactoe``), a board
with the side to move (64 characters + ``X``/``O`` for Othello, 9 + 1 for tic-tac-toe), a transcript from the
start (``f5d6c3``), or an explicit tree (``[[3,12,8],[2,4,6],[14,5,2]]``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from plies.game import ParseError, State
from plies.games.othello import OthelloState
from plies.games.tictactoe import TicTacToeState
from plies.games.tree import TreeState, parse_tree

GAMES: dict[str, Callable[[], State]] = {
    "othello": OthelloState.start,
    "tictactoe": TicTacToeState.start,
}
"""Game name -> start position.  Other games (HexThello) register themselves here."""

ALIASES = {"reversi": "othello", "ttt": "tictactoe", "tic-tac-toe": "tictactoe", "noughts": "tictactoe"}


def register(name: str, start: Callable[[], State]) -> None:
    """Make a game reachable by name from every command."""
    GAMES[name] = start


def start_position(name: str, layout: str = "standard") -> State:
    """The start position of the game called ``name`` (``othello6`` = Othello on 6x6; ``layout`` for Othello)."""
    key = ALIASES.get(name.lower(), name.lower())
    if key == "othello":
        return OthelloState.start(8, layout)
    if key in GAMES:
        return GAMES[key]()
    m = re.fullmatch(r"(?:othello|reversi)[:x]?(\d+)", key)
    if m:
        return OthelloState.start(int(m.group(1)), layout)
    raise ParseError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))} (and othello4, othello6 ... othello10: "
                     "Othello on another board size)")


BOARD_SQUARES = (16, 36, 64, 100)  # the Othello boards a position argument may give, square by square
BOARD_TEXT = r"[XxOo0*.\-_BWe]+"  # their squares (and the side to move after them)
HEX_BOARD_TEXT = 170  # a HexThello board's 169 cells and the side to move


def parse_position(text: str, game: str | None = None, layout: str = "standard") -> State:
    """Turn one position argument into a State (see the module doc); ParseError says what is wrong."""
    t = text.strip()
    if not t:
        raise ParseError("empty position")
    if game is None and t.startswith(("[", "{")):
        return TreeState(parse_tree(t))
    low = t.lower()
    if game is None and (low in GAMES or low in ALIASES or re.fullmatch(r"(othello|reversi)[:x]?\d+", low)):
        return start_position(low, layout)
    compact = "".join(t.split())
    if game in (None, "tictactoe") and len(compact) == 10 and re.fullmatch(r"[XxOo0.\-_]{10}", compact):
        return TicTacToeState.from_text(compact)
    if game in (None, "othello") and len(compact) - 1 in BOARD_SQUARES and re.fullmatch(BOARD_TEXT, compact):
        return OthelloState.from_text(compact)
    if (game is None and "hexthello" in GAMES and len(compact) == HEX_BOARD_TEXT
            and re.fullmatch(r"[XxOo*BW0.\-_#]+", compact)):  # what a HexThello state's to_text() writes
        return parse_position(compact, "hexthello")
    if game == "tictactoe":
        return TicTacToeState.from_transcript(t)
    if game in (None, "othello"):
        board_side_error(t)
        if re.fullmatch(r"[\sA-Ja-j0-9.,;\-@]*|.*pass.*", t, flags=re.IGNORECASE):
            return OthelloState.from_transcript(t, layout=layout)
    if game is not None and game in GAMES:
        parser = getattr(GAMES[game](), "from_text", None)
        if parser is not None:
            return parser(t)
    raise ParseError(
        f"cannot read position {text[:40]!r}: give a game name, a board plus side to move, or a transcript"
    )


def board_side_error(t: str) -> None:
    """ParseError naming what is missing when ``t`` is an Othello board without a side to move, or with one that
    is neither X nor O (the generic message would quote only its first 40 squares)."""
    tokens = t.split()
    for board, side in (("".join(tokens), None), ("".join(tokens[:-1]), tokens[-1] if len(tokens) > 1 else None)):
        if len(board) in BOARD_SQUARES and re.fullmatch(BOARD_TEXT, board):
            if side is None:
                raise ParseError(f"a board of {len(board)} squares needs the side to move after it: X or O")
            raise ParseError(f"the side to move after the board must be X or O, not {side!r}")


__all__ = ["GAMES", "OthelloState", "TicTacToeState", "TreeState", "parse_position", "register", "start_position"]

from plies.games import hexthello as _hexthello  # noqa: E402,F401  (registers "hexthello")
