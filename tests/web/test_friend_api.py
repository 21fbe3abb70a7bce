"""A game between two browsers through the JSON API: the invite code seats the friend, each browser moves only its
own side, a third browser watches and is told so, resignation, a rematch with the colours swapped, the history."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import another_browser
from .polling import received
from .test_api import LOCAL, new

HOST, FRIEND = {"kind": "human"}, {"kind": "friend"}


@pytest.fixture
def browsers(client: Any, app: Any) -> tuple[Any, Any, Any]:
    """Three browsers (their own cookies) on the same app: the host, the friend, a watcher."""
    return client, another_browser(client, LOCAL), another_browser(client, LOCAL)


def friend_game(host: Any, guest: Any, **body: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The host's game (host Black) and the friend's answer to joining it."""
    g = new(host, players=[HOST, FRIEND], **body)
    about = guest.get(f"/api/join/{g['invite']['code']}").json()
    assert about["open"] is True and about["seat"] == "White" and about["game"] == "othello"
    assert g["friend"] and g["invite"]["open"] and g["you"] == [0]
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", g["invite"]["code"])  # (no 0/O, 1/I)
    r = guest.post("/api/join", json={"code": g["invite"]["code"].lower().replace("-", " "), "name": "Ann"})
    assert r.status_code == 200, r.text
    return g, r.json()


def test_friend_joins_by_code_and_each_moves_only_its_side(browsers: tuple[Any, Any, Any]) -> None:
    host, guest, third = browsers
    g, joined = friend_game(host, guest)
    gid = g["id"]
    assert joined["seat"] == 1 and joined["game"]["you"] == [1] and joined["game"]["watching"] is False
    seen = host.get(f"/api/games/{gid}").json()
    assert seen["players"][1]["name"] == "Ann" and seen["invite"]["open"] is False
    assert "Ann joined" in seen["notice"]
    r = guest.post(f"/api/games/{gid}/moves", json={"move": "d3"})  # Black's turn: the host's
    assert r.status_code == 400 and "Black's turn" in r.json()["error"]
    assert host.post(f"/api/games/{gid}/moves", json={"move": "d3"}).json()["ply"] == 1
    r = host.post(f"/api/games/{gid}/moves", json={"move": "c3"})
    assert r.status_code == 400 and "White's turn" in r.json()["error"]
    assert guest.post(f"/api/games/{gid}/moves", json={"move": "c3"}).json()["ply"] == 2
    # a third browser on the invite gets no seat: it watches, and a move of its own is refused with the reason
    w = third.post("/api/join", json={"code": g["invite"]["code"]}).json()
    assert w["seat"] is None and w["game"]["watching"] is True and w["game"]["you"] == []
    assert w["game"]["invite"] is None  # the code is shown to the players only
    r = third.post(f"/api/games/{gid}/moves", json={"move": "c4"})
    assert r.status_code == 403 and "watching" in r.json()["error"]
    about = third.get(f"/api/join/{g['invite']['code']}").json()  # what the invite opens, before joining
    assert about["id"] == gid and about["open"] is False and about["seat"] is None and about["host"] == "Person 1"
    assert third.get("/api/join/NOPE" + "x" * 100).status_code == 404
    # the host joining its own invite keeps its side
    assert host.post("/api/join", json={"code": g["invite"]["code"]}).json()["seat"] == 0


def test_moves_over_the_websocket_reach_the_other_browser(browsers: tuple[Any, Any, Any]) -> None:
    host, guest, third = browsers
    g, _ = friend_game(host, guest)
    url = f"ws://localhost/ws/games/{g['id']}"
    with guest.websocket_connect(url) as gws, third.websocket_connect(url) as tws:
        assert gws.receive_json()["game"]["you"] == [1]
        assert tws.receive_json()["game"]["watching"] is True
        host.post(f"/api/games/{g['id']}/moves", json={"move": "d3"})
        assert received(gws, lambda m: m["type"] == "state" and m["game"]["ply"] == 1)
        gws.send_json({"type": "move", "move": "c3"})
        assert received(tws, lambda m: m["type"] == "state" and m["game"]["ply"] == 2)
        tws.send_json({"type": "move", "move": "c4"})
        assert "watching" in received(tws, lambda m: m["type"] == "error")["message"]
        gws.send_json({"type": "hint"})  # no help from the engine while two people play
        assert "hints" in received(gws, lambda m: m["type"] == "error")["message"]


def test_resign_rematch_and_history(browsers: tuple[Any, Any, Any]) -> None:
    host, guest, third = browsers
    g, _ = friend_game(host, guest)
    gid = g["id"]
    host.post(f"/api/games/{gid}/moves", json={"move": "d3"})
    r = host.post(f"/api/games/{gid}/rematch")
    assert r.status_code == 400 and "over" in r.json()["error"]
    assert third.post(f"/api/games/{gid}/resign").status_code == 403
    over = guest.post(f"/api/games/{gid}/resign").json()
    assert over["over"] and over["result"]["text"] == "Black wins by resignation" and over["result"]["winner"] == 0
    assert over["saved"] is True
    assert host.post(f"/api/games/{gid}/resign").json()["error"] == "the game is over"
    stored = host.get("/api/history").json()["games"][0]
    assert stored["id"] == gid and stored["players"] == ["Person 1", "Ann"]
    assert stored["result"] == "Black wins by resignation"
    assert third.post(f"/api/games/{gid}/rematch").status_code == 403
    again = guest.post(f"/api/games/{gid}/rematch").json()
    assert again["id"] != gid and again["you"] == [0]  # the friend plays Black now
    assert again["players"][0]["name"] == "Ann" and again["players"][1]["name"] == "Person 1"
    assert host.post(f"/api/games/{gid}/rematch").json()["id"] == again["id"]  # one rematch, whoever asks
    assert host.get(f"/api/games/{gid}").json()["rematch"] == again["id"]
    assert host.get(f"/api/games/{again['id']}").json()["you"] == [1]
    assert host.post(f"/api/games/{again['id']}/moves", json={"move": "d3"}).status_code == 400
    assert guest.post(f"/api/games/{again['id']}/moves", json={"move": "d3"}).json()["ply"] == 1


