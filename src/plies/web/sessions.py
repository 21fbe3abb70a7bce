"""Live games of the browser app: positions, undo/redo, branches, clocks, the computer's turn off the event loop,
the evaluation of every position, watchers.

A GameSession belongs to one browser (its owner token) and lives in the server's memory; every change bumps
``version`` and is pushed to the WebSocket watchers.  The computer searches in a worker thread; a search
started before an undo, redo, branch or abandonment carries an old ``generation`` and its answer is dropped.
Every position is analysed in the background by the shared ``Analyst`` (``plies.web.analyst``) at the game's
analysis level: the graph, the hints, the values on the board and the review read those analyses.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from plies.analysis.levels import Difficulty, difficulty
from plies.game import PASS, Move, PliesError, State
from plies.games.record import TIMEOUT, Game, Note
from plies.players import Player
from plies.search.result import SearchResult
from plies.web import views
from plies.web.analyst import Analyst, shared_analyst
from plies.web.clock import Clock
from plies.web.evals import Evals
from plies.web.workers import Workers

log = logging.getLogger("plies.web")

OnFinish = Callable[["GameSession"], Awaitable[Any] | None]
"""Called when a game a person or the computer played here ends; what it returns (the store) is awaited before
any answer shows the end."""

MAX_SESSIONS = 5000
IDLE_SECONDS = 6 * 3600


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


@dataclass
class Side:
    """One side of a game: a person, or a computer player at a level."""

    kind: str  # "human" | "computer"
    computer: Computer | None = None
    name: str = ""


def _decide(player: Player, state: State, lock: threading.Lock | None = None,
            budget: float | None = None) -> tuple[Move, SearchResult | None]:
    """Run in a worker: the player's move and the search behind it.  With a ``lock`` (thread workers only) it
    first waits for this player's previous, stopped search to return; ``budget``: a timed game's seconds."""
    if lock is None:
        return player.decide(state, budget)
    with lock:
        return player.decide(state, budget)


class GameSession:
    """One game in progress: its history of positions, whose turn, what the computer is doing."""

    def __init__(
        self,
        gid: str,
        owner: str,
        start: State,
        sides: Sequence[Side],
        pool: Workers,
        on_finish: OnFinish | None = None,
        delay: float = 0.0,
        analysis_level: int | None = None,
        clock: Clock | None = None,
        analyst: Analyst | None = None,
    ) -> None:
        self.id = gid
        self.owner = owner
        self.sides = list(sides)
        self.pool = pool
        self.on_finish = on_finish
        self.delay = delay
        self.analyst = analyst or shared_analyst()
        self.evals = Evals(self.analyst, analysis_level, self._eval_arrived)
        self.clock = clock
        self.game = Game(start)  # the moves, the computer's values (its Notes), what undo took back, the end
        self.setup_moves = 0  # moves that came with the set-up (a pasted transcript)
        self.notice = ""
        self.error = ""
        self.custom_start = False
        self.version = 0
        self.generation = 0
        self.thinking: int | None = None
        self.finished = False
        self.played = False  # a move was played here (a pasted finished game is not saved again)
        self.abandoned = False
        self.saving: asyncio.Future[Any] | None = None  # the store of the finished game, until it committed
        self.saved: bool | None = None  # True once stored, False when it could not be (``error`` says why)
        self.started_at = time.time()
        self.touched = time.monotonic()
        self.watchers: set[asyncio.Queue[dict[str, Any]]] = set()
        self.idle = asyncio.Event()
        self.idle.set()
        self._think_task: asyncio.Task[Any] | None = None

    # --- reading ------------------------------------------------------------------------------------------
    async def settled(self) -> None:
        """Wait until the store of a finished game has committed (or failed): an answer that says the game is
        over is built only after this, so a crash at any instant loses no game a player was told had ended."""
        while self.saving is not None and not self.saving.done():
            saving = self.saving
            with contextlib.suppress(Exception):  # the save reports its own failure (``saved``, ``error``)
                await asyncio.shield(saving)

    async def answer(self, owner: bool = False) -> dict[str, Any]:
        """``view`` once the game's store has committed: what every answer to a client sends."""
        await self.settled()
        return views.view(self, owner)

    def frame(self, ply: int) -> dict[str, Any]:
        return views.frame(self, ply)

    @property
    def state(self) -> State:
        return self.game.state

    @property
    def has_human(self) -> bool:
        return any(s.kind == "human" for s in self.sides)

    @property
    def analysis_level(self) -> int:
        return self.evals.level

    # --- changing -----------------------------------------------------------------------------------------
    def move(self, text: str) -> None:
        """A person's move in the game's notation; PliesError says why it is refused."""
        st = self.state
        if self.game.over:
            raise PliesError("the game is over")
        if self.sides[st.to_move].kind != "human":
            raise PliesError("it is the computer's turn")
        if not isinstance(text, str) or not text.strip():
            raise PliesError("no move given")
        move = st.parse_move(text)
        self.abandoned = False  # playing on in a replaced game brings it back
        self.played = True
        self._push(move)
        self._advance()

    def branch(self, ply: int, text: str | None = None) -> None:
        """Go back to the position after ``ply`` moves and play ``text`` there (a person's move), or let the
        side to move there play on: the moves after it are replaced (Redo brings them back until a new move
        is played; Undo takes the new move back)."""
        if not self.has_human:
            raise PliesError("going back is for games with a person playing")
        if self.clock is not None:
            raise PliesError("a timed game cannot go back")
        if not 0 <= ply <= len(self.game.moves):
            raise PliesError(f"no position after move {ply}: the game has {len(self.game.moves)} moves")
        st = self.game.states[ply]
        move = None
        if text:
            if st.is_over():
                raise PliesError("the game is over in that position")
            if self.sides[st.to_move].kind != "human":
                raise PliesError("it is the computer's turn in that position")
            move = st.parse_move(text)
        self._cancel()
        self.abandoned = False
        self.game.undone.clear()  # the redo list is the moves after ply
        self.game.undo(ply)
        self.setup_moves = min(self.setup_moves, ply)
        self.notice = ""
        self.finished = False
        if move is not None:
            self.played = True
            self._push(move)
        self._advance()

    def undo(self) -> None:
        """Take back moves to the last position where a person was to move (passes and replies included)."""
        if not self.has_human:
            raise PliesError("undo is for games with a person playing")
        if self.clock is not None:
            raise PliesError("a timed game has no undo")
        k = self.undo_target()
        if k is None:
            raise PliesError("nothing to undo")
        self._cancel()
        self.abandoned = False
        self.game.undo(k)
        self.setup_moves = min(self.setup_moves, k)
        self.notice = ""
        self.finished = False
        self._advance()

    def redo(self) -> None:
        """Play again the moves undone last, up to the next position where a person is to move."""
        if not self.has_human:
            raise PliesError("redo is for games with a person playing")
        if self.clock is not None:
            raise PliesError("a timed game has no redo")
        if not self.game.undone:
            raise PliesError("nothing to redo")
        self._cancel()
        self.abandoned = False
        while self.game.undone:
            self._push(None)
            st = self.state
            if self.sides[st.to_move].kind == "human" and st.legal_moves() not in ([], [PASS]):
                break
        self._advance()

    def abandon(self) -> None:
        """Stop playing this game (a new game replaced it): the computer stops, nothing more happens."""
        self._cancel()
        self.abandoned = True
        self._changed()

    def set_analysis_level(self, level: int) -> None:
        """Analyse the game's positions at another engine level (the graph is recomputed)."""
        if self.evals.set_level(level, self.game.states):
            self._changed()

    # --- internals ----------------------------------------------------------------------------------------
    def undo_target(self) -> int | None:
        """Where an undo goes back to: the last position where a person had a move to choose."""
        return self.game.turn_before({p for p, s in enumerate(self.sides) if s.kind == "human"})

    def _push(self, move: Any, value: float | None = None, setup: bool = False) -> None:
        """Play ``move`` (None: the next one to redo) with the computer's ``value`` of it."""
        before = self.state
        if move is None:
            move = self.game.redo()
        else:
            self.game.play(move, Note(value))
        after = self.state
        if self.clock is not None and not setup and self.clock.running == before.to_move:
            self.clock.stop(increment=move != PASS)
        if move == PASS:
            self.notice = f"{before.player_names[before.to_move]} has no legal move and passes."
        elif not (self.sides[before.to_move].kind == "computer" and self.game.moves[-2:-1] == [PASS]):
            self.notice = ""  # (the computer's reply to a pass keeps its message: the person has not seen it yet)
        if not setup:
            self.evals.schedule([after])

    def _advance(self) -> None:
        """Play forced passes (with a message), finish a finished game, or start the computer's search."""
        while not self.game.over and self.state.legal_moves() == [PASS]:
            self._push(PASS)
        st = self.state
        if self.game.over:
            if self.clock is not None:
                self.clock.halt()
            if not self.finished:
                self.finished = True
                if self.on_finish is not None and self.played:
                    self.saved = None
                    pending = self.on_finish(self)
                    if pending is not None:
                        self.saving = asyncio.ensure_future(pending)
        else:
            if self.clock is not None:
                self.clock.run(st.to_move, self._flagged)
            if self.sides[st.to_move].kind == "computer" and not self.abandoned:
                self._start_thinking()
        self._changed()

    def _start_thinking(self) -> None:
        self.thinking = self.state.to_move
        self.idle.clear()
        self.error = ""
        self._think_task = asyncio.get_running_loop().create_task(self._think(self.generation, self.state))

    async def _think(self, generation: int, state: State) -> None:
        side = self.sides[state.to_move]
        assert side.computer is not None
        if self.delay:
            await asyncio.sleep(self.delay)
            if generation != self.generation:
                return
        try:
            comp = side.computer
            budget = self.clock.budget(state.to_move, state) if self.clock is not None else None
            if comp.difficulty.heavy:
                move, result = await self.pool.run(_decide, comp.player, state, None, budget, heavy=True)
            else:
                move, result = await self.pool.run(_decide, comp.player, state, comp.lock, budget)
            if move is None or move not in state.legal_moves():
                raise PliesError(f"the computer chose an illegal move {move!r}")
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a failing search must not kill the server; the page shows the reason
            if generation == self.generation:
                self.thinking = None
                self.idle.set()
                self.error = f"the computer could not move: {type(e).__name__}: {e}"
                self._changed()
            return
        if generation != self.generation or self.state is not state or self.game.over:
            return
        self.thinking = None
        value = None if result is None else round(float(result.value), 2)  # the mover's view
        self.played = True
        self._push(move, value)
        self._advance()
        if self.thinking is None:
            self.idle.set()

    def _cancel(self) -> None:
        self.generation += 1
        if self.thinking is not None:
            comp = self.sides[self.thinking].computer
            if comp is not None:
                comp.player.stop()
        self.thinking = None
        if self._think_task is not None:
            self._think_task.cancel()
            self._think_task = None
        self.idle.set()

    def _flagged(self, side: int) -> None:
        """``side``'s time ran out: it lost here, on this server's clock (a result for the history)."""
        if self.game.over:
            return
        self._cancel()
        self.played = True
        self.notice = f"{self.state.player_names[side]}'s time ran out."
        self.game.end(TIMEOUT, self.notice, 1 - side, 1.0 if side == 1 else -1.0)
        self._advance()

    def _eval_arrived(self, state: State, ev: dict[str, Any]) -> None:
        for ply in range(len(self.game.states) - 1, -1, -1):
            if self.game.states[ply] == state:
                self._send({"type": "eval", "ply": ply, "eval": ev})
                return

    def _changed(self) -> None:
        self.version += 1
        self.touched = time.monotonic()
        self._send({"type": "state"})

    def _send(self, message: dict[str, Any]) -> None:
        for q in list(self.watchers):
            try:
                q.put_nowait(message)
            except asyncio.QueueFull:  # a stuck watcher loses messages, never blocks the game
                pass

    def close(self, reason: str | None = None) -> None:
        """Stop the game's searches and clock; with a ``reason`` (the server dropped a live game), its open
        WebSockets are told why and closed, as the REST calls now answer 404 for it."""
        if reason is not None:
            self._send({"type": "closed", "message": reason})
        self._cancel()
        if self.clock is not None:
            self.clock.halt()
        for s in self.sides:
            if s.computer is not None:
                try:
                    s.computer.player.close()
                except Exception:  # closing is cleanup: the other side and the server go on; the log says why
                    log.exception("closing the computer player %s failed", s.computer.difficulty.label)


