"""A HexThello server byte-compatible with the course's C ``server`` and clients, and sturdier.

Message order (PROTOCOLS.md): the first agent to connect is WHITE (102), the second BLACK (103); each gets 106
and answers with its name; every game starts with 101 + position to both; the side to move gets 104 and
answers with a move; a legal move is forwarded to the other side with 105 unless the game is over; with
``swap`` the colours change after each game (102/103 again); 107 ends the match.

Better than the original: a per-move time limit (late = loss), a disconnect loses instead of hanging the
server, an illegal or off-board move loses with the reason recorded, every game and move is committed to
SQLite as it happens, a running summary per name, and listeners (the web viewer) see every event.  A person
may take a seat from the viewer and play an agent waiting in the lobby.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from plies.game import PASS, IllegalMoveError
from plies.games.hexthello import SIZE, HexThelloState, move_text
from plies.net.hexthello import protocol as P
from plies.net.hexthello.store import Store

COLOURS = ("black", "white")  # indexed by plies player: 0 Black, 1 White


class Gone(Exception):
    """The other end closed the connection (or writing to it failed)."""


class Seat:
    """One side of a game: an agent on a socket, or a person in the browser."""

    name: str = "?"
    alive: bool = True
    kind: str = "agent"

    async def set_colour(self, player: int) -> None: ...

    async def ask_name(self, timeout: float | None) -> str:
        return self.name

    async def new_position(self, state: HexThelloState) -> None: ...

    async def request_move(self, state: HexThelloState, timeout: float | None) -> tuple[int, int]:
        raise NotImplementedError

    async def tell_move(self, move: int) -> None: ...

    async def quit(self) -> None: ...


class AgentSeat(Seat):
    """A program speaking the course protocol over TCP."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, number: int) -> None:
        self.reader, self.writer, self.number = reader, writer, number
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if peer else "?"
        self.name = f"agent{number}"

    async def _send(self, data: bytes) -> None:
        if not self.alive:
            raise Gone("connection already closed")
        try:
            self.writer.write(data)
            await self.writer.drain()
        except (ConnectionError, OSError) as e:
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

    async def ask_name(self, timeout: float | None) -> str:
        await self._send(bytes([P.REQUEST_NAME]))
        n = (await self._read(1, timeout))[0]
        self.name = P.decode_name(await self._read(n, timeout)) if n else "anon"
        return self.name

    async def new_position(self, state: HexThelloState) -> None:
        await self._send(bytes([P.NEW_POSITION]) + P.encode_position(state))

    async def request_move(self, state: HexThelloState, timeout: float | None) -> tuple[int, int]:
        await self._send(bytes([P.REQUEST_MOVE]))
        return P.decode_move(await self._read(2, timeout))

    async def tell_move(self, move: int) -> None:
        await self._send(bytes([P.PREPARE_TO_RECEIVE_MOVE]) + P.encode_move(move))

    async def quit(self) -> None:
        with contextlib.suppress(Gone):
            await self._send(bytes([P.QUIT]))
        self.close()

    def close(self) -> None:
        if self.alive:
            self.alive = False
            with contextlib.suppress(Exception):
                self.writer.close()


class HumanSeat(Seat):
    """A person at the web viewer: moves arrive through ``offer``; an illegal click is refused, not lost."""

    kind = "human"

    def __init__(self, name: str = "human", notify: Callable[[str], None] | None = None) -> None:
        self.name = name
        self.moves: asyncio.Queue[tuple[int, int]] = asyncio.Queue()
        self.notify = notify or (lambda text: None)
        self.waiting = False

    def offer(self, row: int, col: int) -> None:
        self.moves.put_nowait((row, col))

    async def request_move(self, state: HexThelloState, timeout: float | None) -> tuple[int, int]:
        self.waiting = True
        try:
            while True:
                row, col = await self.moves.get()
                if not self.alive:
                    raise Gone("the person left")
                try:
                    move = P.move_from_rowcol(row, col)
                    if move not in state.legal_moves():
                        state.play(move)
                        raise IllegalMoveError("not a legal move")
                    return row, col
                except Exception as e:  # a misclick is refused with the reason
                    self.notify(f"({row} {col}): {e}")
        finally:
            self.waiting = False

    def leave(self) -> None:
        self.alive = False
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


