"""The exact solver against plain minimax to the end of the game, and the FFO published results."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from plies.engine import Engine, endgame
from plies.engine.bitboard import position
from plies.formats.suite import bundled_suite_path, read_suite
from plies.game import WIN
from plies.games.othello import OthelloState, square_name
from plies.heuristics import get
from plies.search import alphabeta

from .conftest import positions_with_empties

FFO = bundled_suite_path("ffo")  # the FFO endgame suite shipped in the package


def _exact(value: float) -> int:
    """The textbook's terminal value ±(WIN + score) as a disc difference."""
    if value > 0:
        return int(value - WIN)
    if value < 0:
        return int(value + WIN)
    return 0


@pytest.mark.parametrize("empties", [2, 3, 4, 7, 9, 10])
def test_exact_equals_minimax_to_the_end(empties: int, engine: Engine) -> None:
    h = get("othello", "discs")
    for s in positions_with_empties(50 + empties, 6 if empties < 10 else 3, empties):
        expected = _exact(alphabeta(s, 2 * empties + 2, h).value)
        r = engine.search(s, exact=True)
        assert r.exact and r.value == expected, s.to_text()
        # the best move really reaches the score, and the variation ends the game with it
        t = s
        for m in r.pv:
            t = t.play(m)
        assert t.is_over()
        final = t.score() if s.to_move == 0 else -t.score()
        assert final == expected


@pytest.mark.parametrize("empties", [1, 2, 3, 4, 5, 8, 10, 12])
def test_windowed_solves_are_fail_soft_bounds_of_the_exact_value(empties: int, engine: Engine) -> None:
    """Every layer (the written-out one (lazy), two, three and four empties, and the thread-local table of 7-10
    empties included) returns, for any window, the exact value inside it and a bound on the right side of it
    outside (fail-soft)."""
    rng = random.Random(empties)
    tt = engine.end_tt.arrays()
    mtt, W = engine.mid_tt.arrays(), engine.order_weights

    def solve(P: int, O: int, alpha: int, beta: int) -> int:  # noqa: E741
        engine.end_tt.clear()
        return endgame.solve(P, O, alpha, beta, engine.ctl, tt, W, mtt)

    for s in positions_with_empties(70 + empties, 12, empties):
        P, O = position(s)  # noqa: E741
        exact = solve(P, O, -64, 64)
        for _ in range(8):
            alpha = rng.randint(-66, 62)
            beta = rng.randint(alpha + 1, 66)
            v = solve(P, O, alpha, beta)
            if v <= alpha:
                assert exact <= v, (s.to_text(), alpha, beta)
            elif v >= beta:
                assert exact >= v, (s.to_text(), alpha, beta)
            else:
                assert v == exact, (s.to_text(), alpha, beta)


def test_wld_has_the_sign_of_the_exact_score(engine: Engine) -> None:
    for s in positions_with_empties(61, 8, 12):
        exact = engine.search(s, exact=True).value
        wld = engine.analyse(s, wld=True)[0].value
        assert wld in (-1, 0, 1) and wld == (exact > 0) - (exact < 0)


def test_wld_searches_fewer_nodes_than_exact() -> None:
    """Win/draw/loss is one search with the window (-1, 1), never widened into an exact solve: on FFO #40 and on
    random positions at 16 empties it visits fewer nodes than the exact solve (a fresh table for each)."""
    positions = [next(p for p in read_suite(FFO) if p.id == 40).state, *positions_with_empties(66, 6, 16)]
    wld = exact = 0
    for s in positions:
        wld += Engine(hash_mb=16).analyse(s, wld=True)[0].stats.nodes
        exact += Engine(hash_mb=16).analyse(s, exact=True)[0].stats.nodes
    assert 2 * wld < exact


