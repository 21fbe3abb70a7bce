"""A player's routes of the API (``plies.web.routes``): set-up that keeps a transcript's moves, the board editor's
positions, going back and playing on, clocks, analysis with its unit, and the review of a game.  The textbook
search stands in for the engine here (the conftest's ``textbook_only``); test_app_engine.py uses the engine."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from plies.analysis.levels import MAX_LEVEL
from plies.game import PASS, WIN
from plies.games import OthelloState, TicTacToeState
from plies.heuristics import get
from plies.search import alphabeta

from .conftest import another_browser
from .polling import until

HUMAN = {"kind": "human"}


def comp(level: int = 1, **kw: Any) -> dict[str, Any]:
    return {"kind": "computer", "level": level, **kw}


def new(client: Any, **body: Any) -> dict[str, Any]:
    body.setdefault("players", [HUMAN, HUMAN])
    r = client.post("/api/games/new", json=body)
    assert r.status_code == 200, r.text
    return r.json()["game"]


def exact_values(state: OthelloState) -> dict[int, int]:
    """Every legal move's exact final disc difference for the mover, by the textbook alpha-beta to the end."""
    out = {}
    discs = get("othello", "discs")
    for m in state.legal_moves():
        child = state.play(m)
        if child.is_over():
            s = child.score()
            out[m] = s if state.to_move == 0 else -s
            continue
        r = alphabeta(child, 2 * child.empties() + 2, discs)
        v = r.value if child.to_move == state.to_move else -r.value
        assert abs(v) >= WIN or v == 0
        out[m] = int(v - WIN) if v >= WIN else int(v + WIN) if v <= -WIN else 0
    return out


def known_mistake_game(seed: int = 3, empties: int = 8, at_least: int = 4) -> tuple[list[str], int, int, str]:
    """(a whole game's moves, the move number of a known mistake, the discs it loses against the best move, the
    best move): seeded random moves, except that with ``empties`` empty squares the mover plays its worst move
    when that loses at least ``at_least`` discs (found by the textbook alpha-beta to the end, not the engine)."""
    for k in range(200):
        rng = random.Random(seed * 1000 + k)
        s = OthelloState.start()
        names: list[str] = []
        mistake = None
        while not s.is_over():
            moves = s.legal_moves()
            m = rng.choice(moves)
            if mistake is None and s.empties() == empties and len(moves) >= 2:
                values = exact_values(s)
                worst = min(values, key=values.get)
                best = max(values, key=values.get)
                if values[best] - values[worst] >= at_least:
                    m = worst
                    mistake = (len(names) + 1, values[best] - values[worst], s.move_str(best))
            names.append(s.move_str(m))
            s = s.play(m)
        if mistake is not None:
            return names, mistake[0], mistake[1], mistake[2]
    raise AssertionError("no game with a known mistake")


def transcript(names: list[str]) -> str:
    return "".join(n for n in names if n != "pass")


def test_a_transcript_becomes_the_games_moves(client: Any) -> None:
    g = new(client, position="f5d6c3d3c4")
    assert g["ply"] == 5 and [m["move"] for m in g["moves"]] == ["f5", "d6", "c3", "d3", "c4"]
    assert g["setup_moves"] == 5 and g["custom_start"] is False and g["transcript"] == "f5d6c3d3c4"
    assert g["position"] == OthelloState.from_transcript("f5d6c3d3c4").to_text()
    back = client.post(f"/api/games/{g['id']}/undo").json()
    assert back["ply"] == 4 and back["transcript"] == "f5d6c3d3"
    t = client.get(f"/api/games/{g['id']}/transcript").json()
    assert t["transcript"] == "f5d6c3d3" and t["start"] == OthelloState.start().to_text()


