"""Othello (Reversi) on an n x n board (even n, 4..10; 8 by default), on Python-int bitboards.

Squares are numbered row by row from a1: index = row * n + col, row 0 is rank 1 (top), col 0 is file a.
So ``d3`` is row 2, col 3, which is also document 000's 0-based ``2 3``.  Black (X, ``*``) is player 0 and
moves first; White (O) is player 1.  A player without a move passes (the explicit ``PASS`` move); the game
ends when neither side can move.  The final score gives the empty squares to the winner (the FFO convention).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from functools import cache, partial
from typing import ClassVar, NamedTuple

from plies.game import PASS, BoardState, BoardView, GameType, IllegalMoveError, ParseError, State, board_cell
from plies.i18n import _

LAYOUTS = ("standard", "doc000")
"""Start layouts: the standard one (White d4 e5), and document 000's mirror (X = Black on d4 e5, X first)."""


@cache
def geometry(n: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """(full-board mask, ((shift, destination mask) for the 8 directions)) of an n x n board."""
    full = (1 << (n * n)) - 1
    not_col0 = sum(1 << (r * n + c) for r in range(n) for c in range(1, n))
    not_coln = sum(1 << (r * n + c) for r in range(n) for c in range(n - 1))
    dirs = (
        (1, not_col0),          # east: landing square is never in column a
        (-1, not_coln),         # west
        (n, full),              # south (down the drawing: rank + 1)
        (-n, full),             # north
        (n + 1, not_col0),      # south-east
        (n - 1, not_coln),      # south-west
        (-n + 1, not_col0),     # north-east
        (-n - 1, not_coln),     # north-west
    )
    return full, dirs


def _shift(b: int, s: int, mask: int) -> int:
    return ((b << s) if s > 0 else (b >> -s)) & mask


@cache
def _split_dirs(n: int) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """The 8 directions split into left shifts and right shifts (so the hot loops need no branch per step)."""
    _size, dirs = geometry(n)
    return tuple((s, m) for s, m in dirs if s > 0), tuple((-s, m) for s, m in dirs if s < 0)


def legal_mask(own: int, opp: int, n: int) -> int:
    """Bitmask of the squares where the side owning ``own`` may play (flood fill in each direction)."""
    full = (1 << (n * n)) - 1
    empty = full & ~(own | opp)
    left, right = _split_dirs(n)
    moves = 0
    for s, mask in left:
        om = opp & mask
        t = (own << s) & om
        while t:
            t <<= s
            moves |= t & empty & mask
            t &= om
    for s, mask in right:
        om = opp & mask
        t = (own >> s) & om
        while t:
            t >>= s
            moves |= t & empty & mask
            t &= om
    return moves


def has_move(own: int, opp: int, n: int) -> bool:
    """Whether the side owning ``own`` has any legal move (stops at the first direction that has one)."""
    empty = ((1 << (n * n)) - 1) & ~(own | opp)
    left, right = _split_dirs(n)
    for s, mask in left:
        om = opp & mask
        t = (own << s) & om
        while t:
            t <<= s
            if t & empty & mask:
                return True
            t &= om
    for s, mask in right:
        om = opp & mask
        t = (own >> s) & om
        while t:
            t >>= s
            if t & empty & mask:
                return True
            t &= om
    return False


class Rules(NamedTuple):
    """The move generation of one board size, on (own, opp) bitboards of the side to move and the other side.

    ``legal(own, opp)``: legal squares; ``flips(own, opp, sq)``: discs turned over (``sq`` empty);
    ``play(own, opp, sq)`` for a square on the board: (own discs after the move, opponent discs after, the
    opponent's legal squares then, or -1 where these rules leave them to be found when asked), or (0, 0, ...)
    when the move is illegal.
    """

    legal: Callable[[int, int], int]
    flips: Callable[[int, int, int], int]
    play: Callable[[int, int, int], tuple[int, int, int]]


def play_move(n: int, own: int, opp: int, sq: int) -> tuple[int, int, int]:
    """``Rules.play`` in pure Python: the boards after ``sq`` (the opponent's moves are left to find: -1)."""
    bit = 1 << sq
    f = 0 if (own | opp) & bit else flips(own, opp, sq, n)
    if not f:
        return 0, 0, -1
    return own | f | bit, opp ^ f, -1


class _RulesBySize(dict[int, Rules]):
    """board size -> ``Rules``, each made on first use."""

    def __missing__(self, n: int) -> Rules:
        rules = Rules(partial(legal_mask, n=n), partial(flips, n=n), partial(play_move, n))
        if n == 8 and not os.environ.get("PLIES_PURE_PYTHON"):
            try:
                from plies.games.othello_kernels import flips8, legal_mask8, play8
            except ImportError:  # pragma: no cover - compiled core not built: stay pure Python
                pass
            else:
                rules = Rules(legal_mask8, flips8, play8)
        self[n] = rules
        return rules


_RULES = _RulesBySize()


def rules_for(n: int) -> Rules:
    """The ``Rules`` of an n x n board.

    8x8 uses the compiled kernels of ``othello_kernels`` (loaded on first use; set PLIES_PURE_PYTHON=1 to keep
    the pure-Python functions of this module, which are the reference and serve every other size).
    """
    return _RULES[n]


@cache
def rays(n: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For every square, the bit sequences of its rays (8 directions, only rays of 2+ squares)."""
    out = []
    for sq in range(n * n):
        r, c = divmod(sq, n)
        square_rays = []
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            ray, rr, cc = [], r + dr, c + dc
            while 0 <= rr < n and 0 <= cc < n:
                ray.append(1 << (rr * n + cc))
                rr, cc = rr + dr, cc + dc
            if len(ray) >= 2:
                square_rays.append(tuple(ray))
        out.append(tuple(square_rays))
    return tuple(out)


def flips(own: int, opp: int, sq: int, n: int) -> int:
    """Bitmask of the opponent discs that a disc placed on ``sq`` would turn over (0 if none).

    Walks each ray from the square: a run of opponent discs closed by an own disc flips.
    """
    total = 0
    for ray in rays(n)[sq]:
        if not ray[0] & opp:
            continue
        line = ray[0]
        for b in ray[1:]:
            if b & opp:
                line |= b
            elif b & own:
                total |= line
                break
            else:
                break
    return total


_BYTE_BITS = tuple(tuple(tuple(8 * i + j for j in range(8) if v >> j & 1) for v in range(256)) for i in range(16))
"""``_BYTE_BITS[i][v]``: the set bits of byte value ``v`` at byte ``i`` of a bitboard, as square indices."""


def bits(b: int) -> list[int]:
    """Indices of the set bits of ``b`` (a board of at most 128 squares), ascending; a byte at a time, by table."""
    size = (b.bit_length() + 7) >> 3
    if size > len(_BYTE_BITS):
        raise ValueError("bits() reads boards of at most 128 squares")
    out: list[int] = []
    for squares, byte in zip(_BYTE_BITS, b.to_bytes(size, "little"), strict=False):
        out += squares[byte]
    return out


def square_name(sq: int, n: int = 8) -> str:
    """``d3`` for index 19 on 8x8 (file letter, rank number from 1)."""
    r, c = divmod(sq, n)
    return f"{chr(97 + c)}{r + 1}"


_SQUARE_RE = re.compile(r"([a-jA-J])(10|[1-9])")
_ROWCOL_RE = re.compile(r"^\s*(\d+)\s*[, ]\s*(\d+)\s*$|^\s*\(\s*(\d+)\s*[, ]\s*(\d+)\s*\)\s*$")
BLACK_CHARS = "X*xB"
WHITE_CHARS = "OoW0"
EMPTY_CHARS = "-.eE_"


class OthelloState(BoardState):
    """An immutable Othello position: discs of both colours, the side to move, the board size."""

    game: ClassVar[str] = "othello"
    player_names: ClassVar[tuple[str, str]] = ("Black", "White")
    symbols: ClassVar[tuple[str, str]] = ("X", "O")

    __slots__ = ("black", "white", "_to_move", "n", "_mask", "_moves", "_hash")

    def __init__(self, black: int, white: int, to_move: int = 0, n: int = 8) -> None:
        if n % 2 or not 4 <= n <= 10:
            raise ParseError(f"Othello boards are n x n with even n from 4 to 10, not {n}")
        if black & white:
            raise ParseError("a square cannot hold both colours")
        self.black = black
        self.white = white
        self._to_move = to_move
        self.n = n
        self._mask = -1  # legal squares of the side to move, once known (-1: not yet)
        self._moves: list[int] | None = None
        self._hash: int | None = None

    # --- construction -------------------------------------------------------------------------------------
    @classmethod
    def start(cls, n: int = 8, layout: str = "standard") -> OthelloState:
        """The start position: White on d4/e5 (standard) or, with layout ``doc000``, Black (X) on d4/e5."""
        if layout not in LAYOUTS:
            raise ParseError(f"unknown layout {layout!r}; use one of: {', '.join(LAYOUTS)}")
        if n % 2 or not 4 <= n <= 10:
            raise ParseError(f"Othello boards are n x n with even n from 4 to 10, not {n}")
        h = n // 2
        diag = (1 << ((h - 1) * n + h - 1)) | (1 << (h * n + h))
        anti = (1 << ((h - 1) * n + h)) | (1 << (h * n + h - 1))
        if layout == "standard":
            return cls(anti, diag, 0, n)
        return cls(diag, anti, 0, n)

    @classmethod
    def from_text(cls, text: str) -> OthelloState:
        """Parse ``n*n`` board characters (X/* black, O white, -/. empty) and the side to move (X or O)."""
        s = "".join(text.split())
        n = 0
        for k in (4, 6, 8, 10):
            if len(s) == k * k + 1:
                n = k
        if not n:
            raise ParseError(
                f"an Othello position is 64 board characters and the side to move (65 in all), got {len(s)}"
            )
        black = white = 0
        for i, ch in enumerate(s[:-1]):
            if ch in BLACK_CHARS:
                black |= 1 << i
            elif ch in WHITE_CHARS:
                white |= 1 << i
            elif ch not in EMPTY_CHARS:
                raise ParseError(f"bad board character {ch!r} at position {i + 1} (use X, O or -)")
        side = s[-1]
        if side in BLACK_CHARS:
            to_move = 0
        elif side in WHITE_CHARS:
            to_move = 1
        else:
            raise ParseError(f"bad side to move {side!r} (use X or O)")
        return cls(black, white, to_move, n)

    @classmethod
    def from_transcript(cls, moves: str, n: int = 8, layout: str = "standard") -> OthelloState:
        """Replay a transcript such as ``f5d6c3`` from the start (passes implicit, ``pass``/``PA`` allowed)."""
        state = cls.start(n, layout)
        for token in transcript_tokens(moves):
            if token == "pass":
                state = state.play(PASS)
                continue
            if state.legal_moves() == [PASS]:
                state = state.play(PASS)
            state = state.play(state.parse_move(token))
        return state

    # --- the contract -------------------------------------------------------------------------------------
    def own_opp(self) -> tuple[int, int]:
        """(discs of the side to move, discs of the other side)."""
        return (self.black, self.white) if self._to_move == 0 else (self.white, self.black)

    def move_mask(self, player: int | None = None) -> int:
        """Bitmask of the legal squares of ``player`` (default: the side to move), passes not included."""
        p = self._to_move if player is None else player
        own, opp = (self.black, self.white) if p == 0 else (self.white, self.black)
        return _RULES[self.n].legal(own, opp)

    def legal_moves(self) -> list[int]:
        """Squares of the side to move, ascending; ``[PASS]`` when it must pass; ``[]`` at the end (a copy)."""
        if self._moves is None:
            own, opp = self.own_opp()
            rules = _RULES[self.n]
            if self._mask < 0:
                self._mask = rules.legal(own, opp)
            if self._mask:
                self._moves = bits(self._mask)
            elif rules.legal(opp, own):
                self._moves = [PASS]
            else:
                self._moves = []
        return self._moves.copy()

    def is_over(self) -> bool:
        """Neither side can move (cheaper than listing the moves: stops at the first move found)."""
        if self._mask > 0:  # the side to move has a move (on 8x8 known since the move that made this state)
            return False
        if self._moves is not None:
            return not self._moves
        if self._to_move == 0:
            own, opp = self.black, self.white
        else:
            own, opp = self.white, self.black
        return not (has_move(own, opp, self.n) or has_move(opp, own, self.n))

    def play(self, move: int) -> OthelloState:
        """The position after ``move``.  One call of the rules does the move; on 8x8 it also finds the next
        player's legal squares, which the new state keeps for its game-over test and its move list."""
        n = self.n
        if type(move) is int and 0 <= move < n * n:
            play = _RULES[n].play
            if self._to_move == 0:
                black, white, mask = play(self.black, self.white, move)
                if black:
                    return _make(black, white, 1, n, mask)
            else:
                white, black, mask = play(self.white, self.black, move)
                if white:
                    return _make(black, white, 0, n, mask)
            if (self.black | self.white) >> move & 1:
                raise IllegalMoveError(_("{square} is occupied").format(square=square_name(move, n)))
            raise IllegalMoveError(_("{square} flips nothing").format(square=square_name(move, n)))
        if move == PASS:
            if self.legal_moves() != [PASS]:
                raise IllegalMoveError(
                    _("cannot pass: the game is over") if self.is_over() else _("cannot pass while a move exists")
                )
            return _make(self.black, self.white, 1 - self._to_move, n)
        raise IllegalMoveError(_("{square} is off the board").format(square=repr(move)))

    def counts(self) -> tuple[int, int]:
        """(black discs, white discs)."""
        return self.black.bit_count(), self.white.bit_count()

    def empties(self) -> int:
        return self.n * self.n - self.black.bit_count() - self.white.bit_count()

    def score(self) -> int:
        """Black's disc difference, empty squares going to the winner (exact for a finished game)."""
        b, w = self.counts()
        d = b - w
        if d > 0:
            d += self.empties()
        elif d < 0:
            d -= self.empties()
        return d

    def move_str(self, move: int) -> str:
        return "pass" if move == PASS else square_name(move, self.n)

    def parse_move(self, text: str) -> int:
        """``d3``, ``D3``, document 000's ``2 3`` (row col, 0-based), ``(2,3)``, ``pass``/``PA``; legality checked."""
        t = text.strip()
        if t.lower() in ("pass", "pa", "ps", "--", "@@"):
            if self.legal_moves() != [PASS]:
                raise IllegalMoveError(_("cannot pass while a move exists") if not self.is_over() else _("game over"))
            return PASS
        n = self.n
        m = _SQUARE_RE.fullmatch(t)
        if m:
            c = ord(m.group(1).lower()) - 97
            r = int(m.group(2)) - 1
        else:
            rc = _ROWCOL_RE.match(t)
            if not rc:
                if re.fullmatch(r"[a-zA-Z]\d{1,2}", t):  # a letter and a number: a square, but off this board
                    raise IllegalMoveError(_("{square} is off the board").format(square=t))
                raise ParseError(_("not a move: {text} (type a square like d3, or row and column counted from 0 "
                                   "like 2 3)").format(text=repr(text)))
            r, c = (int(g) for g in (rc.group(1) or rc.group(3), rc.group(2) or rc.group(4)))
        if not (0 <= r < n and 0 <= c < n):
            raise IllegalMoveError(_("{square} is off the board").format(square=t))
        sq = r * n + c
        if sq not in self.legal_moves():
            self.play(sq)  # raises with the precise reason (occupied / flips nothing)
            raise IllegalMoveError(f"{square_name(sq, n)} is not a legal move")  # pragma: no cover
        return sq

    def to_text(self) -> str:
        cells = []
        for i in range(self.n * self.n):
            bit = 1 << i
            cells.append("X" if self.black & bit else "O" if self.white & bit else "-")
        return "".join(cells) + " " + self.symbols[self._to_move]

    # --- drawing ------------------------------------------------------------------------------------------
    def board_str(self, last: int | None = None, rowcol: bool = False, marks: bool = True) -> str:
        """Document 000's drawing: coordinates on top and left, ``|X|`` cells, then ``Score X=.. O=..``.

        ``rowcol`` numbers rows and columns from 0 as document 000 does; otherwise files a-h and ranks 1-8.
        Legal moves of the side to move show as ``.`` and the last move's disc in lower case.
        """
        n = self.n
        legal = self.move_mask() if marks else 0
        head = "   " + " ".join(str(c) if rowcol else chr(97 + c) for c in range(n))
        lines = [head]
        for r in range(n):
            row = []
            for c in range(n):
                sq = r * n + c
                bit = 1 << sq
                ch = "X" if self.black & bit else "O" if self.white & bit else "." if legal & bit else " "
                if sq == last and ch in "XO":
                    ch = ch.lower()
                row.append(ch)
            label = r if rowcol else r + 1
            lines.append(f"{label:>2}|" + "|".join(row) + "|")
        b, w = self.counts()
        lines.append(_("Score X={black} O={white}").format(black=b, white=w))
        return "\n".join(lines)

    def __getitem__(self, cell: tuple[int, int]) -> int | None:
        """Who holds ``state[row, col]`` (0-based, row 0 on top, as the lab notes count): 0 Black (X), 1 White
        (O), None for an empty square.  ``state[3, 4]`` is e4."""
        r, c = board_cell(cell, self.n, self.n)
        bit = 1 << (r * self.n + c)
        return 0 if self.black & bit else 1 if self.white & bit else None

    def board(self) -> list[list[str]]:
        """The board as the lab notes keep it: ``n`` rows of ``'X'`` (Black), ``'O'`` (White) and ``' '``
        (empty), row 0 on top; ``state.board()[3][4]`` is e4.  A new list every call (changing it changes
        nothing)."""
        return [[" " if v is None else self.symbols[v] for v in (self[r, c] for c in range(self.n))]
                for r in range(self.n)]

    # --- identity -----------------------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, OthelloState)
            and self.black == other.black
            and self.white == other.white
            and self._to_move == other._to_move
            and self.n == other.n
        )

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self.black, self.white, self._to_move, self.n))
        return self._hash


def _make(black: int, white: int, to_move: int, n: int, mask: int = -1) -> OthelloState:
    """A new state without re-validation (for play(): its inputs are already known to be consistent), with the
    legal squares of the side to move when known (else -1)."""
    s = _new_state(OthelloState)
    s.black = black
    s.white = white
    s._to_move = to_move
    s.n = n
    s._mask = mask
    s._moves = None
    s._hash = None
    return s


_new_state = object.__new__


def transcript_tokens(text: str) -> list[str]:
    """Split ``f5d6c3``, ``F5 D6 C3``, ``1. F5 f4 2. ...`` into lower-case squares and ``pass`` tokens."""
    t = re.sub(r"\d+\.", " ", text)  # move numbers of the PlayOK form
    out: list[str] = []
    pos = 0
    t = t.strip()
    while pos < len(t):
        if t[pos] in " \t\n,;":
            pos += 1
            continue
        low = t[pos : pos + 4].lower()
        if low == "pass":
            out.append("pass")
            pos += 4
            continue
        if t[pos : pos + 2].lower() in ("pa", "ps", "--", "@@"):
            out.append("pass")
            pos += 2
            continue
        m = _SQUARE_RE.match(t, pos)
        if not m:
            raise ParseError(f"bad transcript at character {pos + 1}: {t[pos:pos + 6]!r}")
        # prefer a one-digit rank unless the two-digit one is "10"
        out.append(m.group(0).lower())
        pos = m.end()
    return out


def start(n: int = 8, layout: str = "standard") -> OthelloState:
    """The Othello start position (see ``OthelloState.start``)."""
    return OthelloState.start(n, layout)


BOARD_SQUARES = (16, 36, 64, 100)
"""The boards a position text may give, square by square (4x4 to 10x10)."""
_BOARD_TEXT = re.compile(r"[XxOo0*.\-_BWeE]+")


def board_side_error(t: str) -> None:
    """ParseError naming what is missing when ``t`` is an Othello board without a side to move, or with one that
    is neither X nor O (the generic message would quote only its first 40 squares)."""
    tokens = t.split()
    for board, side in (("".join(tokens), None), ("".join(tokens[:-1]), tokens[-1] if len(tokens) > 1 else None)):
        if len(board) in BOARD_SQUARES and _BOARD_TEXT.fullmatch(board):
            if side is None:
                raise ParseError(f"a board of {len(board)} squares needs the side to move after it: X or O")
            raise ParseError(f"the side to move after the board must be X or O, not {side!r}")


def looks_like(text: str) -> bool:
    """A bare text that is an Othello board and its side to move (what ``to_text`` writes)."""
    compact = "".join(text.split())
    return len(compact) - 1 in BOARD_SQUARES and bool(_BOARD_TEXT.fullmatch(compact))


def view(state: State) -> BoardView:
    """The board as every front-end draws it: n x n squares, a1 top left, each square's disc."""
    assert isinstance(state, OthelloState)
    n = state.n
    cells = tuple(0 if state.black >> i & 1 else 1 if state.white >> i & 1 else None for i in range(n * n))
    clicks = {m: m for m in state.legal_moves() if m != PASS}
    stars = ((2, 2), (2, 6), (6, 2), (6, 6)) if n == 8 else ()
    return BoardView("square", n, n, cells, clicks, tuple(chr(97 + c) for c in range(n)),
                     tuple(str(r + 1) for r in range(n)), stars=stars)


def _start(size: int | None, layout: str = "standard") -> OthelloState:
    return OthelloState.start(size or 8, layout)


def _transcript(text: str, size: int | None, layout: str = "standard") -> OthelloState:
    return OthelloState.from_transcript(text, size or 8, layout)


def _engine(state: State) -> str | None:
    """The compiled engine plays 8x8 Othello (where plies was built with its compiled core)."""
    return "engine" if getattr(state, "n", 8) == 8 and compiled() else None


def compiled() -> bool:
    """Whether plies' compiled core loads here (it is not built where plies was installed without a C compiler)."""
    try:
        import plies.core  # noqa: F401
    except ImportError:
        return False
    return True


def _hint_depth(state: State) -> int:
    return 4 if getattr(state, "n", 8) <= 6 else 3


PASS_WORDS = ("pass", "pa", "ps", "--", "@@")
"""How a transcript may write a pass."""
_MOVE_NUMBER = re.compile(r"\d+\.+")


def tokens(text: str) -> list[tuple[str, int]]:
    """The moves of a transcript (``f5d6c3``, ``F5 D6 C3``, PlayOK's ``1. F5 f4 2. E3``; passes as ``pass``, ``PA``,
    ``--`` ...) in lower case, each with its 1-based character position; ParseError at the first character that is
    not a move.  The same tokens as the located reader of Othello files (``plies.formats.transcript``)."""
    out: list[tuple[str, int]] = []
    pos = 0
    while pos < len(text):
        if text[pos] in " \t\r\n,;":
            pos += 1
            continue
        num = _MOVE_NUMBER.match(text, pos)
        if num and (pos == 0 or not text[pos - 1].isalpha()):  # a move number, not the rank of a square
            pos = num.end()
            continue
        if text[pos:pos + 4].lower() == "pass":
            out.append(("pass", pos + 1))
            pos += 4
            continue
        if text[pos:pos + 2].lower() in PASS_WORDS:
            out.append(("pass", pos + 1))
            pos += 2
            continue
        m = _SQUARE_RE.match(text, pos)
        if not m:
            column = pos - (text.rfind("\n", 0, pos) + 1) + 1
            raise ParseError(f"cannot read the transcript at character {column}: not a move: {text[pos:pos + 6]!r} "
                             "(moves look like f5; passes like pass)")
        out.append((m.group(0).lower(), pos + 1))
        pos = m.end()
    return out


@cache
def square_weights(n: int) -> tuple[int, ...]:
    """The classic weighted-squares table of an n x n board, index ``row * n + col``: corner 100, C-square -20,
    A-square 10, B-square 5, X-square -50, the rest of the second ring -2, inside it -1.  The weighted-squares
    heuristic sums it; the textbook alpha-beta tries the best squares first by it (``order``)."""
    out = []
    for r in range(n):
        for c in range(n):
            ring = min(r, c, n - 1 - r, n - 1 - c)
            if ring == 0:
                k = min(c, n - 1 - c) if r in (0, n - 1) else min(r, n - 1 - r)  # steps along the edge to a corner
                out.append((100, -20, 10)[k] if k < 3 else 5)
            elif ring == 1:
                out.append(-50 if r in (1, n - 2) and c in (1, n - 2) else -2)
            else:
                out.append(-1)
    return tuple(out)


def order(state: State, moves: list[int]) -> list[int]:
    """The moves on the best squares of the weighted-squares table first (corners, then edges ...): a cheap order
    that gives the textbook alpha-beta more cut-offs."""
    assert isinstance(state, OthelloState)
    weights = square_weights(state.n)
    return sorted(moves, key=lambda m: -weights[m] if m != PASS else 0)


TYPE = GameType(
    name="othello", title="Othello", start=_start, parse=OthelloState.from_text, transcript=_transcript,
    view=view, aliases=("reversi",), sizes=(4, 6, 10), layouts=("standard", "doc000"), looks_like=looks_like,
    result="discs", engine=_engine, levels=11, exact_empties=8, hint_depth=_hint_depth, rowcol=True,
    move_example="d3", move_help="d3, or row and column counted from 0 like '2 3' (that is d3)", passes=True,
    tokens=tokens, order=order,
    description="8x8 (or 4x4 to 10x10) Othello: discs flank and turn, a player without a move passes")
