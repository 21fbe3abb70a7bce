"""The browser app's finished games: every answer that says a game ended comes after the game is committed, and
a game that could not be stored (full disk, read-only file) is said so to the players, with nothing stored lost."""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from plies.web import create_app

from .polling import received

HUMAN = {"kind": "human"}
LOCAL = "http://localhost"
X_WINS = ["a1", "a2", "b1", "b2", "c1"]  # tic-tac-toe: X takes the top row on the fifth move
DELAY = 0.3  # a slow disk: each save takes this long before it commits


def stored(db: Path, gid: str) -> bool:
    """Whether game ``gid`` is committed in ``db``, read through a connection of its own (as after a crash)."""
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM games WHERE id = ?", (gid,)).fetchone()[0] == 1


def new_tictactoe(c: TestClient) -> str:
    r = c.post("/api/games/new", json={"game": "tictactoe", "players": [HUMAN, HUMAN]})
    assert r.status_code == 200, r.text
    return str(r.json()["game"]["id"])


@pytest.fixture
def slow_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, TestClient, str]]:
    """(database, client, a new tic-tac-toe game's id) of an app on a slow disk: each save takes ``DELAY``
    seconds before it commits."""
    db = tmp_path / "h.sqlite"
    app = create_app(db)
    history = app.state.history
    real = history.save

    def save(row: dict[str, Any]) -> None:
        time.sleep(DELAY)  # the answer would go out in this time if it did not wait for the commit
        real(row)

    monkeypatch.setattr(history, "save", save)
    with TestClient(app, base_url=LOCAL) as c:
        yield db, c, new_tictactoe(c)


def test_the_rest_answer_that_ends_a_game_comes_after_the_commit(slow_game: tuple[Path, TestClient, str]) -> None:
    db, c, gid = slow_game
    for move in X_WINS:
        v = c.post(f"/api/games/{gid}/moves", json={"move": move}).json()
    assert v["over"] is True and v["result"]["text"] == "X wins"
    assert stored(db, gid), "the answer announced the end before the game was stored"
    assert v["saved"] is True and v["error"] == ""
    assert c.get(f"/api/games/{gid}").json()["saved"] is True


def test_the_websocket_state_that_ends_a_game_comes_after_the_commit(slow_game: tuple[Path, TestClient, str]) -> None:
    db, c, gid = slow_game
    with c.websocket_connect(f"ws://localhost/ws/games/{gid}") as ws:
        for move in X_WINS:
            ws.send_json({"type": "move", "move": move})
        msg = received(ws, lambda m: m["type"] == "state" and m["game"]["over"])
        assert stored(db, gid), "the WebSocket announced the end before the game was stored"
        assert msg["game"]["saved"] is True


def full_disk(app: Any) -> None:
    """Every later connection of the app's history may not grow its file: SQLite's own "database or disk is
    full" (SQLITE_FULL), as on a full disk."""
    engine = app.state.history.engine
    engine.dispose()
    with sqlite3.connect(app.state.history.path) as conn:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]

    @event.listens_for(engine, "connect")
    def _limit(conn: Any, _record: Any) -> None:
        conn.execute(f"PRAGMA max_page_count = {pages}")


def test_a_game_that_cannot_be_saved_tells_its_players_and_keeps_the_history(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "h.sqlite"
    app = create_app(db)
    with TestClient(app, base_url=LOCAL) as c:
        first = new_tictactoe(c)
        for move in X_WINS:
            c.post(f"/api/games/{first}/moves", json={"move": move})
        assert stored(db, first)
        full_disk(app)
        caplog.set_level(logging.ERROR, logger="plies.web")
        lost: list[str] = []
        for _ in range(40):  # until the table's pages are full
            gid = new_tictactoe(c)
            for move in X_WINS:
                v = c.post(f"/api/games/{gid}/moves", json={"move": move}).json()
            assert v["over"] is True
            if not v["saved"]:
                lost.append(gid)
                break
            assert stored(db, gid)
        assert lost, "the disk never filled up"
        assert "could not be saved" in v["error"] and "disk is full" in v["error"], v["error"]
        assert "\n" not in v["error"]
        assert c.get(f"/api/games/{lost[0]}").json()["saved"] is False
        history = c.get("/api/history").json()
        assert first in [g["id"] for g in history["games"]] and lost[0] not in [g["id"] for g in history["games"]]
    logged = [r.getMessage() for r in caplog.records if r.name == "plies.web"]
    assert logged and all("INSERT" not in m and "\n" not in m for m in logged), logged
    assert stored(db, first)


def test_a_read_only_history_says_so(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    app = create_app(db)
    with TestClient(app, base_url=LOCAL) as c:
        engine = app.state.history.engine
        engine.dispose()

        @event.listens_for(engine, "connect")
        def _readonly(conn: Any, _record: Any) -> None:
            conn.execute("PRAGMA query_only = 1")  # SQLite's "attempt to write a readonly database"

        gid = new_tictactoe(c)
        for move in X_WINS:
            v = c.post(f"/api/games/{gid}/moves", json={"move": move}).json()
        assert v["saved"] is False and "could not be saved" in v["error"], v


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_kill_probe_finds_every_game_told_finished(capsys: pytest.CaptureFixture[str]) -> None:
    """tools/kill_web.py, short: two kill -9 of a real ``plies web`` just after an answer that ended a game."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    import kill_web

    assert kill_web.main(["--games", "8", "--rounds", "2", "--max-delay", "0", "--seed", "3"]) == 0
    assert "0 missing" in capsys.readouterr().out
