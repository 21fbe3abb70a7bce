"""The browser app under the inputs that used to answer 500 or worse, each sent exactly, and its checks:
Host and Origin, server-issued tokens, body and message limits, live games per client, workers that end with
the server."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from plies.web import create_app
from plies.web.guard import MAX_BODY, Tokens, json_problem, parse_json

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from kill_records import alive, children, outliving  # noqa: E402  (the process look-ups of the kill script)

LOCAL = "http://localhost"
HUMANS = {"players": [{"kind": "human"}, {"kind": "human"}]}

pytestmark = pytest.mark.timeout(120)


# --- the exact inputs of the report -------------------------------------------------------------------------

def test_non_json_body_is_415_not_500(client: Any) -> None:
    r = client.post("/api/games/new", content=b'{"game": "othello"}', headers={"Content-Type": "text/plain"})
    assert r.status_code == 415 and "application/json" in r.json()["error"]


def test_nan_is_400_not_500(client: Any) -> None:
    r = client.post("/api/games/new", content=b'{"delay": NaN}', headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "NaN" in r.json()["error"]
    r = client.post("/api/games/new", content=b'{"delay": Infinity}', headers={"Content-Type": "application/json"})
    assert r.status_code == 400


def test_lone_surrogate_is_400_not_500(client: Any) -> None:
    for body in (b'{"game": "\\ud800"}', b'{"players": [{"kind": "human", "name": "\\udfff"}, {"kind": "human"}]}'):
        r = client.post("/api/games/new", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and "surrogate" in r.json()["error"]


def test_huge_history_offset_is_422_not_500(client: Any) -> None:
    r = client.get("/api/history?offset=9223372036854775808")
    assert r.status_code == 422 and "offset" in r.json()["error"]
    assert client.get("/api/history?offset=5").status_code == 200


def test_validation_errors_never_quote_what_cannot_be_json(client: Any) -> None:
    r = client.post("/api/games/new", json={"players": [{"kind": "computer", "level": "x"}]})
    assert r.status_code == 422 and all("input" not in d for d in r.json()["details"])
    r = client.post("/api/games/new")  # no body: every field has a default, but the body itself is needed
    assert r.status_code == 422 and "needs a JSON body ({} for every default)" in r.json()["error"]


def test_deep_json_over_the_websocket_gets_an_error_and_the_socket_stays(client: Any) -> None:
    g = client.post("/api/games/new", json=HUMANS).json()["game"]
    with client.websocket_connect(f"ws://localhost/ws/games/{g['id']}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_text("[" * 100_000 + "]" * 100_000)  # the exact message: 200 kB, 100,000 deep
        assert "at most" in ws.receive_json()["message"]
        ws.send_text("[" * 100 + "]" * 100)
        assert "deeper" in ws.receive_json()["message"]
        ws.send_text('{"type": "move", "move": "\\ud800"}')
        assert "surrogate" in ws.receive_json()["message"]
        ws.send_json({"type": "move", "move": "x" * 60_000})  # as POST .../moves: no move is that long
        message = ws.receive_json()["message"]
        assert "1 to 20 characters" in message and len(message) < 100
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"


def test_a_websocket_flood_without_reading_closes_that_socket_only(tmp_path: Path, caplog: pytest.LogCaptureFixture
                                                                    ) -> None:
    """5,000 illegal moves from a client that never reads (the app's every send to it waits for ever): at most
    OUTBOX answers wait for it, then its socket is closed with a close frame (1008); no traceback, and the game
    goes on for everyone.  Driven through the ASGI interface itself, so the client really never reads."""
    import asyncio

    import httpx

    from plies.web.routes.games import OUTBOX

    app = create_app(tmp_path / "h.sqlite")
    caplog.set_level(logging.WARNING)

    async def flood() -> tuple[list[dict[str, Any]], int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as http:
            new = (await http.post("/api/games/new", json=HUMANS)).json()
        gid, token = new["game"]["id"], new["token"]
        incoming: list[dict[str, Any]] = [{"type": "websocket.connect"}]
        incoming += [{"type": "websocket.receive", "text": json.dumps({"type": "move", "move": "a1"})}] * 5000
        sent: list[dict[str, Any]] = []
        closed = asyncio.Event()

        async def receive() -> dict[str, Any]:
            if incoming:
                return incoming.pop(0)
            await closed.wait()
            return {"type": "websocket.disconnect", "code": 1000}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)
            if message["type"] == "websocket.close":
                closed.set()
            elif message["type"] == "websocket.send":
                await asyncio.Event().wait()  # the client never reads: this send never completes

        scope = {"type": "websocket", "asgi": {"version": "3.0"}, "http_version": "1.1", "scheme": "ws",
                 "path": f"/ws/games/{gid}", "raw_path": f"/ws/games/{gid}".encode(), "query_string": b"",
                 "root_path": "", "headers": [(b"host", b"localhost"), (b"x-plies-token", token.encode())],
                 "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000), "subprotocols": [], "state": {}}
        await asyncio.wait_for(app(scope, receive, send), 60)
        return sent, len(incoming)

    sent, unread = asyncio.run(flood())
    assert sent[0]["type"] == "websocket.accept"
    assert sent[-1]["type"] == "websocket.close" and sent[-1]["code"] == 1008 and "unread" in sent[-1]["reason"]
    assert unread > 0  # the flood was cut short: the rest of it was never read
    assert 5000 - unread <= OUTBOX + 1
    assert not [r for r in caplog.records if r.exc_info or "QueueFull" in r.getMessage()]
    with TestClient(app, base_url="http://localhost") as client:  # the game goes on: another socket plays in it
        gid = next(iter(app.state.sessions.games))
        token = app.state.sessions.games[gid].owner
        with client.websocket_connect(f"ws://localhost/ws/games/{gid}", headers={"x-plies-token": token}) as ws:
            assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "move", "move": "d3"})
            assert ws.receive_json()["game"]["ply"] == 1


def test_oversized_bodies_are_refused_before_they_are_read(client: Any) -> None:
    tree = json.dumps({"tree": [[[i, i + 1] for i in range(0, 600_000, 2)]]})  # about 5.6 MB
    assert len(tree) > 5_000_000
    r = client.post("/api/learn/trace", content=tree, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and str(MAX_BODY) in r.json()["error"]
    r = client.post("/api/games/new", content=b" " * (MAX_BODY + 1), headers={"Content-Type": "application/json"})
    assert r.status_code == 413


def test_json_checks() -> None:
    assert json_problem('{"a": [1, 2, {"b": "x]"}]}') is None
    assert "deeper" in (json_problem("[" * 65 + "]" * 65) or "")
    assert json_problem("[" * 64 + "]" * 64) is None
    assert "not valid JSON" in (json_problem("{") or "") and "UTF-8" in (json_problem(b"\xff") or "")
    with pytest.raises(Exception, match="at most"):
        parse_json("x" * 70_000)


# --- Host and Origin ---------------------------------------------------------------------------------------

def test_host_header_must_name_this_machine(app: Any) -> None:
    with TestClient(app, base_url="http://evil.example") as c:
        r = c.get("/api/info")  # DNS rebinding: a page of evil.example resolving here
        assert r.status_code == 400 and "Host" in r.json()["error"]
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        assert c.get("/api/info").status_code == 200
    with TestClient(app, base_url="http://[::1]:8000") as c:
        assert c.get("/api/info").status_code == 200


def test_allow_host_adds_names(tmp_path: Path) -> None:
    app = create_app(tmp_path / "h.sqlite", allow_hosts=["plies.lan"], listen="192.168.1.20")
    for base in ("http://plies.lan:8000", "http://192.168.1.20:8000", "http://localhost"):
        with TestClient(app, base_url=base) as c:
            assert c.get("/api/info").status_code == 200, base
    with TestClient(app, base_url="http://other.lan") as c:
        assert c.get("/api/info").status_code == 400


def test_origin_must_be_the_apps_own(client: Any) -> None:
    r = client.post("/api/games/new", json=HUMANS, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and "refused" in r.json()["error"]
    assert client.post("/api/games/new", json=HUMANS, headers={"Origin": "null"}).status_code == 403
    assert client.post("/api/games/new", json=HUMANS, headers={"Origin": "http://localhost"}).status_code == 200
    assert client.get("/api/info", headers={"Origin": "http://evil.example"}).status_code == 200  # reading only
    g = client.post("/api/games/new", json=HUMANS).json()["game"]
    with pytest.raises(WebSocketDisconnect) as e, client.websocket_connect(
            f"ws://localhost/ws/games/{g['id']}", headers={"origin": "http://evil.example"}) as ws:
        ws.receive_json()
    assert e.value.code == 1008
    with client.websocket_connect(f"ws://localhost/ws/games/{g['id']}", headers={"origin": "http://localhost"}) as ws:
        assert ws.receive_json()["game"]["owner"] is True


# --- tokens ------------------------------------------------------------------------------------------------

def test_a_client_chosen_token_is_refused(app: Any) -> None:
    with TestClient(app, base_url=LOCAL) as c:
        r = c.post("/api/games/new", json=HUMANS, headers={"X-Plies-Token": "a"})  # the exact input
        assert r.status_code == 403 and "not issued" in r.json()["error"]
        r = c.post("/api/games/new", json=HUMANS)
        token, gid = r.json()["token"], r.json()["game"]["id"]
        assert r.status_code == 200 and app.state.tokens.valid(token) and token != "a"
        assert c.cookies.get("plies_token") == token
        c.cookies.clear()  # a second browser, with the token in the header only
        r = c.post(f"/api/games/{gid}/moves", json={"move": "f5"}, headers={"X-Plies-Token": token})
        assert r.status_code == 200
        forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
        assert c.post(f"/api/games/{gid}/moves", json={"move": "d6"},
                      headers={"X-Plies-Token": forged}).status_code == 403


def test_a_cookie_the_server_did_not_issue_is_replaced(app: Any) -> None:
    with TestClient(app, base_url=LOCAL, cookies={"plies_token": "a"}) as c:
        page = c.get("/")
        assert page.status_code == 200 and app.state.tokens.valid(page.cookies.get("plies_token"))
    with TestClient(app, base_url=LOCAL, cookies={"plies_token": "a"}) as c:
        r = c.post("/api/games/new", json=HUMANS)
        assert r.status_code == 200 and r.json()["token"] != "a" and app.state.tokens.valid(r.json()["token"])


def test_tokens_are_signed_by_this_server() -> None:
    one, two = Tokens(), Tokens()
    t = one.issue()
    assert one.valid(t) and not two.valid(t) and not one.valid("a") and not one.valid(None)
    assert not one.valid(t + "x") and not one.valid("x" * 500)


# --- live games per client ---------------------------------------------------------------------------------

def test_one_client_cannot_evict_everyone_elses_games(tmp_path: Path) -> None:
    """The report's attack: one anonymous client creates games until the oldest live game is gone.  Now its
    own games go, never another client's."""
    app = create_app(tmp_path / "h.sqlite", per_token=4, per_address=12)
    with TestClient(app, base_url=LOCAL, client=("10.0.0.1", 1000)) as victim, \
            TestClient(app, base_url=LOCAL, client=("10.0.0.2", 2000)) as attacker:
        mine = victim.post("/api/games/new", json=HUMANS).json()["game"]["id"]
        made = []
        for _ in range(60):  # each without a cookie: a new token every time
            attacker.cookies.clear()
            r = attacker.post("/api/games/new", json=HUMANS)
            assert r.status_code == 200
            made.append(r.json()["game"]["id"])
        sessions = app.state.sessions
        assert sessions.get(mine) is not None  # the victim's game is still there ...
        assert victim.post(f"/api/games/{mine}/moves", json={"move": "f5"}).status_code == 200  # ... and playable
        assert sum(1 for g in made if sessions.get(g) is not None) == 12  # the attacker keeps its last 12
        assert all(sessions.get(g) is not None for g in made[-12:])
        # one browser (one token) keeps its 4 most recent games
        ids = [victim.post("/api/games/new", json=HUMANS).json()["game"]["id"] for _ in range(6)]
        assert [sessions.get(g) is not None for g in [mine, *ids]] == [False, False, False, True, True, True, True]


def test_a_game_dropped_for_its_browser_s_limit_tells_and_closes_its_websocket(tmp_path: Path) -> None:
    app = create_app(tmp_path / "h.sqlite", per_token=2, per_address=12)
    with TestClient(app, base_url=LOCAL) as c:
        first = c.post("/api/games/new", json=HUMANS).json()["game"]["id"]
        with c.websocket_connect(f"ws://localhost/ws/games/{first}") as ws:
            assert ws.receive_json()["type"] == "state"
            for _ in range(2):
                c.post("/api/games/new", json=HUMANS)
            message = ws.receive_json()
            assert message["type"] == "error" and "least recently used" in message["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4404
        assert c.get(f"/api/games/{first}").status_code == 404


def test_a_full_server_refuses_new_games_with_503(tmp_path: Path) -> None:
    app = create_app(tmp_path / "h.sqlite", per_token=100, per_address=100)
    with TestClient(app, base_url=LOCAL) as c:
        app.state.sessions.max_sessions = 3
        ids = [c.post("/api/games/new", json=HUMANS).json()["game"]["id"] for _ in range(3)]
        c.cookies.clear()
        r = c.post("/api/games/new", json=HUMANS)
        assert r.status_code == 503 and "limit" in r.json()["error"] and r.headers["retry-after"]
        assert all(app.state.sessions.get(g) is not None for g in ids)


# --- workers end with the server -----------------------------------------------------------------------------

@pytest.mark.skipif(not os.path.isdir("/proc"), reason="looks for child processes in /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_worker_processes_end_with_plies_web(tmp_path: Path, sig: signal.Signals) -> None:
    """SIGTERM early in start-up (as soon as the first worker exists) or kill -9: no worker stays behind."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "plies", "web", "--no-browser", "--port", str(port),
                             "--processes", "2", "--db", str(tmp_path / "w.sqlite")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kids: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            kids = [k for k in children(proc.pid) if alive(k)]
            if len(kids) >= 2:
                break
            time.sleep(0.02)
        assert kids, "plies web started no worker"
        left = outliving(proc, kids, sig)
    finally:
        if proc.poll() is None:
            proc.kill()
        for k in kids:
            if alive(k):
                os.kill(k, signal.SIGKILL)
    assert not left, f"workers outlived plies web: {left}"


def test_sigterm_stops_plies_web_cleanly(tmp_path: Path) -> None:
    """A service manager's SIGTERM once the server answers: status 0 as with Ctrl-C, and nothing on stderr (no
    leaked-semaphore warning from worker processes left unjoined)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "plies", "web", "--no-browser", "--port", str(port),
                             "--processes", "1", "--db", str(tmp_path / "w.sqlite")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.1)
        assert proc.poll() is None, "plies web did not start"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and err.strip() == "", (proc.returncode, err)
