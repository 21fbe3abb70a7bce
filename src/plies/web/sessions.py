"""Live games of the browser app: positions, undo/redo, the computer's turn off the event loop, watchers.

A GameSession belongs to one browser (its owner token) and lives in the server's memory; every change bumps
``version`` and is pushed to the WebSocket watchers.  The computer searches in a worker thread; a search
started before an undo, redo or abandonment carries an old ``generation`` and its answer is dropped.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from plies.game import PASS, PliesError, State
from plies.web.boards import adapter_for, changed, counts
from plies.web.levels import Computer, position_eval, stop
from plies.web.workers import Workers

MAX_SESSIONS = 5000
IDLE_SECONDS = 6 * 3600


@dataclass
class Side:
    """One side of a game: a person, or a computer player at a level."""

    kind: str  # "human" | "computer"
    computer: Computer | None = None
    name: str = ""

    def describe(self, colour: str) -> dict[str, Any]:
        d: dict[str, Any] = {"colour": colour, "kind": self.kind, "name": self.name or colour}
        if self.computer is not None:
            d.update(level=self.computer.level, label=self.computer.label, backend=self.computer.backend,
                     name=self.name or f"Computer ({self.computer.level})")
        else:
            d.update(label="person", name=self.name or "Person")
        return d


def _search(player: Any, state: State, lock: Any = None) -> tuple[Any, Any]:
    """Run in a worker: the move and the search behind it, without touching shared player state.  With a
    ``lock`` (thread workers only) it first waits for this player's previous, stopped search to return."""
    if lock is not None:
        with lock:
            return _search(player, state)
    search = getattr(player, "search", None)
    if callable(search):
        result = search(state)
        return result.move, result
    move = player.choose(state)
    return move, getattr(player, "last_result", None)


