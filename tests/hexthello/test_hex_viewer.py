"""The live viewer: pages, JSON, the WebSocket feed of a running match, and a person playing an agent."""

from __future__ import annotations

import os
import threading
import time

import pytest
from fastapi.testclient import TestClient

from plies.net.hexthello.client import HexClient
from plies.net.hexthello.viewer import create_app
from plies.players import RandomPlayer

from .netutil import TIMEOUT, running_server

pytestmark = pytest.mark.timeout(120)


def test_page_and_static_files_are_served() -> None:
    with running_server(games=1) as server:
        client = TestClient(create_app(server), base_url="http://localhost")
        page = client.get("/")
        assert page.status_code == 200 and "<svg id=\"board\"" in page.text and "/static/app.js" in page.text
        assert client.get("/static/app.js").status_code == 200
        assert "polygon" in client.get("/static/app.js").text
        assert client.get("/static/style.css").status_code == 200
        assert client.get("/api/state").json()["type"] == "idle"
        assert client.get("/api/games").json() == []


def test_websocket_follows_a_match_live() -> None:
    with running_server(games=1) as server:
        app = TestClient(create_app(server), base_url="http://localhost")
        with app.websocket_connect("ws://localhost/ws") as ws:
            assert ws.receive_json()["type"] == "idle"
            clients = [HexClient(RandomPlayer(k), f"bot{k}", port=server.port, timeout=TIMEOUT) for k in (1, 2)]
            threads = [threading.Thread(target=c.run) for c in clients]
            for t in threads:
                t.start()
            states, lobby = [], False
            while True:
                event = ws.receive_json()
                lobby |= event["type"] == "lobby" and bool(event["lobby"])
                if event["type"] == "state":
                    states.append(event)
                    if event["result"]:
                        break
            for t in threads:
                t.join(TIMEOUT)
        first, last = states[0], states[-1]
        assert lobby and first["plies"] == 0 and len(first["cells"]) == 169
        assert {first["black"], first["white"]} == {"bot1", "bot2"}
        assert last["result"] and last["to_move"] is None
        assert last["score"]["black"] == sum(1 for c in last["cells"] if c[2] == "X")
        assert any(s["last"] for s in states) and last["summary"]
        games = app.get("/api/games").json()
        assert len(games) == 1 and games[0]["status"] == "finished"


def test_a_person_plays_an_agent_from_the_page() -> None:
    with running_server(games=1, matches=0) as server:
        agent = HexClient(RandomPlayer(3), "robot", port=server.port, timeout=TIMEOUT)
        thread = threading.Thread(target=agent.run)
        thread.start()
        while not server.lobby:
            time.sleep(0.01)
        app = TestClient(create_app(server), base_url="http://localhost")
        with app.websocket_connect("ws://localhost/ws") as ws:
            ws.send_json({"type": "move", "row": 7, "col": 3})  # no seat yet: refused politely
            ws.send_json({"type": "play", "colour": "black", "name": "ann"})
            refused = illegal_seen = False
            moves = 0
            while True:
                event = ws.receive_json()
                if event["type"] == "notice":
                    refused |= "seat" in event["text"]
                    illegal_seen |= "occupied" in event["text"]
                    continue
                if event["type"] != "state":
                    continue
                if event["result"]:
                    break
                if event["human_to_move"]:
                    assert event["black"] == "ann" and event["to_move"] == "black"
                    if moves == 0 and not illegal_seen:
                        ws.send_json({"type": "move", "row": 7, "col": 7})  # occupied: refused, not lost
                    if event["must_pass"]:
                        ws.send_json({"type": "pass"})
                    else:
                        row, col = event["legal"][0]
                        ws.send_json({"type": "move", "row": row, "col": col})
                    moves += 1
        thread.join(TIMEOUT)
        rows = server.store.games()
    assert refused and illegal_seen and moves > 5
    assert len(rows) == 1 and rows[0]["black"] == "ann" and rows[0]["white"] == "robot"
    assert rows[0]["reason"] == "normal" and agent.record.quit


def test_a_person_turned_away_is_told_so_and_not_left_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    from plies.net.hexthello import server as hex_server

    monkeypatch.setattr(hex_server, "MAX_SEAT_REQUESTS", 1)
    with running_server(games=1, matches=0) as server:
        app = TestClient(create_app(server), base_url="http://localhost")
        with app.websocket_connect("ws://localhost/ws") as first, app.websocket_connect("ws://localhost/ws") as second:
            first.send_json({"type": "play", "colour": "black", "name": "ann"})
            assert _next_notice(first) == "you play black: waiting for an agent in the lobby"
            second.send_json({"type": "play", "colour": "white", "name": "bob"})
            assert "too many people" in _next_notice(second)  # the refusal alone, no "you play" first
            second.send_json({"type": "move", "row": 7, "col": 3})
            assert "take a seat first" in _next_notice(second)


def _next_notice(ws) -> str:  # type: ignore[no-untyped-def]
    while True:
        event = ws.receive_json()
        if event["type"] == "notice":
            return str(event["text"])


@pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="needs /usr/bin/chromium")
def test_browser_draws_the_hexagon(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import asyncio

    import uvicorn

    playwright = pytest.importorskip("playwright.sync_api")
    from plies.games.hexthello import read_holes

    with running_server(games=1, holes=read_holes("7 5, 6 9, 3 10")) as server:  # holes drawn dark
        config = uvicorn.Config(create_app(server), host="127.0.0.1", port=0, log_level="warning")
        web = uvicorn.Server(config)  # served from a thread: uvicorn leaves the signal handlers alone
        thread = threading.Thread(target=lambda: asyncio.run(web.serve()), daemon=True)
        thread.start()
        deadline = time.time() + TIMEOUT
        while not web.started and time.time() < deadline:
            time.sleep(0.05)
        port = web.servers[0].sockets[0].getsockname()[1]
        bots = [HexClient(RandomPlayer(k), f"bot{k}", port=server.port, timeout=TIMEOUT) for k in (1, 2)]
        threads = [threading.Thread(target=c.run) for c in bots]
        for t in threads:
            t.start()
        for t in threads:
            t.join(TIMEOUT)
        try:
            with playwright.sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=[
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--no-first-run"])
                page = browser.new_page()
                page.goto(f"http://127.0.0.1:{port}/")
                page.wait_for_selector("#result:not([hidden])", timeout=15000)
                cells = page.locator("#board polygon").count()
                holes = page.locator("#board polygon.hole").count()
                stones = page.locator("#board circle").count()
                page.screenshot(path=str(tmp_path / "viewer.png"))
                if os.environ.get("PLIES_SHOT"):
                    page.screenshot(path=os.environ["PLIES_SHOT"])
                result = page.inner_text("#result")
                browser.close()
        finally:
            web.should_exit = True
            thread.join(TIMEOUT)
    assert cells == 169 and holes == 3 and stones > 7 and ("wins" in result or "draw" in result)