def test_multipv_exact_values(engine: Engine) -> None:
    s = positions_with_empties(62, 1, 11)[0]
    lines = engine.analyse(s, exact=True, multipv=3)
    for r in lines:
        child = s.play(r.move)
        cv = engine.search(child, exact=True).value if not child.is_over() else None
        if cv is not None:
            assert -cv == r.value


@pytest.mark.parametrize("pid", [40, 41])
def test_ffo_published_scores(pid: int) -> None:
    """The published score and best move, and a variation that is a perfect game to the end (20-22 empties)."""
    pos = next(p for p in read_suite(FFO) if p.id == pid)
    r = Engine(hash_mb=64).search(pos.state, exact=True)
    assert r.value == pos.score
    assert r.move in pos.best_moves
    t = pos.state
    for m in r.pv:
        t = t.play(m)
    assert t.is_over() and (t.score() if pos.state.to_move == 0 else -t.score()) == r.value


@pytest.mark.parametrize("half_width", [1, 2])
def test_aspiration_failures_still_give_the_exact_score(half_width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The solve's first window around the presearch estimate fails high or low on most of these positions
    (half-width 1-2 discs): the widened re-search must still find the score a full-window solve finds."""
    import plies.engine.api as api

    positions = positions_with_empties(63, 4, 16)
    full = []
    monkeypatch.setattr(api, "END_ASPIRATION", 200)
    for s in positions:
        full.append(Engine(hash_mb=8).search(s, exact=True).value)
    monkeypatch.setattr(api, "END_ASPIRATION", half_width)
    for s, v in zip(positions, full, strict=True):
        r = Engine(hash_mb=8).search(s, exact=True)
        assert r.value == v, s.to_text()
        assert -Engine(hash_mb=8).search(s.play(r.move), exact=True).value == v  # the move reaches it
        t = s  # and the variation is a perfect game to the end
        for m in r.pv:
            t = t.play(m)
        assert t.is_over() and (t.score() if s.to_move == 0 else -t.score()) == v, s.to_text()


def _counting(monkeypatch: pytest.MonkeyPatch, solve_root: Callable[..., int], limit: int) -> list[int]:
    """Route ``endgame.solve_root`` through solve_root, failing the test (instead of hanging) past limit calls."""
    calls: list[int] = []

    def counted(*args: object, **kwargs: object) -> int:
        calls.append(1)
        assert len(calls) <= limit, "the window kept moving: the re-searches never settled"
        return solve_root(*args, **kwargs)

    monkeypatch.setattr(endgame, "solve_root", counted)
    return calls


def test_window_widening_ends_when_re_searches_disagree(monkeypatch: pytest.MonkeyPatch) -> None:
    """A selective search's value depends on its window: a re-search can fail on the other side of the first
    failure.  The window then opens fully and the solve ends after three searches, with the full window's value."""
    windows: list[tuple[int, int]] = []

    def contrary(_p: int, _o: int, alpha: int, beta: int, _moves: object, _k: int, values: np.ndarray,
                 *_rest: object, **_options: object) -> int:
        windows.append((alpha, beta))
        if alpha == -65 and beta == 65:
            values[0] = 7
        elif len(windows) % 2:  # fails high, then low, then high...
            values[0] = beta
        else:
            values[0] = alpha
        return 1

    calls = _counting(monkeypatch, contrary, 10)
    e = Engine(hash_mb=8)
    s = positions_with_empties(5, 1, 12)[0]
    P, O = position(s)  # noqa: E741
    root = np.array(s.legal_moves(), dtype=np.int64)
    found = e._solve_window(P, O, -5, 5, root, 1, e.end_tt.arrays())
    assert found is not None and found[0][0] == 7
    assert len(calls) == 3 and windows == [(-5, 5), (4, 65), (-65, 65)]


def test_a_solve_whose_selective_passes_disagree_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """A self-play position (23 empties, one legal move, lost by 54) where the first selective pass fails high
    at (-65, -59) and then low at (-55, 65): the solve ends with the exact score."""
    s = OthelloState.from_text("---XXXXX---OOXXX--OOOXXX-OOOOXXX---OOXXX--OOOXXX-----XXX----XXOO O")
    calls = _counting(monkeypatch, endgame.solve_root, 12)
    r = Engine(hash_mb=16, threads=1).search(s, exact=True)
    assert (r.value, square_name(r.move)) == (-54, "d8") and len(calls) <= 6


def test_selective_presearch_keeps_exact_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    """A solve that first runs the selective (probcut) search, whose estimates stay in the table, gives the
    score, move and perfect variation that a solve without it gives."""
    import plies.engine.api as api

    positions = positions_with_empties(64, 4, 16)
    monkeypatch.setattr(api, "SOLVE_STEPS", ())
    plain = [Engine(hash_mb=8).search(s, exact=True).value for s in positions]
    monkeypatch.setattr(api, "SOLVE_STEPS", ((14, 30), (14, 60)))  # loose ones: many cut-offs, estimates often wrong
    engine = Engine(hash_mb=8)
    for s, v in zip(positions, plain, strict=True):
        r = engine.search(s, exact=True)  # one engine: later solves also meet earlier solves' entries
        assert r.value == v, s.to_text()
        assert -Engine(hash_mb=8).search(s.play(r.move), exact=True).value == v
        t = s
        for m in r.pv:
            t = t.play(m)
        assert t.is_over() and (t.score() if s.to_move == 0 else -t.score()) == v, s.to_text()


def test_probcut_cuts_only_when_selective() -> None:
    """With a huge confidence the selective search cuts nothing and returns the exact value; with t = 1 it
    searches fewer nodes than the exact search on the same positions."""
    e = Engine(hash_mb=8)
    nodes = {}
    for t in (0, 10**6, 100):
        total = 0
        for s in positions_with_empties(65, 3, 18):
            P, O = position(s)  # noqa: E741
            e.clear()
            e.end_tt.prepare("exact")
            e.ctl[:] = 0
            e.ctl[endgame.SELECT] = t
            v = endgame.solve(P, O, -65, 65, e.ctl, e.end_tt.arrays(), e.order_weights, e.mid_tt.arrays())
            e.ctl[endgame.SELECT] = 0
            if t != 100:
                assert v == Engine(hash_mb=8).search(s, exact=True).value
            total += int(e.ctl[endgame.NODES])
        nodes[t] = total
    assert nodes[100] < nodes[0] < nodes[10**6]  # the last one pays for the shallow searches and cuts nothing


def test_corner_stable_discs_for_move_ordering() -> None:
    """The ordering term counts the mover's corners and the mover's edge squares beside its own corners."""
    rows = ["XX----X-",   # rank 1: a1 b1 g1
            "XX------",   # rank 2: a2 b2
            "--------", "--------", "--------", "--------", "-------O",
            "-X----XX"]   # rank 8: b8 g8 h8
    P, _ = position(OthelloState.from_text("".join(rows) + " X"))
    # a1 + b1 + a2 (b2 is not on an edge), h8 + g8; not g1 (h1 is not X's) nor b8 (a8 is not X's)
    expected = {"a1", "b1", "a2", "h8", "g8"}
    assert {square_name(i) for i in range(64) if int(endgame._corner_stable(P)) >> i & 1} == expected


def test_a_long_solve_reports_its_selective_estimate_first() -> None:
    """From 18 empties the selective pass's estimate reaches on_progress before the exact value."""
    state = next(p for p in read_suite(bundled_suite_path("ffo")) if p.id == 40).state  # 20 empties
    seen: list[tuple[bool, str, float | None]] = []
    r = Engine(hash_mb=16).analyse(state, exact=True, on_progress=lambda rs: seen.append(
        (rs[0].exact, rs[0].algorithm, rs[0].selectivity)))
    assert seen[0] == (False, "engine-selective", 68)
    assert seen[-1] == (True, "engine-exact", None) and r[0].value == 38
