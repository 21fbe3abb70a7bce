"""Timed play with a few too many empties for an exact solve: the midgame iterations, then selective endgame
searches of growing confidence, then an exact solve, each answering only once finished (behaviour, not time)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from plies.engine import Engine, api, endgame
from plies.engine.api import SELECTIVE_PLAY_EMPTIES, _popcount, time_exact_empties, time_selective_empties
from plies.games.othello import OthelloState
from plies.search.result import SearchResult

from .conftest import positions_with_empties


def test_the_selective_range_grows_with_the_budget_and_is_capped() -> None:
    budgets = [0.01, 0.1, 0.3, 1.0, 3.0, 10.0, 100.0]
    ranges = [time_selective_empties(t) for t in budgets]
    assert ranges == sorted(ranges)
    assert max(ranges) == SELECTIVE_PLAY_EMPTIES
    for t in budgets:  # it starts where the exact solves stop, or is empty
        assert time_selective_empties(t) >= time_exact_empties(t) or time_selective_empties(t) < 14


def _stages(engine: Engine, state: OthelloState, seconds: float) -> tuple[list[str], SearchResult]:
    seen: list[str] = []
    r = engine.search(state, time=seconds, on_progress=lambda rs: seen.append(rs[0].algorithm))
    return seen, r


def test_timed_play_goes_from_midgame_to_selective_to_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a budget far above what 16 empties need, every stage finishes: the answer is the exact solve's."""
    monkeypatch.setattr(api, "time_exact_empties", lambda seconds: 12)
    monkeypatch.setattr(api, "time_selective_empties", lambda seconds: 30)
    monkeypatch.setattr(api, "MIDGAME_SHARE", 0.001)
    for s in positions_with_empties(81, 3, 16):
        engine = Engine(hash_mb=16)
        seen, r = _stages(engine, s, 60.0)
        assert seen[0] == "engine"  # the midgame iterations first
        assert seen.count("engine-selective") == len(api.SELECTIVE_STEPS)
        assert seen[-1] == "engine-exact"
        assert seen.index("engine-selective") > max(i for i, a in enumerate(seen) if a == "engine")
        exact = Engine(hash_mb=16).search(s, exact=True)
        assert r.exact and r.value == exact.value
        assert r.move in s.legal_moves()
        # the exact value of the chosen move is the best value
        child = s.play(r.move)
        assert -Engine(hash_mb=16).search(child, exact=True).value == exact.value


def test_selective_values_are_disc_estimates_with_a_variation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api, "time_exact_empties", lambda seconds: 12)
    monkeypatch.setattr(api, "time_selective_empties", lambda seconds: 30)
    monkeypatch.setattr(api, "MIDGAME_SHARE", 0.001)
    s = positions_with_empties(82, 1, 18)[0]
    results: list = []
    Engine(hash_mb=16).search(s, time=60.0, on_progress=lambda rs: results.append(rs[0]))
    selective = [r for r in results if r.algorithm == "engine-selective"]
    assert selective
    for r in selective:
        assert not r.exact and -64 <= r.value <= 64 and float(r.value).is_integer()
        assert r.pv and r.pv[0] == r.move and r.move in s.legal_moves()
        assert r.stats.depth == s.empties()
    # each step says how selective it was, as Edax's 18@73% ... 18@99%, and the exact one 100%
    assert [r.selectivity for r in selective] == [api.selectivity(c) for c in api.SELECTIVE_STEPS]
    assert [r.depth_text() for r in selective][0] == f"{s.empties()}@68%"
    # the midgame iterations before them are selective too (multi-ProbCut at the engine's confidence)
    midgame = api.selectivity(round(100 * api.PROBCUT))
    assert all(r.selectivity == midgame for r in results if r.algorithm == "engine")


def test_selectivity_is_the_normal_coverage_of_the_confidence_rounded_down() -> None:
    assert [api.selectivity(c) for c in (100, 150, 200, 260, 330)] == [68, 86, 95, 99, 99.9]
    assert api.selectivity(1000) == 99.9  # never 100: only an exact search is sure


def test_other_searches_keep_the_midgame_iterations(monkeypatch: pytest.MonkeyPatch) -> None:
    """By depth, with several moves asked for, with another evaluation or beyond the range: no selective search."""
    monkeypatch.setattr(api, "time_exact_empties", lambda seconds: 12)
    s = positions_with_empties(83, 1, 20)[0]
    monkeypatch.setattr(api, "time_selective_empties", lambda seconds: 30)
    seen: list[str] = []
    Engine(hash_mb=16).analyse(s, time=0.3, multipv=2, on_progress=lambda rs: seen.append(rs[0].algorithm))
    Engine(hash_mb=16, evaluation="handmade").search(s, time=0.3, on_progress=lambda rs: seen.append(rs[0].algorithm))
    Engine(hash_mb=16).search(s, depth=4, on_progress=lambda rs: seen.append(rs[0].algorithm))
    monkeypatch.setattr(api, "time_selective_empties", lambda seconds: 19)
    Engine(hash_mb=16).search(s, time=0.3, on_progress=lambda rs: seen.append(rs[0].algorithm))
    assert seen and set(seen) == {"engine"}


