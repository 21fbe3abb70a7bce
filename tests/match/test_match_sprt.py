"""``plies match --sprt``: the sequential test's arithmetic, and rigged matches it must decide the right way."""

from __future__ import annotations

import json
import math

import pytest

from plies.cli import main
from plies.game import PliesError
from plies.tournament.elo import expected_score
from plies.tournament.sprt import MIN_UNITS, PRIOR_UNITS, SprtSettings, llr, parse_sprt, sprt_state


def _by_hand(counts: dict[float, float], n: int, elo0: float, elo1: float) -> float:
    """The normal approximation's LLR from outcome counts (the prior included) over n units."""
    total = sum(counts.values())
    s = sum(c * k for c, k in counts.items()) / total
    var = sum(k * (c - s) ** 2 for c, k in counts.items()) / total
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return (s1 - s0) * (2 * s - s0 - s1) / (2 * var / n)


def test_llr_by_hand():
    # 60 wins, 20 draws, 20 losses, and a third of a unit of prior in each: s = 70.5 / 101
    scores = [1.0] * 60 + [0.5] * 20 + [0.0] * 20
    third = PRIOR_UNITS / 3
    want = _by_hand({1.0: 60 + third, 0.5: 20 + third, 0.0: 20 + third}, 100, 0, 50)
    assert llr(scores, 0, 50) == pytest.approx(want)
    assert want == pytest.approx((expected_score(50) - 0.5) * (2 * 0.7 - 0.5 - expected_score(50))
                                 / (2 * 0.16 / 100), rel=0.03)  # the prior moves 100 varied games by ~1%
    # a pentanomial unit of 1/4 is its own category, and the same formula holds over pairs
    pairs = [0.75] * 30 + [0.5] * 40 + [0.25] * 30
    fifth = PRIOR_UNITS / 5
    want = _by_hand({0.0: fifth, 0.25: 30 + fifth, 0.5: 40 + fifth, 0.75: 30 + fifth, 1.0: fifth}, 100, 0, 50)
    assert llr(pairs, 0, 50, pentanomial=True) == pytest.approx(want)
    assert llr([1.0], 0, 50) == 0.0  # one unit: nothing measured yet


def test_pairs_all_alike_do_not_decide_at_once():
    """Two near-identical deterministic players: every pair one win each way.  No spread is no licence: a
    handful of such pairs stays undecided, a few dozen accept the hypothesis nearer to an even score."""
    t = SprtSettings(-25, 5)
    games = [(2 * p + k, p, float(k)) for p in range(MIN_UNITS) for k in range(2)]
    state = sprt_state(games, t)
    assert state.decision is None and 0 < state.llr < state.upper
    more = [(2 * p + k, p, float(k)) for p in range(40) for k in range(2)]
    assert sprt_state(more, t).decision == "H1"
    assert sprt_state(more, SprtSettings(0, 40)).decision == "H0"


def test_bounds_and_settings():
    t = SprtSettings(0, 10)
    assert t.lower == pytest.approx(math.log(0.05 / 0.95)) and t.upper == pytest.approx(math.log(0.95 / 0.05))
    assert parse_sprt("0,10", 0.1, 0.2) == SprtSettings(0, 10, 0.1, 0.2)
    for bad in ("10", "a,b", "10,0", "0,0", "0,10,20"):
        with pytest.raises(PliesError):
            parse_sprt(bad)
    with pytest.raises(PliesError):
        SprtSettings(0, 10, alpha=0.6)


def test_pairs_count_once_both_games_are_in():
    t = SprtSettings(0, 100)
    games = [(2 * p + k, p, 1.0) for p in range(MIN_UNITS) for k in range(2)]
    state = sprt_state(games, t)
    assert state.model == "pentanomial" and state.units == MIN_UNITS and state.decision == "H1"
    half = sprt_state(games + [(99, 99, 0.0)], t)  # a pair with one game in: not counted yet
    assert half.units == MIN_UNITS
    early = sprt_state(games[: 2 * (MIN_UNITS - 1)], t)
    assert early.decision is None  # a sweep still waits for the minimum number of pairs
    lost = sprt_state([(i, None, 0.0) for i in range(40)], t)
    assert lost.model == "trinomial" and lost.decision == "H0"


def run_json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow
def test_a_player_against_itself_accepts_h0(capsys):
    # deterministic and identical: every pair is one win each way, so A is not 50 Elo stronger
    out = run_json(capsys, "match", "alphabeta:depth=1,eval=doc000", "alphabeta:depth=1,eval=doc000",
                   "--random-openings", "6", "--sprt", "0,50")
    assert out["sprt"]["decision"] == "H0" and out["sprt"]["model"] == "pentanomial"
    assert out["finished"] < out["planned"] and out["finished"] == 2 * out["sprt"]["units"]


