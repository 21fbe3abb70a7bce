"""The JSON API of the browser app, through FastAPI's test client (no real network)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from plies.analysis.levels import Difficulty
from plies.game import PASS
from plies.games import OthelloState
from plies.players import Player
from plies.web.routes import games as web_games
from plies.web.sessions import Sessions
from plies.web.turns import Computer

from .conftest import another_browser
from .polling import received, until

HUMAN = {"kind": "human"}
LOCAL = "http://localhost"  # the app answers only its own Host names (TestClient says "testserver")


def comp(level: int = 1, **kw: Any) -> dict[str, Any]:
    return {"kind": "computer", "level": level, **kw}


def new(client: Any, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games/new", json=body)
    assert r.status_code == 200, r.text
    return r.json()["game"]


def test_info_lists_games_levels_and_engine(client: Any) -> None:
    data = client.get("/api/info").json()
    names = [g["name"] for g in data["games"]]
    assert "othello" in names and "tictactoe" in names
    othello = next(g for g in data["games"] if g["name"] == "othello")
    assert "weighted-squares" in othello["heuristics"]
    assert data["levels"]["teaching"] == [1, 5]
    assert isinstance(data["engine"]["available"], bool) and data["engine"]["text"]


def test_index_and_openapi_are_served(client: Any) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "plies" in r.text
    assert "plies_token" in r.cookies
    assert client.get("/static/app.js").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/games/new", "/api/games/{gid}/moves", "/api/history"} <= set(paths) and "/api/games" not in paths


def test_new_game_move_and_computer_reply(client: Any) -> None:
    g = new(client, players=[HUMAN, comp(2)])
    assert sorted(m["move"] for m in g["legal"]) == ["c4", "d3", "e6", "f5"]
    assert g["to_move"] == 0 and g["counts"] == {"X": 2, "O": 2}
    assert g["players"][1]["backend"] == "alphabeta" and "depth 2" in g["players"][1]["label"]
    assert len(g["id"]) >= 20
    r = client.post(f"/api/games/{g['id']}/moves?wait=true", json={"move": "d3"})
    v = r.json()
    assert r.status_code == 200
    assert v["ply"] == 2 and v["to_move"] == 0 and v["thinking"] is None
    assert v["moves"][0]["move"] == "d3" and v["moves"][1]["side"] == 1
    # the computer's reply is the move its alpha-beta chooses in that position
    after = OthelloState.start().play(19)
    assert v["last_move"]["move"] == v["moves"][1]["move"] and v["last_move"]["index"] in after.legal_moves()
    assert v["counts"]["X"] + v["counts"]["O"] == 6
    assert v["flipped"], "the computer's move flipped at least one disc"


def test_errors_are_json_and_server_keeps_going(client: Any) -> None:
    g = new(client, players=[HUMAN, HUMAN])
    gid = g["id"]
    r = client.post(f"/api/games/{gid}/moves", json={"move": "a1"})
    assert r.status_code == 400 and "a1" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/moves", json={"move": "zz9"})
    assert r.status_code == 400 and "not a move" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/moves", json={"mve": "d3"})
    assert r.status_code == 422 and "move" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/moves", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not valid JSON" in r.json()["error"]  # refused before any route runs
    assert client.get("/api/games/nope").status_code == 404
    assert "no game" in client.get("/api/games/nope").json()["error"]
    r = client.post("/api/games/new", json={"game": "chess"})
    assert r.status_code == 400 and "unknown game" in r.json()["error"]
    r = client.post("/api/games/new", json={"position": "this is not a position"})
    assert r.status_code == 400 and r.json()["error"]
    r = client.post("/api/games/new", json={"players": [HUMAN, comp(99)]})
    assert r.status_code == 422
    r = client.post("/api/games/new", json={"players": [HUMAN, comp(3, heuristic="nonsense")]})
    assert r.status_code == 400 and "nonsense" in r.json()["error"]
    # still serving, and the game is untouched
    assert client.post(f"/api/games/{gid}/moves", json={"move": "d3"}).json()["ply"] == 1


def test_only_the_creating_browser_may_move(client: Any, app: Any) -> None:

    g = new(client, players=[HUMAN, HUMAN])
    other = another_browser(client)  # a second browser (no lifespan of its own: the app is already running)
    assert other.get(f"/api/games/{g['id']}").json()["owner"] is False  # watching is allowed
    r = other.post(f"/api/games/{g['id']}/moves", json={"move": "d3"})
    assert r.status_code == 403 and "another browser" in r.json()["error"]
    r = other.post(f"/api/games/{g['id']}/moves", json={"move": "d3"}, headers={"X-Plies-Token": "guess"})
    assert r.status_code == 403
    assert other.post(f"/api/games/{g['id']}/undo").status_code == 403
    assert client.get(f"/api/games/{g['id']}").json()["owner"] is True


def test_token_header_works_without_cookies(app: Any) -> None:
    from fastapi.testclient import TestClient

    with TestClient(app, base_url=LOCAL) as a:
        token = a.post("/api/games/new", json={"players": [HUMAN, HUMAN]}).json()
        gid, tok = token["game"]["id"], token["token"]
        a.cookies.clear()  # the header alone
        r = a.post(f"/api/games/{gid}/moves", json={"move": "f5"}, headers={"X-Plies-Token": tok})
        assert r.status_code == 200 and r.json()["ply"] == 1


def test_undo_and_redo_against_the_computer(client: Any) -> None:
    g = new(client, players=[HUMAN, comp(1)])
    gid = g["id"]
    assert g["can_undo"] is False
    v1 = client.post(f"/api/games/{gid}/moves?wait=true", json={"move": "f5"}).json()
    reply = v1["moves"][1]["move"]
    v2 = client.post(f"/api/games/{gid}/moves?wait=true", json={"move": v1["legal"][0]["move"]}).json()
    assert v2["ply"] == 4
    u = client.post(f"/api/games/{gid}/undo").json()
    assert u["ply"] == 2 and u["to_move"] == 0 and u["can_redo"] is True
    u = client.post(f"/api/games/{gid}/undo").json()
    assert u["ply"] == 0 and u["position"] == OthelloState.start().to_text() and u["can_undo"] is False
    assert client.post(f"/api/games/{gid}/undo").status_code == 400
    r = client.post(f"/api/games/{gid}/redo?wait=true").json()
    assert r["ply"] == 2 and [m["move"] for m in r["moves"]] == ["f5", reply]
    # a new move drops what could be redone
    m = client.post(f"/api/games/{gid}/moves?wait=true", json={"move": r["legal"][-1]["move"]}).json()
    assert m["can_redo"] is False


def test_two_people_undo_one_move_each(client: Any) -> None:
    g = new(client, players=[HUMAN, HUMAN])
    gid = g["id"]
    client.post(f"/api/games/{gid}/moves", json={"move": "f5"})
    v = client.post(f"/api/games/{gid}/moves", json={"move": "f6"}).json()
    assert v["ply"] == 2
    assert client.post(f"/api/games/{gid}/undo").json()["ply"] == 1
    assert client.post(f"/api/games/{gid}/redo").json()["ply"] == 2


def test_pass_is_played_and_announced(client: Any, pass_pos: Any) -> None:
    pos, move = pass_pos
    g = new(client, position=pos.to_text(), players=[HUMAN, comp(1)])
    assert g["custom_start"] is True and g["start"] == pos.to_text()
    v = client.post(f"/api/games/{g['id']}/moves?wait=true", json={"move": move}).json()
    assert [m["move"] for m in v["moves"]] == [move, "pass"]
    assert v["notice"] == "White has no legal move and passes."
    assert v["to_move"] == 0 and v["legal"]
    expected = pos.play(pos.parse_move(move)).play(PASS)
    assert v["position"] == expected.to_text()


def test_a_forced_pass_before_the_computers_move_is_still_announced(client: Any) -> None:
    pos = OthelloState.from_text("----X--O-OOOOOOO---OXOOO---OXXXO---OXOXO--OOXXXX--OOXOXO---OXXXO O")
    assert pos.legal_moves() == [PASS]
    g = new(client, position=pos.to_text(), players=[comp(1), HUMAN])
    v = client.get(f"/api/games/{g['id']}?wait=true").json()
    assert [m["move"] for m in v["moves"]][0] == "pass" and v["ply"] == 2 and v["to_move"] == 1
    assert v["notice"] == "White has no legal move and passes."  # the person's turn shows why it came so soon
    later = client.post(f"/api/games/{g['id']}/moves?wait=true", json={"move": v["legal"][0]["move"]}).json()
    if "pass" not in [m["move"] for m in later["moves"][2:]]:
        assert later["notice"] == ""  # once the person has moved, the message has gone


def test_finished_game_goes_to_history_and_replays(client: Any, final_pos: Any) -> None:
    pos, move = final_pos
    g = new(client, position=pos.to_text(), players=[HUMAN, comp(1)])
    v = client.post(f"/api/games/{g['id']}/moves?wait=true", json={"move": move}).json()
    final = pos.play(pos.parse_move(move))
    assert v["over"] is True and v["to_move"] is None
    assert v["result"]["score"] == final.score()
    assert v["result"]["winner"] == (0 if final.score() > 0 else 1 if final.score() < 0 else None)
    hist = _wait_history(client, 1)
    assert hist["games"][0]["id"] == g["id"] and hist["games"][0]["plies"] == 1
    rec = client.get(f"/api/history/{g['id']}").json()
    assert rec["moves"] == [move] and rec["start"] == pos.to_text()
    frames = rec["frames"]
    assert len(frames) == 2 and frames[-1]["last_move"] == pos.parse_move(move)
    assert "".join(c or "-" for c in frames[-1]["cells"]) == final.to_text().split()[0]
    assert client.get("/api/history/unknown").status_code == 404


def _wait_history(client: Any, n: int) -> dict[str, Any]:
    return until(lambda: client.get("/api/history").json(), lambda d: d["total"] >= n,
                 "the finished game reaches the history")


def test_history_survives_a_restart(tmp_path: Any, final_pos: Any) -> None:
    from fastapi.testclient import TestClient

    from plies.web import create_app

    db = tmp_path / "h.sqlite"
    pos, move = final_pos
    with TestClient(create_app(db), base_url=LOCAL) as c:
        g = new(c, position=pos.to_text(), players=[HUMAN, HUMAN])
        c.post(f"/api/games/{g['id']}/moves", json={"move": move})
        _wait_history(c, 1)
    with TestClient(create_app(db), base_url=LOCAL) as c:
        data = c.get("/api/history").json()
        assert data["total"] == 1 and data["games"][0]["id"] == g["id"]


def test_tictactoe_perfect_players_draw(client: Any) -> None:
    g = new(client, game="tictactoe", players=[comp(6), comp(6)])
    assert g["layout"]["rows"] == 3 and g["players"][0]["backend"] == "alphabeta-fallback"
    v = client.get(f"/api/games/{g['id']}?wait=true").json()
    assert v["over"] is True and v["result"]["winner"] is None and v["ply"] == 9


def test_computer_vs_computer_plays_to_the_end(client: Any) -> None:
    g = new(client, game="othello", size=4, players=[comp(1), comp(2, algorithm="minimax")])
    assert g["layout"]["rows"] == 4
    v = client.get(f"/api/games/{g['id']}?wait=true").json()
    assert v["over"] is True
    replay = OthelloState.start(4)
    for m in v["moves"]:
        replay = replay.play(replay.parse_move(m["move"]))
    assert replay.is_over() and replay.to_text() == v["position"]
    assert client.post(f"/api/games/{g['id']}/undo").status_code == 400  # nobody to give the move back to


def test_setup_from_transcript_and_other_sizes(client: Any) -> None:
    g = new(client, position="f5d6c3", players=[HUMAN, HUMAN])
    assert g["position"] == OthelloState.from_transcript("f5d6c3").to_text() and g["to_move"] == 1
    s6 = OthelloState.start(6)
    first = s6.move_str(s6.legal_moves()[0])
    g6 = new(client, size=6, position=first, players=[HUMAN, HUMAN])
    assert len(g6["cells"]) == 36 and g6["to_move"] == 1
    assert client.post("/api/games/new", json={"size": 5}).status_code == 400
    for game in ("tictactoe", "hexthello"):  # no sizes: a size is refused, not dropped
        r = client.post("/api/games/new", json={"game": game, "size": 8})
        assert r.status_code == 400 and "only Othello" in r.json()["error"]


def test_hints_are_ranked_and_legal(client: Any) -> None:
    g = new(client, game="tictactoe", position="XX-OO----X", players=[HUMAN, HUMAN])
    data = client.post(f"/api/games/{g['id']}/hint", json={"count": 3}).json()
    hints = data["hints"]
    assert len(hints) == 3 and hints[0]["move"] == "c1"  # X completes the top row
    assert hints[0]["value"] >= hints[1]["value"] >= hints[2]["value"]
    assert hints[0]["value_text"].startswith("win")
    legal = {m["move"] for m in g["legal"]}
    assert all(h["move"] in legal for h in hints)


def test_hexthello_board(client: Any) -> None:
    g = new(client, game="hexthello", players=[HUMAN, HUMAN])
    assert g["layout"]["kind"] == "hex" and len(g["layout"]["cells_on_board"]) == 169
    assert len(g["cells"]) == 225 and g["counts"]["X"] + g["counts"]["O"] > 0
    move = g["legal"][0]
    v = client.post(f"/api/games/{g['id']}/moves", json={"move": move["move"]}).json()
    assert v["ply"] == 1 and v["last_move"]["index"] == move["index"] and v["flipped"]
    vs = new(client, game="hexthello", players=[HUMAN, comp(2)])
    v = client.post(f"/api/games/{vs['id']}/moves?wait=true", json={"move": vs["legal"][0]["move"]}).json()
    assert v["ply"] == 2 and v["error"] == "" and v["to_move"] == 0
    assert " " in v["moves"][1]["move"]  # the course's "row col" notation


class BlockingPlayer(Player):
    """A computer whose search waits for the test to let it go (to check a stale search is dropped)."""

    name = "blocking"

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started = threading.Event()
        self.finished = threading.Event()

    def choose(self, state: Any) -> Any:
        self.started.set()
        self.release.wait(30)
        try:
            return state.legal_moves()[0]
        finally:
            self.finished.set()


def test_undo_drops_the_search_in_flight(client: Any, app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    player = BlockingPlayer()
    blocking = Computer(Difficulty(3, "", "blocking", "test"), player)
    monkeypatch.setattr(web_games, "make_computer", lambda state, *a: blocking)
    g = new(client, players=[HUMAN, comp(3)])
    v = client.post(f"/api/games/{g['id']}/moves", json={"move": "d3"}).json()
    assert v["thinking"] == 1
    assert player.started.wait(10)
    u = client.post(f"/api/games/{g['id']}/undo").json()
    assert u["thinking"] is None and u["ply"] == 0
    sessions: Sessions = app.state.sessions
    assert sessions.get(g["id"]) is not None
    player.release.set()  # the stale search now answers: its move must be ignored
    assert player.finished.wait(10)
    client.get(f"/api/games/{g['id']}")
    final = client.get(f"/api/games/{g['id']}").json()
    assert final["ply"] == 0 and final["thinking"] is None and final["to_move"] == 0


def test_new_game_replacing_an_old_one_stops_it(client: Any, app: Any) -> None:
    old = new(client, players=[HUMAN, HUMAN])
    fresh = new(client, players=[HUMAN, HUMAN], replaces=old["id"])
    assert app.state.sessions.get(old["id"]).abandoned is True
    assert app.state.sessions.get(fresh["id"]).abandoned is False


def test_websocket_moves_and_live_updates(client: Any) -> None:
    g = new(client, players=[HUMAN, comp(1)])
    with client.websocket_connect(f"ws://localhost/ws/games/{g['id']}") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["game"]["owner"] is True
        ws.send_json({"type": "move", "move": "e6"})
        seen = received(ws, lambda m: m["type"] == "state" and m["game"]["ply"] == 2 and m["game"]["thinking"] is None)
        assert seen["game"]["moves"][0]["move"] == "e6"
        ws.send_json({"type": "move", "move": "a1"})
        err = received(ws, lambda m: m["type"] == "error")
        assert "a1" in err["message"]
        ws.send_text("not json")
        assert "JSON" in received(ws, lambda m: m["type"] == "error")["message"]
        ws.send_json({"type": "launch"})
        assert "unknown message" in received(ws, lambda m: m["type"] == "error")["message"]
        ws.send_json({"type": "hint", "count": 2})
        hint = received(ws, lambda m: m["type"] == "hint")
        assert len(hint["hints"]) == 2 and hint["ply"] == 2
        ws.send_json({"type": "undo"})
        back = received(ws, lambda m: m["type"] == "state" and m["game"]["ply"] == 0)
        assert back["game"]["can_redo"] is True


def test_websocket_watcher_cannot_move(client: Any, app: Any) -> None:

    g = new(client, players=[HUMAN, HUMAN])
    other = another_browser(client)
    with other.websocket_connect(f"ws://localhost/ws/games/{g['id']}") as ws:
        assert ws.receive_json()["game"]["owner"] is False
        ws.send_json({"type": "move", "move": "d3"})
        assert "another browser" in received(ws, lambda m: m["type"] == "error")["message"]
        client.post(f"/api/games/{g['id']}/moves", json={"move": "d3"})  # the owner moves: the watcher sees it
        assert received(ws, lambda m: m["type"] == "state" and m["game"]["ply"] == 1)
    with client.websocket_connect("ws://localhost/ws/games/missing") as ws:
        assert ws.receive_json()["type"] == "error"


def test_searches_in_worker_processes(tmp_path: Any) -> None:
    from fastapi.testclient import TestClient

    from plies.web import create_app

    with TestClient(create_app(tmp_path / "p.sqlite", processes=1), base_url=LOCAL) as c:
        g = new(c, players=[HUMAN, comp(3)])  # depth 3: heavy enough to go to the process
        v = c.post(f"/api/games/{g['id']}/moves?wait=true", json={"move": "c4"}).json()
        assert v["ply"] == 2 and v["thinking"] is None and v["error"] == ""
        hint = c.post(f"/api/games/{g['id']}/hint", json={"count": 2}).json()
        assert len(hint["hints"]) == 2


@pytest.mark.slow
@pytest.mark.engine
def test_high_levels_use_the_engine_or_say_they_fall_back(client: Any) -> None:
    """With the real engine where plies has its compiled core; without it, the fallback says so."""
    available = client.get("/api/info").json()["engine"]["available"]
    g = new(client, players=[HUMAN, comp(7)])
    assert g["players"][1]["backend"] == ("engine" if available else "alphabeta-fallback")
    v = client.post(f"/api/games/{g['id']}/moves?wait=true", json={"move": "d3"}).json()
    assert v["ply"] == 2 and v["error"] == ""
    assert v["last_move"]["index"] in OthelloState.start().play(19).legal_moves()
    if available:
        hint = client.post(f"/api/games/{g['id']}/hint", json={"count": 2}).json()
        assert hint["source"].startswith("fast engine") and len(hint["hints"]) == 2
        g6 = new(client, size=6, players=[HUMAN, comp(7)])  # the engine plays 8x8 only
        assert g6["players"][1]["backend"] == "alphabeta-fallback" and "8x8" in g6["players"][1]["label"]


def test_fallback_when_the_engine_is_missing(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from plies.analysis import levels

    monkeypatch.setattr(levels, "engine_status", lambda: (False, "fast engine not available (test)"))
    g = new(client, players=[HUMAN, comp(9)])
    player = g["players"][1]  # the engine's pure-Python stand-in: alpha-beta with the learned evaluation
    assert player["backend"] == "alphabeta-fallback" and "no compiled core" in player["label"]
    v = client.post(f"/api/games/{g['id']}/moves?wait=true", json={"move": "f5"}).json()
    assert v["ply"] == 2 and v["error"] == ""
    hint = client.post(f"/api/games/{g['id']}/hint", json={"count": 2}).json()
    assert hint["source"].startswith("pure-Python alpha-beta") and hint["unit"] == "discs"


def test_computer_moves_first_when_you_play_second(client: Any) -> None:
    g = new(client, players=[comp(2), HUMAN])
    v = client.get(f"/api/games/{g['id']}?wait=true").json()
    assert v["ply"] == 1 and v["to_move"] == 1 and v["moves"][0]["side"] == 0
    assert v["moves"][0]["move"] in {"d3", "c4", "f5", "e6"}
    assert v["can_undo"] is False  # nothing of yours to take back yet
    move = v["legal"][0]["move"]
    v = client.post(f"/api/games/{g['id']}/moves?wait=true", json={"move": move}).json()
    assert v["ply"] == 3 and v["to_move"] == 1
    assert client.post(f"/api/games/{g['id']}/undo").json()["ply"] == 1


def test_moving_in_a_replaced_game_brings_it_back(client: Any, app: Any) -> None:
    old = new(client, players=[HUMAN, comp(1)])
    new(client, players=[HUMAN, HUMAN], replaces=old["id"])
    v = client.post(f"/api/games/{old['id']}/moves?wait=true", json={"move": "d3"}).json()
    assert v["ply"] == 2 and app.state.sessions.get(old["id"]).abandoned is False


def test_a_board_with_a_bad_side_letter_or_length_is_named_as_a_board(client: Any) -> None:
    board = OthelloState.start().to_text().split()[0]
    r = client.post("/api/games/new", json={"position": f"{board} Q"})
    assert r.status_code == 400 and "who moves: X or O, not 'Q'" in r.json()["error"]
    r = client.post("/api/games/new", json={"position": board[:-2] + " X"})
    assert r.status_code == 400 and r.json()["error"].startswith("an Othello board is 64 cells")