def test_rematch_against_the_computer_swaps_colours(client: Any) -> None:
    g = new(client, players=[HOST, {"kind": "computer", "level": 1}])
    over = client.post(f"/api/games/{g['id']}/resign").json()
    assert over["result"]["text"] == "White wins by resignation"
    again = client.post(f"/api/games/{g['id']}/rematch?wait=true").json()
    assert again["players"][0]["kind"] == "computer" and again["you"] == [1]


def test_a_take_back_is_asked_and_agreed_or_refused(browsers: tuple[Any, Any, Any]) -> None:
    host, guest, third = browsers
    g, _ = friend_game(host, guest)
    gid = g["id"]
    r = host.post(f"/api/games/{gid}/undo")
    assert r.status_code == 400 and "not moved yet" in r.json()["error"]
    host.post(f"/api/games/{gid}/moves", json={"move": "d3"})
    asked = host.post(f"/api/games/{gid}/undo").json()  # Black asks to take back d3
    assert asked["ply"] == 1 and asked["undo_offer"] == 0 and "asks to take back" in asked["notice"]
    assert asked["can_undo"] is False and guest.get(f"/api/games/{gid}").json()["can_undo"] is True
    r = host.post(f"/api/games/{gid}/undo")
    assert r.status_code == 400 and "asked already" in r.json()["error"]
    assert third.post(f"/api/games/{gid}/undo").status_code == 403
    back = guest.post(f"/api/games/{gid}/undo").json()  # White agrees
    assert back["ply"] == 0 and back["undo_offer"] is None and "agreed" in back["notice"]
    assert back["can_redo"] is False
    host.post(f"/api/games/{gid}/moves", json={"move": "d3"})
    guest.post(f"/api/games/{gid}/moves", json={"move": "c3"})
    guest.post(f"/api/games/{gid}/undo")
    r = guest.post(f"/api/games/{gid}/undo/decline")
    assert r.status_code == 400 and "no question" in r.json()["error"]  # the asker cannot answer itself
    no = host.post(f"/api/games/{gid}/undo/decline").json()
    assert no["ply"] == 2 and no["undo_offer"] is None and "said no" in no["notice"]
    guest.post(f"/api/games/{gid}/undo")
    host.post(f"/api/games/{gid}/moves", json={"move": "c4"})  # a move withdraws the question
    assert host.get(f"/api/games/{gid}").json()["undo_offer"] is None


def test_no_undo_and_a_clock_that_waits_for_the_friend(browsers: tuple[Any, Any, Any]) -> None:
    host, guest, _ = browsers
    g = new(host, players=[FRIEND, HOST], clock={"minutes": 1})
    assert g["clock"]["running"] is None  # Black is the friend, not here yet: no clock runs
    guest.post("/api/join", json={"code": g["invite"]["code"]})
    assert host.get(f"/api/games/{g['id']}").json()["clock"]["running"] == 0
    r = host.post(f"/api/games/{g['id']}/undo")
    assert r.status_code == 400 and "no undo" in r.json()["error"]


def test_bad_friend_requests_are_refused(browsers: tuple[Any, Any, Any]) -> None:
    host, guest, _ = browsers
    r = host.post("/api/games/new", json={"players": [FRIEND, {"kind": "computer", "level": 1}]})
    assert r.status_code == 400 and "friend" in r.json()["error"]
    r = host.post("/api/games/new", json={"players": [FRIEND, FRIEND]})
    assert r.status_code == 400
    r = guest.post("/api/join", json={"code": "ZZZZ-ZZZZ"})
    assert r.status_code == 404 and "invite code" in r.json()["error"]
    assert guest.post("/api/join", json={}).status_code == 422
    assert new(host, players=[HOST, HOST])["invite"] is None  # one screen: nothing to invite to


def test_a_lan_invite_names_the_allowed_host(tmp_path: Any) -> None:
    """Served to the LAN (--host 0.0.0.0 --allow-host ADDRESS): /api/info names the address the invite link uses;
    a request addressed to another name is refused, and so is a join from another site's page."""
    from fastapi.testclient import TestClient

    from plies.web import create_app

    app = create_app(tmp_path / "h.sqlite", listen="0.0.0.0", allow_hosts=["192.168.1.20"])
    lan = "http://192.168.1.20:8000"
    with TestClient(app, base_url=lan) as host:
        assert host.get("/api/info").json()["hosts"] == ["192.168.1.20"]
        g = new(host, players=[HOST, FRIEND])
        friend = another_browser(host, lan)
        r = friend.post("/api/join", json={"code": g["invite"]["code"]}, headers={"Origin": "http://evil.example"})
        assert r.status_code == 403
        assert TestClient(app, base_url="http://evil.example").get("/api/info").status_code == 400
        r = friend.post("/api/join", json={"code": g["invite"]["code"]}, headers={"Origin": lan})
        assert r.status_code == 200 and r.json()["seat"] == 1


def test_a_watcher_is_not_called_you(browsers: tuple[Any, Any, Any]) -> None:
    host, _, third = browsers
    g = new(host, players=[HOST, {"kind": "computer", "level": 1}])
    assert g["players"][0]["name"] == "You"
    seen = third.get(f"/api/games/{g['id']}").json()
    assert seen["players"][0]["name"] == "Player" and seen["watching"] is True and seen["you"] == []
