"""The game contract every plies game obeys (OpenSpiel-style, python-chess-readable).

A game is a factory of immutable, hashable states.  Players are numbered 0 (moves first: MAX, Black, X) and
1 (White, O).  Moves are ints (a square, a column, a child's number); a pass is an explicit move in the
games that have passes.  Every search, player and front-end talks to games only through this module.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from plies.i18n import _

Move = int
"""A move of some game: every game's moves are ints (a square or column index, a child's number, or ``PASS``)."""

PASS = -1
"""The explicit pass move used by games where a player without a move must pass."""

WIN = 1_000_000
"""Search value of a won finished game before its margin is added: any win outranks any heuristic value."""


class PliesError(Exception):
    """Base of every error a user can cause; front-ends print its message as one line."""


class ParseError(PliesError, ValueError):
    """Text that does not describe a position, move, tree or file."""


class IllegalMoveError(PliesError, ValueError):
    """A well-formed move that the rules do not allow in this position; the message says why."""


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game: winner (0, 1 or None for a draw) and score from player 0's view."""

    winner: int | None
    score: float

    def describe(self, names: Sequence[str]) -> str:
        if self.winner is None:
            return _("Draw")
        margin = abs(self.score)
        if margin in (0, 1):
            return _("{name} wins").format(name=names[self.winner])
        return _("{name} wins by {margin}").format(name=names[self.winner], margin=f"{margin:g}")


def terminal_value(score: float) -> float:
    """Search value of a finished game with exact ``score`` (for the player it is computed for).

    Wins and losses are pushed past every heuristic value (±WIN) while keeping the margin, so a search prefers
    a sure win to any evaluation, and a bigger win to a smaller one.
    """
    if score > 0:
        return WIN + score
    if score < 0:
        return -WIN + score
    return 0


def describe_value(value: float) -> str:
    """Human reading of a search value: ``win by 38``/``loss by 2`` for decided games, else the number."""
    if value >= WIN:
        return f"win by {value - WIN:g}"
    if value <= -WIN:
        return f"loss by {-WIN - value:g}"
    return f"{value:g}"


def board_cell(key: object, rows: int, cols: int) -> tuple[int, int]:
    """``(row, col)`` of ``state[row, col]``, 0-based as the lab notes count; TypeError for another key,
    IndexError (saying the board's size) for a cell off the board.  Negative numbers are not counted from
    the end: a board has no cell -1."""
    if not (isinstance(key, tuple) and len(key) == 2 and all(isinstance(k, int) and not isinstance(k, bool)
                                                              for k in key)):
        raise TypeError(f"a cell is state[row, col] with two whole numbers, not {key!r}")
    r, c = key
    if not (0 <= r < rows and 0 <= c < cols):
        raise IndexError(f"({r}, {c}) is off the board: rows 0-{rows - 1}, columns 0-{cols - 1}")
    return r, c


class State(ABC):
    """One immutable position of a game.

    Subclasses implement the abstract methods; everything else (``is_over``, ``outcome``, ``utility``) follows.
    States compare equal and hash equal when board and side to move are equal.
    """

    __slots__ = ()

    game: ClassVar[str] = "game"
    player_names: ClassVar[tuple[str, str]] = ("Player 1", "Player 2")

    @property
    @abstractmethod
    def to_move(self) -> int:
        """The player (0 or 1) whose turn it is."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Moves of the side to move; ``[PASS]`` when it must pass; ``[]`` when the game is over."""

    @abstractmethod
    def play(self, move: Move) -> State:
        """The state after ``move``; raises IllegalMoveError (with the reason) for a move the rules forbid."""

    @abstractmethod
    def score(self) -> float:
        """Exact final score from player 0's view (disc difference, +1/-1/0, leaf value); for finished games."""

    @abstractmethod
    def move_str(self, move: Move) -> str:
        """The move in the game's standard notation (``d3``, ``pass``)."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """Read a move in any notation the game accepts; ParseError for junk, IllegalMoveError for bad moves."""

    @abstractmethod
    def to_text(self) -> str:
        """The compact one-line position form that ``parse_position`` reads back."""

    def is_over(self) -> bool:
        return not self.legal_moves()

    def outcome(self) -> Outcome | None:
        """The winner and score of a finished game, None while it goes on."""
        if not self.is_over():
            return None
        s = self.score()
        return Outcome(0 if s > 0 else 1 if s < 0 else None, s)

    def utility(self, player: int) -> float:
        """Search value of this finished state for ``player`` (exact score, pushed past heuristics)."""
        s = self.score()
        return terminal_value(s if player == 0 else -s)

    def children(self) -> list[tuple[Move, State]]:
        """(move, successor) pairs in move order: the textbook's expand()."""
        return [(m, self.play(m)) for m in self.legal_moves()]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.to_text()}>"


