"""Test helpers: a plies HexThello server in a background thread, and a raw-byte agent that speaks exactly
as the course's C client does (one read per field, no framing beyond the protocol's)."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from plies.game import PASS
from plies.games.hexthello import HexThelloState
from plies.net.hexthello.protocol import recv_exact
from plies.net.hexthello.server import HexServer
from plies.net.hexthello.store import Store

TIMEOUT = 20.0


@contextmanager
def running_server(**kwargs: Any) -> Iterator[HexServer]:
    """A HexServer on an ephemeral 127.0.0.1 port, serving in its own thread and event loop."""
    kwargs.setdefault("store", Store(":memory:"))
    started = threading.Event()
    box: dict[str, Any] = {}

    def run() -> None:
        async def main() -> None:
            server = HexServer(port=0, **kwargs)
            box["server"] = server
            await server.start()
            started.set()
            await server.serve()

        try:
            asyncio.run(main())
        except BaseException as e:  # surfaced by the test through box
            box["error"] = e
            started.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert started.wait(TIMEOUT), "server did not start"
    if "error" in box:
        raise box["error"]
    server = box["server"]
    try:
        yield server
    finally:
        if thread.is_alive() and server.loop is not None:
            try:
                server.loop.call_soon_threadsafe(server.stop)
            except RuntimeError:  # the server ended on its own (its games were played) and closed the loop meanwhile
                pass
        thread.join(TIMEOUT)
        box["joined"] = not thread.is_alive()


def b_never_moves(a: RawAgent, b: RawAgent) -> None:
    """After their colours: both give their names and take the position, and ``b`` is asked for a move (which it
    never sends)."""
    a.msg(), a.send_name(), b.msg(), b.send_name()
    a.msg(), a.read(228), b.msg(), b.read(228)
    assert b.msg() == 104  # REQUEST_MOVE


class RawAgent:
    """A C-style client on a plain socket."""

    def __init__(self, port: int, name: bytes = b"raw") -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.name = name
        self.state = HexThelloState.start()
        self.me = 0
        self.log: list[int] = []
        self.positions: list[bytes] = []

    def read(self, n: int) -> bytes:
        return recv_exact(self.sock, n)

    def msg(self) -> int:
        m = self.read(1)[0]
        self.log.append(m)
        return m

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def send_name(self) -> None:
        self.send(bytes([len(self.name)]) + self.name)

    def first_legal(self) -> bytes:
        s = self.state if self.state.to_move == self.me else HexThelloState(self.state.black, self.state.white,
                                                                             self.me)
        move = s.legal_moves()[0] if s.legal_moves() else PASS
        if move == PASS:
            data = bytes([0xCE, 0])
        else:
            data = bytes(divmod(move, 15))
        self.state = s.play(move) if s.legal_moves() else s
        return data

    def apply_opponent(self, data: bytes) -> None:
        row = data[0] - 256 if data[0] > 127 else data[0]
        s = self.state if self.state.to_move != self.me else HexThelloState(self.state.black, self.state.white,
                                                                             1 - self.me)
        self.state = s.play(PASS if row == -50 else row * 15 + data[1])

    def play_until_quit(self, misbehave: dict[int, bytes] | None = None) -> list[int]:
        """Handle every message until 107 (or the server closes); ``misbehave`` maps the n-th 104 to bytes
        sent instead of a legal move."""
        requests = 0
        try:
            while True:
                m = self.msg()
                if m in (102, 103):
                    self.me = 1 if m == 102 else 0
                elif m == 106:
                    self.send_name()
                elif m == 101:
                    pos = self.read(228)
                    self.positions.append(pos)
                    self.state = HexThelloState.from_array(pos[:225], pos[227])
                elif m == 105:
                    self.apply_opponent(self.read(2))
                elif m == 104:
                    requests += 1
                    if misbehave and requests in misbehave:
                        self.send(misbehave[requests])
                    else:
                        self.send(self.first_legal())
                elif m == 107:
                    break
                else:
                    raise AssertionError(f"unknown message {m}")
        except ConnectionError:
            pass
        return self.log

    def close(self) -> None:
        self.sock.close()
