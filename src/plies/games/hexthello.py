"""HexThello: Othello on a hexagon of radius 7, as the TUC course framework (document 004) plays it.

The board is the course's 15x15 array, row ``i``, column ``j``; a cell is on the board iff ``7 <= i + j <= 21``
(169 cells, rows of 8, 9, ..., 15, ..., 9, 8).  A move is the cell index ``i * 15 + j`` (or ``PASS``) and the
discs are Python-int bitboards over the 225 array cells.  Six directions: (-1,0) (-1,+1) (0,-1) (0,+1) (+1,-1)
(+1,0).  Black (player 0, value 1 on the wire) moves first; a player without a move passes; the game ends
when neither side can move; the score is black discs minus white discs (empty cells count for nobody).

The course's framework can take cells off the board ("to add illegal tiles change ONLY this function":
``initPosition`` in its ``board.c``): such a *hole* (value ILLEGAL, 3, in a 228-byte position) is never
empty, so nobody plays there and a line of discs stops at it.  ``HexThelloState(..., holes=mask)`` keeps them.

Moves are written as the course writes them, ``row col`` (``7 3``), or compactly as two base-15 digits
(``73``, ``7e`` = row 7 column 14, ``e0`` = row 14 column 0); a pass is ``pass`` (``--``).
"""

from __future__ import annotations

import re
from typing import ClassVar

from plies.game import PASS, BoardState, BoardView, GameType, IllegalMoveError, ParseError, State, board_cell, one_board

SIZE = 15
"""Side of the array the course stores the board in."""
RADIUS = 7
CELLS = SIZE * SIZE

ON_BOARD = tuple((i, j) for i in range(SIZE) for j in range(SIZE) if RADIUS <= i + j <= 3 * RADIUS)
"""The 169 (row, col) cells of the hexagon in row-major order (the order of ``to_text``)."""

BOARD_MASK = sum(1 << (i * SIZE + j) for i, j in ON_BOARD)
DIRECTIONS = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))
CORNERS = ((0, 7), (0, 14), (7, 0), (7, 14), (14, 0), (14, 7))

_NOT_COL0 = sum(1 << (i * SIZE + j) for i in range(SIZE) for j in range(1, SIZE))
_NOT_COL14 = sum(1 << (i * SIZE + j) for i in range(SIZE) for j in range(SIZE - 1))
_SHIFTS = tuple(
    (di * SIZE + dj, BOARD_MASK & (_NOT_COL0 if dj > 0 else _NOT_COL14 if dj < 0 else -1))
    for di, dj in DIRECTIONS
)
"""(bit shift, mask of cells a step may land on): the mask stops a step wrapping from column 14 to column 0."""

START_WHITE = ((7, 7), (6, 7), (7, 8), (8, 6))
START_BLACK = ((7, 6), (6, 8), (8, 7))

# Course values on the wire and in 228-byte positions.
WHITE, BLACK, EMPTY, ILLEGAL, OUT_OF_BOUND = 0, 1, 2, 3, 4


def on_board(i: int, j: int) -> bool:
    """True for the 169 cells of the hexagon (row ``i``, column ``j`` of the 15x15 array)."""
    return 0 <= i < SIZE and 0 <= j < SIZE and RADIUS <= i + j <= 3 * RADIUS


def distance(i: int, j: int) -> int:
    """Hex distance of a cell from the centre (7, 7): 0 at the centre, 7 on the rim."""
    q, r = j - RADIUS, i - RADIUS
    return max(abs(q), abs(r), abs(q + r))


def index(i: int, j: int) -> int:
    return i * SIZE + j


def rowcol(move: int) -> tuple[int, int]:
    return divmod(move, SIZE)


def _shift(b: int, s: int, mask: int) -> int:
    return ((b << s) if s > 0 else (b >> -s)) & mask


