"""Tic-tac-toe on 3x3 (documents 002 and 003): X (player 0, MAX) and O alternate; three in a line wins.

Squares are numbered row by row: index = row * 3 + col, named like Othello's (``a1`` top left, ``c3`` bottom
right); document 003's 0-based ``row col`` and the keypad-style digits 1-9 are accepted too.
"""

from __future__ import annotations

import re
from typing import ClassVar

from plies.game import BoardState, BoardView, GameType, IllegalMoveError, ParseError, State, board_cell, one_board
from plies.i18n import N_, _

LINES = tuple(
    sum(1 << s for s in line)
    for line in (
        (0, 1, 2), (3, 4, 5), (6, 7, 8),
        (0, 3, 6), (1, 4, 7), (2, 5, 8),
        (0, 4, 8), (2, 4, 6),
    )
)
FULL = 0x1FF


def _won(b: int) -> bool:
    return any(b & line == line for line in LINES)


class TicTacToeState(BoardState):
    """An immutable tic-tac-toe position: X's squares, O's squares, the side to move."""

    game: ClassVar[str] = "tictactoe"
    player_names: ClassVar[tuple[str, str]] = ("X", "O")
    symbols: ClassVar[tuple[str, str]] = ("X", "O")

    __slots__ = ("x", "o", "_to_move", "_moves")

    def __init__(self, x: int = 0, o: int = 0, to_move: int = 0) -> None:
        if x & o:
            raise ParseError("a square cannot hold both X and O")
        self.x = x
        self.o = o
        self._to_move = to_move
        self._moves: list[int] | None = None

    @classmethod
    def start(cls) -> TicTacToeState:
        return cls()

    @classmethod
    def from_text(cls, text: str) -> TicTacToeState:
        """Parse ``X-O------X``: nine cells (X, O, - or .) row by row, then the side to move."""
        s = "".join(text.split())
        if len(s) != 10:
            raise ParseError(f"a tic-tac-toe position is 9 cells and the side to move (10 characters), got {len(s)}")
        x = o = 0
        for i, ch in enumerate(s[:9]):
            if ch in "Xx":
                x |= 1 << i
            elif ch in "Oo0":
                o |= 1 << i
            elif ch not in "-._":
                raise ParseError(f"bad cell {ch!r} at position {i + 1} (use X, O or -)")
        side = s[9]
        if side not in "XxOo0":
            raise ParseError(f"bad side to move {side!r} (use X or O)")
        return cls(x, o, 0 if side in "Xx" else 1)

    @classmethod
    def from_transcript(cls, moves: str) -> TicTacToeState:
        """Replay moves such as ``b2a1c3`` (or ``b2, a1``, or digits 1-9) from the empty board."""
        state = cls()
        for token, _where in tokens(moves):
            state = state.play(state.parse_move(token))
        return state

    def winner(self) -> int | None:
        """0 if X has a line, 1 if O has one, None otherwise."""
        if _won(self.x):
            return 0
        if _won(self.o):
            return 1
        return None

    def legal_moves(self) -> list[int]:
        if self._moves is None:
            if self.winner() is not None:
                self._moves = []
            else:
                free = FULL & ~(self.x | self.o)
                self._moves = [i for i in range(9) if free >> i & 1]
        return self._moves

    def play(self, move: int) -> TicTacToeState:
        if not isinstance(move, int) or not 0 <= move < 9:
            raise IllegalMoveError(_("{square} is off the board").format(square=repr(move)))
        if self.is_over():
            raise IllegalMoveError(_("the game is over"))
        bit = 1 << move
        if (self.x | self.o) & bit:
            raise IllegalMoveError(_("{square} is occupied").format(square=self.move_str(move)))
        if self._to_move == 0:
            return TicTacToeState(self.x | bit, self.o, 1)
        return TicTacToeState(self.x, self.o | bit, 0)

    def empties(self) -> int:
        """The empty squares."""
        return (FULL & ~(self.x | self.o)).bit_count()

    def plies_left(self) -> int:
        """At most this many plies remain: the empty squares."""
        return self.empties()

    def score(self) -> int:
        """+1 when X has won, -1 when O has, 0 otherwise (document 003's evaluate())."""
        w = self.winner()
        return 0 if w is None else (1 if w == 0 else -1)

    def move_str(self, move: int) -> str:
        r, c = divmod(move, 3)
        return f"{'abc'[c]}{r + 1}"

    def parse_move(self, text: str) -> int:
        """``b2``, ``1 1`` (row col, 0-based) or a digit 1-9 (row by row); legality checked."""
        t = text.strip().lower()
        if re.fullmatch(r"[a-z]\d+", t):
            c, r = ord(t[0]) - 97, int(t[1:]) - 1
        elif re.fullmatch(r"\d", t):
            k = int(t) - 1
            if not 0 <= k < 9:
                raise IllegalMoveError(_("{square} is off the board (squares are 1-9)").format(square=text.strip()))
            r, c = divmod(k, 3)
        else:
            m = re.fullmatch(r"\(?\s*(\d+)\s*[, ]\s*(\d+)\s*\)?", t)
            if not m:
                raise ParseError(_("not a move: {text} (type a square like b2, or row and column counted from 0 "
                                   "like 1 1)").format(text=repr(text)))
            r, c = int(m.group(1)), int(m.group(2))
        if not (0 <= r < 3 and 0 <= c < 3):
            raise IllegalMoveError(_("{square} is off the board").format(square=text.strip()))
        move = r * 3 + c
        self.play(move)  # raises with the reason
        return move

    def to_text(self) -> str:
        cells = "".join(
            "X" if self.x >> i & 1 else "O" if self.o >> i & 1 else "-" for i in range(9)
        )
        return cells + self.symbols[self._to_move]

    def line_counts(self, player: int) -> tuple[int, int]:
        """(lines with exactly two of ``player``'s marks and none of the other's, lines with exactly one)."""
        mine, theirs = (self.x, self.o) if player == 0 else (self.o, self.x)
        two = one = 0
        for line in LINES:
            if theirs & line:
                continue
            k = (mine & line).bit_count()
            if k == 2:
                two += 1
            elif k == 1:
                one += 1
        return two, one

    def board_str(self, last: int | None = None, rowcol: bool = False, marks: bool = True) -> str:
        head = "   " + " ".join(str(c) if rowcol else "abc"[c] for c in range(3))
        lines = [head]
        for r in range(3):
            row = []
            for c in range(3):
                i = r * 3 + c
                ch = "X" if self.x >> i & 1 else "O" if self.o >> i & 1 else " "
                if i == last and ch != " ":
                    ch = ch.lower()
                row.append(ch)
            lines.append(f"{r if rowcol else r + 1:>2}|" + "|".join(row) + "|")
        return "\n".join(lines)

    def __getitem__(self, cell: tuple[int, int]) -> int | None:
        """Who holds ``state[row, col]`` (0-based, row 0 on top, as the slides' getCell): 0 X, 1 O, None for an
        empty square.  ``state[1, 1]`` is the centre, b2."""
        r, c = board_cell(cell, 3, 3)
        bit = 1 << (r * 3 + c)
        return 0 if self.x & bit else 1 if self.o & bit else None

    def board(self) -> list[list[str]]:
        """The board as the slides' State keeps it: three rows of ``'X'``, ``'O'`` and ``' '`` (empty), row 0
        on top.  A new list every call."""
        return [[" " if v is None else self.symbols[v] for v in (self[r, c] for c in range(3))] for r in range(3)]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TicTacToeState)
            and (self.x, self.o, self._to_move) == (other.x, other.o, other._to_move)
        )

    def __hash__(self) -> int:
        return hash((self.x, self.o, self._to_move))