class GameSession:
    """One game in progress: its history of positions, whose turn, what the computer is doing."""

    def __init__(
        self,
        gid: str,
        owner: str,
        start: State,
        sides: Sequence[Side],
        pool: Workers,
        on_finish: Callable[[GameSession], None] | None = None,
        delay: float = 0.0,
    ) -> None:
        self.id = gid
        self.owner = owner
        self.sides = list(sides)
        self.pool = pool
        self.on_finish = on_finish
        self.delay = delay
        self.states: list[State] = [start]
        self.moves: list[Any] = []
        self.values: list[float | None] = []  # the computer's search value after each move, player 0's view
        self.evals: list[dict[str, Any] | None] = [None]  # graph evaluation of each position
        self.diffs: list[int] = [self._diff(start)]  # disc difference (X - O) of each position
        self.redo_stack: list[tuple[Any, float | None]] = []
        self.notice = ""
        self.error = ""
        self.custom_start = False
        self.version = 0
        self.generation = 0
        self.thinking: int | None = None
        self.finished = False
        self.abandoned = False
        self.started_at = time.time()
        self.touched = time.monotonic()
        self.watchers: set[asyncio.Queue[dict[str, Any]]] = set()
        self.idle = asyncio.Event()
        self.idle.set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._think_task: asyncio.Task[Any] | None = None

    # --- reading ------------------------------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.states[-1]

    def side(self, player: int) -> Side:
        return self.sides[player]

    @property
    def has_human(self) -> bool:
        return any(s.kind == "human" for s in self.sides)

    def transcript(self) -> str:
        """Moves run together without passes (``f5d6c3``), the form every Othello program reads; games whose
        moves contain spaces (HexThello's ``7 3``) separate them with commas."""
        out = [self.states[i].move_str(m) for i, m in enumerate(self.moves) if m != PASS]
        return ", ".join(out) if any(" " in m for m in out) else "".join(out)

    def move_names(self) -> list[str]:
        return [self.states[i].move_str(m) for i, m in enumerate(self.moves)]

    def result(self) -> dict[str, Any] | None:
        out = self.state.outcome()
        if out is None:
            return None
        names = [self.sides[p].describe(self.state.player_names[p])["name"] for p in (0, 1)]
        colours = self.state.player_names
        if out.winner is None:
            text = "Draw"
        else:
            margin = abs(out.score)
            who = f"{colours[out.winner]} ({names[out.winner]})"
            text = f"{who} wins" + (f" by {margin:g}" if self.state.game != "tictactoe" else "")
        return {"winner": out.winner, "score": out.score, "text": text}

    def view(self, owner: bool = False) -> dict[str, Any]:
        """Everything the page needs to draw the game, as JSON."""
        st = self.state
        ad = adapter_for(st)
        cells = ad.cells(st)
        last = next((i for i in range(len(self.moves) - 1, -1, -1) if self.moves[i] != PASS), None)
        last_move = flipped = None
        if last is not None:
            before = self.states[last]
            last_move = {"index": self.moves[last], "move": before.move_str(self.moves[last]),
                         "side": before.to_move, "ply": last + 1}
            flipped = changed(ad.cells(before), ad.cells(self.states[last + 1]))
        legal = [{"index": m, "move": st.move_str(m)} for m in st.legal_moves() if m != PASS]
        moves = [{"ply": i + 1, "move": self.states[i].move_str(m), "side": self.states[i].to_move,
                  "value": self.values[i]} for i, m in enumerate(self.moves)]
        return {
            "id": self.id,
            "game": st.game,
            "version": self.version,
            "ply": len(self.moves),
            "layout": ad.layout(st),
            "cells": cells,
            "counts": counts(cells),
            "to_move": None if st.is_over() else st.to_move,
            "side_names": list(st.player_names),
            "players": [self.sides[p].describe(st.player_names[p]) for p in (0, 1)],
            "legal": legal,
            "last_move": last_move,
            "flipped": flipped or [],
            "over": st.is_over(),
            "result": self.result(),
            "notice": self.notice,
            "error": self.error,
            "thinking": self.thinking,
            "can_undo": self.has_human and self._undo_target() is not None,
            "can_redo": self.has_human and bool(self.redo_stack),
            "moves": moves,
            "transcript": self.transcript(),
            "start": self.states[0].to_text(),
            "custom_start": self.custom_start,
            "position": st.to_text(),
            "evals": self.evals,
            "disc_diff": self.diffs,
            "owner": owner,
        }

    # --- changing -----------------------------------------------------------------------------------------
    def move(self, text: str) -> None:
        """A person's move in the game's notation; PliesError says why it is refused."""
        st = self.state
        if st.is_over():
            raise PliesError("the game is over")
        if self.sides[st.to_move].kind != "human":
            raise PliesError("it is the computer's turn")
        if not isinstance(text, str) or not text.strip():
            raise PliesError("no move given")
        move = st.parse_move(text)
        self.abandoned = False  # playing on in a replaced game brings it back
        self.redo_stack.clear()
        self._push(move)
        self._advance()

    def undo(self) -> None:
        """Take back moves to the last position where a person was to move (passes and replies included)."""
        if not self.has_human:
            raise PliesError("undo is for games with a person playing")
        k = self._undo_target()
        if k is None:
            raise PliesError("nothing to undo")
        self._cancel()
        self.abandoned = False
        while len(self.states) - 1 > k:
            self.states.pop()
            self.evals.pop()
            self.diffs.pop()
            self.redo_stack.append((self.moves.pop(), self.values.pop()))
        self.notice = ""
        self.finished = False
        self._advance()

    def redo(self) -> None:
        """Play again the moves undone last, up to the next position where a person is to move."""
        if not self.has_human:
            raise PliesError("redo is for games with a person playing")
        if not self.redo_stack:
            raise PliesError("nothing to redo")
        self._cancel()
        self.abandoned = False
        while self.redo_stack:
            move, value = self.redo_stack.pop()
            self._push(move, value)
            st = self.state
            if self.sides[st.to_move].kind == "human" and st.legal_moves() not in ([], [PASS]):
                break
        self._advance()

    def abandon(self) -> None:
        """Stop playing this game (a new game replaced it): the computer stops, nothing more happens."""
        self._cancel()
        self.abandoned = True
        self._changed()

    # --- internals ----------------------------------------------------------------------------------------
    def _undo_target(self) -> int | None:
        for k in range(len(self.states) - 2, -1, -1):
            st = self.states[k]
            if self.sides[st.to_move].kind == "human" and st.legal_moves() not in ([], [PASS]):
                return k
        return None

    @staticmethod
    def _diff(state: State) -> int:
        c = counts(adapter_for(state).cells(state))
        return c["X"] - c["O"]

    def _push(self, move: Any, value: float | None = None) -> None:
        before = self.state
        after = before.play(move)
        self.diffs.append(self._diff(after))
        self.states.append(after)
        self.moves.append(move)
        self.values.append(value)
        self.evals.append(None)
        if move == PASS:
            self.notice = f"{before.player_names[before.to_move]} has no legal move and passes."
        else:
            self.notice = ""
        self._schedule_eval(len(self.states) - 1, after)

    def _advance(self) -> None:
        """Play forced passes (with a message), finish a finished game, or start the computer's search."""
        while not self.state.is_over() and self.state.legal_moves() == [PASS]:
            self._push(PASS)
        st = self.state
        if st.is_over():
            if not self.finished:
                self.finished = True
                if self.on_finish is not None:
                    self.on_finish(self)
        elif self.sides[st.to_move].kind == "computer" and not self.abandoned:
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
            if comp.heavy and comp.backend != "engine":
                move, result = await self.pool.run(_search, comp.player, state, heavy=True)
            else:
                move, result = await self.pool.run(_search, comp.player, state, comp.lock)
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
        if generation != self.generation or self.state is not state:
            return
        self.thinking = None
        value = None
        if result is not None and getattr(result, "value", None) is not None:
            v = float(result.value)
            value = round(v if state.to_move == 0 else -v, 2)
        self._push(move, value)
        self._advance()
        if self.thinking is None:
            self.idle.set()

    def _cancel(self) -> None:
        self.generation += 1
        if self.thinking is not None:
            comp = self.sides[self.thinking].computer
            if comp is not None:
                stop(comp.player)
        self.thinking = None
        if self._think_task is not None:
            self._think_task.cancel()
            self._think_task = None
        self.idle.set()

    def _schedule_eval(self, index: int, state: State) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover - sessions are driven from the event loop
            return

        async def run() -> None:
            try:
                ev = await self.pool.run(position_eval, state)
            except Exception:
                return
            if index < len(self.states) and self.states[index] is state:
                self.evals[index] = ev
                self._send({"type": "eval", "ply": index, "eval": ev})

        task = loop.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def start_evals(self) -> None:
        """Evaluate the start position (called once the session is inside the event loop)."""
        self._schedule_eval(0, self.states[0])

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

    def close(self) -> None:
        self._cancel()
        for s in self.sides:
            if s.computer is not None:
                try:
                    s.computer.player.close()
                except Exception:
                    pass


class Sessions:
    """All live games of a server, by id; old idle games are dropped to bound memory."""

    def __init__(self, pool: Workers, on_finish: Callable[[GameSession], None] | None = None,
                 max_sessions: int = MAX_SESSIONS, idle_seconds: float = IDLE_SECONDS) -> None:
        self.pool = pool
        self.on_finish = on_finish
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self.games: dict[str, GameSession] = {}

    def create(self, owner: str, start: State, sides: Sequence[Side], delay: float = 0.0,
               custom_start: bool = False) -> GameSession:
        self.prune()
        gid = secrets.token_urlsafe(16)
        session = GameSession(gid, owner, start, sides, self.pool, self.on_finish, delay)
        session.custom_start = custom_start
        self.games[gid] = session
        session.start_evals()
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
