"""The study's search variants return exactly the textbook value; the studies run and report."""

from __future__ import annotations

import pytest

from plies.games import TicTacToeState
from plies.heuristics import get
from plies.search import alphabeta
from plies.teach import study
from plies.teach.searches import extended_alphabeta, id_tt_alphabeta, quiescent_alphabeta

POSITIONS = study.sample_positions(4, seed=3)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_id_tt_gives_alphabeta_value(depth) -> None:
    h = get("othello")
    for pos in POSITIONS:
        ref = alphabeta(pos, depth, h)
        r = id_tt_alphabeta(pos, depth, h)
        assert r.value == ref.value
        assert r.move in pos.legal_moves()


def test_id_tt_on_tictactoe_solves_it() -> None:
    r = id_tt_alphabeta(TicTacToeState.start(), 9, get("tictactoe"))
    assert r.value == 0                                                    # perfect play draws


def test_quiescence_without_noisy_moves_is_alphabeta() -> None:
    h = get("othello", "discs")
    for pos in POSITIONS:
        assert quiescent_alphabeta(pos, 2, h, lambda s, m: False).value == alphabeta(pos, 2, h).value


def test_quiescence_sees_a_corner_capture() -> None:
    h = get("othello", "discs")
    lower = 0
    for pos in study.sample_positions(12, seed=5):
        plain = alphabeta(pos, 1, h)
        ext = quiescent_alphabeta(pos, 1, h, study.corner_move, extension=1)
        # the opponent may now answer with a corner (or stand pat): the mover's outlook can only get worse
        assert ext.value <= plain.value
        lower += ext.value < plain.value
    assert lower >= 1


def test_node_study_report() -> None:
    report = study.node_study(POSITIONS[:2], 2, progress=False)
    assert report["values_agree"]
    d1, d2 = report["rows"]
    assert d1["minimax"]["leaves"] == d1["alphabeta"]["leaves"]           # one ply: nothing to prune
    assert d2["alphabeta"]["leaves"] < d2["minimax"]["leaves"]
    assert d2["alphabeta+order"]["leaves"] <= d2["alphabeta"]["leaves"]


@pytest.mark.parametrize(("depth", "positions"), [(1, 30), (2, 150)])
def test_horizon_case_found_and_checked(depth: int, positions: int) -> None:
    cases, scanned = study.horizon_cases(study.sample_positions(positions, seed=7), depth, 2, "discs", limit=1,
                                         progress=False)
    assert scanned <= positions and len(cases) == 1
    c = cases[0]
    h = get("othello", "discs")
    # the short search's move really is worse when searched deeper, and the refutation takes a corner just past
    # the horizon: at the first ply the opponent moves after the depth limit, and not before
    assert c.short_deep_value < c.deep_value
    assert c.corner_refutation and c.beyond
    first = c.first_ply_beyond()
    assert first is not None and first > depth and c.corner_plies()[0] == first
    s = c.state.play(c.short_move)
    for m in c.line[: first - 2]:
        s = s.play(m)
    assert s.to_move != c.state.to_move and c.line[first - 2] in study.corners(s.n)
    assert alphabeta(c.state, depth, h).move == c.short_move
    d = c.to_dict()
    assert d["short_move"] == c.state.move_str(c.short_move) and len(d["remedies"]) == 2
    for r in c.remedies:                            # a remedy "fixes" only by choosing a really better move
        assert c.fixes(r) == (r.move != c.short_move and r.deep_value > c.short_deep_value)


def test_extension_without_threats_is_alphabeta() -> None:
    h = get("othello", "discs")
    for pos in POSITIONS:
        assert extended_alphabeta(pos, 2, h, lambda s: False).value == alphabeta(pos, 2, h).value


def test_extension_everywhere_is_deeper_search() -> None:
    h = get("othello", "discs")
    for pos in POSITIONS[:2]:
        assert extended_alphabeta(pos, 1, h, lambda s: True, extension=2).value == alphabeta(pos, 3, h).value
