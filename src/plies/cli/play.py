"""``plies play``: a game in the terminal, person against person or computer, as document 000/001 show it.

Moves are typed in standard notation (``d3``) or document 000's 0-based ``row col`` (``2 3``).  During a game:
``undo``, ``hint``, ``show``, ``save FILE``, ``help``, ``quit``.  Bad input is asked again with the reason.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import click

from plies import heuristics
from plies.game import PASS, PliesError, State, describe_value
from plies.players import GreedyPlayer, HumanPlayer, Player, SearchPlayer, parse_player
from plies.search import alphabeta

from ._common import read_position
from .engine import MAX_LEVEL

HELP = (
    "Type a move (d3, or row and column like '2 3'), or: undo, hint, show, save FILE, board, help, quit."
)


class QuitGame(Exception):
    """The person typed quit (or input ended)."""


@dataclass
class PlaySession:
    """A game in progress: the states so far, who plays each side, and the terminal it talks through."""

    start: State
    players: tuple[Player, Player]
    read: Callable[[str], str]
    write: Callable[[str], None]
    rowcol: bool = False
    history: list[State] = field(default_factory=list)
    moves: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.history = [self.start]
        for p in self.players:
            if isinstance(p, HumanPlayer):
                p.ask = self.ask_human
            elif isinstance(p, GreedyPlayer):  # document 000 prints the greedy player's candidates
                p.verbose = lambda s, values: self.write(
                    " ".join(f"{self.square(m, s)}->{v:g}" for m, v in values))

    @property
    def state(self) -> State:
        return self.history[-1]

    # --- output -------------------------------------------------------------------------------------------
    def name(self, side: int) -> str:
        sym = getattr(self.state, "symbols", None)
        names = self.state.player_names
        return f"{names[side]} ({sym[side]})" if sym and sym[side] != names[side] else names[side]

    def square(self, move: Any, state: State | None = None) -> str:
        s = state or self.state
        if self.rowcol and move != PASS and hasattr(s, "n"):
            r, c = divmod(move, s.n)
            return f"({r} {c})"
        if self.rowcol and move != PASS and s.game == "tictactoe":
            r, c = divmod(move, 3)
            return f"({r} {c})"
        return s.move_str(move)

    @staticmethod
    def _paren(text: str) -> str:
        return f"({text})" if " " in text and not text.startswith("(") else text

    def draw(self) -> None:
        s = self.state
        last = self.moves[-1] if self.moves else None
        board = getattr(s, "board_str", None)
        human = isinstance(self.players[s.to_move], HumanPlayer)
        self.write(board(last=last, rowcol=self.rowcol, marks=human) if board else str(s))
        if s.game == "tictactoe":
            self.write("")

    def announce_turn(self) -> None:
        s = self.state
        moves = s.legal_moves()
        if self.rowcol:
            listing = "".join(self._paren(self.square(m)) for m in moves)
        else:
            listing = " ".join(s.move_str(m) for m in moves)
        self.write(f"Player {self.name(s.to_move)} turn, valid moves={listing}")

    # --- the human's prompt -------------------------------------------------------------------------------
    def ask_human(self, state: State) -> Any:
        """Read until a legal move; handle the in-game commands on the way."""
        while True:
            try:
                text = self.read("Enter move: ").strip()
            except EOFError:
                raise QuitGame from None
            if not text:
                continue
            word, _, arg = text.partition(" ")
            cmd = word.lower()
            if cmd in ("quit", "exit", "q"):
                raise QuitGame
            if cmd in ("help", "?"):
                self.write(HELP)
                continue
            if cmd == "board":
                self.draw()
                continue
            if cmd == "undo":
                if self.undo():
                    self.draw()
                    self.announce_turn()
                else:
                    self.write("Nothing to undo.")
                continue
            if cmd == "hint":
                self.hint()
                continue
            if cmd == "show":
                self.show()
                continue
            if cmd == "save":
                self.save(arg.strip())
                continue
            try:
                return self.state.parse_move(text)  # self.state: an undo may have changed the position
            except PliesError as e:
                self.write(f"Illegal: {e}. Try again.")

    # --- commands -----------------------------------------------------------------------------------------
    def undo(self) -> bool:
        """Take back to the human's previous turn (the computer's replies go too)."""
        humans = {i for i, p in enumerate(self.players) if isinstance(p, HumanPlayer)}
        me = self.state.to_move
        for i in range(len(self.history) - 2, -1, -1):
            s = self.history[i]
            if s.to_move == me and me in humans and s.legal_moves() != [PASS]:
                del self.history[i + 1:]
                del self.moves[i:]
                return True
        return False

    def adviser(self) -> SearchPlayer:
        """The search that gives hints: the computer opponent's own settings, or alpha-beta depth 4."""
        for p in self.players:
            if isinstance(p, SearchPlayer):
                return p
        return SearchPlayer("alphabeta", 4, None, self.state.game)

    def hint(self) -> None:
        adviser = self.adviser()
        result = adviser.search(self.state)
        self.write(f"Hint: {self.square(result.move)} (value {describe_value(result.value)}, "
                   f"{adviser.algorithm} depth {adviser.depth}, {adviser.heuristic.name})")

    def show(self) -> None:
        """Document 000's candidate list: ``(r c)->value`` for every move, valued by the computer's search."""
        adviser = self.adviser()
        s = self.state
        parts = []
        for move in s.legal_moves():
            child = s.play(move)
            if child.is_over():
                v = child.utility(s.to_move)
            elif adviser.depth <= 1:
                v = adviser.heuristic(child, s.to_move)
            else:
                r = alphabeta(child, adviser.depth - 1, adviser.heuristic)
                v = r.value if child.to_move == s.to_move else -r.value
            parts.append(f"{self.square(move)}->{describe_value(v)}")
        self.write(" ".join(parts))

    def transcript(self) -> str:
        return "".join(self.history[i].move_str(m) for i, m in enumerate(self.moves) if m != PASS)

    def save(self, path: str) -> None:
        if not path:
            self.write("Usage: save FILE")
            return
        text = self.transcript()
        standard = getattr(type(self.start), "start", None)
        if standard is None or self.start != standard():
            text = f"# start {self.start.to_text()}\n{text}"
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text + "\n")
        except OSError as e:
            self.write(f"Cannot save to {path}: {e.strerror}")
            return
        self.write(f"Saved {len(self.moves)} moves to {path}")

    # --- the game loop ------------------------------------------------------------------------------------
    def play(self) -> State:
        """Play to the end (or until quit); returns the last state."""
        self.draw()
        try:
            while not self.state.is_over():
                s = self.state
                side = s.to_move
                if s.legal_moves() == [PASS]:
                    self.write(f"Player {self.name(side)} has no valid move and passes.")
                    self._apply(PASS)
                    continue
                player = self.players[side]
                if isinstance(player, HumanPlayer):
                    self.announce_turn()
                    move = player.choose(s)
                else:
                    move = player.choose(s)
                    res = player.last_result
                    extra = f" (value {describe_value(res.value)}, {res.stats.nodes:,} nodes)" if res else ""
                    self.write(f"Computer {self.name(side)} [{player.name}] plays {self.square(move)}{extra}")
                self._apply(move)
                self.draw()
        except QuitGame:
            self.write("Game abandoned.")
            return self.state
        self.summary()
        return self.state

    def _apply(self, move: Any) -> None:
        self.history.append(self.state.play(move))
        self.moves.append(move)

    def summary(self) -> None:
        s = self.state
        outcome = s.outcome()
        assert outcome is not None
        counts = getattr(s, "counts", None)
        detail = ""
        if counts:
            b, w = counts()
            detail = f" — final score X={b} O={w}"
        names = tuple(self.name(i) for i in (0, 1))
        self.write(f"Game over: {outcome.describe(names)}{detail}.")