def legal_mask(own: int, opp: int, holes: int = 0) -> int:
    """Bitmask of the cells where the owner of ``own`` may play (flood fill along the six directions).
    ``holes`` are cells taken off the board (the course's ILLEGAL): nobody plays there and no line crosses them
    (a line stops at any cell that is neither a disc of the opponent's nor an own one)."""
    empty = BOARD_MASK & ~(own | opp | holes)
    moves = 0
    for s, mask in _SHIFTS:
        om = opp & mask
        t = _shift(own, s, om)
        while t:
            nxt = _shift(t, s, mask)
            moves |= nxt & empty
            t = nxt & om
    return moves


def flips(own: int, opp: int, sq: int) -> int:
    """Bitmask of the opponent discs a disc on ``sq`` turns over (0 if the move is not legal)."""
    bit = 1 << sq
    total = 0
    for s, mask in _SHIFTS:
        line = 0
        x = _shift(bit, s, mask)
        while x & opp:
            line |= x
            x = _shift(x, s, mask)
        if x & own:
            total |= line
    return total


def bits(b: int) -> list[int]:
    """Indices of the set bits of ``b``, ascending."""
    out = []
    while b:
        low = b & -b
        out.append(low.bit_length() - 1)
        b ^= low
    return out


_DIGITS = "0123456789abcde"


def compact(move: int) -> str:
    """Two base-15 digits, row then column (``73``, ``7e``); ``--`` for a pass."""
    if move == PASS:
        return "--"
    i, j = rowcol(move)
    return _DIGITS[i] + _DIGITS[j]


def move_text(move: int) -> str:
    """The course's ``row col`` (``7 3``), or ``pass``."""
    if move == PASS:
        return "pass"
    i, j = rowcol(move)
    return f"{i} {j}"


SEPARATOR = ", "
"""Between the moves of a list or a transcript (``7 3, 6 5, pass``): a move has a space in it."""


def moves_text(moves: list[int]) -> str:
    """Moves written the one way plies writes them everywhere: ``7 3, 6 5, pass`` (``from_transcript`` and
    ``plies hexthello show`` read it back)."""
    return SEPARATOR.join(move_text(m) for m in moves)


_ROWCOL = re.compile(r"^\(?\s*(-?\d{1,2})\s*[, ]\s*(-?\d{1,2})\s*\)?$")
_COMPACT = re.compile(r"^([0-9a-eA-E])([0-9a-eA-E])$")
_PASS_WORDS = ("pass", "pa", "--", "null", "-50")


def read_move(text: str) -> int:
    """A move in ``row col``/``(r,c)``/compact form or a pass word, without checking legality; ParseError."""
    t = text.strip().lower()
    if t in _PASS_WORDS or t.startswith("-50 "):
        return PASS
    m = _ROWCOL.match(t)
    if m:
        i, j = int(m.group(1)), int(m.group(2))
    else:
        m = _COMPACT.match(t)
        if not m:
            raise ParseError(f"not a HexThello move: {text!r} (type row and column like '7 3', or 'pass')")
        i, j = _DIGITS.index(m.group(1)), _DIGITS.index(m.group(2))
    if not on_board(i, j):
        raise IllegalMoveError(f"{i} {j} is not on the board (a cell needs 7 <= row + col <= 21)")
    return index(i, j)


