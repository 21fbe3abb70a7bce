"""Elo figures against cases worked out by hand (numbers in the comments)."""

from __future__ import annotations

import math

import pytest

from plies.tournament.elo import elo_from_score, expected_score, fit_ratings, match_elo


def test_elo_from_score_hand_values():
    assert elo_from_score(0.5) == 0
    assert elo_from_score(0.75) == pytest.approx(190.8485, abs=1e-3)  # 400 * log10(3)
    assert elo_from_score(0.25) == pytest.approx(-190.8485, abs=1e-3)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    assert expected_score(elo_from_score(0.64)) == pytest.approx(0.64)


def test_match_elo_trinomial_interval():
    # W60 D20 L20: s = 0.7, per-game variance (60*.3^2 + 20*.2^2 + 20*.7^2)/100 = 0.16; Wilson with z = 1.96,
    # z^2/n = 0.0384146: centre (0.7 + 0.0192073)/1.0384146 = 0.692604, half 1.96*sqrt(0.0016 + 0.0000960)/1.0384
    # = 0.077733 -> 0.614871 .. 0.770337 -> Elo 147.19 (81.27 .. 210.23)
    e = match_elo(60, 20, 20)
    assert e.elo == pytest.approx(147.19, abs=0.01)
    assert e.low == pytest.approx(81.27, abs=0.01)
    assert e.high == pytest.approx(210.23, abs=0.01)
    assert e.text() == "+147 ± 64"


def test_match_elo_los_and_edge_cases():
    # 3 wins 1 loss: LOS = Phi(2 / sqrt(4)) = Phi(1) = 0.8413
    e = match_elo(3, 0, 1)
    assert e.los == pytest.approx(0.84134, abs=1e-5)
    # Wilson: z^2/n = 0.960365, centre (0.75 + 0.480182)/1.960365 = 0.627535,
    # half 1.96*sqrt(0.046875 + 0.060023)/1.960365 = 0.326886 -> 0.300649 .. 0.954421
    assert e.low == pytest.approx(-146.66, abs=0.01)
    assert e.high == pytest.approx(528.36, abs=0.01)
    assert match_elo(4, 0, 0).elo == math.inf
    assert match_elo(0, 2, 0).elo == 0 and match_elo(0, 2, 0).los is None
    assert math.isfinite(match_elo(0, 2, 0).margin)  # all draws: still an interval, not 0 ± 0
    assert match_elo(0, 0, 0).margin == math.inf


def test_a_sweep_has_a_finite_lower_limit():
    # 20-0: s = 1, variance 0; z^2/n = 0.192073, centre 1.096036/1.192073 = 0.919439,
    # half 1.96*sqrt(3.841459/1600)/1.192073 = 0.080562 -> low 0.838877 -> Elo +286.61; high and estimate +inf
    e = match_elo(20, 0, 0)
    assert e.low == pytest.approx(286.61, abs=0.01) and e.high == math.inf and e.elo == math.inf
    assert e.text() == "+inf (≥ +287)" and e.to_dict()["low"] == 286.61
    lost = match_elo(0, 0, 20)
    assert lost.high == pytest.approx(-286.61, abs=0.01) and lost.text() == "-inf (≤ -287)"
    assert match_elo(19, 0, 1).low < e.low  # one loss less can only raise the lower limit


def test_two_player_fit_matches_logistic_of_the_score():
    # A scores 3/4: difference 190.85, so +95.42 / -95.42 around 0.
    # Fisher information k^2 * n * p(1-p) = k^2 * 4 * 0.1875; variance of each rating 1/(4*info) -> ±196.58
    r = fit_ratings(["A", "B"], {("A", "B"): (3.0, 4)})
    assert not r.regularized
    a, b = r.estimates["A"], r.estimates["B"]
    assert a.elo == pytest.approx(95.424, abs=1e-2) and b.elo == pytest.approx(-95.424, abs=1e-2)
    assert a.margin == pytest.approx(196.58, abs=0.01)