def _menu(read: Callable[[str], str], write: Callable[[str], None], title: str, options: list[str],
          default: int = 1) -> int:
    write(title)
    for i, o in enumerate(options, 1):
        write(f"  {i}) {o}")
    while True:
        try:
            text = read(f"Choice [{default}]: ").strip()
        except EOFError:
            raise QuitGame from None
        if not text:
            return default
        if text.isdigit() and 1 <= int(text) <= len(options):
            return int(text)
        write(f"Please type a number from 1 to {len(options)}.")


def setup_interactively(state: State, read: Callable[[str], str], write: Callable[[str], None]) -> tuple[str, str]:
    """Document 001's start screen: play first or second, difficulty 1-5, the computer's algorithm."""
    names = state.player_names
    order = _menu(read, write, "Do you want to play first or second?",
                  [f"first ({names[0]})", f"second ({names[1]})", "two people on this terminal",
                   "computer against computer"])
    if order == 3:
        return "human", "human"
    levels = [f"{d} (search depth {d})" for d in range(1, 6)]
    engine_ok = state.game == "othello" and getattr(state, "n", 8) == 8
    if engine_ok:  # the fast engine continues the scale upward (see 'plies levels')
        levels += [f"{d} (the fast engine, level {d})" for d in range(6, MAX_LEVEL + 1)]
    level = _menu(read, write, "Difficulty:", levels, default=3)
    if level >= 6:
        spec = f"engine:level={level}"
        return (spec, spec) if order == 4 else ("human", spec) if order == 1 else (spec, "human")
    algos = ["alpha-beta", "minimax", "greedy (document 000)", "random"] + (["the fast engine"] if engine_ok else [])
    algo = _menu(read, write, "Computer's algorithm:", algos)
    spec = {1: "alphabeta", 2: "minimax", 3: "greedy", 4: "random", 5: f"engine:level={level}"}[algo]
    if spec in ("alphabeta", "minimax"):
        hs = heuristics.names(state.game)
        default = hs.index(heuristics.DEFAULTS[state.game]) + 1
        choice = _menu(read, write, "Evaluation at the depth limit:",
                       [f"{n}: {heuristics.get(state.game, n).description}" for n in hs], default=default)
        spec = f"{spec}:depth={level},eval={hs[choice - 1]}"
    if order == 4:
        return spec, spec
    return ("human", spec) if order == 1 else (spec, "human")