class HexThelloState(BoardState):
    """An immutable HexThello position: black and white bitboards over the 15x15 array and the side to move."""

    game: ClassVar[str] = "hexthello"
    player_names: ClassVar[tuple[str, str]] = ("Black", "White")
    symbols: ClassVar[tuple[str, str]] = ("X", "O")

    __slots__ = ("black", "white", "holes", "_to_move", "_moves", "_hash")

    def __init__(self, black: int, white: int, to_move: int = 0, holes: int = 0) -> None:
        if black & white:
            raise ParseError("a cell cannot hold both colours")
        if (black | white | holes) & ~BOARD_MASK:
            raise ParseError("a disc or a hole lies outside the hexagon")
        if (black | white) & holes:
            raise ParseError("a disc lies on a hole")
        self.black = black
        self.white = white
        self.holes = holes
        self._to_move = to_move
        self._moves: list[int] | None = None
        self._hash: int | None = None

    # --- construction -------------------------------------------------------------------------------------
    @classmethod
    def start(cls, holes: int = 0) -> HexThelloState:
        """The framework's start: White on (7,7) (6,7) (7,8) (8,6), Black on (7,6) (6,8) (8,7), Black to move;
        ``holes`` (a mask of cells, see ``read_holes``) are taken off the board."""
        white = sum(1 << index(i, j) for i, j in START_WHITE)
        black = sum(1 << index(i, j) for i, j in START_BLACK)
        if holes & (white | black):
            raise ParseError("a hole cannot be one of the seven start cells")
        return cls(black, white, 0, holes)

    def with_side(self, side: int) -> HexThelloState:
        """The same board with ``side`` to move (the course's clients apply moves by colour, not by turn)."""
        return self if side == self._to_move else HexThelloState(self.black, self.white, side, self.holes)

    @classmethod
    def from_text(cls, text: str) -> HexThelloState:
        """Read ``to_text()`` (169 cells X/O/- in row-major order, then X or O to move), the name ``hexthello``,
        or a transcript of moves from the start (``65 75 --``, or ``7 3, 6 4`` with commas between moves)."""
        t = text.strip()
        if t.lower() in ("hexthello", "hex"):
            return cls.start()
        s = "".join(t.split())
        if len(s) == len(ON_BOARD) + 1 and re.fullmatch(r"[XxOo*B W0.\-_#]+", s):
            return cls._from_board(s)
        return cls.from_transcript(t)

    @classmethod
    def _from_board(cls, s: str) -> HexThelloState:
        black = white = holes = 0
        for (i, j), ch in zip(ON_BOARD, s[:-1], strict=True):
            if ch in "Xx*B":
                black |= 1 << index(i, j)
            elif ch in "OoW0":
                white |= 1 << index(i, j)
            elif ch == "#":
                holes |= 1 << index(i, j)
            elif ch not in ".-_":
                raise ParseError(f"bad cell character {ch!r} (use X, O, - or # for a hole)")
        side = s[-1]
        if side not in "XxOo*BW0":
            raise ParseError(f"bad side to move {side!r} (use X or O)")
        return cls(black, white, 0 if side in "Xx*B" else 1, holes)

    @classmethod
    def from_transcript(cls, text: str, holes: int = 0) -> HexThelloState:
        """Replay moves from the start: compact tokens (``66 56``, or run together ``6656``), or ``row col``
        pairs separated by commas or semicolons (``6 6, 5 6``); forced passes may be left out."""
        state = cls.start(holes)
        for tok, _ in tokens(text):
            move = read_move(tok)
            if move != PASS and state.legal_moves() == [PASS]:
                state = state.play(PASS)
            state = state.play(move)
        return state

    @classmethod
    def from_array(cls, board: bytes | list[int], turn: int) -> HexThelloState:
        """From the course's 225 board values (WHITE 0, BLACK 1, EMPTY 2, ILLEGAL 3 = a hole, OUT_OF_BOUND 4) and
        its turn (WHITE 0 / BLACK 1).  A disc outside the hexagon is a ParseError; so is EMPTY or ILLEGAL
        outside it, where the course writes OUT_OF_BOUND (an ILLEGAL cell outside is accepted: it changes
        nothing)."""
        if len(board) != CELLS:
            raise ParseError(f"a course position has {CELLS} board bytes, got {len(board)}")
        black = white = holes = 0
        for k, v in enumerate(board):
            if v == BLACK:
                black |= 1 << k
            elif v == WHITE:
                white |= 1 << k
            elif v == ILLEGAL:
                holes |= 1 << k
            elif v not in (EMPTY, OUT_OF_BOUND):
                raise ParseError(f"bad cell value {v} at ({k // SIZE}, {k % SIZE})")
        if turn not in (WHITE, BLACK):
            raise ParseError(f"bad turn value {turn}")
        return cls(black & BOARD_MASK, white & BOARD_MASK, 0 if turn == BLACK else 1, holes & BOARD_MASK)

    def to_array(self) -> bytes:
        """The 225 course board values, row-major (OUT_OF_BOUND outside the hexagon, ILLEGAL on a hole)."""
        out = bytearray(CELLS)
        for k in range(CELLS):
            bit = 1 << k
            out[k] = BLACK if self.black & bit else WHITE if self.white & bit else ILLEGAL if self.holes & bit \
                else EMPTY if BOARD_MASK & bit else OUT_OF_BOUND
        return bytes(out)

    # --- the contract -------------------------------------------------------------------------------------
    def own_opp(self) -> tuple[int, int]:
        """(discs of the side to move, discs of the other side)."""
        return (self.black, self.white) if self._to_move == 0 else (self.white, self.black)

    def move_mask(self, player: int | None = None) -> int:
        """Bitmask of the legal cells of ``player`` (default: the side to move)."""
        p = self._to_move if player is None else player
        own, opp = (self.black, self.white) if p == 0 else (self.white, self.black)
        return legal_mask(own, opp, self.holes)

    def legal_moves(self) -> list[int]:
        if self._moves is None:
            own, opp = self.own_opp()
            mine = legal_mask(own, opp, self.holes)
            if mine:
                self._moves = bits(mine)
            elif legal_mask(opp, own, self.holes):
                self._moves = [PASS]
            else:
                self._moves = []
        return self._moves

    def play(self, move: int) -> HexThelloState:
        if move == PASS:
            if self.legal_moves() != [PASS]:
                raise IllegalMoveError(
                    "cannot pass: the game is over" if self.is_over() else "cannot pass while a move exists"
                )
            return HexThelloState(self.black, self.white, 1 - self._to_move, self.holes)
        if not isinstance(move, int) or not 0 <= move < CELLS or not BOARD_MASK >> move & 1:
            raise IllegalMoveError(f"{move!r} is not a cell of the board")
        own, opp = self.own_opp()
        bit = 1 << move
        if self.holes & bit:
            raise IllegalMoveError(f"{move_text(move)} is a hole (taken off the board)")
        if (own | opp) & bit:
            raise IllegalMoveError(f"{move_text(move)} is occupied")
        f = flips(own, opp, move)
        if not f:
            raise IllegalMoveError(f"{move_text(move)} flips nothing")
        own |= bit | f
        opp &= ~f
        if self._to_move == 0:
            return HexThelloState(own, opp, 1, self.holes)
        return HexThelloState(opp, own, 0, self.holes)

    def counts(self) -> tuple[int, int]:
        """(black discs, white discs)."""
        return self.black.bit_count(), self.white.bit_count()

    def empties(self) -> int:
        return len(ON_BOARD) - self.black.bit_count() - self.white.bit_count() - self.holes.bit_count()

    def score(self) -> int:
        """Black discs minus white discs; empty cells count for nobody (the course's rule)."""
        b, w = self.counts()
        return b - w

    def move_str(self, move: int) -> str:
        return move_text(move)

    def parse_move(self, text: str) -> int:
        """``7 3``, ``(7,3)``, compact ``73``/``7e``, ``pass``; the legality is checked with the reason."""
        move = read_move(text)
        if move == PASS:
            if self.legal_moves() != [PASS]:
                raise IllegalMoveError("cannot pass while a move exists" if not self.is_over() else "game over")
            return PASS
        if move not in self.legal_moves():
            self.play(move)  # raises with the precise reason
            raise IllegalMoveError(f"{move_text(move)} is not a legal move")  # pragma: no cover
        return move

    def to_text(self) -> str:
        cells = []
        for i, j in ON_BOARD:
            bit = 1 << index(i, j)
            cells.append("X" if self.black & bit else "O" if self.white & bit else "#" if self.holes & bit else "-")
        return "".join(cells) + " " + self.symbols[self._to_move]

    # --- drawing ------------------------------------------------------------------------------------------
    def board_str(self, last: int | None = None, rowcol: bool = True, marks: bool = True) -> str:
        """A hexagonal drawing: one line per array row with its number on the left and its first and last
        column on the right; X black, O white, ``.`` empty, ``#`` a hole, ``+`` a legal move, lower case the
        last move."""
        legal = self.move_mask() if marks and not self.is_over() else 0
        lines = ["row" + " " * 27 + "columns"]
        for i in range(SIZE):
            j0, j1 = max(0, RADIUS - i), min(SIZE - 1, 3 * RADIUS - i)
            row = []
            for j in range(j0, j1 + 1):
                sq = index(i, j)
                bit = 1 << sq
                ch = "X" if self.black & bit else "O" if self.white & bit else "#" if self.holes & bit \
                    else "+" if legal & bit else "."
                if sq == last and ch in "XO":
                    ch = ch.lower()
                row.append(ch)
            lines.append(f"{i:>3} " + " " * abs(RADIUS - i) + " ".join(row) + " " * abs(RADIUS - i)
                         + f"  {j0}..{j1}")
        b, w = self.counts()
        lines.append(f"Score X(Black)={b} O(White)={w}   {self.player_names[self._to_move]} to move"
                     if not self.is_over() else f"Score X(Black)={b} O(White)={w}   game over")
        return "\n".join(lines)

    def __getitem__(self, cell: tuple[int, int]) -> int | None:
        """Who holds ``state[i, j]``, row ``i`` and column ``j`` of the course's 15x15 array: 0 Black (X), 1 White
        (O), None for an empty cell or a hole; IndexError for a cell outside the hexagon."""
        i, j = board_cell(cell, SIZE, SIZE)
        if not on_board(i, j):
            raise IndexError(f"({i}, {j}) is outside the hexagon: a cell needs {RADIUS} <= row + col <= "
                             f"{3 * RADIUS}")
        bit = 1 << (i * SIZE + j)
        return 0 if self.black & bit else 1 if self.white & bit else None

    def board(self) -> list[list[str]]:
        """The course's 15x15 array as rows of ``'X'`` (Black), ``'O'`` (White), ``' '`` (empty) and ``'#'``
        (outside the hexagon, or a hole).  A new list every call."""
        out = []
        for i in range(SIZE):
            row = []
            for j in range(SIZE):
                bit = 1 << (i * SIZE + j)
                row.append("#" if not on_board(i, j) or self.holes & bit else
                           "X" if self.black & bit else "O" if self.white & bit else " ")
            out.append(row)
        return out

    # --- identity -----------------------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, HexThelloState)
            and self.black == other.black
            and self.white == other.white
            and self._to_move == other._to_move
            and self.holes == other.holes
        )

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self.black, self.white, self._to_move, self.holes, "hex"))
        return self._hash


