"""Games nobody finished, over the API: a game a new one replaces, or whose browsers all left, is kept in the
history as unfinished when moves were played in it (timed or not, the same way), is never credited to a side on
time, and is not kept at all without a move."""

from __future__ import annotations

import time
from typing import Any

from .test_app_api import HUMAN, comp, new

UNFINISHED = "Unfinished (abandoned)"


def history(client: Any) -> dict[str, dict[str, Any]]:
    """The stored games by id."""
    return {g["id"]: g for g in client.get("/api/history?limit=500").json()["games"]}


def wait_for(check: Any, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the server never got there"
        time.sleep(0.05)


def test_a_replaced_game_with_moves_is_kept_unfinished_timed_or_not(client: Any, app: Any) -> None:
    for clock in (None, {"minutes": 5, "increment": 0}):
        g = new(client, players=[HUMAN, comp(1)], clock=clock)
        v = client.post(f"/api/games/{g['id']}/moves?wait=true", json={"move": "f5"}).json()
        assert v["ply"] == 2
        fresh = new(client, players=[HUMAN, comp(1)], replaces=g["id"])
        old = app.state.sessions.get(g["id"])
        assert old.abandoned and (old.clock is None or old.clock.running is None)  # its clock stopped too
        gid = g["id"]
        wait_for(lambda gid=gid: gid in history(client))
        row = history(client)[gid]
        assert row["result"] == UNFINISHED and row["winner"] is None and row["plies"] == 2
        assert fresh["id"] not in history(client)
        replay = client.get(f"/api/history/{g['id']}").json()
        assert replay["moves"][0] == "f5" and replay["result"] == UNFINISHED


def test_a_replaced_game_without_moves_is_not_kept(client: Any, app: Any) -> None:
    for clock in (None, {"minutes": 0.01, "increment": 0}):
        g = new(client, players=[HUMAN, comp(1)], clock=clock)
        new(client, players=[HUMAN, comp(1)], replaces=g["id"])
        old = app.state.sessions.get(g["id"])
        wait_for(lambda old=old: old.abandoned)
        time.sleep(1.0)  # longer than the 0.6 s clock: had it run on, it would have ended the game on time
        assert not old.game.over and (old.clock is None or old.clock.flagged is None)
        assert history(client) == {}


def test_a_game_its_browser_left_is_kept_unfinished(client: Any, app: Any) -> None:
    g = new(client, players=[HUMAN, comp(1)])
    with client.websocket_connect(f"ws://localhost/ws/games/{g['id']}") as ws:
        assert ws.receive_json()["type"] == "state"
        v = client.post(f"/api/games/{g['id']}/moves?wait=true", json={"move": "f5"}).json()
        assert v["ply"] == 2
    wait_for(lambda: g["id"] in history(client))
    row = history(client)[g["id"]]
    assert row["result"] == UNFINISHED and row["plies"] == 2
    # the browser comes back and plays on: the row follows the game
    client.post(f"/api/games/{g['id']}/moves?wait=true", json={"move": v["legal"][0]["move"]})
    with client.websocket_connect(f"ws://localhost/ws/games/{g['id']}") as ws:
        assert ws.receive_json()["type"] == "state"
    wait_for(lambda: history(client)[g["id"]]["plies"] == 4)


def test_a_timed_game_its_browser_left_is_not_won_on_time(client: Any, app: Any) -> None:
    empty = new(client, players=[HUMAN, comp(1)], clock={"minutes": 0.01, "increment": 0})
    with client.websocket_connect(f"ws://localhost/ws/games/{empty['id']}") as ws:
        assert ws.receive_json()["type"] == "state"
    played = new(client, players=[HUMAN, comp(1)], clock={"minutes": 0.05, "increment": 0})
    with client.websocket_connect(f"ws://localhost/ws/games/{played['id']}") as ws:
        assert ws.receive_json()["type"] == "state"
        v = client.post(f"/api/games/{played['id']}/moves?wait=true", json={"move": "f5"}).json()
        assert v["ply"] == 2 and not v["over"]
    for g in (empty, played):
        session = app.state.sessions.get(g["id"])
        wait_for(lambda session=session: session.clock.flagged is not None)  # its time ran out, nobody there
        v = client.get(f"/api/games/{g['id']}").json()
        assert v["over"] is False and v["result"] is None and "nobody" in v["notice"]
        r = client.post(f"/api/games/{g['id']}/moves", json={"move": "d3"})
        assert r.status_code == 400 and "nobody" in r.json()["error"]
    wait_for(lambda: played["id"] in history(client))
    rows = history(client)
    assert empty["id"] not in rows                       # no move: not kept
    assert rows[played["id"]]["result"] == UNFINISHED    # not "White wins on time"
    assert rows[played["id"]]["winner"] is None