def test_a_transcript_against_the_computer_keeps_its_moves(client: Any) -> None:
    g = new(client, position="f5d6c3d3", players=[HUMAN, comp(1)])
    assert g["ply"] == 4 and g["to_move"] == 0 and g["can_undo"] is True
    v = client.post(f"/api/games/{g['id']}/moves?wait=true", json={"move": g["legal"][0]["move"]}).json()
    assert v["ply"] == 6 and v["transcript"].startswith("f5d6c3d3")
    assert client.post(f"/api/games/{g['id']}/undo").json()["ply"] == 4


@pytest.mark.parametrize(("text", "says"), [
    ("f5d6c3d9", "move 4 (d9, character 7): d9 is off the board"),
    ("f5d6c3d3zz", "character 9"),
    ("f5 d6 a1", "move 3 (a1, character 7): a1 flips nothing"),
    ("f5 f5", "move 2 (f5, character 4): f5 is occupied"),
    ("XO" + "-" * 30 + " X", "64 cells"),
])
def test_a_bad_set_up_names_the_move_and_its_place(client: Any, text: str, says: str) -> None:
    r = client.post("/api/games/new", json={"position": text, "players": [HUMAN, HUMAN]})
    assert r.status_code == 400 and says in r.json()["error"], r.json()


def test_other_games_and_sizes_keep_their_moves(client: Any) -> None:
    g = new(client, game="tictactoe", position="b2 a1 c3")
    assert [m["move"] for m in g["moves"]] == ["b2", "a1", "c3"] and g["to_move"] == 1
    r = client.post("/api/games/new", json={"game": "tictactoe", "position": "b2b2", "players": [HUMAN, HUMAN]})
    assert r.status_code == 400 and "move 2 (b2" in r.json()["error"]
    s6 = OthelloState.start(6)
    first = s6.move_str(s6.legal_moves()[0])
    g6 = new(client, size=6, position=first)
    assert g6["ply"] == 1 and len(g6["cells"]) == 36
    from plies.games.hexthello import HexThelloState

    h0 = HexThelloState.start()
    a = h0.legal_moves()[0]
    b = h0.play(a).legal_moves()[0]
    line = f"{h0.move_str(a)}, {h0.play(a).move_str(b)}"
    hx = new(client, game="hexthello", position=line)
    assert [m["move"] for m in hx["moves"]] == line.split(", ") and hx["transcript"] == line
    r = client.post("/api/games/new", json={"game": "hexthello", "position": f"{h0.move_str(a)}, 0 0",
                                           "players": [HUMAN, HUMAN]})
    assert r.status_code == 400 and "move 2 (0 0" in r.json()["error"]
    assert "0 0 is not on the board" in r.json()["error"]


def test_a_board_from_the_editor_starts_without_history(client: Any) -> None:
    board = OthelloState.from_transcript("f5d6c3").to_text()
    g = new(client, position=board)
    assert g["ply"] == 0 and g["custom_start"] is True and g["start"] == board
    m = client.post(f"/api/games/{g['id']}/moves", json={"move": g["legal"][0]["move"]}).json()
    assert m["ply"] == 1 and m["custom_start"] is True
    ttt = new(client, game="tictactoe", position="X-O------ X")
    assert ttt["cells"][0] == "X" and ttt["cells"][2] == "O" and ttt["to_move"] == 0
    r = client.post("/api/games/new", json={"game": "tictactoe", "position": "XXX-OO--- O", "players": [HUMAN, HUMAN]})
    assert r.status_code == 400 and "finished" in r.json()["error"]


def test_a_finished_transcript_opens_for_review_and_is_not_saved_again(client: Any) -> None:
    names, *_ = known_mistake_game()
    g = new(client, position=transcript(names))
    assert g["over"] is True and g["ply"] == len(names) and g["result"]["text"]
    time.sleep(0.2)
    assert client.get("/api/history").json()["total"] == 0  # nothing was played here


