"""Connect Four on the standard 7x6 board: Red (player 0, moves first) and Yellow drop discs into columns; a disc
falls to the lowest empty cell of its column; four in a row (horizontally, vertically or diagonally) wins; a full
board with no four is a draw.  The game aima-python and OpenSpiel teach.

Bitboards as in John Tromp's solver: column c owns bits ``7c .. 7c + 5`` (row 0 at the bottom) and bit ``7c + 6``
is a sentinel row that stays empty, so a shift by 1 (vertical), 7 (horizontal), 6 and 8 (the diagonals) never
runs from one column into the next.  A move is the column index 0-6, named ``a``-``g`` (files, as a chess
board's) or ``1``-``7``.
"""

from __future__ import annotations

import re
from typing import ClassVar

from plies.game import BoardState, BoardView, GameType, IllegalMoveError, ParseError, State, one_board

COLUMNS, ROWS = 7, 6
HEIGHT = ROWS + 1  # bits per column, the sentinel included
BOTTOM = sum(1 << (HEIGHT * c) for c in range(COLUMNS))
FULL = sum(((1 << ROWS) - 1) << (HEIGHT * c) for c in range(COLUMNS))
CELLS = COLUMNS * ROWS


def bit(col: int, row: int) -> int:
    """The bit of the cell in column ``col`` (0 = a) and row ``row`` (0 = the bottom)."""
    return 1 << (HEIGHT * col + row)