def start() -> TicTacToeState:
    return TicTacToeState()


def looks_like(text: str) -> bool:
    """A bare text that is a tic-tac-toe board and its side to move (nine cells and X or O)."""
    compact = "".join(text.split())
    return len(compact) == 10 and bool(re.fullmatch(r"[XxOo0.\-_]{10}", compact))


def view(state: State) -> BoardView:
    """The 3x3 board: a1 top left, each cell's mark."""
    assert isinstance(state, TicTacToeState)
    cells = tuple(0 if state.x >> i & 1 else 1 if state.o >> i & 1 else None for i in range(9))
    won = next((line for line in LINES for b in (state.x, state.o) if b & line == line), 0)
    return BoardView("square", 3, 3, cells, {m: m for m in state.legal_moves()}, ("a", "b", "c"), ("1", "2", "3"),
                     pieces=("x", "o"), surface="paper", highlight=tuple(i for i in range(9) if won >> i & 1))


def tokens(text: str) -> list[tuple[str, int]]:
    """The moves of a transcript (``b2a1c3``, ``b2 a1``, keypad digits ``5 1 9``), each with its 1-based character
    position; commas, semicolons and full stops between moves are skipped."""
    return [(m.group(0), m.start() + 1) for m in re.finditer(r"[a-cA-C][1-3]|\S", text) if m.group(0) not in ",;."]


_start, _transcript = one_board(TicTacToeState.start, TicTacToeState.from_transcript)


TYPE = GameType(
    name="tictactoe", title="Tic-tac-toe", start=_start, parse=TicTacToeState.from_text, transcript=_transcript,
    view=view, aliases=("ttt", "tic-tac-toe", "noughts"), looks_like=looks_like, result="result",
    line="three in a row", levels=9,
    solved_depth=9, hint_depth=lambda state: 9, rowcol=True, move_example="b2",
    move_help="b2, a digit 1-9 row by row, or row and column counted from 0 like '1 1' (that is b2)", tokens=tokens,
    noun=N_("tic-tac-toe"), description="3x3 tic-tac-toe (documents 002 and 003): three in a line wins")
