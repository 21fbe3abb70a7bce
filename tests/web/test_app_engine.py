"""The player's routes with the real engine: analysis in discs, values that do not zigzag with the side to move,
a review that finds a known mistake with its exact loss, hints from the same analysis, the engine on a clock."""

from __future__ import annotations

import time
from typing import Any

import pytest

from plies.games import OthelloState

from .test_app_api import HUMAN, _review, comp, exact_values, known_mistake_game, new, transcript


@pytest.fixture
def textbook_only() -> None:
    """This module uses the real engine (it overrides the conftest's fixture of the same name)."""


@pytest.fixture(autouse=True)
def engine_installed(client: Any) -> None:
    if not client.get("/api/info").json()["engine"]["available"]:
        pytest.skip("the compiled engine is not available")


def test_analysis_in_discs_from_the_engine(client: Any) -> None:
    g = new(client)
    a = client.get(f"/api/games/{g['id']}/analysis").json()
    assert a["unit"] == "discs" and a["source"].startswith("fast engine, level 8")
    assert sorted(m["move"] for m in a["moves"]) == ["c4", "d3", "e6", "f5"]
    assert all(len(m["pv"]) > 3 and m["pv"][0] == m["move"] for m in a["moves"])
    assert abs(a["value"]) < 8  # the start is close to even
    h = client.post(f"/api/games/{g['id']}/hint", json={"count": 2}).json()
    assert h["unit"] == "discs" and h["hints"][0]["value_text"].endswith("discs")
    best = a["moves"][0]["value"]  # the four first moves are one move by symmetry: any of them may come first
    tied = {m["move"] for m in a["moves"] if abs(m["value"] - best) <= 1}  # (threads fill the table in any order)
    assert h["hints"][0]["move"] in tied, (h["hints"], a["moves"])


def test_a_position_is_worth_the_move_that_led_to_it(client: Any) -> None:
    """The graph's values do not zigzag with the side to move: after a best move the next position is valued
    at that move's value (the search's horizon always falls on the same side)."""
    s = OthelloState.start()
    for _ in range(8):
        a = client.post("/api/analysis", json={"position": s.to_text()}).json()
        best = a["moves"][0]
        black = best["value"] if s.to_move == 0 else -best["value"]
        s = s.play(best["index"])
        b = client.post("/api/analysis", json={"position": s.to_text()}).json()
        if s.to_move == 1:
            assert abs(b["value"] - black) <= 0.5, (a, b)
        assert abs(b["value"] - a["value"]) <= 4


def test_review_finds_a_known_mistake_with_its_exact_loss(client: Any) -> None:
    names, ply, loss, best = known_mistake_game()
    g = new(client, position=transcript(names))
    r = _review(client, {"game_id": g["id"]})
    assert r["unit"] == "discs" and r["source"].startswith("fast engine, level 8")
    row = next(m for m in r["moves"] if m["ply"] == ply)
    assert row["mistake"] is True and row["exact"] is True and row["loss"] == loss
    state = OthelloState.from_transcript(transcript(names[: ply - 1]))
    values = exact_values(state)
    assert row["best_value"] == max(values.values())
    assert row["best"] in {state.move_str(m) for m, v in values.items() if v == max(values.values())}
    assert r["players"][row["side"]]["lost"] >= loss
    assert all(e is not None and e["unit"] == "discs" for e in r["evals"])


def test_the_engine_plays_on_a_clock(client: Any) -> None:
    g = new(client, clock={"minutes": 0.5, "increment": 0}, players=[comp(8), HUMAN])
    v = client.get(f"/api/games/{g['id']}?wait=true").json()
    assert v["ply"] == 1 and v["clock"]["running"] == 1 and v["clock"]["flagged"] is None
    assert 0 < v["clock"]["remaining"][0] <= 30
    for _ in range(3):
        v = client.post(f"/api/games/{g['id']}/moves?wait=true", json={"move": v["legal"][0]["move"]}).json()
    assert v["ply"] == 7 and v["clock"]["flagged"] is None and v["clock"]["remaining"][0] > 5
    time.sleep(0.01)