def four(b: int) -> bool:
    """Whether the discs ``b`` hold four in a row in any of the four directions."""
    for shift in (1, HEIGHT, HEIGHT - 1, HEIGHT + 1):
        pairs = b & (b >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


WINDOWS: tuple[int, ...] = tuple(
    sum(bit(c + k * dc, r + k * dr) for k in range(4))
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
    for c in range(COLUMNS)
    for r in range(ROWS)
    if 0 <= c + 3 * dc < COLUMNS and 0 <= r + 3 * dr < ROWS
)
"""The 69 groups of four cells in a line: every way to win."""


class ConnectFourState(BoardState):
    """An immutable Connect Four position: Red's discs, Yellow's discs, the side to move."""

    game: ClassVar[str] = "connect4"
    player_names: ClassVar[tuple[str, str]] = ("Red", "Yellow")
    symbols: ClassVar[tuple[str, str]] = ("R", "Y")

    __slots__ = ("red", "yellow", "_to_move", "_moves")

    def __init__(self, red: int = 0, yellow: int = 0, to_move: int = 0) -> None:
        if red & yellow:
            raise ParseError("a cell cannot hold two discs")
        if (red | yellow) & ~FULL:
            raise ParseError("a disc off the board")
        self.red = red
        self.yellow = yellow
        self._to_move = to_move
        self._moves: list[int] | None = None

    @classmethod
    def start(cls) -> ConnectFourState:
        return cls()

    @classmethod
    def from_text(cls, text: str) -> ConnectFourState:
        """Parse what ``to_text`` writes: 42 cells row by row from the top (``R``, ``Y``, ``-`` or ``.``), then
        the side to move; discs must rest on discs (no hole under a disc)."""
        s = "".join(text.split())
        if len(s) != CELLS + 1:
            raise ParseError(f"a Connect Four position is 42 cells and the side to move ({CELLS + 1} characters), "
                             f"got {len(s)}")
        red = yellow = 0
        for i, ch in enumerate(s[:CELLS]):
            r, c = ROWS - 1 - i // COLUMNS, i % COLUMNS
            if ch in "Rr":
                red |= bit(c, r)
            elif ch in "Yy":
                yellow |= bit(c, r)
            elif ch not in "-._":
                raise ParseError(f"bad cell {ch!r} at position {i + 1} (use R, Y or -)")
        side = s[CELLS]
        if side not in "RrYy":
            raise ParseError(f"bad side to move {side!r} (use R or Y)")
        occupied = red | yellow
        if _holes(occupied):
            raise ParseError("a disc floats above an empty cell")
        return cls(red, yellow, 0 if side in "Rr" else 1)

    @classmethod
    def from_transcript(cls, moves: str) -> ConnectFourState:
        """Replay columns such as ``dddcce`` or ``4 4 4 3`` from the empty board."""
        state = cls()
        for token, _ in tokens(moves):
            state = state.play(state.parse_move(token))
        return state

    def winner(self) -> int | None:
        """0 if Red has four in a row, 1 if Yellow has, None otherwise."""
        if four(self.red):
            return 0
        if four(self.yellow):
            return 1
        return None

    def heights(self) -> list[int]:
        """Discs in each column (0-6)."""
        occ = self.red | self.yellow
        return [((occ >> (HEIGHT * c)) & ((1 << ROWS) - 1)).bit_count() for c in range(COLUMNS)]

    def legal_moves(self) -> list[int]:
        if self._moves is None:
            if self.winner() is not None:
                self._moves = []
            else:
                self._moves = [c for c, h in enumerate(self.heights()) if h < ROWS]
        return self._moves

    def play(self, move: int) -> ConnectFourState:
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < COLUMNS:
            raise IllegalMoveError(f"{move!r} is not a column (a-g)")
        if self.is_over():
            raise IllegalMoveError("the game is over")
        h = self.heights()[move]
        if h >= ROWS:
            raise IllegalMoveError(f"column {self.move_str(move)} is full")
        b = bit(move, h)
        if self._to_move == 0:
            return ConnectFourState(self.red | b, self.yellow, 1)
        return ConnectFourState(self.red, self.yellow | b, 0)

    def empties(self) -> int:
        return CELLS - (self.red | self.yellow).bit_count()

    def score(self) -> int:
        """+1 when Red has won, -1 when Yellow has, 0 otherwise."""
        w = self.winner()
        return 0 if w is None else (1 if w == 0 else -1)

    def move_str(self, move: int) -> str:
        return "abcdefg"[move]

    def parse_move(self, text: str) -> int:
        """A column: ``d`` (a-g) or ``4`` (1-7); legality checked."""
        t = text.strip().lower()
        if re.fullmatch(r"[a-g]", t):
            move = ord(t) - 97
        elif re.fullmatch(r"[1-7]", t):
            move = int(t) - 1
        elif re.fullmatch(r"[a-z]|\d+", t):
            raise IllegalMoveError(f"{text.strip()} is off the board (columns a-g or 1-7)")
        else:
            raise ParseError(f"not a move: {text!r} (type a column: a-g or 1-7)")
        self.play(move)  # raises with the reason
        return move

    def cell(self, col: int, row: int) -> int | None:
        """0 (Red), 1 (Yellow) or None (empty) at column ``col``, row ``row`` (0 = the bottom)."""
        b = bit(col, row)
        return 0 if self.red & b else 1 if self.yellow & b else None

    def to_text(self) -> str:
        cells = []
        for r in range(ROWS - 1, -1, -1):
            for c in range(COLUMNS):
                who = self.cell(c, r)
                cells.append("-" if who is None else self.symbols[who])
        return "".join(cells) + self.symbols[self._to_move]

    def threats(self, player: int) -> tuple[int, int, int]:
        """(windows with 3, with 2, with 1 of ``player``'s discs and none of the other's): lines still open."""
        mine, theirs = (self.red, self.yellow) if player == 0 else (self.yellow, self.red)
        counts = [0, 0, 0, 0, 0]
        for w in WINDOWS:
            if not theirs & w:
                counts[(mine & w).bit_count()] += 1
        return counts[3], counts[2], counts[1]

    def board_str(self, last: int | None = None, rowcol: bool = False, marks: bool = True) -> str:
        lines = []
        top = self.heights()[last] - 1 if last is not None and 0 <= last < COLUMNS else None
        for r in range(ROWS - 1, -1, -1):
            row = []
            for c in range(COLUMNS):
                who = self.cell(c, r)
                ch = "." if who is None else self.symbols[who]
                if c == last and r == top:
                    ch = ch.lower()
                row.append(ch)
            lines.append("|" + " ".join(row) + "|")
        lines.append(" " + " ".join(str(c + 1) if rowcol else "abcdefg"[c] for c in range(COLUMNS)))
        return "\n".join(lines)

    def _repr_svg_(self) -> str | None:
        """The board as a notebook shows it (plies' own SVG from the board's view, ``plies.draw.boards``)."""
        from plies.draw.boards import board_svg

        return board_svg(self, view=view(self))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, ConnectFourState)
                and (self.red, self.yellow, self._to_move) == (other.red, other.yellow, other._to_move))

    def __hash__(self) -> int:
        return hash((self.red, self.yellow, self._to_move))


