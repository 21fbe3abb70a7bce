"""Live games of the browser app: a ``Game`` with its sides, what a person does to it (move, undo, redo, go back
and play on), and the play loop that takes the other turns.

A GameSession belongs to one browser (its owner token) and lives in the server's memory; each person's side is
played by a browser token (the owner's, or a friend's once they join with the game's invite code); every change
bumps ``version`` and is pushed to the WebSocket watchers.  Turns are taken by the play loop
(``plies.match.record.play_on_async``) with the seats of ``plies.web.turns``: it plays forced passes and the
computer's moves, waits at a person's turn and ends the game; whatever a person does stops it (a search in
progress is told to stop and its answer dropped) and starts it again from the new position.  The clock
(``clock.py``), the evaluation graph (``evals.py``) and the JSON views (``views.py``) have their own modules.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from plies.game import PASS, Move, PliesError, State
from plies.games.record import RESIGNED, TIMEOUT, Game
from plies.i18n import N_, _
from plies.match.record import play_on_async
from plies.web import views
from plies.web.analyst import Analyst, shared_analyst
from plies.web.clock import Clock
from plies.web.evals import Evals
from plies.web.turns import Computer, ComputerSeat, PersonSeat
from plies.web.workers import Workers

log = logging.getLogger("plies.web")

OnFinish = Callable[["GameSession"], Awaitable[object] | None]
"""Called when a game a person or the computer played here ends; what it returns (the store) is awaited before
any answer shows the end."""

MAX_SESSIONS = 5000
IDLE_SECONDS = 6 * 3600
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""The letters of an invite code: no 0/O or 1/I to mix up when it is read out."""
CODE_LENGTH = 8
"""An invite code's letters, shown as two groups of four (``K7QX-2MHP``): about 10^12 codes, too many to guess."""
NOT_SEATED = N_("you are watching this game: it is played by another browser, so you can follow it but not move in it")


class NotSeated(PliesError):
    """The browser plays no side of this game: it may watch, not play (HTTP 403)."""


@dataclass
class Side:
    """One side of a game: a person, or a computer player at a level.  A person's side is played by the browser
    with ``token``; a ``friend`` side waits for a second browser (``token`` None until it joins)."""

    kind: str  # "human" | "computer"
    computer: Computer | None = None
    name: str = ""
    token: str | None = None
    friend: bool = False