def test_chain_fit_and_orientation():
    # A 3/4 against B, C 1/4 against B (given from C's side), A and C never met: a tree, so each link
    # fits on its own: A = +190.85, B = 0, C = -190.85.
    r = fit_ratings(["A", "B", "C"], {("A", "B"): (3.0, 4), ("C", "B"): (1.0, 4)})
    assert r.estimates["A"].elo == pytest.approx(190.85, abs=0.01)
    assert r.estimates["B"].elo == pytest.approx(0, abs=0.01)
    assert r.estimates["C"].elo == pytest.approx(-190.85, abs=0.01)


def test_cycle_of_perfect_scores_is_finite_and_symmetric():
    # A always beats B, B always beats C, C always beats A: everyone reaches everyone -> the fit exists, all 0
    r = fit_ratings(["A", "B", "C"], {("A", "B"): (2.0, 2), ("B", "C"): (2.0, 2), ("C", "A"): (2.0, 2)})
    assert not r.regularized
    for e in r.estimates.values():
        assert e.elo == pytest.approx(0, abs=1e-6)


def test_perfect_score_gets_the_virtual_draw():
    # 4/4 has no finite fit; with one virtual draw it is 4.5/5 -> difference 400*log10(9) = 381.70
    r = fit_ratings(["A", "B"], {("A", "B"): (4.0, 4)})
    assert r.regularized
    assert r.estimates["A"].elo - r.estimates["B"].elo == pytest.approx(381.70, abs=0.01)


def test_fit_satisfies_the_score_equations():
    # at the maximum each player's expected points equal its actual points
    res = {("A", "B"): (5.5, 8), ("A", "C"): (3.0, 8), ("B", "C"): (4.5, 8), ("A", "D"): (6.0, 8),
           ("B", "D"): (2.0, 8), ("C", "D"): (5.0, 8)}
    r = fit_ratings("ABCD", res)
    elo = {k: v.elo for k, v in r.estimates.items()}
    assert sum(elo.values()) == pytest.approx(0, abs=1e-6)
    for p in "ABCD":
        actual = expected = 0.0
        for (a, b), (pts, n) in res.items():
            if p == a:
                actual, expected = actual + pts, expected + n * expected_score(elo[a] - elo[b])
            elif p == b:
                actual, expected = actual + n - pts, expected + n * expected_score(elo[b] - elo[a])
        assert expected == pytest.approx(actual, abs=1e-6)


def _finished(index, black, white, winner, score, termination="normal", detail=""):
    from plies.match.openings import Opening
    from plies.match.plan import Entrant, PlannedGame
    from plies.match.record import GameRecord
    from plies.match.runner import Finished

    planned = PlannedGame(index, index // 2, 0, Entrant(black, black), Entrant(white, white), Opening("start"),
                          index, "othello")
    record = GameRecord("othello", "", (black, white), winner=winner, score=score, termination=termination,
                        detail=detail)
    return Finished(planned, record, 0.0)


def test_tabulate_points_margins_and_failures():
    from plies.tournament.standings import tabulate

    games = [
        _finished(0, "A", "B", 0, 10),       # A (Black) wins by 10
        _finished(1, "B", "A", 0, 4),        # B (Black) wins by 4
        _finished(2, "A", "C", None, 0),     # draw
        _finished(3, "C", "A", 1, 0, "illegal move", "99"),  # C plays an illegal move: A wins
    ]
    s = tabulate(games, ["A", "B", "C"])
    a = s.lines["A"]
    assert (a.games, a.wins, a.draws, a.losses, a.points) == (4, 2, 1, 1, 2.5)
    assert s.lines["C"].failures == {"illegal move": 1} and s.lines["C"].points == 0.5
    ab = s.pair("A", "B")
    assert (ab.wins, ab.draws, ab.losses) == (1, 0, 1) and ab.mean_margin == 3  # (+10 - 4) / 2
    ba = s.pair("B", "A")
    assert (ba.wins, ba.losses, ba.mean_margin) == (1, 1, -3)
    ac = s.pair("A", "C")
    assert ac.points == 1.5 and ac.margins == [0]  # the forfeit has no margin
    assert [(f.player, f.reason, f.index, f.detail) for f in s.failures] == [("C", "illegal move", 3, "99")]
    assert s.pair("B", "C").games == 0
    assert [ln.name for ln in s.ranking()] == ["A", "B", "C"]
    d = s.to_dict()
    assert d["games"] == 4 and [x["name"] for x in d["standings"]] == ["A", "B", "C"]
