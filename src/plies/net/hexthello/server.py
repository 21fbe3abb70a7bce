"""A HexThello server byte-compatible with the course's C ``server`` and clients, and sturdier.

Message order (PROTOCOLS.md): the first agent to connect is WHITE (102), the second BLACK (103); each gets 106
and answers with its name; every game starts with 101 + position to both; the side to move gets 104 and
answers with a move; a legal move is forwarded to the other side with 105 (the two bytes as they came) unless
the game is over; with ``swap`` the colours change after each game, the last one included (102/103 again, as
the C server does); 107 ends the match.

Better than the original: every connection is served by its own task, so a silent or slow agent only costs its
own slot: names are asked the moment an agent connects (the guiServer's order, which every course client
accepts), with a time limit, and matches run side by side (``parallel``); a per-move time limit (on by
default; late = loss), a disconnect loses instead of hanging the server, an illegal or off-board move loses
with the reason recorded, every game and move is committed to SQLite as it happens (in one database thread,
so the event loop never waits on the disk), games a killed server left are marked ``interrupted`` and match
numbers go on from the database, a running summary per name, holes (ILLEGAL cells), and listeners (the web
viewer) see every event.  A person may take a seat from the viewer and play an agent waiting in the lobby;
the person's moves are timed too.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar, TypeVarTuple

from plies.game import PASS, IllegalMoveError, PliesError
from plies.games.hexthello import ON_BOARD, SIZE, HexThelloState, bits, move_text
from plies.games.record import CRASH, NORMAL, Game, count_result
from plies.match.record import Forfeit, IllegalAnswer, NoAnswer, play_on_async
from plies.net.hexthello import protocol as P
from plies.net.hexthello.schema import Cell, Event, Played, Snapshot, StateEvent, SummaryRow
from plies.net.hexthello.store import Store
from plies.storage import StorageError

if TYPE_CHECKING:
    from rich.table import Table

COLOURS = ("black", "white")  # indexed by plies player: 0 Black, 1 White
DEFAULT_MOVE_TIME = 60.0
"""Seconds an agent has for a move unless ``--move-time`` says otherwise (0 = no limit, as the course's server,
which has none: a course agent that deepens on ``clock()`` may think longer than a minute for a move)."""
DEFAULT_NAME_TIME = 10.0
DEFAULT_PERSON_TIME = 300.0
"""Seconds a person at the viewer has for a move."""
MAX_AGENTS = 256
"""Connections served at once (in the lobby, naming, or playing); more are told 107 and closed."""
MAX_NAMES = 10_000
"""Names kept in the running summary; games of names beyond it are counted under OTHERS."""
OTHERS = "(others)"
SUMMARY_ROWS = 20
HISTORY = 50
MAX_SEAT_REQUESTS = 16

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class Gone(Exception):
    """The other end closed the connection (or writing to it failed)."""


class Seat:
    """One side of a game: an agent on a socket, or a person in the browser."""

    name: str = "?"
    alive: bool = True
    kind: str = "agent"
    number: int = 0

    async def set_colour(self, player: int) -> None: ...

    async def ask_name(self, timeout: float | None) -> str:
        return self.name

    async def new_position(self, state: HexThelloState) -> None: ...

    async def request_move(self, state: HexThelloState, timeout: float | None) -> tuple[int, int]:
        raise NotImplementedError

    async def tell_move(self, row: int, col: int) -> None: ...

    async def quit(self) -> None: ...

    def seated(self, game_id: int, colour: int) -> None: ...


class AgentSeat(Seat):
    """A program speaking the course protocol over TCP."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, number: int,
                 write_time: float = 30.0) -> None:
        self.reader, self.writer, self.number = reader, writer, number
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if peer else "?"
        self.name = f"agent{number}"
        self.told: int | None = None  # the colour (plies player) this agent was last told
        self.write_time = write_time

    async def _send(self, data: bytes) -> None:
        if not self.alive:
            raise Gone("connection already closed")
        try:
            self.writer.write(data)
            await asyncio.wait_for(self.writer.drain(), self.write_time)
        except TimeoutError:  # an agent that does not read its messages
            self.close()
            raise Gone(f"not reading (nothing taken for {self.write_time:g} s)") from None
        except (ConnectionError, OSError, RuntimeError) as e:
            self.close()
            raise Gone(str(e) or "connection lost") from None

    async def _read(self, n: int, timeout: float | None) -> bytes:
        try:
            return await asyncio.wait_for(self.reader.readexactly(n), timeout)
        except asyncio.IncompleteReadError:
            self.close()
            raise Gone("disconnected") from None
        except TimeoutError:  # a subclass of OSError: the caller decides
            raise
        except (ConnectionError, OSError) as e:
            self.close()
            raise Gone(str(e) or "connection lost") from None

    async def set_colour(self, player: int) -> None:
        await self._send(bytes([P.COLOR_B if player == 0 else P.COLOR_W]))
        self.told = player

    async def ask_name(self, timeout: float | None) -> str:
        """106, then the length byte read as the C server reads it (a signed char) and that many bytes; the
        whole answer within ``timeout``.  ProtocolError for a negative length."""
        await self._send(bytes([P.REQUEST_NAME]))

        async def read() -> str:
            n = P.name_length((await self._read(1, None))[0])
            return P.decode_name(await self._read(n, None)) if n else "anon"

        self.name = await asyncio.wait_for(read(), timeout)
        return self.name

    async def new_position(self, state: HexThelloState) -> None:
        await self._send(bytes([P.NEW_POSITION]) + P.encode_position(state))

    async def request_move(self, state: HexThelloState, timeout: float | None) -> tuple[int, int]:
        await self._send(bytes([P.REQUEST_MOVE]))
        return P.decode_move(await self._read(2, timeout))

    async def tell_move(self, row: int, col: int) -> None:
        await self._send(bytes([P.PREPARE_TO_RECEIVE_MOVE, row & 0xFF, col & 0xFF]))

    async def quit(self) -> None:
        with contextlib.suppress(Gone):
            await self._send(bytes([P.QUIT]))
        self.close()

    def gone(self) -> bool:
        """True once the agent closed its end (seen without reading: an agent that left the lobby)."""
        if self.reader.at_eof() or self.writer.is_closing():
            self.close()
        return not self.alive

    def close(self) -> None:
        if self.alive:
            self.alive = False
            with contextlib.suppress(Exception):
                self.writer.close()