def start() -> HexThelloState:
    """The HexThello start position."""
    return HexThelloState.start()


def read_holes(text: str) -> int:
    """A mask of hole cells from ``'7 3, 5 9'`` (``row col`` pairs separated by commas or semicolons) or
    compact cells (``73 59``); ParseError for a cell off the hexagon or one of the seven start cells."""
    t = text.strip()
    if not t:
        return 0
    if re.search(r"[,;]", t):
        tokens = [p for p in re.split(r"[,;]", t) if p.strip()]
    else:
        words = t.split()
        if all(w.lstrip("-").isdigit() for w in words) and any(len(w) == 1 for w in words) and len(words) % 2 == 0:
            tokens = [f"{words[k]} {words[k + 1]}" for k in range(0, len(words), 2)]
        else:
            tokens = words
    holes = 0
    for tok in tokens:
        try:
            move = read_move(tok)
        except IllegalMoveError as e:
            raise ParseError(f"hole {tok.strip()!r}: {e}") from None
        if move == PASS:
            raise ParseError(f"hole {tok.strip()!r} is not a cell")
        holes |= 1 << move
    start_cells = sum(1 << index(i, j) for i, j in START_WHITE + START_BLACK)
    if holes & start_cells:
        raise ParseError("a hole cannot be one of the seven start cells: "
                         + ", ".join(move_text(m) for m in bits(holes & start_cells)))
    return holes


