"""Connect Four in the browser app's API, end to end, with no front-end code that names it: the start screen's
entry, a game against the computer, a transcript and a board from the editor as set-ups, hints and analysis, a
won game's result and line, and the review of a transcript."""

from __future__ import annotations

from typing import Any

from plies.games.connect4 import ConnectFourState

from .polling import until

HUMAN = {"kind": "human"}


def new(client: Any, **body: Any) -> dict[str, Any]:
    body.setdefault("players", [HUMAN, HUMAN])
    r = client.post("/api/games/new", json={"game": "connect4", **body})
    assert r.status_code == 200, r.text
    return r.json()["game"]


def test_the_start_screen_offers_connect_four_from_its_type(client: Any) -> None:
    games = {g["name"]: g for g in client.get("/api/info").json()["games"]}
    c4 = games["connect4"]
    assert c4["title"] == "Connect Four" and c4["result"] == "result" and c4["line"] == "four in a row"
    assert c4["sides"] == ["Red", "Yellow"] and c4["symbols"] == ["R", "Y"] and c4["example"] == "d"
    assert "open-lines" in c4["heuristics"]
    (variant,) = c4["variants"]
    layout = variant["layout"]
    assert (layout["rows"], layout["cols"], layout["pieces"], layout["surface"]) == (6, 7, ["red", "yellow"], "rack")
    assert variant["engine"] is False and variant["start"] == [""] * 42


def test_a_game_against_the_computer(client: Any) -> None:
    g = new(client, players=[HUMAN, {"kind": "computer", "level": 2}])
    assert g["players"][1]["backend"] == "alphabeta" and "open-lines" in g["players"][1]["label"]
    assert [m["move"] for m in g["legal"]] == list("abcdefg")
    d = next(m for m in g["legal"] if m["move"] == "d")
    assert d["index"] == 5 * 7 + 3  # the bottom cell of column d, where the disc drops
    v = client.post(f"/api/games/{g['id']}/moves?wait=true", json={"move": "d"}).json()
    assert v["ply"] == 2 and v["error"] == "" and v["to_move"] == 0
    assert v["moves"][0]["move"] == "d" and v["moves"][1]["move"] in "abcdefg"
    assert v["counts"] == {"X": 1, "O": 1}
    r = client.post(f"/api/games/{g['id']}/moves", json={"move": "h"})
    assert r.status_code == 400 and "off the board" in r.json()["error"]


def test_set_ups_from_a_transcript_and_from_the_editor(client: Any) -> None:
    g = new(client, position="dddcce")
    assert g["ply"] == 6 and g["transcript"] == "dddcce" and g["custom_start"] is False
    spaced = new(client, position="4 4 4, 3 3 5")
    assert spaced["transcript"] == "dddcce"
    board = ConnectFourState.from_transcript("dddcc").to_text()  # the editor writes the game's own symbols
    e = new(client, position=board)
    assert e["ply"] == 0 and e["custom_start"] is True and e["to_move"] == 1 and e["position"] == board
    r = client.post("/api/games/new", json={"game": "connect4", "position": board[:-3] + " R"})
    assert r.status_code == 400
    assert r.json()["error"].startswith("a Connect Four board is 42 cells then the side to move (R or Y)")
    r = client.post("/api/games/new", json={"game": "connect4", "position": "ddddddd"})
    assert r.status_code == 400 and "move 7 (d, character 7)" in r.json()["error"] and "full" in r.json()["error"]


def test_hints_analysis_and_a_won_game(client: Any) -> None:
    g = new(client, position="dedede")  # Red to move wins with d
    h = client.post(f"/api/games/{g['id']}/hint", json={"count": 2}).json()
    assert h["hints"][0]["move"] == "d" and h["hints"][0]["exact"] is True
    a = client.get(f"/api/games/{g['id']}/analysis").json()
    assert a["unit"] == "open-lines heuristic" and len(a["moves"]) == 7
    assert a["moves"][0]["move"] == "d" and a["moves"][0]["cell"] == 2 * 7 + 3  # drawn where the disc drops
    v = client.post(f"/api/games/{g['id']}/moves", json={"move": "d"}).json()
    assert v["over"] is True and v["result"]["text"] == "Red wins" and v["result"]["winner"] == 0
    assert sorted(v["highlight"]) == [2 * 7 + 3, 3 * 7 + 3, 4 * 7 + 3, 5 * 7 + 3]  # the four in column d
    end = client.post("/api/analysis", json={"game": "connect4", "position": v["position"]}).json()
    assert end["unit"] == "result" and end["value"] == 1 and end["exact"] is True and end["moves"] == []


def test_the_review_of_a_transcript(client: Any) -> None:
    job = client.post("/api/reviews", json={"game": "connect4", "transcript": "dedede d"}).json()
    job = until(lambda: client.get(f"/api/reviews/{job['id']}").json(), lambda j: j["status"] != "running",
                "the review ends", limit=300, pause=0.05)
    assert job["status"] == "done", job
    r = job["review"]
    assert r["game"] == "connect4" and r["over"] is True and r["score"] == 1.0
    assert [m["move"] for m in r["moves"]] == list("deded" "ed") and r["side_names"] == ["Red", "Yellow"]