class Sessions:
    """All live games of a server, by id; old idle games are dropped to bound memory."""

    def __init__(self, pool: Workers, on_finish: OnFinish | None = None,
                 max_sessions: int = MAX_SESSIONS, idle_seconds: float = IDLE_SECONDS) -> None:
        self.pool = pool
        self.on_finish = on_finish
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self.games: dict[str, GameSession] = {}

    def create(self, owner: str, start: State, sides: Sequence[Side], delay: float = 0.0,
               custom_start: bool = False, moves: Sequence[Any] = (), clock: Clock | None = None,
               analysis_level: int | None = None) -> GameSession:
        """A new game from ``start``; ``moves`` (a pasted transcript) become its history, ``clock`` times it."""
        self.prune()
        gid = secrets.token_urlsafe(16)
        session = GameSession(gid, owner, start, sides, self.pool, self.on_finish, delay,
                              analysis_level=analysis_level, clock=clock)
        session.custom_start = custom_start
        humans = [s for s in session.sides if s.kind == "human"]
        for k, side in enumerate(humans, 1):  # "You" against the computer; "Person 1" and "Person 2" together
            if not side.name:
                side.name = "You" if len(humans) == 1 else f"Person {k}"
        for m in moves:
            session._push(m, setup=True)
        session.setup_moves = len(moves)
        session.notice = ""
        self.games[gid] = session
        session.evals.schedule(session.game.states)
        session._advance()
        return session

    def get(self, gid: str) -> GameSession | None:
        return self.games.get(gid)

    def prune(self) -> None:
        now = time.monotonic()
        stale = [g for g, s in self.games.items() if now - s.touched > self.idle_seconds and not s.watchers]
        for gid in stale:
            self.games.pop(gid).close()
        while len(self.games) >= self.max_sessions:
            oldest = min(self.games.values(), key=lambda s: s.touched)
            self.games.pop(oldest.id).close()

    def close(self) -> None:
        for s in self.games.values():
            s.close()
        self.games.clear()
