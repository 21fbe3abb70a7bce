"""Whose turn it is in a live browser game: the seats the play loop (``plies.match.record.play_on_async``) asks.
The computer searches off the event loop, on the app's worker threads (or processes, for the heavy textbook
searches); a person's move arrives as a request, which ``GameSession`` plays before it lets the loop go on.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from plies.analysis.levels import Difficulty, difficulty
from plies.game import Move, State
from plies.players import Player
from plies.search.result import SearchResult

if TYPE_CHECKING:
    from plies.web.sessions import GameSession


@dataclass
class Computer:
    """A computer side: its difficulty and the player built from it.  ``lock`` is held while the player searches:
    a new search waits for a stopped one to return (the engine allows one search at a time)."""

    difficulty: Difficulty
    player: Player
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


def make_computer(state: State, level: int, algorithm: str = "alphabeta", heuristic: str | None = None) -> Computer:
    """The computer of ``level`` in ``state``'s game (``plies.analysis.levels.difficulty``); ParseError for a bad
    level, algorithm or heuristic."""
    d = difficulty(state, level, algorithm, heuristic)
    return Computer(d, d.player(state.game))


def _decide(player: Player, state: State, lock: threading.Lock | None = None,
            budget: float | None = None) -> tuple[Move, SearchResult | None]:
    """Run in a worker: the player's move and the search behind it.  With a ``lock`` (thread workers only) it
    first waits for this player's previous, stopped search to return; ``budget``: a timed game's seconds."""
    if lock is None:
        return player.decide(state, budget)
    with lock:
        return player.decide(state, budget)


@dataclass
class ComputerSeat:
    """The computer's turn: after the game's ``delay``, a search in a worker within the clock's budget."""

    session: GameSession
    computer: Computer

    async def choose(self, state: State) -> tuple[Move, SearchResult | None]:
        session, comp = self.session, self.computer
        session.turn(state.to_move, thinking=True)
        if session.delay:
            await asyncio.sleep(session.delay)
        budget = session.clock.budget(state.to_move, state) if session.clock is not None else None
        if comp.difficulty.heavy:
            answer = await session.pool.run(_decide, comp.player, state, None, budget, heavy=True)
        else:
            answer = await session.pool.run(_decide, comp.player, state, comp.lock, budget)
        session.thinking, session.played = None, True
        return answer


@dataclass
class PersonSeat:
    """A person's turn: the loop waits (its clock runs) until a move, an undo or a new game stops it."""

    session: GameSession

    async def choose(self, state: State) -> tuple[Move, SearchResult | None]:
        self.session.turn(state.to_move, thinking=False)
        never: asyncio.Future[tuple[Move, SearchResult | None]] = asyncio.get_running_loop().create_future()
        return await never  # GameSession.move plays the person's move and starts the loop again