def test_positions_of_the_move_list(client: Any) -> None:
    g = new(client, position="f5d6c3")
    f = client.get(f"/api/games/{g['id']}/positions/1").json()
    after = OthelloState.from_transcript("f5")
    assert f["ply"] == 1 and f["to_move"] == 1 and f["position"] == after.to_text()
    assert sorted(m["move"] for m in f["legal"]) == sorted(after.move_str(m) for m in after.legal_moves())
    assert f["last_move"]["move"] == "f5" and f["flipped"]
    assert client.get(f"/api/games/{g['id']}/positions/9").status_code == 400


def test_play_on_from_an_earlier_position(client: Any) -> None:
    g = new(client, position="f5d6c3d3c4")
    gid = g["id"]
    v = client.post(f"/api/games/{gid}/branch", json={"ply": 2, "move": "c5"}).json()
    assert v["transcript"] == "f5d6c5" and v["ply"] == 3 and v["can_redo"] is False
    assert client.post(f"/api/games/{gid}/undo").json()["transcript"] == "f5d6"
    assert client.post(f"/api/games/{gid}/redo").json()["transcript"] == "f5d6c5"
    back = client.post(f"/api/games/{gid}/branch", json={"ply": 1}).json()  # back, without a move yet
    assert back["ply"] == 1 and back["can_redo"] is True
    assert client.post(f"/api/games/{gid}/redo").json()["transcript"].startswith("f5d6")
    r = client.post(f"/api/games/{gid}/branch", json={"ply": 1, "move": "a1"})
    assert r.status_code == 400 and "a1" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/branch", json={"ply": 40, "move": "d3"})
    assert r.status_code == 400 and "no position after move 40" in r.json()["error"]


def test_branching_where_the_computer_moves_is_refused(client: Any, app: Any) -> None:
    g = new(client, position="f5d6", players=[HUMAN, comp(1)])
    r = client.post(f"/api/games/{g['id']}/branch", json={"ply": 1, "move": "c5"})
    assert r.status_code == 400 and "computer's turn" in r.json()["error"]
    v = client.post(f"/api/games/{g['id']}/branch", json={"ply": 1}).json()  # the computer plays on from there
    assert v["ply"] == 1 and v["thinking"] == 1

    other = another_browser(client)  # another browser: it may watch, not go back
    assert other.get(f"/api/games/{g['id']}/positions/0").status_code == 200
    r = other.post(f"/api/games/{g['id']}/branch", json={"ply": 0})
    assert r.status_code == 403 and "another browser" in r.json()["error"]


def test_a_clock_running_out_loses_the_game(client: Any) -> None:
    g = new(client, clock={"minutes": 0.01, "increment": 0}, players=[HUMAN, comp(1)])
    assert g["clock"]["running"] == 0 and g["clock"]["remaining"][0] <= 0.6
    assert g["can_undo"] is False and g["can_branch"] is False
    v = until(lambda: client.get(f"/api/games/{g['id']}").json(), lambda v: v["over"], "the clock runs out")
    assert v["over"] is True and v["result"]["reason"] == "time" and v["result"]["winner"] == 1
    assert v["result"]["text"] == "White wins on time" and v["clock"]["flagged"] == 0
    assert v["notice"] == "Black's time ran out."
    r = client.post(f"/api/games/{g['id']}/moves", json={"move": "d3"})
    assert r.status_code == 400 and "over" in r.json()["error"]
    hist = until(lambda: client.get("/api/history").json(), lambda h: h["total"] > 0, "the game reaches the history")
    assert hist["games"][0]["result"] == "White wins on time"


def test_a_timed_game_has_no_undo_and_counts_the_increment(client: Any) -> None:
    g = new(client, clock={"minutes": 5, "increment": 2})
    v = client.post(f"/api/games/{g['id']}/moves", json={"move": "f5"}).json()
    assert v["clock"]["running"] == 1 and 300 < v["clock"]["remaining"][0] <= 302
    r = client.post(f"/api/games/{g['id']}/undo")
    assert r.status_code == 400 and "timed game" in r.json()["error"]
    for minutes in (-1, 1e-300, 0.001):  # a clock that would be lost before the first move
        r = client.post("/api/games/new", json={"clock": {"minutes": minutes}, "players": [HUMAN, HUMAN]})
        assert r.status_code == 422


