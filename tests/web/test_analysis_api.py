"""The analysis controls' routes (``plies.web.thinker``): the opening book's moves of a position, a think of N
seconds with 1-5 lines whose live line deepens, Stop, one job per game, the exact solver against the engine's own
exact search, the bound on empties, and clear refusals.  The review marks the moves that followed the book."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from plies.analysis.book import book_moves, in_book
from plies.analysis.review import review_game
from plies.game import PASS
from plies.games import OthelloState
from plies.web import thinker

from .test_app_api import HUMAN, _review, new

DEADLINE = 120.0  # a bound against hanging, not a speed check


def position_with(empties: int, seed: int = 5) -> OthelloState:
    """A position with ``empties`` empty squares and a move to play, by seeded random play."""
    rng = random.Random(seed)
    while True:
        s = OthelloState.start()
        while not s.is_over() and s.empties() > empties:
            s = s.play(rng.choice(s.legal_moves()))
        if s.empties() == empties and not s.is_over() and s.legal_moves() != [PASS]:
            return s


def wait_job(client: Any, gid: str) -> dict[str, Any]:
    """Poll the game's job until it ends; every view seen, in order."""
    seen = []
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        job = client.get(f"/api/games/{gid}/job").json()
        seen.append(job)
        if job["status"] != "running":
            return {**job, "seen": seen}
        time.sleep(0.05)
    raise AssertionError(f"the job did not end: {seen[-1]}")


# --- the book (no engine needed) ------------------------------------------------------------------------------


def test_the_book_of_the_start_is_the_four_first_moves(client: Any) -> None:
    g = new(client, players=[HUMAN, HUMAN])
    b = client.get(f"/api/games/{g['id']}/book?ply=0").json()
    assert b["unit"] == "discs" and b["to_move"] == 0
    assert sorted(m["move"] for m in b["moves"]) == ["c4", "d3", "e6", "f5"]
    assert b["moves"] == book_moves(OthelloState.start())
    any_pos = client.post("/api/book", json={"position": "f5d6"}).json()
    assert any_pos["to_move"] == 0 and any_pos["moves"] == book_moves(OthelloState.from_transcript("f5d6"))
    assert any_pos["moves"][0]["value"] >= any_pos["moves"][-1]["value"]  # best first


def test_no_book_out_of_the_book_or_in_other_games(client: Any) -> None:
    late = position_with(30)
    assert client.post("/api/book", json={"position": late.to_text()}).json()["moves"] == []
    assert client.post("/api/book", json={"game": "tictactoe", "position": "b2 a1"}).json()["moves"] == []
    g = new(client, players=[HUMAN, HUMAN])
    r = client.get(f"/api/games/{g['id']}/book?ply=3")
    assert r.status_code == 400 and "no position 3" in r.json()["error"]


def test_the_review_says_book_where_the_game_followed_the_book(client: Any) -> None:
    start = OthelloState.start()
    s, line = start, []
    while all(in_book(s, m) for m in s.legal_moves()):  # the book's best moves while it lists every move ...
        line.append(book_moves(s)[0]["move"])
        s = s.play(s.parse_move(line[-1]))
    off = next(m for m in s.legal_moves() if not in_book(s, m))  # ... then a move the book does not play
    moves = [*line, s.move_str(off)]
    g = new(client, players=[HUMAN, HUMAN], position="".join(moves))
    r = _review(client, {"game_id": g["id"], "level": 1})
    marked = [m["ply"] for m in r["moves"] if m.get("book")]
    assert line and marked == list(range(1, len(line) + 1)), (moves, r["moves"])
    assert r["players"][0]["book"] + r["players"][1]["book"] == len(line)
    after = start.play(start.parse_move("f5"))
    two = [start.parse_move("f5"), after.parse_move("d6")]
    plain = review_game(start, two, [None, None, None])  # without analyses too
    assert [m.get("book", False) for m in plain["moves"]] == [in_book(start, two[0]), in_book(after, two[1])]
    assert in_book(start, two[0]) and in_book(after, two[1])


