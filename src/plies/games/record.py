"""A game, in progress or finished, as every part of plies keeps it: its start, its moves with what is known of
each (a ``Note``: value, depth, time, comment), undo and redo, and how it ended; written in the game's notation
(``transcript``) and read back (``Game.from_transcript``), and flattened into the match database's ``GameRecord``
and back.  The play loop (``plies.match.record.play_on``) drives players on a Game.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Generic, Protocol, TypeVar, cast

from plies.game import PASS, GameType, IllegalMoveError, Move, Outcome, ParseError, PliesError, State, split_moves

NORMAL, ILLEGAL, CRASH, TIMEOUT, ABORTED, RESIGNED = "normal", "illegal move", "crash", "time", "aborted", "resigned"
"""How a game ended: by the rules, or lost by an illegal move, a crash, the clock or a resignation, or left
unfinished."""

PASS_WORDS = ("pass", "pa", "ps", "--", "@@")
"""How a transcript may write a pass."""

S = TypeVar("S", bound=State)


def move_names(state: State, moves: Iterable[Move]) -> list[str]:
    """A line of moves from ``state`` in the game's notation (``["f5", "d6", "pass"]``): a game's moves, a
    principal variation.  A line that stops being legal (a variation cut by a table hit) ends there."""
    out: list[str] = []
    for m in moves:
        try:
            after = state.play(m)
        except PliesError:
            break
        out.append(state.move_str(m))
        state = after
    return out


@dataclass
class Note:
    """What is known of one move: the mover's value of it as its search gave it, in ``unit`` (the evaluation:
    ``learned``, ``weighted-squares``, ``exact``), the search's depth, the seconds the move took, a comment."""

    value: float | None = None
    unit: str = ""
    depth: int | None = None
    seconds: float | None = None
    comment: str = ""


@dataclass
class GameRecord:
    """A game flattened for JSON, SQLite (``plies.match.store``) or a transcript: its moves as text, each
    move's seconds and value, the result and how the game ended (``Game.record``, ``Game.from_record``)."""

    game: str
    start: str
    players: tuple[str, str]
    moves: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    values: list[float | None] = field(default_factory=list)
    winner: int | None = None
    score: float = 0.0
    termination: str = NORMAL
    detail: str = ""
    started_at: str = ""
    final: str = ""

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    def result_text(self) -> str:
        if self.termination != NORMAL:
            if self.winner is None:
                return f"no result ({self.termination})"
            loser = self.players[1 - self.winner]
            return f"{self.players[self.winner]} wins ({loser}: {self.termination})"
        if self.winner is None:
            return f"draw ({self.score:+g})"
        return f"{self.players[self.winner]} wins by {abs(self.score):g}"


def move_separator(moves: Sequence[str]) -> str:
    """``", "`` when a move holds a space (HexThello's ``7 3``), else ``" "``: the moves stay apart when read."""
    return ", " if any(" " in m for m in moves) else " "


def join_moves(moves: Sequence[str]) -> str:
    """The moves as one line a reader splits back into the same moves (``f5 d6``, ``7 3, 6 5, pass``)."""
    return move_separator(moves).join(moves)