def test_analysis_says_its_unit(client: Any) -> None:
    g = new(client)
    a = client.get(f"/api/games/{g['id']}/analysis").json()
    assert a["unit"] == "discs" and len(a["moves"]) == 4  # no engine in this test: its pure-Python stand-in
    for level in (0, 999):  # as the settings: a level is 1 to the top level, never silently another
        assert client.get(f"/api/games/{g['id']}/analysis?level={level}").status_code == 422
    assert a["moves"][0]["value"] >= a["moves"][-1]["value"] and a["source"].startswith("pure-Python alpha-beta")
    t = client.post("/api/analysis", json={"game": "tictactoe", "position": "XX-OO---- X"}).json()
    assert t["unit"] == "result" and t["moves"][0]["move"] == "c1" and t["moves"][0]["value"] == 1 and t["exact"]
    names, *_ = known_mistake_game()
    end = OthelloState.from_transcript(transcript(names[:-6]))
    e = client.post("/api/analysis", json={"position": end.to_text()}).json()
    assert e["unit"] == "discs" and e["exact"] is True  # solved to the end even without the engine
    values = exact_values(end)
    assert {m["index"]: m["value"] for m in e["moves"]} == values
    r = client.post("/api/analysis", json={"position": "zz"})
    assert r.status_code == 400


def test_hints_say_their_unit(client: Any) -> None:
    g = new(client, game="tictactoe", position="XX-OO----X")
    h = client.post(f"/api/games/{g['id']}/hint", json={"count": 2}).json()
    assert h["unit"] == "result" and h["hints"][0]["value_text"] == "win" and h["hints"][0]["then"] == []