def test_selective_entries_keep_their_moves_but_not_their_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a timed search no entry of the endgame table carries a live selective depth (64 + its empties):
    a later search of another confidence (or an exact one) takes their moves only."""
    monkeypatch.setattr(api, "time_exact_empties", lambda seconds: 12)
    monkeypatch.setattr(api, "time_selective_empties", lambda seconds: 30)
    monkeypatch.setattr(api, "SELECTIVE_STEPS", (100,))
    monkeypatch.setattr(api, "MIDGAME_SHARE", 0.001)
    engine = Engine(hash_mb=16)
    s = positions_with_empties(84, 1, 20)[0]
    seen: list[str] = []
    engine.search(s, time=60.0, on_progress=lambda rs: seen.append(rs[0].algorithm))
    assert "engine-selective" in seen
    rec = engine.end_tt.records
    used = rec[(rec["P"] | rec["O"]) != 0]
    empties = 64 - _popcount(used["P"] | used["O"])
    depth = used["depth"].astype(np.int64)
    assert (depth >= endgame.SELECTIVE_TAG).any()  # the selective search stored entries ...
    assert not (depth == endgame.SELECTIVE_TAG + empties).any()  # ... all retired
    assert ((used["move"] >= 0) & (depth >= endgame.SELECTIVE_TAG)).any()  # with their moves


def test_the_exact_result_stays_exact_after_selective_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same engine (same tables) solves exactly after timed searches that ran selective ones."""
    monkeypatch.setattr(api, "time_exact_empties", lambda seconds: 12)
    monkeypatch.setattr(api, "time_selective_empties", lambda seconds: 30)
    engine = Engine(hash_mb=16)
    for s in positions_with_empties(85, 3, 18):
        engine.search(s, time=0.2)
        assert engine.search(s, exact=True).value == Engine(hash_mb=16).search(s, exact=True).value


def test_stop_during_the_selective_searches_answers_with_a_legal_move(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api, "time_selective_empties", lambda seconds: 30)
    monkeypatch.setattr(api, "time_exact_empties", lambda seconds: 12)
    monkeypatch.setattr(api, "MIDGAME_SHARE", 0.0)  # one midgame depth, then the selective searches
    s = positions_with_empties(86, 1, 22)[0]
    engine = Engine(hash_mb=16)
    seen: list[str] = []

    def progress(rs: list) -> None:
        seen.append(rs[0].algorithm)
        if rs[0].algorithm == "engine-selective":
            engine.stop()

    out: list = []
    worker = threading.Thread(target=lambda: out.append(engine.search(s, time=600.0, on_progress=progress)))
    worker.start()
    worker.join(timeout=300)
    assert not worker.is_alive()
    assert out and out[0].move in s.legal_moves()
    assert seen[-1] == "engine-selective" and out[0].algorithm == "engine-selective"


def test_a_first_selective_search_past_its_share_gives_the_clock_back_to_the_midgame(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Given up at once (``SELECTIVE_YIELD`` 0), the first selective search answers nothing: the midgame
    iterations go on from their table with the rest of the budget, shown only where they pass the depth already
    shown, and the answer is theirs, within the clock."""
    monkeypatch.setattr(api, "time_exact_empties", lambda seconds: 12)
    monkeypatch.setattr(api, "time_selective_empties", lambda seconds: 30)
    monkeypatch.setattr(api, "MIDGAME_SHARE", 0.0)  # one midgame depth, then the selective search
    monkeypatch.setattr(api, "SELECTIVE_YIELD", 0.0)
    monkeypatch.setattr(api, "YIELD_GAP", 0)
    for s in positions_with_empties(87, 2, 24):
        results: list[SearchResult] = []
        r = Engine(hash_mb=16).search(s, time=0.6, on_progress=results.extend)
        assert {x.algorithm for x in results} == {"engine"} and r.algorithm == "engine"
        depths = [x.stats.depth for x in results]
        assert depths == sorted(set(depths)) and depths[-1] > 1  # deeper than the one depth before the yield
        assert r.move in s.legal_moves() and r.stats.depth == depths[-1]
        assert r.stats.seconds < 0.6


def test_no_yield_when_the_midgame_was_near_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within ``YIELD_GAP`` plies of the end the midgame iterations would see no more than the selective search:
    it keeps the clock."""
    monkeypatch.setattr(api, "time_exact_empties", lambda seconds: 12)
    monkeypatch.setattr(api, "time_selective_empties", lambda seconds: 30)
    monkeypatch.setattr(api, "MIDGAME_SHARE", 0.0)
    monkeypatch.setattr(api, "SELECTIVE_YIELD", 0.0)
    monkeypatch.setattr(api, "YIELD_GAP", 61)
    s = positions_with_empties(88, 1, 18)[0]
    seen, r = _stages(Engine(hash_mb=16), s, 20.0)
    assert "engine-selective" in seen and r.algorithm in ("engine-selective", "engine-exact")


def test_the_next_depth_is_foreseen_from_this_search_s_own_start() -> None:
    """An iteration resumed late in the budget foresees its quick early depths from its own start, not from the
    budget's (it once stopped after depth 1)."""
    assert api.next_depth_time([0.5, 0.5004, 0.5008]) == pytest.approx(1.5 * 0.0008)
    assert api.next_depth_time([0.0, 0.1, 0.2, 0.4]) == pytest.approx(0.2 * 2 ** 0.5)