class HumanSeat(Seat):
    """A person at the web viewer: moves arrive through ``offer``; an illegal click is refused, not lost.
    ``send`` reaches this person's page only (notices, the game they sit in)."""

    kind = "human"

    def __init__(self, name: str = "human", send: Callable[[Event], None] | None = None) -> None:
        self.name = name
        self.moves: asyncio.Queue[tuple[int, int]] = asyncio.Queue(maxsize=64)
        self.send = send or (lambda event: None)
        self.waiting = False

    def notify(self, text: str) -> None:
        self.send({"type": "notice", "text": text})

    def seated(self, game_id: int, colour: int) -> None:
        self.send({"type": "seated", "game_id": game_id, "colour": COLOURS[colour]})

    def offer(self, row: int, col: int) -> None:
        with contextlib.suppress(asyncio.QueueFull):  # a flood of clicks: the extra ones are dropped
            self.moves.put_nowait((row, col))

    async def request_move(self, state: HexThelloState, timeout: float | None) -> tuple[int, int]:
        self.waiting = True
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            while True:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                row, col = await asyncio.wait_for(self.moves.get(), left)
                if not self.alive:
                    raise Gone("the person left")
                try:
                    move = P.move_from_rowcol(row, col)
                    if move not in state.legal_moves():
                        state.play(move)
                        raise IllegalMoveError("not a legal move")
                    return row, col
                except PliesError as e:  # a misclick is refused with the reason
                    self.notify(f"({row} {col}): {e}")
        finally:
            self.waiting = False

    def leave(self) -> None:
        self.alive = False
        with contextlib.suppress(asyncio.QueueFull):
            self.moves.put_nowait((P.NULL_MOVE, 0))