def perft_hex(own: int, opp: int, depth: int, passed: bool = False) -> int:
    """Leaf count ``depth`` plies below a position on raw bitboards (a forced pass is a ply)."""
    if depth == 0:
        return 1
    moves = legal_mask(own, opp)
    if not moves:
        if passed or not legal_mask(opp, own):
            return 1
        return perft_hex(opp, own, depth - 1, True)
    if depth == 1:
        return moves.bit_count()
    total = 0
    for sq in bits(moves):
        f = flips(own, opp, sq)
        total += perft_hex(opp & ~f, own | f | (1 << sq), depth - 1)
    return total


def looks_like(text: str) -> bool:
    """A bare text that is a HexThello board and its side to move (169 cells and X or O, as ``to_text``)."""
    compact = "".join(text.split())
    return len(compact) == len(ON_BOARD) + 1 and bool(re.fullmatch(r"[XxOo*BW0.\-_#]+", compact))


ON_BOARD_INDICES = tuple(index(i, j) for i, j in ON_BOARD)


def tokens(text: str) -> list[tuple[str, int]]:
    """The moves of a transcript, each with its 1-based character position: ``7 3, 6 5`` (row and column, commas
    or semicolons between moves), ``7 3 6 5`` (pairs of numbers), compact ``73 65`` or run together ``7365``."""
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
        return [(f"{words[k][0]} {words[k + 1][0]}", words[k][1]) for k in range(0, len(words), 2)]  # row col pairs
    if len(words) == 1 and len(words[0][0]) % 2 == 0 and len(words[0][0]) > 2:
        w, at = words[0]
        return [(w[k:k + 2], at + k) for k in range(0, len(w), 2)]
    return words