def _review(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    job = client.post("/api/reviews", json=body).json()
    assert job["status"] in ("running", "done") and job["total"] >= 1
    job = until(lambda: client.get(f"/api/reviews/{job['id']}").json(), lambda j: j["status"] != "running",
                "the review ends", limit=300, pause=0.05)  # a busy host reviews slowly
    assert job["status"] == "done", job
    assert job["done"] == job["total"]
    return job["review"]


def test_review_finds_a_known_mistake_without_the_engine(client: Any) -> None:
    names, ply, loss, best = known_mistake_game()
    # the game from 6 moves before the mistake: the pure-Python stand-in reviews a whole game in minutes
    before = ply - 7
    start = OthelloState.from_transcript(transcript(names[:before]))
    g = new(client, position=start.to_text(), moves=names[before:])
    r = _review(client, {"game_id": g["id"]})
    row = next(m for m in r["moves"] if m["ply"] == ply - before)
    assert row["move"] == names[ply - 1] and row["mistake"] is True and row["exact"] is True
    assert row["unit"] == "discs" and row["loss"] == loss and row["best_value"] - row["value"] == loss
    assert row["best_line"][0] == row["best"]
    side = row["side"]
    assert r["players"][side]["mistakes"] >= 1
    assert len(r["evals"]) == len(names) - before + 1 and r["over"] is True


def test_review_of_a_transcript_and_of_the_history(client: Any, final_pos: Any) -> None:
    r = _review(client, {"game": "tictactoe", "transcript": "a1 b2 a2 a3 c1 b1 c3 c2"})
    assert r["unit"] == "result"
    worst = [m for m in r["moves"] if m["mistake"]]
    assert worst and all(m["loss"] >= 1 for m in worst)
    pos, move = final_pos
    g = client.post("/api/games/new", json={"position": pos.to_text(), "players": [HUMAN, comp(1)]}).json()["game"]
    client.post(f"/api/games/{g['id']}/moves?wait=true", json={"move": move})
    until(lambda: client.get("/api/history").json(), lambda h: h["total"] > 0, "the game reaches the history")
    h = _review(client, {"history_id": g["id"]})
    assert h["moves"][0]["move"] == move
    assert client.post("/api/reviews", json={"history_id": "nope"}).status_code == 404
    assert client.post("/api/reviews", json={}).status_code == 400
    assert client.get("/api/reviews/nope").status_code == 404


def test_set_up_moves_are_checked_one_by_one(client: Any) -> None:
    g = new(client, position=OthelloState.start().to_text(), moves=["f5", "d6"])
    assert g["ply"] == 2 and g["custom_start"] is False
    r = client.post("/api/games/new", json={"position": OthelloState.start().to_text(), "moves": ["f5", "f5"],
                                           "players": [HUMAN, HUMAN]})
    assert r.status_code == 400 and "move 2 (f5)" in r.json()["error"]


def test_people_are_named_and_results_read_plainly(client: Any) -> None:
    g = new(client, players=[HUMAN, comp(3)])
    assert g["players"][0]["name"] == "You" and g["players"][0]["label"] == ""
    assert g["players"][1]["name"] == "Computer" and g["players"][1]["short"] == "computer, level 3"
    two = new(client)
    assert [p["name"] for p in two["players"]] == ["Person 1", "Person 2"]
    ttt = new(client, game="tictactoe", position="a1 a2 b1 b2")
    v = client.post(f"/api/games/{ttt['id']}/moves", json={"move": "c1"}).json()
    assert v["result"]["text"] == "X wins"
    assert TicTacToeState.from_transcript("a1a2b1b2c1").is_over()


def test_analysis_level_can_be_changed(client: Any) -> None:
    g = new(client, analysis_level=6)
    assert g["analysis_level"] == 6
    v = client.post(f"/api/games/{g['id']}/settings", json={"analysis_level": 9}).json()
    assert v["analysis_level"] == 9
    too_high = {"analysis_level": MAX_LEVEL + 1}
    assert client.post(f"/api/games/{g['id']}/settings", json=too_high).status_code == 422
    assert PASS == -1


def test_the_analyst_shares_and_caches_its_work() -> None:
    from plies.game import PliesError
    from plies.web.analyst import Analyst

    analyst = Analyst(threads=1)
    s = OthelloState.from_transcript("f5d6")
    first, again = analyst.submit(s, 8), analyst.submit(s, 8)
    result = first.result(timeout=60)
    # one search for two people asking: the same job, or its cached result when it ended in between (a book move)
    assert again is first or again.result(timeout=60) is result
    assert analyst.cached(s, 8) is result and analyst.submit(s, 8).result() is result
    with pytest.raises(PliesError, match="waiting to be analysed"):
        Analyst(max_queue=0).submit(s, 8)


def test_a_browser_runs_two_reviews_at_once_and_a_stopped_one_leaves_the_queue(
        app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """One client cannot fill the analysis queue or push out other people's reviews: a third review of the same
    browser stops its oldest, whose positions not analysed yet leave the queue."""
    from fastapi.testclient import TestClient

    from plies.games import parse_position
    from plies.games.record import Game
    from plies.web.analyst import Analyst

    analyst = Analyst()
    monkeypatch.setattr(analyst, "_start_workers", lambda: None)  # nothing runs: the reviews stay running
    app.state.analyst = analyst
    games = ["a1 b2 a2 a3 c1", "c3 b2 c1 a1 b1", "b1 b2 c2 c1 a3"]
    with TestClient(app, base_url="http://localhost") as client:
        jobs = [client.post("/api/reviews", json={"game": "tictactoe", "transcript": t}).json() for t in games]
        views = [client.get(f"/api/reviews/{j['id']}").json() for j in jobs]
        assert views[0]["status"] == "failed" and "newer review" in views[0]["error"]
        assert [v["status"] for v in views[1:]] == ["running", "running"]
        start = parse_position("tictactoe")
        kept = set()
        for t in games[1:]:
            kept |= set(Game(start, t.split()).states)
        queued = until(lambda: {key[1] for key in analyst._jobs}, lambda q: q <= kept, "the stopped review leaves")
        assert queued and queued <= kept, "the stopped review's own positions are still queued"