@dataclass
class GameResult:
    winner: int | None  # plies player, None = draw
    black_discs: int
    white_discs: int
    reason: str
    moves: list[int] = field(default_factory=list)

    def text(self, names: tuple[str, str]) -> str:
        score = f"{self.black_discs}-{self.white_discs}"
        if self.winner is None:
            return f"draw {score}" + (f" ({self.reason})" if self.reason != "normal" else "")
        who = f"{names[self.winner]} ({COLOURS[self.winner]}) wins {score}"
        return who if self.reason == "normal" else f"{who}: {self.reason}"


class HexServer:
    """Accepts agents, pairs them in connection order into matches of ``games`` games, and serves
    ``matches`` matches (0 = for ever).  ``listeners`` get a dict after every event (the viewer)."""

    def __init__(self, host: str = "127.0.0.1", port: int = P.DEFAULT_PORT, games: int = 1, swap: bool = False,
                 move_time: float | None = None, store: Store | None = None, matches: int = 1,
                 name_time: float = 10.0, log: Callable[[str], None] | None = None,
                 on_game: Callable[[HexServer], None] | None = None) -> None:
        self.host, self.port, self.games, self.swap = host, port, games, swap
        self.move_time, self.matches, self.name_time = move_time, matches, name_time
        self.store = store or Store(":memory:")
        self.log = log or (lambda text: None)
        self.on_game = on_game
        self.listeners: list[Callable[[dict[str, Any]], None]] = []
        self.lobby: list[AgentSeat] = []
        self.changed = asyncio.Event()
        self.tally: dict[str, Tally] = {}
        self.human_request: HumanSeat | None = None
        self.human_colour = 0
        self.snapshot: dict[str, Any] = {"type": "idle", "lobby": []}
        self.history: list[dict[str, Any]] = []
        self._connected = 0
        self._server: asyncio.base_events.Server | None = None
        self.matches_played = 0
        self.ready = asyncio.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.closing = False

    # --- connections ----------------------------------------------------------------------------------
    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._server = await asyncio.start_server(self._on_connect, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        self.ready.set()
        self.log(f"HexThello server listening on {self.host}:{self.port}")

    async def _on_connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._connected += 1
        seat = AgentSeat(reader, writer, self._connected)
        self.lobby.append(seat)
        self.log(f"agent {seat.number} connected from {seat.peer}")
        self.changed.set()
        self.publish_lobby()

    def stop(self) -> None:
        """Stop listening and end ``serve`` once no game is running (call in the server's loop)."""
        self.closing = True
        self.changed.set()
        if self._server is not None:
            self._server.close()

    async def serve(self) -> None:
        """Run matches until ``matches`` are done (0: for ever)."""
        if self._server is None:
            await self.start()
        try:
            while not self.closing and (not self.matches or self.matches_played < self.matches):
                await self._next_match()
        finally:
            self.stop()
            for seat in self.lobby:
                await seat.quit()

    async def _next_match(self) -> None:
        while not self.closing:
            self.lobby = [s for s in self.lobby if s.alive]
            if self.human_request is not None and self.lobby:
                human, self.human_request = self.human_request, None
                agent = self.lobby.pop(0)
                seats = (human, agent) if self.human_colour == 0 else (agent, human)
                await self._guarded(seats[1], seats[0], games=1, count=False)
                return
            if len(self.lobby) >= 2:
                first, second = self.lobby.pop(0), self.lobby.pop(0)
                await self._guarded(first, second)
                return
            self.changed.clear()
            await self.changed.wait()

    async def _guarded(self, first: Seat, second: Seat, games: int | None = None, count: bool = True) -> None:
        """A match whose unexpected failure is logged and ends that match only: the server keeps serving."""
        try:
            await self.play_match(first, second, games, count)
        except Exception as e:
            self.log(f"match aborted by an internal error: {type(e).__name__}: {e}")
            for seat in (first, second):
                await seat.quit()
            if count:
                self.matches_played += 1

    def request_human_game(self, colour: int, name: str = "human") -> HumanSeat:
        """A person asks (from the viewer) to play the next waiting agent with ``colour`` (0 Black, 1 White)."""
        seat = HumanSeat(name[:8] or "human", notify=lambda text: self.publish({"type": "notice", "text": text}))
        self.human_request, self.human_colour = seat, colour
        self._call(self.changed.set)
        return seat

    def offer_human_move(self, seat: HumanSeat, row: int, col: int) -> None:
        """A person's click (from any thread): handed to the game loop."""
        self._call(seat.offer, row, col)

    def leave_human(self, seat: HumanSeat) -> None:
        """The person left: a game in progress is lost, a pending request is dropped."""
        if self.human_request is seat:
            self.human_request = None
        self._call(seat.leave)

    def _call(self, fn: Callable[..., Any], *args: Any) -> None:
        if self.loop is None:
            fn(*args)
        else:
            self.loop.call_soon_threadsafe(fn, *args)

    # --- a match --------------------------------------------------------------------------------------
    async def play_match(self, first: Seat, second: Seat, games: int | None = None, count: bool = True) -> None:
        """The course's match: ``first`` is WHITE, ``second`` BLACK; names; games; swaps; 107 to both."""
        games = self.games if games is None else games
        match_no = self.matches_played + 1
        white, black = first, second
        for seat, player in ((white, 1), (black, 0), (white, None), (black, None)):
            try:
                if player is None:
                    await seat.ask_name(self.name_time)
                else:
                    await seat.set_colour(player)
            except (Gone, TimeoutError) as e:
                why = "no name in time" if isinstance(e, TimeoutError) else str(e)
                self.log(f"match {match_no} not started: {seat.name} {why}")
                if isinstance(seat, AgentSeat):
                    seat.close()
                other = second if seat is first else first
                if other.alive and isinstance(other, AgentSeat):
                    self.lobby.insert(0, other)  # the one still there waits for a partner again
                return
        if white.name == black.name:
            black.name = (black.name[:6] + "#2")
        self.log(f"match {match_no}: {white.name} (white) vs {black.name} (black), {games} game(s)")
        for g in range(games):
            if g and self.swap:
                white, black = black, white
                with contextlib.suppress(Gone):
                    await white.set_colour(1)
                with contextlib.suppress(Gone):
                    await black.set_colour(0)
            await self.play_game((black, white), match_no, g + 1)
        for s in (first, second):
            await s.quit()
        if count:
            self.matches_played += 1
        self.publish({"type": "match_over", "match": match_no})

    def _count(self, result: GameResult, names: tuple[str, str]) -> None:
        for p in (0, 1):
            t = self.tally.setdefault(names[p], Tally())
            t.games += 1
            mine, theirs = (result.black_discs, result.white_discs) if p == 0 else (result.white_discs,
                                                                                    result.black_discs)
            t.discs_for += mine
            t.discs_against += theirs
            if result.winner is None:
                t.draws += 1
            elif result.winner == p:
                t.wins += 1
            else:
                t.losses += 1
        if self.on_game:
            self.on_game(self)

    # --- a game ---------------------------------------------------------------------------------------
    async def play_game(self, seats: tuple[Seat, Seat], match_no: int, game_no: int) -> GameResult:
        """One game; ``seats[0]`` plays Black, ``seats[1]`` White.  Every move is committed as it happens."""
        names = (seats[0].name, seats[1].name)
        state = HexThelloState.start()
        game_id = self.store.start_game(match_no, game_no, names[0], names[1])
        self._game = {"id": game_id, "match": match_no, "game": game_no, "names": names, "moves": [],
                      "kinds": (seats[0].kind, seats[1].kind)}
        result: GameResult | None = None
        for p in (0, 1):
            if not seats[p].alive:
                result = self._forfeit(state, p, "absent: disconnected earlier in the match")
                break
        if result is None:
            for p in (0, 1):
                try:
                    await seats[p].new_position(state)
                except Gone as e:
                    result = self._forfeit(state, p, f"disconnected ({e})")
                    break
        self.publish_state(state, None)
        ply = 0
        while result is None:
            side = state.to_move
            seat = seats[side]
            t0 = time.perf_counter()
            timeout = None if seat.kind == "human" else self.move_time
            try:
                row, col = await seat.request_move(state, timeout)
            except TimeoutError:
                if isinstance(seat, AgentSeat):
                    seat.close()  # its late answer would break the byte stream: it is out of this match
                result = self._forfeit(state, side, f"time: no move within {self.move_time:g} s")
                break
            except Gone as e:
                result = self._forfeit(state, side, f"disconnected ({e})")
                break
            dt = time.perf_counter() - t0
            self.store.add_move(game_id, ply + 1, COLOURS[side], row, col, dt)  # illegal ones too
            try:
                move = P.move_from_rowcol(row, col)
                if move not in state.legal_moves():
                    state.play(move)  # raises with the precise reason
                    raise IllegalMoveError("not a legal move")
            except Exception as e:  # ProtocolError or IllegalMoveError: a technical loss
                what = "pass" if row == P.NULL_MOVE else f"({row} {col})"
                result = self._forfeit(state, side, f"illegal move {what}: {e}")
                self.publish({"type": "notice", "text": f"{names[side]} ({COLOURS[side]}): illegal move {what}: {e}"})
                break
            state = state.play(move)
            ply += 1
            self._game["moves"].append(move)
            self.publish_state(state, move)
            if state.is_over():
                b, w = state.counts()
                result = GameResult(0 if b > w else 1 if w > b else None, b, w, "normal")
                break
            other = seats[1 - side]
            try:
                await other.tell_move(move)
            except Gone as e:
                result = self._forfeit(state, 1 - side, f"disconnected ({e})")
        winner = None if result.winner is None else COLOURS[result.winner]
        self.store.finish_game(game_id, winner or "draw", result.black_discs, result.white_discs, result.reason)
        text = result.text(names)
        self.log(f"match {match_no} game {game_no}: {names[0]} (black) vs {names[1]} (white): {text}")
        self.history.append({"match": match_no, "game": game_no, "black": names[0], "white": names[1],
                             "result": text})
        self._count(result, names)
        self.publish_state(state, self._game["moves"][-1] if self._game["moves"] else None, result=text)
        return result

    def _forfeit(self, state: HexThelloState, loser: int, reason: str) -> GameResult:
        b, w = state.counts()
        return GameResult(1 - loser, b, w, reason)

    # --- what listeners see ---------------------------------------------------------------------------
    def publish(self, event: dict[str, Any]) -> None:
        for fn in list(self.listeners):
            with contextlib.suppress(Exception):
                fn(event)

    def lobby_names(self) -> list[str]:
        return [f"agent{s.number} ({s.peer})" for s in self.lobby if s.alive]

    def publish_lobby(self) -> None:
        self.snapshot["lobby"] = self.lobby_names()
        self.publish({"type": "lobby", "lobby": self.snapshot["lobby"]})

    def summary_rows(self) -> list[dict[str, Any]]:
        return [{"name": n, **t.__dict__} for n, t in sorted(self.tally.items(), key=lambda kv: -kv[1].wins)]

    def publish_state(self, state: HexThelloState, last: int | None, result: str | None = None) -> None:
        g = self._game
        b, w = state.counts()
        human = None
        for p, kind in enumerate(g["kinds"]):
            if kind == "human" and result is None and state.to_move == p:
                human = p
        self.snapshot = {
            "type": "state", "match": g["match"], "game": g["game"], "game_id": g["id"],
            "black": g["names"][0], "white": g["names"][1],
            "cells": [[i, j, "X" if state.black >> (i * SIZE + j) & 1 else "O" if state.white >> (i * SIZE + j) & 1
                       else "."] for i, j in _CELLS],
            "score": {"black": b, "white": w},
            "to_move": None if state.is_over() or result else COLOURS[state.to_move],
            "last": None if last is None or last == PASS else list(divmod(last, SIZE)),
            "last_text": None if last is None else move_text(last),
            "plies": len(g["moves"]),
            "result": result,
            "human_to_move": human is not None,
            "legal": [list(divmod(m, SIZE)) for m in state.legal_moves() if m != PASS] if human is not None else [],
            "must_pass": human is not None and state.legal_moves() == [PASS],
            "lobby": self.lobby_names(),
            "summary": self.summary_rows(),
            "history": self.history[-10:],
        }
        self.publish(self.snapshot)


from plies.games.hexthello import ON_BOARD as _CELLS  # noqa: E402


def summary_table(server: HexServer) -> Any:
    """A rich table of wins/draws/losses and disc totals per name."""
    from rich.table import Table

    table = Table(title="HexThello match summary")
    for col in ("name", "games", "wins", "draws", "losses", "discs for", "discs against"):
        table.add_column(col, justify="left" if col == "name" else "right")
    for row in server.summary_rows():
        table.add_row(row["name"], *(str(row[k]) for k in ("games", "wins", "draws", "losses", "discs_for",
                                                           "discs_against")))
    return table


__all__ = ["AgentSeat", "GameResult", "Gone", "HexServer", "HumanSeat", "Seat", "Tally", "summary_table"]