def _holes(occupied: int) -> bool:
    """Whether some column has a disc above an empty cell."""
    for c in range(COLUMNS):
        col = (occupied >> (HEIGHT * c)) & ((1 << ROWS) - 1)
        if col & (col + 1):  # not of the form 0...0111: a gap
            return True
    return False


def start() -> ConnectFourState:
    return ConnectFourState()


def looks_like(text: str) -> bool:
    """A bare text that is a Connect Four board and its side to move (42 cells of R, Y or -, then R or Y)."""
    compact = "".join(text.split())
    return len(compact) == CELLS + 1 and bool(re.fullmatch(r"[RrYy.\-_]{42}[RrYy]", compact))


def view(state: State) -> BoardView:
    """The 7x6 board drawn upright (row 0 at the top): a move is played by clicking the cell its disc drops to."""
    assert isinstance(state, ConnectFourState)
    cells = tuple(state.cell(c, ROWS - 1 - r) for r in range(ROWS) for c in range(COLUMNS))
    heights = state.heights()
    clicks = {(ROWS - 1 - heights[c]) * COLUMNS + c: c for c in state.legal_moves()}
    won = next((w for w in WINDOWS for b in (state.red, state.yellow) if b & w == w), 0)
    line = tuple((ROWS - 1 - r) * COLUMNS + c for r in range(ROWS) for c in range(COLUMNS) if won & bit(c, r))
    ranks = tuple(str(ROWS - r) for r in range(ROWS))
    return BoardView("square", ROWS, COLUMNS, cells, clicks, tuple("abcdefg"), ranks,
                     pieces=("red", "yellow"), surface="rack", highlight=tuple(sorted(line)))


def tokens(text: str) -> list[tuple[str, int]]:
    """The columns of a transcript (``dddcce``, ``d d c``, ``4 4 3``), each with its 1-based character position;
    commas, semicolons and full stops between moves are skipped."""
    return [(m.group(0), m.start() + 1) for m in re.finditer(r"[a-gA-G]|[1-7]|\S", text) if m.group(0) not in ",;."]


def order(state: State, moves: list[int]) -> list[int]:
    """The centre columns first (they belong to the most lines of four): a cheap order for alpha-beta."""
    return sorted(moves, key=lambda c: abs(2 * c - (COLUMNS - 1)))


_start, _transcript = one_board(ConnectFourState.start, ConnectFourState.from_transcript)


TYPE = GameType(
    name="connect4", title="Connect Four", start=_start, parse=ConnectFourState.from_text, transcript=_transcript,
    view=view, aliases=("connect-four", "connectfour", "c4", "four"), looks_like=looks_like, result="result",
    line="four in a row", levels=9, hint_depth=lambda state: 6, move_example="d", move_help="a column: a-g, or 1-7",
    tokens=tokens, order=order,
    description="Connect Four on 7x6: discs drop down their column; four in a row wins")


__all__ = ["COLUMNS", "ROWS", "TYPE", "WINDOWS", "ConnectFourState", "four", "start"]
