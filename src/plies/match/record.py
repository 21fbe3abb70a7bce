"""One game between two players, start to finish, kept as a GameRecord.

A player that raises, returns an illegal move or overruns its time loses the game; the record says why.
"""

from __future__ import annotations

import errno
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from plies.game import Outcome, PliesError, State
from plies.players import Player

NORMAL, ILLEGAL, CRASH, TIMEOUT, ABORTED = "normal", "illegal move", "crash", "time", "aborted"

START_ERRNOS = frozenset({errno.ENOENT, errno.EACCES, errno.EPERM, errno.ENOEXEC, errno.ENOTDIR, errno.EISDIR,
                          errno.ELOOP, errno.ENAMETOOLONG})
"""What ``exec`` says when a program cannot be run at all (missing, not executable, not a program)."""


class StartupError(PliesError):
    """A player that cannot even be started (its program is missing or cannot be run): every game it is in would
    be lost the same way, so an event stops with this error instead of recording them as crashes.  Plug-ins may
    raise it from their constructor or ``new_game``."""


def is_startup_failure(e: BaseException) -> bool:
    """True for a StartupError, or an error raised while handling (or from) an OSError saying a program cannot be
    run (``START_ERRNOS``: the NBoard player's ``cannot start NBoard engine ...``); a broken pipe, a time-out or a
    bug in the player is not one."""
    seen: set[int] = set()
    x: BaseException | None = e
    while x is not None and id(x) not in seen:
        if isinstance(x, StartupError) or (isinstance(x, OSError) and x.errno in START_ERRNOS):
            return True
        seen.add(id(x))
        x = x.__cause__ or x.__context__
    return False


class Forfeit(PliesError):
    """Raised by a player's ``choose`` when it loses the game by the rules or the clock rather than by a crash: it
    answered a move the rules refuse (``IllegalAnswer``) or did not answer in time (``NoAnswer``).  The record's
    termination is the class's ``termination``, its detail the message."""

    termination = CRASH


class IllegalAnswer(Forfeit):
    """The player's program answered a move that is not legal in the position (or not a move at all)."""

    termination = ILLEGAL


class NoAnswer(Forfeit):
    """The player's program did not answer within its time-out."""

    termination = TIMEOUT


class NotStarted(Exception):
    """Raised by ``play_game`` when a player's ``new_game`` fails in a way its ``fatal`` test calls fatal: which
    side it was, with the player's error as the cause."""

    def __init__(self, side: int, error: Exception) -> None:
        super().__init__(side, error)
        self.side = side
        self.error = error


def startup_message(e: BaseException, player: str) -> str:
    """One line for a start-up failure: the player's own message when it is a PliesError (it names the program)."""
    if isinstance(e, PliesError):
        return str(e)
    return f"cannot start player {player!r}: {type(e).__name__}: {e}"


@dataclass
class GameRecord:
    """Everything about one finished (or abandoned) game, ready for JSON, SQLite or a transcript."""

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

    @property
    def transcript(self) -> str:
        """Moves run together (``f5d6c3``, a pass as ``--``), or ``7 3, 6 5, pass`` for a game whose moves hold
        a space (HexThello): run together they could not be told apart."""
        if move_separator(self.moves) != " ":
            return join_moves(self.moves)
        return "".join(m if m != "pass" else "--" for m in self.moves)

    def to_dict(self) -> dict[str, Any]:
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


def play_game(
    start: State,
    players: Sequence[Player],
    on_move: Callable[[State, Any, State, float], None] | None = None,
    time_limit: float | None = None,
    fatal: Callable[[Exception], bool] | None = None,
) -> GameRecord:
    """Play from ``start``: ``players[0]`` is player 0 (Black, X), ``players[1]`` is player 1 (White, O).

    ``on_move(before, move, after, seconds)`` is called after each move.  With ``time_limit`` (seconds per
    move) a slower move loses on time (measured after the move returns; engines are expected to keep it).
    An exception from a player's ``new_game`` for which ``fatal`` says True is raised as ``NotStarted`` (naming
    the side) instead of losing the game (an event stops on a player that cannot be started:
    ``is_startup_failure``).
    """
    rec = GameRecord(
        game=start.game,
        start=start.to_text(),
        players=(players[0].name, players[1].name),
        started_at=datetime.now(UTC).isoformat(timespec="seconds"),
    )
    for side, p in enumerate(players):
        try:
            p.new_game(start)
        except Exception as e:  # a player that cannot even start loses like one that crashes mid-game
            if fatal is not None and fatal(e):
                raise NotStarted(side, e) from e
            if isinstance(e, Forfeit):  # e.g. no answer to the first ping within the start-up time
                return _forfeit(rec, start, side, e.termination, f"new_game: {e}")
            return _forfeit(rec, start, side, CRASH, f"new_game: {type(e).__name__}: {e}")
    state = start
    while not state.is_over():
        side = state.to_move
        player = players[side]
        t0 = time.perf_counter()
        try:
            move = player.choose(state)
        except Forfeit as e:  # an illegal answer or none in time: lost for that reason
            return _forfeit(rec, state, side, e.termination, str(e))
        except Exception as e:  # a crashing player (a bug in it included) loses; the game record survives
            return _forfeit(rec, state, side, CRASH, f"{type(e).__name__}: {e}")
        dt = time.perf_counter() - t0
        if time_limit is not None and dt > time_limit:
            return _forfeit(rec, state, side, TIMEOUT, f"{dt:.2f}s > {time_limit:g}s")
        if move not in state.legal_moves():
            return _forfeit(rec, state, side, ILLEGAL, f"{move!r}")
        after = state.play(move)
        rec.moves.append(state.move_str(move))
        rec.times.append(round(dt, 4))
        last = getattr(player, "last_result", None)
        rec.values.append(last.value if last is not None else None)
        if on_move:
            on_move(state, move, after, dt)
        state = after
    outcome = state.outcome()
    assert outcome is not None
    rec.winner, rec.score = outcome.winner, outcome.score
    rec.final = state.to_text()
    return rec


def _forfeit(rec: GameRecord, state: State, loser: int, reason: str, detail: str) -> GameRecord:
    rec.winner = 1 - loser
    rec.score = 0.0
    rec.termination = reason
    rec.detail = detail
    rec.final = state.to_text()
    return rec


__all__ = ["ABORTED", "CRASH", "ILLEGAL", "NORMAL", "TIMEOUT", "Forfeit", "GameRecord", "IllegalAnswer", "NoAnswer",
           "NotStarted", "Outcome", "StartupError",
           "is_startup_failure", "join_moves", "move_separator", "play_game", "startup_message"]