class Game(Generic[S]):
    """One game, in progress or finished (``Game[OthelloState]``: a game of those states).  ``states[i]`` is the
    position before ``moves[i]`` and ``states[-1]`` the position now; ``notes[i]`` is what is known of
    ``moves[i]``; ``undone`` holds the moves taken back (with their notes), the next one to redo last;
    ``players`` the two names (player 0 first); ``termination`` and ``detail`` say how a game ended otherwise
    than by the rules (``end``).  ``type`` is the game's GameType (None for a game without one: a tree)."""

    def __init__(self, start: S, moves: Iterable[Move | str] = (), players: Sequence[str] = (),
                 type: GameType | None = None, started_at: str = "") -> None:
        from plies.games import type_of  # the registry imports this module's package

        self.start = start
        self.type = type if type is not None else type_of(start)
        self.states: list[S] = [start]
        self.moves: list[Move] = []
        self.notes: list[Note] = []
        self.undone: list[tuple[Move, Note]] = []
        self.players: tuple[str, str] = (players[0], players[1]) if players else start.player_names
        self.started_at = started_at
        self.termination = NORMAL
        self.detail = ""
        self._ended: Outcome | None = None
        for m in moves:
            self.play(m)

    @property
    def state(self) -> S:
        """The position now."""
        return self.states[-1]

    @property
    def over(self) -> bool:
        """The rules ended the game, or ``end`` did."""
        return self.termination != NORMAL or self.state.is_over()

    def outcome(self) -> Outcome | None:
        """The winner and score: the rules' at the end of the game, what ``end`` said after it ended otherwise
        (a forfeit: the other side wins, score 0), None while the game goes on."""
        return self._ended if self.termination != NORMAL else self.state.outcome()

    # --- changing ---------------------------------------------------------------------------------------------
    def play(self, move: Move | str, note: Note | None = None) -> S:
        """Play ``move`` (a move, or its text: ``d3``, the lab notes' ``2 3``) and return the new position; the
        moves taken back are forgotten.  IllegalMoveError (ParseError for text) changes nothing."""
        if isinstance(move, str):
            move = self.state.parse_move(move)
        self._push(move, note or Note())
        self.undone.clear()
        return self.state

    def _push(self, move: Move, note: Note) -> None:
        self.states.append(cast(S, self.state.play(move)))
        self.moves.append(move)
        self.notes.append(note)

    def undo(self, ply: int | None = None) -> Move | None:
        """Take back the last move, or every move after the first ``ply``, keeping them for ``redo``; the game is
        in play again.  Returns the move now first to redo (None when ``ply`` is the present); IndexError when
        there is no such move to go back to."""
        ply = len(self.moves) - 1 if ply is None else ply
        if not 0 <= ply <= len(self.moves):
            raise IndexError("no move to take back")
        move = None
        while len(self.moves) > ply:
            self.states.pop()
            move = self.moves.pop()
            self.undone.append((move, self.notes.pop()))
        if move is not None:
            self.termination, self.detail, self._ended = NORMAL, "", None
        return move

    def redo(self) -> Move:
        """Play again the move taken back last and return it; IndexError when none is left."""
        if not self.undone:
            raise IndexError("no move to redo")
        move, note = self.undone.pop()
        self._push(move, note)
        return move

    def end(self, termination: str, detail: str = "", winner: int | None = None, score: float = 0.0) -> None:
        """End the game otherwise than by the rules: ``winner`` won it (the other side's illegal move, crash, time
        or resignation: ``ILLEGAL``, ``CRASH``, ``TIMEOUT``, ``RESIGNED``), or nobody did (``ABORTED``); ``detail``
        says what happened."""
        self.termination, self.detail, self._ended = termination, detail, Outcome(winner, score)

    def turn_before(self, sides: Collection[int]) -> int | None:
        """The last ply before now where one of ``sides`` had a move to choose (a forced pass is none): where an
        undo for a person goes back to; None when there is none."""
        for i in range(len(self.moves) - 1, -1, -1):
            s = self.states[i]
            if s.to_move in sides and s.legal_moves() != [PASS]:
                return i
        return None

    # --- text -------------------------------------------------------------------------------------------------
    def names(self) -> list[str]:
        """The moves in the game's notation, passes included (``["f5", "d6", "pass"]``)."""
        return move_names(self.start, self.moves)

    def transcript(self) -> str:
        """The moves as plies writes a game (``f5d6c3``; HexThello's ``7 3, 6 5``), passes left out: what
        ``from_transcript`` and every reader of games read back."""
        names = [n for n, m in zip(self.names(), self.moves, strict=True) if m != PASS]
        return self.type.join_moves(names) if self.type is not None else "".join(names)

    @staticmethod
    def from_transcript(type: GameType | None, text: str, start: State | None = None) -> Game[State]:
        """The game a transcript writes, from ``start`` (default: the game's usual start), passes written
        (``pass``, ``--`` ...) or left out; ParseError naming the bad move, its number and its place in the text."""
        if start is None:
            if type is None:
                raise ValueError("a transcript of a game without a type needs its start")
            start = type.start(None, "standard")
        game: Game[State] = Game(start, type=type)
        for number, (tok, at) in enumerate(type.tokens(text) if type is not None else split_moves(text), 1):
            state = game.state
            if state.is_over():
                raise ParseError(f"move {number} ({tok}, character {at}): the game is already over after move "
                                 f"{number - 1}")
            try:
                if tok.lower() in PASS_WORDS:
                    game.play("pass")
                    continue
                try:
                    move = state.parse_move(tok)
                except IllegalMoveError:
                    if state.legal_moves() != [PASS]:
                        raise
                    move = state.play(PASS).parse_move(tok)  # a forced pass left out of the transcript
                    game.play(PASS)
                game.play(move)
            except PliesError as e:
                raise ParseError(f"move {number} ({tok}, character {at}): {e}") from None
        return game

    # --- the match database's record ------------------------------------------------------------------------
    def record(self) -> GameRecord:
        """The game as the match database stores it (moves as text, seconds to 0.1 ms, values as given)."""
        out = self.outcome()
        return GameRecord(
            game=self.start.game, start=self.start.to_text(), players=self.players, moves=self.names(),
            times=[round(n.seconds or 0.0, 4) for n in self.notes], values=[n.value for n in self.notes],
            winner=out.winner if out else None, score=out.score if out else 0.0, termination=self.termination,
            detail=self.detail, started_at=self.started_at, final=self.state.to_text())

    @staticmethod
    def from_record(rec: GameRecord) -> Game[State]:
        """The game of a stored record; ParseError naming a move that does not replay."""
        from plies.games import parse_position

        game: Game[State] = Game(parse_position(rec.start, game=rec.game), players=rec.players,
                                 started_at=rec.started_at)
        for k, name in enumerate(rec.moves):
            try:
                game.play(name, Note(rec.values[k] if k < len(rec.values) else None,
                                     seconds=rec.times[k] if k < len(rec.times) else None))
            except PliesError as e:
                raise ParseError(f"move {k + 1} ({name}) of the record: {e}") from None
        if rec.termination != NORMAL:
            game.end(rec.termination, rec.detail, rec.winner, rec.score)
        return game


class Tallies(Protocol):
    """Running counts of won, drawn and lost games (a player's line, a pairing, a name on a server)."""

    wins: int
    draws: int
    losses: int


def count_result(tally: Tallies, winner: int | None, side: int) -> None:
    """One more win, draw or loss in ``tally`` for ``side`` (0 or 1) of a game that ``winner`` won (None: a draw)."""
    if winner is None:
        tally.draws += 1
    elif winner == side:
        tally.wins += 1
    else:
        tally.losses += 1


__all__ = ["ABORTED", "CRASH", "ILLEGAL", "NORMAL", "PASS_WORDS", "RESIGNED", "TIMEOUT", "Game", "GameRecord", "Note",
           "Tallies", "count_result", "join_moves", "move_names", "move_separator"]