@dataclass
class Tally:
    """One name's running totals over everything this server has played."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    discs_for: int = 0
    discs_against: int = 0

    def row(self, name: str) -> SummaryRow:
        return {"name": name, "games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "discs_for": self.discs_for, "discs_against": self.discs_against}


def reason(game: Game[HexThelloState]) -> str:
    """Why a game ended as the server stores it: ``normal``, or what lost it (``time: no move within 60 s``)."""
    return game.detail if game.termination != NORMAL else NORMAL


def result_text(game: Game[HexThelloState], names: tuple[str, str]) -> str:
    """``ann (black) wins 40-29``, ``draw 32-32``, ``bob (white) wins 3-4: disconnected (...)``."""
    outcome = game.outcome()
    b, w = game.state.counts()
    if outcome is None or outcome.winner is None:
        return f"draw {b}-{w}"
    who = f"{names[outcome.winner]} ({COLOURS[outcome.winner]}) wins {b}-{w}"
    return who if game.termination == NORMAL else f"{who}: {game.detail}"


@dataclass
class Live:
    """A game being played (``played``, its moves and end): what the viewer draws."""

    id: int
    match: int
    game: int
    names: tuple[str, str]
    kinds: tuple[str, str]
    played: Game[HexThelloState] = field(default_factory=lambda: Game(HexThelloState.start()))


class HexServer:
    """Accepts agents, pairs them in connection order into matches of ``games`` games, plays up to
    ``parallel`` matches at once and serves ``matches`` matches in all (0 = for ever).  ``listeners`` get a
    dict after every event (the viewer).  ``holes`` (a cell mask) are taken off the board of every game.
    ``start`` is the position every game starts from (default: the course's start); the 101 message carries
    it, side to move included, as the course's guiServer sends a position in play, and the stored moves are
    the moves from it."""

    def __init__(self, host: str = "127.0.0.1", port: int = P.DEFAULT_PORT, games: int = 1, swap: bool = False,
                 move_time: float | None = DEFAULT_MOVE_TIME, store: Store | None = None, matches: int = 1,
                 name_time: float | None = DEFAULT_NAME_TIME, log: Callable[[str], None] | None = None,
                 on_game: Callable[[HexServer], None] | None = None, holes: int = 0, parallel: int = 8,
                 max_agents: int = MAX_AGENTS, person_time: float | None = DEFAULT_PERSON_TIME,
                 summary_every: float = 0.0, start: HexThelloState | None = None) -> None:
        self.host, self.port, self.games, self.swap = host, port, games, swap
        self.move_time = move_time or None  # 0 = no limit
        self.name_time = name_time or None
        self.person_time = person_time or None
        self.matches = matches
        self.parallel = max(1, parallel)
        self.max_agents = max(2, max_agents)
        if start is not None and (start.is_over() or start.holes != holes):
            raise PliesError("the start position must be a game in play, with the server's holes")
        self.start_state = HexThelloState.start(holes) if start is None else start
        self.holes = holes
        self.store = store or Store(":memory:")
        self.log = log or (lambda text: None)
        self.on_game = on_game
        self.summary_every = summary_every
        self.listeners: list[Callable[[Event], None]] = []
        self.lobby: list[AgentSeat] = []
        self.changed = asyncio.Event()
        self.tally: dict[str, Tally] = {}
        self.seat_requests: deque[tuple[HumanSeat, int]] = deque()
        self.snapshot: Snapshot = {"type": "idle", "lobby": [], "holes": self._hole_cells(),
                                         "cells": cells_of(self.start_state)}
        self.history: deque[Played] = deque(maxlen=HISTORY)
        self.live: dict[int, Live] = {}
        self.agents: set[AgentSeat] = set()
        self._connected = 0
        self._server: asyncio.base_events.Server | None = None
        self._matches: set[asyncio.Task[None]] = set()
        self._db = ThreadPoolExecutor(1, thread_name_prefix="hexthello-db")
        self._summary_cache: list[SummaryRow] | None = None
        self._summary_limit = 0
        self._summary_at = float("-inf")
        self._summary_task: asyncio.Task[None] | None = None
        self.matches_started = 0
        self.matches_played = 0
        self._match_counter = 0
        self.naming: set[AgentSeat] = set()
        self.match_base = 0
        self.ready = asyncio.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.closing = False
        self._told_move_time = False  # the hint after the first time-out is logged once
        self.failure: str | None = None  # why the server stopped on its own (the database cannot be written)

    # --- the database, off the event loop -------------------------------------------------------------
    async def _db_call(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        """Run a store call in the one database thread (calls stay in order; the loop keeps serving)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, fn, *args)

    # --- connections ----------------------------------------------------------------------------------
    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        left = await self._db_call(self.store.close_interrupted)
        if left:
            self.log(f"{left} game(s) left playing by an earlier server marked interrupted")
        self.match_base = await self._db_call(self.store.last_match)
        self._server = await asyncio.start_server(self._on_connect, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        self.ready.set()
        self.log(f"HexThello server listening on {self.host}:{self.port}")

    async def _on_connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if len(self.agents) >= self.max_agents:
            self.agents = {a for a in self.agents if not a.gone()}
        if self.closing or len(self.agents) >= self.max_agents:
            with contextlib.suppress(Exception):
                writer.write(bytes([P.QUIT]))
                writer.close()
            self.log(f"connection refused: {len(self.agents)} agents connected (limit {self.max_agents})")
            return
        self._connected += 1
        seat = AgentSeat(reader, writer, self._connected, write_time=self.move_time or 30.0)
        self.agents.add(seat)
        self.log(f"agent {seat.number} connected from {seat.peer}")
        # the C server's first bytes: 102 to the first of a pair, 103 to the second (re-sent at pairing when
        # someone in between left); then 106, at once: each agent names itself in its own time
        white = (len(self.naming) + len(self.lobby)) % 2 == 0
        self.naming.add(seat)
        try:
            await seat.set_colour(1 if white else 0)
            await seat.ask_name(self.name_time)
        except (Gone, TimeoutError, P.ProtocolError) as e:
            why = f"no name within {self.name_time:g} s" if isinstance(e, TimeoutError) else str(e)
            self.log(f"agent {seat.number} dropped: {why}")
            seat.close()
            self.agents.discard(seat)
            return
        finally:
            self.naming.discard(seat)
        self.log(f"agent {seat.number} is {seat.name}")
        self.lobby.append(seat)
        self.lobby.sort(key=lambda s: s.number)  # pairs in connection order
        self.changed.set()
        self.publish_lobby()

    def stop(self) -> None:
        """Stop listening and end ``serve`` (call in the server's loop); games in progress are cancelled and
        stored as interrupted."""
        self.closing = True
        self.changed.set()
        if self._server is not None:
            self._server.close()
        for task in list(self._matches):
            task.cancel()

    async def serve(self) -> None:
        """Run matches until ``matches`` are done (0: for ever) or ``stop``."""
        if self._server is None:
            await self.start()
        try:
            while not self.closing:
                if self.matches and self.matches_started >= self.matches:
                    if not self._matches:
                        break
                    await asyncio.wait(set(self._matches))
                    continue
                if not self._pair():
                    self.changed.clear()
                    await self.changed.wait()
        finally:
            self.closing = True
            if self._server is not None:
                self._server.close()
            for task in list(self._matches):
                task.cancel()
            if self._matches:
                await asyncio.gather(*self._matches, return_exceptions=True)
            for seat in list(self.agents):
                await seat.quit()
            with contextlib.suppress(Exception):
                await self._db_call(self.store.close_interrupted, "interrupted: the server was stopped")
            if self._summary_task is not None:
                with contextlib.suppress(Exception):
                    await self._summary_task
            self._db.shutdown(wait=True)

    def _pair(self) -> bool:
        """Start one match if two seats are ready and a slot is free; True when one was started."""
        for seat in self.lobby:
            if seat.gone():
                self.agents.discard(seat)
        self.lobby = [s for s in self.lobby if s.alive]
        if len(self._matches) >= self.parallel:
            return False
        while self.seat_requests and not self.seat_requests[0][0].alive:
            self.seat_requests.popleft()
        if self.seat_requests and self.lobby:
            human, colour = self.seat_requests.popleft()
            agent = self.lobby.pop(0)
            first, second = (agent, human) if colour == 0 else (human, agent)  # first = WHITE
            self._launch(self._guarded(first, second, games=1, count=False))
            return True
        if len(self.lobby) >= 2:
            first, second = self.lobby.pop(0), self.lobby.pop(0)
            self.matches_started += 1
            self._launch(self._guarded(first, second))
            self.publish_lobby()
            return True
        return False

    def _launch(self, job: Awaitable[None]) -> None:
        task = asyncio.ensure_future(job)
        self._matches.add(task)

        def done(t: asyncio.Task[None]) -> None:
            self._matches.discard(t)
            self.changed.set()

        task.add_done_callback(done)

    async def _guarded(self, first: Seat, second: Seat, games: int | None = None, count: bool = True) -> None:
        """A match whose unexpected failure is logged and ends that match only: the server keeps serving."""
        try:
            await self.play_match(first, second, games, count)
        except asyncio.CancelledError:
            for seat in (first, second):
                with contextlib.suppress(Exception):
                    await seat.quit()
            raise
        except StorageError as e:  # no game can be recorded any more: the server stops, what it stored stays
            self.log(f"match aborted: {e}")
            for seat in (first, second):
                with contextlib.suppress(Exception):
                    await seat.quit()
            if self.failure is None:
                self.failure = (f"{e}; the server stopped and every game it stored before is kept: start it again "
                                "once the database can be written")
                self.stop()
        except Exception as e:  # a bug ends this match only (logged): the server goes on serving the others
            self.log(f"match aborted by an internal error: {type(e).__name__}: {e}")
            for seat in (first, second):
                with contextlib.suppress(Exception):
                    await seat.quit()
            if count:
                self.matches_played += 1
        finally:
            for seat in (first, second):
                if isinstance(seat, AgentSeat) and not seat.alive:
                    self.agents.discard(seat)

    def request_human_game(self, colour: int, name: str = "human",
                           send: Callable[[Event], None] | None = None) -> HumanSeat:
        """A person asks (from the viewer) to play the next waiting agent with ``colour`` (0 Black, 1 White)."""
        clean = "".join(ch if ch.isprintable() else "?" for ch in str(name))[:P.MAX_NAME].strip()
        seat = HumanSeat(clean or "human", send)

        def queue() -> None:
            if len(self.seat_requests) >= MAX_SEAT_REQUESTS:
                seat.notify("too many people are waiting for an agent; try again later")
                seat.alive = False
                return
            self.seat_requests.append((seat, colour))
            self.changed.set()
            where = "starting" if self.lobby else "waiting for an agent in the lobby"
            seat.notify(f"you play {COLOURS[colour]}: {where}")

        self._call(queue)
        return seat

    def offer_human_move(self, seat: HumanSeat, row: int, col: int) -> None:
        """A person's click (from any thread): handed to the game loop."""
        self._call(seat.offer, row, col)

    def leave_human(self, seat: HumanSeat) -> None:
        """The person left: a game in progress is lost, a pending request is dropped."""
        self._call(seat.leave)

    def _call(self, fn: Callable[[*Ts], object], *args: *Ts) -> None:
        if self.loop is None:
            fn(*args)
        else:
            self.loop.call_soon_threadsafe(fn, *args)

    # --- a match --------------------------------------------------------------------------------------
    async def play_match(self, first: Seat, second: Seat, games: int | None = None, count: bool = True) -> None:
        """The course's match: ``first`` is WHITE, ``second`` BLACK (names were asked at connection);
        games; with ``swap`` 102/103 after every game, the last one too (to ``first``, then ``second``, as
        the C server); 107 to both."""
        games = self.games if games is None else games
        match_no = self._next_match_no()
        white, black = first, second
        for seat, player in ((white, 1), (black, 0)):
            if isinstance(seat, AgentSeat) and seat.told == player:
                continue  # told at connection, as the C server does
            try:
                await seat.set_colour(player)
            except Gone as e:
                self.log(f"match {match_no} not started: {seat.name} {e}")
                other = second if seat is first else first
                if other.alive and isinstance(other, AgentSeat):
                    self.lobby.insert(0, other)  # the one still there waits for a partner again
                    self.changed.set()
                return
        if white.name == black.name:
            black.name = (black.name[:6] + "#2")
        self.log(f"match {match_no}: {white.name} (white) vs {black.name} (black), {games} game(s)")
        played: dict[tuple[Seat, Seat, tuple[int, ...], str], int] = {}  # colours, moves, reason -> first game
        repeats = 0
        for g in range(games):
            game = await self.play_game((black, white), match_no, g + 1)
            key = (black, white, tuple(game.moves), reason(game))
            first_time = played.setdefault(key, g + 1)
            if first_time != g + 1:
                repeats += 1
                again = "the same two games, one per colour" if self.swap else "the same game"
                self.log(f"match {match_no} game {g + 1} repeated game {first_time} move for move"
                         + (f": both agents play the same moves from the same position, so deterministic agents "
                            f"replay {again} for the whole match, as on the course's server" if repeats == 1
                            else ""))
            if self.swap:
                white, black = black, white
                for seat in (first, second):  # playerOne first, as the C server
                    with contextlib.suppress(Gone):
                        if seat.alive:
                            await seat.set_colour(1 if seat is white else 0)
        for s in (first, second):
            await s.quit()
        if count:
            self.matches_played += 1
        self.publish({"type": "match_over", "match": match_no})

    def _next_match_no(self) -> int:
        self._match_counter += 1
        return self.match_base + self._match_counter

    def _count(self, game: Game[HexThelloState], names: tuple[str, str]) -> None:
        outcome = game.outcome()
        winner = outcome.winner if outcome is not None else None
        discs = game.state.counts()
        for p in (0, 1):
            name = names[p] if names[p] in self.tally or len(self.tally) < MAX_NAMES else OTHERS
            t = self.tally.setdefault(name, Tally())
            t.games += 1
            t.discs_for += discs[p]
            t.discs_against += discs[1 - p]
            count_result(t, winner, p)
        self._summary_cache = None
        self._after_game()

    def _after_game(self, final: bool = False) -> None:
        """Call ``on_game`` (the terminal's summary table) at most every ``summary_every`` seconds, in a
        thread: drawing a table of thousands of names never holds up the games."""
        if self.on_game is None:
            return
        now = time.monotonic()
        if self._summary_task is not None and not self._summary_task.done():
            return
        if not final and self.summary_every and now - self._summary_at < self.summary_every:
            return
        self._summary_at = now
        self._summary_task = asyncio.ensure_future(asyncio.to_thread(self._safe_on_game))

    def _safe_on_game(self) -> None:
        try:
            assert self.on_game is not None
            self.on_game(self)
        except Exception as e:  # the summary is a courtesy: never a reason to stop serving
            self.log(f"summary not shown: {type(e).__name__}: {e}")

    # --- a game ---------------------------------------------------------------------------------------
    async def play_game(self, seats: tuple[Seat, Seat], match_no: int, game_no: int) -> Game[HexThelloState]:
        """One game; ``seats[0]`` plays Black, ``seats[1]`` White.  Every move is committed as it happens."""
        names = (seats[0].name, seats[1].name)
        game_id = await self._db_call(self.store.start_game, match_no, game_no, names[0], names[1])
        live = Live(game_id, match_no, game_no, names, (seats[0].kind, seats[1].kind),
                    played=Game(self.start_state, players=names))
        self.live[game_id] = live
        try:
            return await self._play(live, seats)
        except asyncio.CancelledError:
            b, w = live.played.state.counts()
            with contextlib.suppress(Exception):
                await asyncio.shield(self._db_call(self.store.finish_game, game_id, None, b, w,
                                                   "interrupted: the server was stopped", "interrupted"))
            raise
        finally:
            self.live.pop(game_id, None)

    async def _play(self, live: Live, seats: tuple[Seat, Seat]) -> Game[HexThelloState]:
        """The course's game loop on the server's side: 101 to both, then 104 to the side to move and its answer
        (stored before it is judged: an illegal move too) forwarded with 105; a silent, gone or illegal seat
        loses (``Game.end`` with the reason the database keeps)."""
        names, game_id, game = live.names, live.id, live.played
        for p in (0, 1):
            seats[p].seated(game_id, p)
        for p in (0, 1):
            if not seats[p].alive:
                game.end(CRASH, "absent: disconnected earlier in the match", 1 - p)
                break
        for p in (0, 1):
            if game.over:
                break
            try:
                await seats[p].new_position(game.state)
            except Gone as e:
                game.end(CRASH, f"disconnected ({e})", 1 - p)
        self.publish_state(live, game.state, None)
        asked = [_Asked(self, live, seat) for seat in seats]

        async def moved(game: Game[HexThelloState]) -> None:  # the two bytes as they came (a pass keeps its column)
            side = game.states[-2].to_move
            self.publish_state(live, game.state, game.moves[-1])
            if not game.over:
                try:
                    await seats[1 - side].tell_move(*asked[side].answer)
                except Gone as e:
                    game.end(CRASH, f"disconnected ({e})", side)

        await play_on_async(game, asked, moved)
        outcome = game.outcome()
        winner = None if outcome is None or outcome.winner is None else COLOURS[outcome.winner]
        b, w = game.state.counts()
        await self._db_call(self.store.finish_game, game_id, winner or "draw", b, w, reason(game))
        text = result_text(game, names)
        self.log(f"match {live.match} game {live.game}: {names[0]} (black) vs {names[1]} (white): {text}")
        self.history.append({"match": live.match, "game": live.game, "black": names[0], "white": names[1],
                             "result": text})
        self._count(game, names)
        self.publish_state(live, game.state, game.moves[-1] if game.moves else None, result=text)
        return game

    async def _ask(self, asked: _Asked, state: HexThelloState) -> int:
        """The side to move's answer, stored before it is judged (an illegal move too); a silent, gone or illegal
        seat loses (a Forfeit with the reason the database keeps)."""
        live, seat, side = asked.live, asked.seat, state.to_move
        t0 = time.perf_counter()
        timeout = self.person_time if seat.kind == "human" else self.move_time
        try:
            row, col = await seat.request_move(state, timeout)
        except TimeoutError:
            if isinstance(seat, AgentSeat):
                seat.close()  # its late answer would break the byte stream: it is out of this match
            if seat.kind != "human" and not self._told_move_time:
                self._told_move_time = True
                self.log(f"note: {live.names[side]} lost on time ({timeout:g} s a move); an agent that thinks "
                         "longer needs --move-time S, or --move-time 0 / --course for no limit, as the "
                         "course's server has none")
            what = "the person did not move" if seat.kind == "human" else "no move"
            raise NoAnswer(f"time: {what} within {timeout:g} s") from None
        except Gone as e:
            raise Forfeit(f"disconnected ({e})") from None
        await self._db_call(self.store.add_move, live.id, len(live.played.moves) + 1, COLOURS[side], row, col,
                            time.perf_counter() - t0)
        asked.answer = row, col
        try:
            move = P.move_from_rowcol(row, col)
            if move not in state.legal_moves():
                state.play(move)  # raises with the precise reason
                raise IllegalMoveError("not a legal move")
        except PliesError as e:  # ProtocolError or IllegalMoveError: a technical loss
            what = "pass" if row == P.NULL_MOVE else f"({row} {col})"
            self.publish({"type": "notice", "text": f"{live.names[side]} ({COLOURS[side]}): illegal move {what}: {e}"})
            raise IllegalAnswer(f"illegal move {what}: {e}") from None
        return move

    # --- what listeners see ---------------------------------------------------------------------------
    def publish(self, event: Event) -> None:
        for fn in list(self.listeners):
            with contextlib.suppress(Exception):
                fn(event)

    def lobby_names(self) -> list[str]:
        return [f"{s.name} (agent{s.number}, {s.peer})" for s in self.lobby[:50] if s.alive] + (
            [f"... {len(self.lobby) - 50} more"] if len(self.lobby) > 50 else [])

    def publish_lobby(self) -> None:
        self.snapshot["lobby"] = self.lobby_names()
        self.publish({"type": "lobby", "lobby": self.snapshot["lobby"]})

    def summary_rows(self, limit: int | None = SUMMARY_ROWS) -> list[SummaryRow]:
        """Names by wins (the first ``limit``; None = all)."""
        if limit is None:
            items = sorted(self.tally.items(), key=lambda kv: -kv[1].wins)
            return [t.row(n) for n, t in items]
        if self._summary_cache is None or self._summary_limit != limit:
            top = heapq.nsmallest(limit, self.tally.items(), key=lambda kv: (-kv[1].wins, kv[0]))
            self._summary_cache = [t.row(n) for n, t in top]
            self._summary_limit = limit
        return self._summary_cache

    def _hole_cells(self) -> list[list[int]]:
        return [list(divmod(m, SIZE)) for m in bits(self.holes)]

    def _featured(self) -> int | None:
        """The game the viewer shows by default: a person's game, else the oldest one in progress."""
        for gid, live in self.live.items():
            if "human" in live.kinds:
                return gid
        return min(self.live) if self.live else None

    def publish_state(self, live: Live, state: HexThelloState, last: int | None, result: str | None = None) -> None:
        b, w = state.counts()
        human = None
        for p, kind in enumerate(live.kinds):
            if kind == "human" and result is None and state.to_move == p:
                human = p
        featured = self._featured()
        snap: StateEvent = {
            "type": "state", "match": live.match, "game": live.game, "game_id": live.id,
            "black": live.names[0], "white": live.names[1],
            "cells": cells_of(state),
            "score": {"black": b, "white": w},
            "to_move": None if state.is_over() or result else COLOURS[state.to_move],
            "last": None if last is None or last == PASS else list(divmod(last, SIZE)),
            "last_text": None if last is None else move_text(last),
            "plies": len(live.played.moves),
            "result": result,
            "human_to_move": human is not None,
            "legal": [list(divmod(m, SIZE)) for m in state.legal_moves() if m != PASS] if human is not None else [],
            "must_pass": human is not None and state.legal_moves() == [PASS],
            "lobby": self.lobby_names(),
            "summary": self.summary_rows(),
            "history": list(self.history)[-10:],
            "holes": self._hole_cells(),
            "live": [{"game_id": g.id, "match": g.match, "game": g.game, "black": g.names[0], "white": g.names[1],
                      "plies": len(g.played.moves)} for g in list(self.live.values())[:20]],
            "featured": featured == live.id or featured is None,
        }
        if snap["featured"]:
            self.snapshot = snap
        self.publish(snap)


@dataclass
class _Asked:
    """A seat as the play loop sees it (``plies.match.record.Seat``): asked through the server, which times and
    stores its answer; ``answer`` is its last one as it came."""

    server: HexServer
    live: Live
    seat: Seat
    answer: tuple[int, int] = (0, 0)

    async def choose(self, state: HexThelloState) -> tuple[int, None]:
        return await self.server._ask(self, state), None


def cells_of(state: HexThelloState) -> list[Cell]:
    """``[row, col, "X"|"O"|"#"|"."]`` for the 169 cells (``#`` a hole), as the viewer draws them."""
    out: list[Cell] = []
    for i, j in ON_BOARD:
        k = i * SIZE + j
        out.append([i, j, "X" if state.black >> k & 1 else "O" if state.white >> k & 1
                    else "#" if state.holes >> k & 1 else "."])
    return out


def summary_table(server: HexServer, limit: int = SUMMARY_ROWS) -> Table:
    """A rich table of wins/draws/losses and disc totals per name (the first ``limit`` names by wins); names
    are plain text, never markup (agents choose them)."""
    from rich.table import Table
    from rich.text import Text

    rows = server.summary_rows(limit)
    more = len(server.tally) - len(rows)
    table = Table(title="HexThello match summary", caption=f"... and {more} more name(s)" if more > 0 else None)
    for col in ("name", "games", "wins", "draws", "losses", "discs for", "discs against"):
        table.add_column(col, justify="left" if col == "name" else "right")
    for row in rows:
        table.add_row(Text(row["name"]), *(str(row[k]) for k in ("games", "wins", "draws", "losses", "discs_for",
                                                                 "discs_against")))
    return table


__all__ = ["DEFAULT_MOVE_TIME", "DEFAULT_NAME_TIME", "DEFAULT_PERSON_TIME", "AgentSeat", "Gone", "HexServer",
           "HumanSeat", "Live", "Seat", "Tally", "reason", "result_text", "summary_table"]