class BoardState(State):
    """A position on a board, its side to move kept in ``_to_move``: it prints as its ``board_str`` and a notebook
    shows it as plies' own SVG (``plies.draw.boards``)."""

    __slots__ = ()
    _to_move: int

    @property
    def to_move(self) -> int:
        return self._to_move

    @abstractmethod
    def board_str(self, last: int | None = None, rowcol: bool = False, marks: bool = True) -> str:
        """The board as text: ``last`` a move to mark, ``rowcol`` coordinates counted from 0, ``marks`` the legal
        moves shown."""

    def __str__(self) -> str:
        return self.board_str()

    def _repr_svg_(self) -> str | None:
        """The board as a notebook shows it."""
        from plies.draw.boards import board_svg

        return board_svg(self)


@dataclass(frozen=True)
class BoardView:
    """How a position is drawn and clicked, for every front-end: a grid of ``rows`` x ``cols`` cells, index
    ``row * cols + col`` with row 0 drawn at the top; ``on_board`` the cells that exist (None: all of the grid;
    the hexagon's 169 of its 15x15 array); ``cells`` each cell's contents (0 or 1: a player's disc or mark,
    None: empty, ``HOLE``: a cell taken off the board); ``clicks`` the move a click on a cell plays (legal moves
    only: the square itself, or in Connect Four the cell a disc would drop to); coordinate labels by column and
    row.  How it looks: ``pieces`` (each player's piece: ``black``/``white``/``red``/``yellow`` discs, ``x``/``o``
    marks), ``surface`` (``felt``, ``paper``, ``rack``), ``stars`` (grid points drawn as dots, (row, col) of
    the corner they stand on), ``highlight`` (cells to mark: a winning line)."""

    shape: str  # "square" or "hex"
    rows: int
    cols: int
    cells: tuple[int | None, ...]
    clicks: dict[int, Move]
    files: tuple[str, ...]
    ranks: tuple[str, ...]
    on_board: tuple[int, ...] | None = None
    pieces: tuple[str, str] = ("black", "white")
    surface: str = "felt"
    stars: tuple[tuple[int, int], ...] = ()
    highlight: tuple[int, ...] = ()

    HOLE: ClassVar[int] = -1

    def cell_of(self, move: Move) -> int | None:
        """The cell a legal move plays (where a click plays it), None for a pass."""
        for cell, m in self.clicks.items():
            if m == move:
                return cell
        return None


def one_board(start: Callable[[], State], replay: Callable[[str], State]) -> tuple[
        Callable[[int | None, str], State], Callable[[str, int | None, str], State]]:
    """``GameType``'s ``start`` and ``transcript`` for a game of one board and layout: the game's own start
    position and replay of a transcript (any size or layout asked for is the one board)."""

    def from_start(size: int | None, layout: str = "standard") -> State:
        return start()

    def from_transcript(text: str, size: int | None, layout: str = "standard") -> State:
        return replay(text)

    return from_start, from_transcript