@pytest.mark.slow
def test_engine_against_random_decides_both_ways(capsys):
    out = run_json(capsys, "match", "engine:depth=2,threads=1", "random", "--random-openings", "4",
                   "--sprt", "0,100")
    assert out["sprt"]["decision"] == "H1" and out["finished"] < 200
    assert out["sprt"]["llr"] >= out["sprt"]["upper"]
    out = run_json(capsys, "match", "random", "engine:depth=2,threads=1", "--random-openings", "4",
                   "--sprt", "0,100", "--games", "40")
    assert out["sprt"]["decision"] == "H0" and out["sprt"]["llr"] <= out["sprt"]["lower"]
    # the text report names the decision and each side's time a move
    assert main(["match", "random", "engine:depth=2,threads=1", "--random-openings", "4", "--sprt", "0,100",
                 "--games", "40", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "SPRT: LLR" in text and "H0 accepted" in text and "Time a move: A " in text


def test_bad_sprt_option_is_one_line(capsys):
    assert main(["match", "random", "random", "--sprt", "10"]) != 0
    err = capsys.readouterr().err
    assert "--sprt takes ELO0,ELO1" in err and "Traceback" not in err


def test_a_run_stopped_on_workers_leaves_no_worker_playing() -> None:
    """Workers still playing (or holding a queued game) when a sequential test decides are ended with the run;
    they once played on after the answer, and the command did not return until they had finished."""
    import multiprocessing
    import sys
    from pathlib import Path

    from plies.match.event import run_event
    from plies.match.plan import Entrant, EventConfig

    sys.path.insert(0, str(Path(__file__).parent))
    try:
        config = EventConfig(players=[Entrant("a", "slow:delay=0.02"), Entrant("b", "slow:delay=0.02")],
                             kind="match", name="a vs b", game="othello", games_per_pair=12, random_plies=4,
                             seed=3, modules=["match_plugin_players"])
        result = run_event(config, workers=2, progress=False, stop=lambda finished: len(finished) >= 1)
    finally:
        sys.path.remove(str(Path(__file__).parent))
    assert result.stopped and 1 <= len(result.games) < 12
    assert [p.name for p in multiprocessing.active_children() if _running(p.pid)] == []


def _running(pid: int | None) -> bool:
    """Whether process ``pid`` still runs, asked of the system: a worker that two threads joined at once (the pool's
    manager and the stop) is gone though its Process object, which lost the race to reap it, never learns its
    exit code."""
    import os

    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
    except OSError:  # no /proc (not Linux): it answered the signal, so it exists
        return True


def test_pentanomial_counts_complete_pairs_by_points_and_hints_at_lopsided_openings(capsys):
    from plies.cli.match import pairs_text
    from plies.tournament.sprt import pentanomial

    results = [(0, 0, 1.0), (1, 0, 0.0), (2, 1, 1.0), (3, 1, 1.0), (4, 2, 0.5), (5, 2, 0.0), (6, 3, 1.0),
               (7, None, 1.0)]  # pair 3 is incomplete and game 7 has none: neither counts
    assert pentanomial(results) == [0, 1, 1, 0, 1]
    assert pentanomial([]) == [0] * 5
    assert pairs_text([1, 0, 9, 0, 0], "othello").endswith("--openings balanced8 makes every pair count")
    assert "balanced8" not in pairs_text([1, 0, 9, 0, 0], "othello", identical=9)  # equal deterministic players
    assert "balanced8" not in pairs_text([1, 0, 9, 0, 0], "tictactoe")
    assert "balanced8" not in pairs_text([0, 0, 5, 0, 0], "othello")  # too few pairs to say
    assert pairs_text([2, 0, 5, 1, 3], "othello") == ("Pairs by A's points (0, ½, 1, 1½, 2): 2, 0, 5, 1, 3; 5 of 11 "
                                                      "split evenly")
    out = json.loads(_run_json(capsys, "match", "greedy", "alphabeta:depth=2,eval=doc001", "--random-openings", "4",
                               "--games", "6"))
    counts = out["pentanomial"]
    assert sum(counts) == 3 and sum(k * n for k, n in enumerate(counts)) / 2 == out["pairs"][0]["points"]
    assert main(["match", "greedy", "alphabeta:depth=2,eval=doc001", "--random-openings", "4", "--games", "6",
                 "--no-progress"]) == 0
    assert "Pairs by A's points (0, ½, 1, 1½, 2): " in capsys.readouterr().out


def _run_json(capsys, *argv: str) -> str:
    capsys.readouterr()
    assert main([*argv, "--json"]) == 0
    return capsys.readouterr().out