@click.command()
@click.argument("game", default="othello")
@click.option("--black", "--first", "-1", "first", default=None, metavar="SPEC",
              help="Who plays Black/X (moves first): human, random, greedy, minimax:depth=3,eval=NAME, "
                   "alphabeta:depth=5,eval=NAME[,pruning=off], engine:level=N ...")
@click.option("--white", "--second", "-2", "second", default=None, metavar="SPEC", help="Who plays White/O.")
@click.option("--layout", type=click.Choice(["standard", "doc000"]), default="standard", show_default=True,
              help="Othello start: standard, or document 000's (X on d4/e5, X first); doc000 also numbers rows "
                   "and columns from 0 as document 000 prints them.")
@click.option("--rowcol/--algebraic", default=None, help="Show squares as document 000's 0-based 'row col'.")
@click.option("--no-book", is_flag=True, help="The engine plays without its opening book.")
@click.option("--eval", "evaluation", default=None, metavar="NAME",
              help="The engine's evaluation: learned (its default), handmade, or a seed heuristic "
                   "(see 'plies heuristics').")
def play(game: str, first: str | None, second: str | None, layout: str, rowcol: bool | None, no_book: bool,
         evaluation: str | None) -> None:
    """Play GAME (othello, tictactoe, a position or a transcript) in the terminal.

    Without --black/--white, asks who plays what (document 001's start screen).
    """
    state = read_position(game, layout=layout)
    if state.is_over():
        raise PliesError("the game is already over in this position")
    read = _reader
    write = click.echo
    if first is None and second is None:
        try:
            first, second = setup_interactively(state, read, write)
        except QuitGame:
            return
    first, second = (_engine_options(spec or "human", no_book, evaluation) for spec in (first, second))
    players = (parse_player(first, state.game), parse_player(second, state.game))
    session = PlaySession(state, players, read, write, rowcol=(layout == "doc000") if rowcol is None else rowcol)
    session.play()


def _engine_options(spec: str, no_book: bool, evaluation: str | None) -> str:
    """``spec`` with --no-book / --eval added when it is the engine (options already in the spec win)."""
    kind, _, raw = spec.partition(":")
    if kind.strip().lower() != "engine":
        return spec
    extra = [opt for opt, on in ((f"eval={evaluation}", evaluation and "eval=" not in raw),
                                 ("book=off", no_book and "book=" not in raw)) if on]
    return spec if not extra else f"engine:{','.join(([raw] if raw else []) + extra)}"


def _reader(prompt: str) -> str:
    click.echo(prompt, nl=False)
    line = sys.stdin.readline()
    if not line:
        click.echo()
        raise EOFError
    return line.rstrip("\n")


def register(main: click.Group) -> None:
    main.add_command(play)