@dataclass(frozen=True)
class GameType:
    """One game, described once for every front-end and tool (as OpenSpiel's game types are): its names, how
    its positions are made, read and written, how its board looks, how its results are counted, and which
    searches play it.  ``plies.games.game_type(name or state)`` finds it; no front-end asks a state's class.

    - ``start(size, layout)``: the start position (``size`` None: the usual board; ``sizes`` lists the others;
      ``layouts`` the start layouts, Othello's ``doc000`` beside the standard one);
    - ``parse(text)``: a position as ``State.to_text`` writes it; ``looks_like(text)``: whether a bare text is
      one of this game's positions (for reading a position without being told the game);
    - ``transcript(text, size, layout)``: the position after a list of moves from the start;
    - ``view(state)``: the ``BoardView`` every drawing and page reads;
    - ``result``: ``discs`` (a final score is a disc difference) or ``result`` (win, draw or loss); ``line``:
      what wins a game of lines (``three in a row``);
    - ``engine(state)``: the player kind of the compiled engine that plays this position (``engine``,
      ``hexengine``), None where only the textbook searches do; ``levels``: the difficulties offered;
    - ``solved_depth``: a depth that reaches the end from any position (tic-tac-toe: 9), None;
      ``exact_empties``: from how many empty squares the textbook search solves to the end;
      ``hint_depth(state)``: how deep the textbook search looks for a hint or a value;
    - ``rowcol``: whether moves may be typed as the lab notes' 0-based ``row col``; ``move_example`` (a move to
      show, ``d3``), ``move_help`` (how to type one), ``separator`` (between the moves of a list: ``, `` where a
      move holds a space); ``tokens(text)``: the moves of a transcript as (move text, 1-based character
      position), so that a bad move is named with its place;
    - ``order(state, moves)``: a cheap move order for the textbook alpha-beta (likely best first: more cut-offs,
      the same value), None for the rules' order;
    - ``noun``: the game's name inside a sentence (``tic-tac-toe``; the title by default), ``a_noun()`` with its
      article for messages (``an Othello board``)."""

    name: str
    title: str
    start: Callable[[int | None, str], State]
    parse: Callable[[str], State]
    transcript: Callable[[str, int | None, str], State]
    view: Callable[[State], BoardView]
    aliases: tuple[str, ...] = ()
    sizes: tuple[int, ...] = ()
    layouts: tuple[str, ...] = ("standard",)
    looks_like: Callable[[str], bool] = field(default=lambda text: False)
    result: str = "discs"
    line: str = ""
    engine: Callable[[State], str | None] = field(default=lambda state: None)
    levels: int = 11
    solved_depth: int | None = None
    exact_empties: int = -1
    hint_depth: Callable[[State], int] = field(default=lambda state: 3)
    rowcol: bool = False
    move_example: str = ""
    move_help: str = ""
    separator: str = " "
    passes: bool = False
    description: str = ""
    tokens: Callable[[str], list[tuple[str, int]]] = field(default=lambda text: split_moves(text))
    order: Callable[[State, list[Move]], list[Move]] | None = None
    noun: str = ""

    def __post_init__(self) -> None:
        if not self.noun:
            object.__setattr__(self, "noun", self.title)

    def a_noun(self) -> str:
        """The game's name with its article, as a message says it: ``an Othello``, ``a tic-tac-toe``."""
        return ("an " if self.noun[:1].lower() in "aeiou" else "a ") + self.noun

    def empties(self, state: State) -> int:
        """Empty squares of a position (-1 for a game without them)."""
        fn = getattr(state, "empties", None)
        return int(fn()) if callable(fn) else -1

    def cells(self, state: State) -> int:
        """How many cells a board text of this position gives before the side to move (what ``to_text`` writes
        and ``parse`` reads): the cells of its ``view`` that are on the board."""
        v = self.view(state)
        return len(v.on_board) if v.on_board is not None else v.rows * v.cols

    def board_size(self, state: State) -> int | None:
        """The board size of a game played on several (``sizes``): Othello's n; None for a game of one board."""
        n = getattr(state, "n", None)
        return n if self.sizes and isinstance(n, int) else None

    def max_plies(self, state: State) -> int | None:
        """At most this many plies remain before the game ends: its empty cells, twice and one more in a game
        with passes (a pass comes between two moves at most); None for a game without empty cells."""
        e = self.empties(state)
        if e < 0:
            return None
        return 2 * e + 1 if self.passes else e

    def solves(self, depth: int) -> bool:
        """Whether a search ``depth`` plies deep reaches the end of the game from any position (``solved_depth``):
        its values are then results, whatever the evaluation."""
        return self.solved_depth is not None and depth >= self.solved_depth

    def join_moves(self, names: Sequence[str]) -> str:
        """A transcript as plies writes it: the moves run together (``f5d6c3``), or with ``separator`` between
        them where a move holds a space (HexThello's ``7 3, 6 5``); ``transcript`` and ``tokens`` read it back."""
        return "".join(names) if self.separator == " " else self.separator.join(names)


def split_moves(text: str) -> list[tuple[str, int]]:
    """The moves of a transcript whose moves hold no space: words between blanks, commas and semicolons, each with
    its 1-based character position (what a game without a tokenizer of its own reads)."""
    return [(m.group(0), m.start() + 1) for m in re.finditer(r"[^\s,;]+", text)]
