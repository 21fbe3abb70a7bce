"""The limits of the server ``plies web`` runs (``plies.web.serving``), through real sockets on loopback: huge
headers, many headers, requests that trickle in, too many connections from one address."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from plies.web import create_app
from plies.web.guard import MAX_HEADERS

from .conftest import LiveServer

pytestmark = pytest.mark.timeout(120)
WAIT = 60.0  # a bound on every wait below, never a figure the test checks
REQUEST = b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(create_app(tmp_path / "h.sqlite"), request_seconds=1.0, per_address=8) as live:
        yield live


def connect(live: LiveServer) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", live.port), timeout=WAIT)
    return s


def send_all(s: socket.socket, data: bytes) -> None:
    """Send ``data``; a server that closes the connection part-way (as it should for a huge request) is fine."""
    try:
        for i in range(0, len(data), 65536):
            s.sendall(data[i:i + 65536])
    except OSError:
        pass


def answer(s: socket.socket) -> bytes:
    """What the server sends until it closes the connection or a whole answer has come."""
    out = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            out += chunk
            head, sep, body = out.partition(b"\r\n\r\n")
            if sep and b"content-length:" in head.lower():
                length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                if len(body) >= length:
                    break
    except OSError:  # reset by the server: nothing more to read
        pass
    return out


def status(data: bytes) -> int | None:
    return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else None


def test_an_ordinary_request_is_answered(server: LiveServer) -> None:
    with connect(server) as s:
        s.sendall(REQUEST + b"\r\n")
        assert status(answer(s)) == 200


def test_a_10_mib_header_is_refused(server: LiveServer) -> None:
    with connect(server) as s:
        send_all(s, REQUEST + b"X-Big: " + b"a" * (10 * 1024 * 1024) + b"\r\n\r\n")
        assert status(answer(s)) in (400, None)  # 400, or the connection reset before it could be read


def test_100000_headers_are_refused(server: LiveServer) -> None:
    with connect(server) as s:
        send_all(s, REQUEST + b"".join(b"X-%d: 1\r\n" % i for i in range(100_000)) + b"\r\n")
        assert status(answer(s)) in (400, None)


def test_more_headers_than_the_limit_are_431(server: LiveServer) -> None:
    with connect(server) as s:
        s.sendall(REQUEST + b"".join(b"X-%d: 1\r\n" % i for i in range(MAX_HEADERS + 1)) + b"\r\n")
        data = answer(s)
        assert status(data) == 431 and f"at most {MAX_HEADERS} headers".encode() in data


def test_a_request_that_trickles_in_is_cut_off(server: LiveServer) -> None:
    """One header line every 0.2 s for up to a minute: the server closes the connection at its deadline."""
    with connect(server) as s:
        s.sendall(REQUEST)
        s.settimeout(0.2)
        closed = False
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and not closed:
            try:
                s.sendall(b"X-Slow: 1\r\n")
                closed = s.recv(1024) == b""
            except TimeoutError:
                continue
            except OSError:  # reset
                closed = True
        assert closed, "a request trickling in held its connection for a minute"


def test_a_slow_body_is_cut_off(server: LiveServer) -> None:
    with connect(server) as s:
        s.sendall(b"POST /api/games/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 1000\r\n\r\n{")
        s.settimeout(WAIT)
        try:  # nothing more is sent: the server gives up on the body and closes the connection
            closed = s.recv(1024) == b""
        except TimeoutError:
            closed = False
        except OSError:  # reset
            closed = True
        assert closed, "a request whose body never came held its connection for a minute"


def test_a_long_answer_is_not_cut_off(server: LiveServer) -> None:
    """The deadline is for the request to arrive: answering may take longer (here a game's ``?wait=true``)."""
    import json

    with connect(server) as s:
        body = json.dumps({"players": [{"kind": "human"}, {"kind": "computer", "level": 1}], "delay": 1.5}).encode()
        s.sendall(b"POST /api/games/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        data = answer(s)
        assert status(data) == 200
        game = json.loads(data.partition(b"\r\n\r\n")[2])
        gid, token = game["game"]["id"], game["token"]
        move = json.dumps({"move": "d3"}).encode()
        s.sendall(b"POST /api/games/%s/moves?wait=true HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Plies-Token: %s\r\n"
                  b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                  % (gid.encode(), token.encode(), len(move), move))
        data = answer(s)  # the computer waits 1.5 s before it moves: longer than the request deadline
        assert status(data) == 200 and json.loads(data.partition(b"\r\n\r\n")[2])["ply"] == 2


def test_one_address_holds_at_most_its_share_of_connections(server: LiveServer) -> None:
    held: list[socket.socket] = []
    try:
        for _ in range(8):
            held.append(connect(server))
        with connect(server) as extra:  # the ninth from 127.0.0.1
            extra.settimeout(WAIT)
            assert extra.recv(1024) == b""
        for s in held:
            s.close()
        held = []
        with connect(server) as s:  # once they are gone, the address may connect again
            s.sendall(REQUEST + b"\r\n")
            assert status(answer(s)) == 200
    finally:
        for s in held:
            s.close()


def test_the_settings_are_the_servers(server: LiveServer) -> None:
    from plies.web.serving import LIMIT_CONCURRENCY, MAX_HEADER_BYTES, DeadlineH11Protocol

    config: Any = server.server.config
    assert issubclass(config.http, DeadlineH11Protocol)
    assert config.h11_max_incomplete_event_size == MAX_HEADER_BYTES and config.limit_concurrency == LIMIT_CONCURRENCY


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_limits_probe_finds_no_problem(capsys: pytest.CaptureFixture[str]) -> None:
    """tools/probe_web_limits.py, short, against a real ``plies web`` child."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    import probe_web_limits

    assert probe_web_limits.main(["--slow", "20", "--hold", "30", "--flood", "2000"]) == 0, capsys.readouterr().out