# --- thinking and solving (the engine) --------------------------------------------------------------------


@pytest.fixture
def engine(client: Any) -> None:
    """Skip where the compiled engine is not built."""
    if not client.get("/api/info").json()["engine"]["available"]:
        pytest.skip("the compiled engine is not available")


@pytest.mark.engine
def test_a_think_deepens_then_answers_with_the_lines_asked(client: Any, engine: None) -> None:
    g = new(client, players=[HUMAN, HUMAN], position="f5d6c3d3c4")
    job = client.post(f"/api/games/{g['id']}/think", json={"seconds": 2, "lines": 3}).json()
    assert job["kind"] == "think" and job["status"] == "running" and job["ply"] == 5 and job["limit"] == 2
    done = wait_job(client, g["id"])
    assert done["status"] == "done", done
    depths = [s["depth"] for s in done["steps"]]
    assert depths == sorted(depths) and depths[-1] > depths[0] >= 1, depths  # one step per completed depth
    assert done["depth"] == depths[-1] and done["nodes"] > 0
    assert len(done["lines"]) == 3
    s = OthelloState.from_transcript("f5d6c3d3c4")
    legal = {s.move_str(m) for m in s.legal_moves()}
    assert all(line["move"] in legal and line["pv"][0] == line["move"] for line in done["lines"])
    values = [line["value"] for line in done["lines"]]
    assert values == sorted(values, reverse=True)
    live = [v["depth"] for v in done["seen"] if v["status"] == "running"]
    assert live == sorted(live)  # the live line only deepens


@pytest.mark.engine
def test_stop_stops_a_think_and_keeps_what_it_found(client: Any, app: Any, engine: None) -> None:
    g = new(client, players=[HUMAN, HUMAN])
    client.post(f"/api/games/{g['id']}/think", json={"seconds": 60})
    deadline = time.monotonic() + DEADLINE
    while client.get(f"/api/games/{g['id']}/job").json()["depth"] < 2:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    stopped = client.post(f"/api/games/{g['id']}/job/stop").json()
    assert stopped["status"] == "stopped" and stopped["lines"] and stopped["depth"] >= 2
    assert app.state.thinker.running() == 0
    assert client.get(f"/api/games/{g['id']}/job").json()["status"] == "stopped"


@pytest.mark.engine
def test_one_job_per_game_a_new_one_stops_the_old(client: Any, app: Any, engine: None) -> None:
    g = new(client, players=[HUMAN, HUMAN])
    first = client.post(f"/api/games/{g['id']}/think", json={"seconds": 60}).json()
    second = client.post(f"/api/games/{g['id']}/think", json={"seconds": 60, "ply": 0, "lines": 2}).json()
    assert first["id"] != second["id"]
    assert app.state.thinker.running() == 1
    assert client.get(f"/api/games/{g['id']}/job").json()["id"] == second["id"]
    client.post(f"/api/games/{g['id']}/job/stop")


@pytest.mark.engine
def test_solve_agrees_with_the_engines_exact_search(client: Any, engine: None) -> None:
    from plies.engine import Engine

    s = position_with(14)
    g = new(client, players=[HUMAN, HUMAN], position=s.to_text())
    job = client.post(f"/api/games/{g['id']}/solve", json={}).json()
    assert job["kind"] == "solve" and job["empties"] == 14
    done = wait_job(client, g["id"])
    assert done["status"] == "done", done
    exact = Engine(hash_mb=16).analyse(s, exact=True)[0]
    r = done["result"]
    assert r["margin"] == exact.value and done["lines"][0]["exact"]
    assert r["outcome"] == ("win" if exact.value > 0 else "loss" if exact.value < 0 else "draw")
    end = s
    for name in r["line"]:
        end = end.play(end.parse_move(name))
    assert end.is_over()  # the best line goes to the end ...
    score = end.score() if s.to_move == 0 else -end.score()
    assert score == r["margin"]  # ... and ends on the margin it promised
    wld = client.post(f"/api/games/{g['id']}/solve", json={"wld": True}).json()
    assert wld["wld"]
    done = wait_job(client, g["id"])
    assert done["result"]["outcome"] == r["outcome"] and done["result"]["margin"] is None