class GameSession:
    """One game in progress: its history of positions, whose turn, what the computer is doing."""

    def __init__(self, gid: str, owner: str, start: State, sides: Sequence[Side], pool: Workers,
                 on_finish: OnFinish | None = None, delay: float = 0.0, analysis_level: int | None = None,
                 clock: Clock | None = None, analyst: Analyst | None = None) -> None:
        self.id, self.owner, self.pool, self.on_finish, self.delay = gid, owner, pool, on_finish, delay
        self.clock = clock
        self.sides = list(sides)
        self.seats = [PersonSeat(self) if s.computer is None else ComputerSeat(self, s.computer) for s in self.sides]
        self.analyst = analyst or shared_analyst()
        self.evals = Evals(self.analyst, analysis_level, self._eval_arrived)
        self.game = Game(start)  # the moves, the computer's values (its Notes), what undo took back, the end
        self.setup_moves = 0  # moves that came with the set-up (a pasted transcript)
        self.notice = ""
        self.said: tuple[str, dict[str, str]] = ("", {})  # the notice as its message and names, to translate
        self.error = ""
        self.custom_start = False
        self.version = 0
        self.thinking: int | None = None
        self.code: str | None = None  # the invite code of a game with a friend's side
        self.rematch: str | None = None  # the id of the game that replays this one with the colours swapped
        self.undo_offer: int | None = None  # the side that asked to take back its last move (two browsers)
        self.finished = False
        self.played = False  # a move was played here (a pasted finished game is not saved again)
        self.abandoned = False
        self.was_watched = False  # a browser watched it over a WebSocket (and may have left since)
        self.saving: asyncio.Future[object] | None = None  # the store of the finished game, until it committed
        self.saved: bool | None = None  # True once stored, False when it could not be (``error`` says why)
        self.started_at = time.time()
        self.touched = time.monotonic()
        self.watchers: set[asyncio.Queue[views.Message]] = set()
        self.idle = asyncio.Event()  # set while the computer is not thinking
        self.idle.set()
        self._turns: asyncio.Task[None] | None = None
        self._waiting = asyncio.Event()  # set once the play loop waits (a person, the computer) or has ended

    # --- reading ------------------------------------------------------------------------------------------
    async def settled(self) -> None:
        """Wait until the store of a finished game has committed (or failed): an answer that says the game is
        over is built only after this, so a crash at any instant loses no game a player was told had ended."""
        while self.game.over and not self.finished and self._turns is not None and not self._turns.done():
            await asyncio.sleep(0)  # a person's move ended it: the play loop has yet to see the end
        while self.saving is not None and not self.saving.done():
            saving = self.saving
            with contextlib.suppress(Exception):  # the save reports its own failure (``saved``, ``error``)
                await asyncio.shield(saving)

    async def answer(self, viewer: str | None = None) -> views.GameView:
        """``view`` for the browser with token ``viewer`` once the game's store has committed: what every answer
        to a client sends."""
        await self.settled()
        return views.view(self, viewer)

    @property
    def state(self) -> State:
        return self.game.state

    @property
    def analysis_level(self) -> int:
        return self.evals.level

    @property
    def has_human(self) -> bool:
        return any(s.kind == "human" for s in self.sides)

    @property
    def with_friend(self) -> bool:
        """A game between two browsers (a side for a friend)."""
        return any(s.friend for s in self.sides)

    def seats_of(self, token: str | None) -> list[int]:
        """The sides the browser with ``token`` plays (both on one screen, none for a watcher)."""
        return [p for p, s in enumerate(self.sides) if token is not None and s.token == token]

    def open_seat(self) -> int | None:
        """The friend's side while nobody has taken it."""
        return next((p for p, s in enumerate(self.sides) if s.friend and s.token is None), None)

    def join(self, token: str, name: str = "") -> int | None:
        """Seat the browser with ``token`` on the open side (``name``: what the other player sees) and return it;
        its side when it plays one already; None when both seats are taken (it watches)."""
        mine = self.seats_of(token)
        if mine:
            return mine[0]
        seat = self.open_seat()
        if seat is None:
            return None
        side = self.sides[seat]
        side.token = token
        if name.strip():
            side.name = name.strip()
        self.say(N_("{name} joined: they play {side}."), name=side.name, side=self.state.player_names[seat])
        if self.clock is not None and not self.game.over and self.thinking is None and self._turns is not None:
            self.clock.run(self.state.to_move, self._flagged)  # the clocks start once both players are here
        self._changed()
        return seat

    def resign(self, token: str | None) -> None:
        """The side of ``token`` resigns (on one screen, the side to move): the other side wins."""
        mine = self.seats_of(token)
        if not mine:
            raise NotSeated(_(NOT_SEATED))
        if self.game.over:
            raise PliesError(_("the game is over"))
        side = mine[0] if len(mine) == 1 else self.state.to_move
        self._stop()
        self.played = True
        self.say(N_("{side} resigns."), side=self.state.player_names[side])
        self.undo_offer = None
        self.game.end(RESIGNED, self.notice, 1 - side, 1.0 if side == 1 else -1.0)
        self._finish()

    def undo_target(self) -> int | None:
        """Where an undo goes back to: the last position where a person had a move to choose."""
        return self.game.turn_before({p for p, s in enumerate(self.sides) if s.kind == "human"})

    # --- what a person does ---------------------------------------------------------------------------------
    async def move(self, text: str, token: str | None = None) -> None:
        """A person's move in the game's notation, from the browser with ``token`` when given (it must play the
        side to move); PliesError says why it is refused."""
        st = self.state
        if token is not None and not self.seats_of(token):
            raise NotSeated(_(NOT_SEATED))
        if self.game.over:
            raise PliesError(_("the game is over"))
        if self.abandoned and self.clock is not None and self.clock.flagged is not None:
            raise PliesError(_(self.said[0]).format(**self.said[1]))  # it stopped when a clock ran out unwatched
        if self.sides[st.to_move].kind != "human":
            raise PliesError(_("it is the computer's turn"))
        if token is not None and self.sides[st.to_move].token != token:
            name = st.player_names[st.to_move]
            if self.sides[st.to_move].token is None:
                raise PliesError(_("it is {name}'s turn: wait for the other player joins").format(name=name))
            raise PliesError(_("it is {name}'s turn: wait for their move").format(name=name))
        if not text.strip():
            raise PliesError(_("no move given"))
        move = st.parse_move(text)
        self._stop()
        self.played = True
        self.game.play(move)
        self._moved(self.game)
        await self.take_turns()

    async def branch(self, ply: int, text: str | None = None) -> None:
        """Go back to the position after ``ply`` moves and play ``text`` there (a person's move), or let the
        side to move there play on: the moves after it are replaced (Redo brings them back until a new move
        is played; Undo takes the new move back)."""
        self._people_only(N_("going back"))
        if not 0 <= ply <= len(self.game.moves):
            raise PliesError(_("no position after move {ply}: the game has {moves} moves").format(
                ply=ply, moves=len(self.game.moves)))
        st = self.game.states[ply]
        move = None
        if text:
            if st.is_over():
                raise PliesError(_("the game is over in that position"))
            if self.sides[st.to_move].kind != "human":
                raise PliesError(_("it is the computer's turn in that position"))
            move = st.parse_move(text)
        self._back(ply, redo=False)
        if move is not None:
            self.played = True
            self.game.play(move)
            self._moved(self.game)
        await self.take_turns()

    async def undo(self) -> None:
        """Take back moves to the last position where a person was to move (passes and replies included)."""
        self._people_only(N_("undo"))
        k = self.undo_target()
        if k is None:
            raise PliesError(_("nothing to undo"))
        self._back(k)
        await self.take_turns()

    async def take_back(self, token: str | None) -> None:
        """A game between two browsers: the first request asks to take back the asker's last move (and the reply
        to it), the other player's request agrees and takes it back; a move played meanwhile withdraws the
        question."""
        mine = self.seats_of(token)
        if not mine:
            raise NotSeated(_(NOT_SEATED))
        if self.clock is not None:
            raise PliesError(_("a timed game has no undo"))
        if self.game.over:
            raise PliesError(_("the game is over"))
        side, names = mine[0], self.state.player_names
        if self.undo_offer is None:
            if self.game.turn_before({side}) is None:
                raise PliesError(_("nothing to take back: you have not moved yet"))
            self.undo_offer = side
            self.say(N_("{side} asks to take back their last move."), side=names[side])
            self._changed()
            return
        if self.undo_offer == side:
            raise PliesError(_("you have asked already: wait for the other player's answer"))
        asker, self.undo_offer = self.undo_offer, None
        k = self.game.turn_before({asker})
        if k is None:  # (cannot happen while the question stands: a move withdraws it)
            raise PliesError(_("nothing to take back"))
        self._back(k)
        self.say(N_("{side} agreed: {asker}'s last move is taken back."), side=names[side], asker=names[asker])
        await self.take_turns()

    def decline(self, token: str | None) -> None:
        """The other player of a game between two browsers says no to the question to take back a move."""
        mine = self.seats_of(token)
        if not mine:
            raise NotSeated(_(NOT_SEATED))
        if self.undo_offer is None or self.undo_offer in mine:
            raise PliesError(_("no question to take back a move waits for your answer"))
        names, asker, self.undo_offer = self.state.player_names, self.undo_offer, None
        self.say(N_("{side} said no: {asker}'s move stands."), side=names[mine[0]], asker=names[asker])
        self._changed()

    async def redo(self) -> None:
        """Play again the moves undone last, up to the next position where a person is to move."""
        self._people_only(N_("redo"))
        if not self.game.undone:
            raise PliesError(_("nothing to redo"))
        self._stop()
        while self.game.undone:
            self.game.redo()
            self._moved(self.game)
            st = self.state
            if self.sides[st.to_move].kind == "human" and st.legal_moves() not in ([], [PASS]):
                break
        await self.take_turns()

    def abandon(self) -> None:
        """Stop playing this game (a new game replaced it, or every browser left it and its clock ran out): the
        computer and the clock stop, and a game with moves played here is kept in the history as unfinished."""
        self._stop()
        if self.clock is not None:
            self.clock.halt()
        self.abandoned = True
        self.keep_unfinished()
        self._changed()

    def left(self) -> None:
        """The last browser watching this game went away: an unfinished game with moves played here is kept in
        the history as unfinished (a browser that comes back plays on, and the end replaces that row)."""
        self.was_watched = True
        if not self.watchers:
            self.keep_unfinished()

    def keep_unfinished(self) -> None:
        """Store the game as it stands, unfinished, when moves were played here; a game of no moves is not kept."""
        if self.game.over or self.on_finish is None or not self.played or len(self.game.moves) <= self.setup_moves:
            return
        pending = self.on_finish(self)
        if pending is not None:
            self.saving = asyncio.ensure_future(pending)

    def set_analysis_level(self, level: int) -> None:
        """Analyse the game's positions at another engine level (the graph is recomputed)."""
        if self.evals.set_level(level, self.game.states):
            self._changed()

    def say(self, message: str, **names: str) -> None:
        """Show ``message`` (English, marked ``N_``) with ``names`` filled in: each page reads it in its own
        language (``views.notice``)."""
        self.notice, self.said = message.format(**names), (message, names)

    def _people_only(self, what: str) -> None:
        if not self.has_human:
            raise PliesError(_("{what} is for games with a person playing").format(what=_(what)))
        if self.with_friend:
            raise PliesError(_("a game between two browsers has no {what}").format(what=_(what)))
        if self.clock is not None:
            raise PliesError(_("a timed game has no {what}").format(what=_(what)))

    def _back(self, ply: int, redo: bool = True) -> None:
        """Take back the moves after ``ply`` (kept for redo, or instead of what redo held)."""
        self._stop()
        if not redo:
            self.game.undone.clear()
        self.game.undo(ply)
        self.setup_moves = min(self.setup_moves, ply)
        self.notice = ""
        self.finished = False

    # --- the play loop ------------------------------------------------------------------------------------
    async def take_turns(self) -> None:
        """Let the play loop go on from the position now, and return once it waits for a person or the
        computer, or has ended the game: the answer to the request that started it shows that."""
        self._stop()
        self.abandoned = False
        self._waiting = waiting = asyncio.Event()
        self._turns = asyncio.get_running_loop().create_task(self._play())
        await waiting.wait()

    async def _play(self) -> None:
        try:
            await play_on_async(self.game, self.seats, self._moved, ask_passes=False)
        except Exception as e:  # a failing search must not kill the server; the page shows the reason
            self.thinking = None
            self.error = f"the computer could not move: {type(e).__name__}: {e}"
            self._wait_for_people()
            return
        self._finish()

    def turn(self, side: int, thinking: bool) -> None:
        """The play loop asks ``side`` (``thinking``: the computer) to move: its clock runs (once the friend of a
        game between two browsers has joined)."""
        if self.clock is not None and self.open_seat() is None:
            self.clock.run(side, self._flagged)
        if thinking:
            self.thinking, self.error = side, ""
            self.idle.clear()
            self._waiting.set()
            self._changed()
        else:
            self._wait_for_people()

    def _moved(self, game: Game[State]) -> None:
        """After each move: the mover's clock stops (its increment added unless it passed), a pass is said, the
        new position is analysed."""
        before, move = game.states[-2], game.moves[-1]
        self.undo_offer = None  # a move played withdraws a question to take one back
        if self.clock is not None and self.clock.running == before.to_move:
            self.clock.stop(increment=move != PASS)
        if move == PASS:
            self.say(N_("{side} has no legal move and passes."), side=before.player_names[before.to_move])
        elif not (self.sides[before.to_move].kind == "computer" and game.moves[-2:-1] == [PASS]):
            self.notice = ""  # (the computer's reply to a pass keeps its message: the person has not seen it yet)
        self.evals.schedule([game.state])
        self._changed()

    def _finish(self) -> None:
        """The game is over: its clock stops, and it is stored when a move was played here."""
        if self.clock is not None:
            self.clock.halt()
        if not self.finished:
            self.finished = True
            if self.on_finish is not None and self.played:
                self.saved = None
                pending = self.on_finish(self)
                if pending is not None:
                    self.saving = asyncio.ensure_future(pending)
        self._wait_for_people()

    def _wait_for_people(self) -> None:
        self.idle.set()
        self._waiting.set()
        self._changed()

    def _stop(self) -> None:
        """Stop the play loop: a search in progress is told to stop, and its answer will be dropped."""
        if self.thinking is not None:
            comp = self.sides[self.thinking].computer
            if comp is not None:
                comp.player.stop()
        if self._turns is not None:
            self._turns.cancel()
            self._turns = None
        self.thinking = None
        self.idle.set()
        self._waiting.set()  # (a request still waiting for the loop it started answers now)

    def _flagged(self, side: int) -> None:
        """``side``'s time ran out: it lost here, on this server's clock (a result for the history); when every
        browser had left the game, nobody lost it: it stops, unfinished."""
        if self.game.over or self.abandoned:
            return
        if self.was_watched and not self.watchers:
            self.say(N_("{side}'s time ran out with nobody at the game: it stopped unfinished."),
                     side=self.state.player_names[side])
            self.abandon()
            return
        self._stop()
        self.played = True
        self.say(N_("{side}'s time ran out."), side=self.state.player_names[side])
        self.game.end(TIMEOUT, self.notice, 1 - side, 1.0 if side == 1 else -1.0)
        self._finish()

    # --- watchers -------------------------------------------------------------------------------------------
    def _eval_arrived(self, state: State, ev: views.Summary) -> None:
        for ply in range(len(self.game.states) - 1, -1, -1):
            if self.game.states[ply] == state:
                self._send({"type": "eval", "ply": ply, "eval": ev})
                return

    def touch(self) -> None:
        """Tell the watchers that the game's view changed (a rematch, a seat taken)."""
        self._changed()

    def _changed(self) -> None:
        self.version += 1
        self.touched = time.monotonic()
        self._send({"type": "state"})

    def _send(self, message: views.Message) -> None:
        for q in list(self.watchers):
            with contextlib.suppress(asyncio.QueueFull):  # a stuck watcher loses messages, never blocks the game
                q.put_nowait(message)

    def close(self, reason: str | None = None) -> None:
        """Stop the game's searches and clock; with a ``reason`` (the server dropped a live game), its open
        WebSockets are told why and closed, as the REST calls now answer 404 for it."""
        if reason is not None:
            self._send({"type": "closed", "message": reason})
        self._stop()
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
        self.codes: dict[str, str] = {}  # invite code -> game id

    async def create(self, owner: str, start: State, sides: Sequence[Side], delay: float = 0.0,
                     custom_start: bool = False, moves: Sequence[Move] = (), clock: Clock | None = None,
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
            if side.token is None and not side.friend:
                side.token = owner
        if session.with_friend:
            session.code = self._new_code(gid)
        for m in moves:
            session.game.play(m)
        session.setup_moves = len(moves)
        self.games[gid] = session
        session.evals.schedule(session.game.states)
        await session.take_turns()
        return session

    def get(self, gid: str) -> GameSession | None:
        return self.games.get(gid)

    def by_code(self, code: str) -> GameSession | None:
        """The live game with the invite ``code`` (any case, spaces and dashes ignored)."""
        gid = self.codes.get("".join(c for c in code.upper() if c.isalnum()))
        return self.games.get(gid) if gid is not None else None

    def _new_code(self, gid: str) -> str:
        for gone in [c for c, g in self.codes.items() if g not in self.games]:
            del self.codes[gone]
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in self.codes:
                self.codes[code] = gid
                return f"{code[:4]}-{code[4:]}"

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
        self.codes.clear()