def view(state: State) -> BoardView:
    """The hexagon in the course's 15x15 array: its 169 cells, their discs, the holes."""
    assert isinstance(state, HexThelloState)
    cells: list[int | None] = [None] * CELLS
    for sq in ON_BOARD_INDICES:
        bit = 1 << sq
        cells[sq] = (0 if state.black & bit else 1 if state.white & bit
                     else BoardView.HOLE if state.holes & bit else None)
    clicks = {m: m for m in state.legal_moves() if m != PASS}
    labels = tuple(str(k) for k in range(SIZE))
    return BoardView("hex", SIZE, SIZE, tuple(cells), clicks, labels, labels, ON_BOARD_INDICES)


def _engine(state: State) -> str | None:
    from plies.games.othello import compiled

    return "hexengine" if compiled() else None


_start, _transcript = one_board(HexThelloState.start, HexThelloState.from_transcript)


TYPE = GameType(
    name="hexthello", title="HexThello", start=_start, parse=HexThelloState.from_text, transcript=_transcript,
    view=view, aliases=("hex",), looks_like=looks_like, result="discs", engine=_engine, levels=11, exact_empties=7,
    move_example="7 3", move_help="row and column, like 7 3", separator=", ", passes=True, tokens=tokens,
    description="Othello on a hexagon of 169 cells (the TUC course framework, document 004)")


def _register() -> None:
    import importlib
    import sys

    # works both when plies.games imports this module at its end and when this module is imported first
    games = sys.modules.get("plies.games") or importlib.import_module("plies.games")
    games.register_type(TYPE)


_register()

__all__ = [
    "BLACK", "BOARD_MASK", "CORNERS", "DIRECTIONS", "EMPTY", "ILLEGAL", "ON_BOARD", "OUT_OF_BOUND", "SIZE", "WHITE",
    "HexThelloState", "bits", "compact", "flips", "legal_mask", "move_text", "perft_hex", "read_holes", "read_move",
    "start",
    "SEPARATOR", "moves_text", "tokens",
]