@pytest.mark.engine
def test_solve_refuses_too_many_empties(client: Any, engine: None) -> None:
    far = position_with(thinker.SOLVE_MAX_EMPTIES + 1)
    g = new(client, players=[HUMAN, HUMAN], position=far.to_text())
    r = client.post(f"/api/games/{g['id']}/solve", json={})
    assert r.status_code == 400
    assert f"{thinker.SOLVE_MAX_EMPTIES + 1} empty squares" in r.json()["error"]
    assert f"at most {thinker.SOLVE_MAX_EMPTIES}" in r.json()["error"]
    assert client.get(f"/api/games/{g['id']}/job").status_code == 404  # nothing started
    very_far = position_with(thinker.WLD_MAX_EMPTIES + 1)
    g = new(client, players=[HUMAN, HUMAN], position=very_far.to_text())
    r = client.post(f"/api/games/{g['id']}/solve", json={"wld": True})
    assert r.status_code == 400 and "win/draw/loss" in r.json()["error"]


@pytest.mark.engine
def test_bad_requests_get_clear_errors(client: Any, app: Any, engine: None) -> None:
    from fastapi.testclient import TestClient

    g = new(client, players=[HUMAN, HUMAN])
    gid = g["id"]
    for body, word in (({"seconds": 0}, "seconds"), ({"seconds": 61}, "seconds"), ({"lines": 0}, "lines"),
                       ({"lines": 6}, "lines"), ({"ply": -1}, "ply")):
        r = client.post(f"/api/games/{gid}/think", json=body)
        assert r.status_code == 422 and word in r.json()["error"], (body, r.text)
    r = client.post(f"/api/games/{gid}/think", json={"ply": 7})
    assert r.status_code == 400 and "no position 7" in r.json()["error"]
    assert client.get(f"/api/games/{gid}/job").status_code == 404
    assert client.post(f"/api/games/{gid}/job/stop").status_code == 404
    r = client.post("/api/games/nope/think", json={})
    assert r.status_code == 404 and "no game" in r.json()["error"]
    other = TestClient(app, base_url="http://localhost")  # another browser: it may watch, not analyse
    r = other.post(f"/api/games/{gid}/think", json={})
    assert r.status_code == 403 and "another browser" in r.json()["error"]
    assert other.get(f"/api/games/{gid}/job").status_code == 403
    t = new(client, game="tictactoe", players=[HUMAN, HUMAN])
    r = client.post(f"/api/games/{t['id']}/think", json={})
    assert r.status_code == 400 and "8x8 Othello" in r.json()["error"]


def test_without_the_engine_a_think_is_refused(client: Any) -> None:
    g = new(client, players=[HUMAN, HUMAN])  # (the conftest switches the engine off here)
    r = client.post(f"/api/games/{g['id']}/think", json={})
    assert r.status_code == 400 and "not available" in r.json()["error"]


@pytest.mark.engine
def test_the_server_answers_while_it_thinks_and_caps_the_searches(client: Any, app: Any, engine: None) -> None:
    games = [new(client, players=[HUMAN, HUMAN])["id"] for _ in range(thinker.MAX_RUNNING + 1)]
    try:
        for gid in games[:-1]:
            assert client.post(f"/api/games/{gid}/think", json={"seconds": 60}).json()["status"] == "running"
        assert client.get("/api/info").status_code == 200  # the searches run on threads of their own
        assert client.post(f"/api/games/{games[0]}/moves", json={"move": "f5"}).status_code == 200
        r = client.post(f"/api/games/{games[-1]}/think", json={"seconds": 60})
        assert r.status_code == 503 and "try again in a moment" in r.json()["error"]
    finally:
        for gid in games[:-1]:
            client.post(f"/api/games/{gid}/job/stop")
    assert app.state.thinker.running() == 0
