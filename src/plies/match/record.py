"""The play loop: players play a ``Game`` (``plies.games.record``) to its end; ``play_game`` plays one from a
position and gives the match database's GameRecord; ``play_on_async`` is the same loop for front-ends that take
turns on an event loop (the browser, the HexThello server).

A player that raises, returns an illegal move or overruns its time loses the game; the game says why.
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Protocol, TypeVar

from plies.game import PASS, Move, PliesError, State
from plies.games.record import ABORTED, CRASH, ILLEGAL, NORMAL, TIMEOUT, Game, GameRecord, Note, S
from plies.players import Player
from plies.search.result import SearchResult

_S = TypeVar("_S", bound=State, contravariant=True)

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
    """Raised by the play loop when a player's ``new_game`` fails in a way its ``fatal`` test calls fatal: which
    side it was, with the player's error as the cause."""

    def __init__(self, side: int, error: Exception) -> None:
        super().__init__(side, error)
        self.side = side
        self.error = error


def where(e: BaseException) -> str:
    """`` (file.py:12)``: the innermost line of ``e``'s traceback, where a player's (or a student's module's) code
    failed; empty when there is no traceback."""
    tb = e.__traceback__
    if tb is None:
        return ""
    while tb.tb_next is not None:
        tb = tb.tb_next
    return f" ({os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno})"


def startup_message(e: BaseException, player: str) -> str:
    """One line for a start-up failure: the player's own message when it is a PliesError (it names the program)."""
    if isinstance(e, PliesError):
        return str(e)
    return f"cannot start player {player!r}: {type(e).__name__}: {e}"


def play_on(game: Game[S], players: Sequence[Player], time_limit: float | None = None,
            fatal: Callable[[Exception], bool] | None = None, on_move: Callable[[Game[S]], None] | None = None,
            forfeits: bool = True, ask_passes: bool = True) -> Game[S]:
    """The play loop: ``players[0]`` (Black, X) and ``players[1]`` play ``game`` on from where it stands to its
    end, each move going into it with a Note (its search's value and depth, its seconds); ``on_move(game)``
    after each.  Every player's ``take_side(side)`` and ``new_game`` are called first.

    With ``forfeits`` (matches) a player that raises, answers an illegal move or is slower than ``time_limit``
    seconds (measured after the move returns; engines are expected to keep it) loses, and ``game.end`` says why;
    a ``new_game`` failure that ``fatal`` calls fatal is raised as NotStarted instead (an event stops on a player
    that cannot be started: ``is_startup_failure``).  Without (the terminal) a player's exception goes to the
    caller.  Without ``ask_passes`` a forced pass is played without asking the player.  A player may change the
    game while it chooses (a person's undo): its move is played in the position the game then has."""
    for side, p in enumerate(players):
        try:
            take_side = getattr(p, "take_side", None)
            if callable(take_side):
                take_side(side)
            p.new_game(game.state)
        except Exception as e:  # a player that cannot even start loses like one that crashes mid-game
            if not forfeits:
                raise
            if fatal is not None and fatal(e):
                raise NotStarted(side, e) from e
            _lose(game, side, e, "new_game: ")  # e.g. no answer to the first ping within the start-up time
            return game
    while not game.over:
        if not _forced_pass(game, ask_passes):
            side = game.state.to_move
            t0 = time.perf_counter()
            try:
                move = players[side].choose(game.state)
            except Exception as e:  # a crashing player (a bug in it included) loses; the game survives
                if not forfeits:
                    raise
                _lose(game, side, e)
                break
            if not _play(game, side, move, players[side].last_result, time.perf_counter() - t0, time_limit, forfeits):
                break
        if on_move:
            on_move(game)
    return game


class Seat(Protocol[_S]):
    """A player the asynchronous play loop awaits: a person at a page, a program over a socket, a search in a
    worker.  ``choose`` answers a move and the search behind it (None without one), or raises a ``Forfeit`` to
    lose the game (no answer in time, an illegal answer, a broken connection)."""

    async def choose(self, state: _S) -> tuple[Move, SearchResult | None]: ...


async def play_on_async(game: Game[S], seats: Sequence[Seat[S]],
                        on_move: Callable[[Game[S]], Awaitable[None] | None] | None = None,
                        ask_passes: bool = True) -> Game[S]:
    """``play_on`` for front-ends that answer on an event loop (the browser, the HexThello server): ``seats``
    play ``game`` on to its end, each move going into it with its Note; ``await on_move(game)`` after each (it
    may end the game: ``Game.end``).  A seat that raises a Forfeit, or answers an illegal move, loses; any other
    exception goes to the caller, with the game as it stands.  Without ``ask_passes`` a forced pass is played
    without asking."""
    while not game.over:
        if not _forced_pass(game, ask_passes):
            side = game.state.to_move
            t0 = time.perf_counter()
            try:
                move, result = await seats[side].choose(game.state)
            except Forfeit as e:
                _lose(game, side, e)
                break
            if not _play(game, side, move, result, time.perf_counter() - t0, None, True):
                break
        if on_move is not None and (pending := on_move(game)) is not None:
            await pending
    return game


def _forced_pass(game: Game[S], ask_passes: bool) -> bool:
    """Without ``ask_passes``, play the side to move's forced pass; whether it did."""
    if ask_passes or game.state.legal_moves() != [PASS]:
        return False
    game.play(PASS)
    return True


def _play(game: Game[S], side: int, move: Move, result: SearchResult | None, seconds: float,
          time_limit: float | None, forfeits: bool) -> bool:
    """Play ``side``'s answer with its Note (the search's value and depth, the seconds); with ``forfeits`` an answer
    over ``time_limit`` or an illegal one ends the game instead.  Whether the move was played."""
    if forfeits and time_limit is not None and seconds > time_limit:
        game.end(TIMEOUT, f"{seconds:.2f}s > {time_limit:g}s", 1 - side)
        return False
    if forfeits and move not in game.state.legal_moves():
        game.end(ILLEGAL, f"{move!r}", 1 - side)
        return False
    game.play(move, Note(seconds=seconds) if result is None else
              Note(result.value, result.evaluation, result.stats.depth or None, seconds))
    return True


def _lose(game: Game[S], side: int, e: Exception, where: str = "") -> None:
    """``side`` lost by ``e``: a Forfeit for its reason (an illegal answer, none in time), else a crash."""
    if isinstance(e, Forfeit):
        game.end(e.termination, f"{where}{e}", 1 - side)
    else:
        game.end(CRASH, f"{where}{type(e).__name__}: {e}", 1 - side)


def play_game(
    start: State,
    players: Sequence[Player],
    on_move: Callable[[State, Move, State, float], None] | None = None,
    time_limit: float | None = None,
    fatal: Callable[[Exception], bool] | None = None,
) -> GameRecord:
    """Play from ``start`` (``play_on``) and return the game as the match database stores it; ``on_move(before,
    move, after, seconds)`` is called after each move."""
    game = Game(start, players=(players[0].name, players[1].name),
                started_at=datetime.now(UTC).isoformat(timespec="seconds"))
    hook = None if on_move is None else (
        lambda g: on_move(g.states[-2], g.moves[-1], g.state, g.notes[-1].seconds or 0.0))
    return play_on(game, players, time_limit, fatal, hook).record()


__all__ = ["ABORTED", "CRASH", "ILLEGAL", "NORMAL", "TIMEOUT", "Forfeit", "GameRecord", "IllegalAnswer", "NoAnswer",
           "NotStarted", "Seat", "StartupError", "is_startup_failure", "play_game", "play_on", "play_on_async",
           "startup_message", "where"]
