"""The learned evaluation inside the engine: the same values as the textbook search with the Python
``learned`` heuristic, the same numbers as the reference evaluator, and an exact solver it does not touch."""

from __future__ import annotations

import numpy as np
import pytest

from plies.cli import main
from plies.engine import Engine
from plies.engine.eval import EVALUATIONS, NO_WEIGHTS, evaluate_state, evaluation_id, weights_for
from plies.engine.patterns import evaluate_python
from plies.engine.weights import load_weights
from plies.formats.suite import read_suite
from plies.heuristics import get
from plies.players import parse_player
from plies.players.engine import EnginePlayer
from plies.search import alphabeta

from .conftest import random_positions
from .test_endgame import FFO


@pytest.fixture(scope="module")
def learned_engine() -> Engine:
    return Engine(hash_mb=4, evaluation="learned")


def test_learned_is_a_compiled_evaluation() -> None:
    assert "learned" in EVALUATIONS
    eid = evaluation_id("learned")
    w = weights_for(eid)
    assert w.dtype == np.float32 and w.ndim == 2 and w.flags.c_contiguous and w.shape[0] == load_weights().shape[0]
    assert weights_for(evaluation_id("handmade")) is NO_WEIGHTS
    assert evaluation_id("default") == evaluation_id("learned")  # the engine evaluates with it by default


def test_compiled_learned_equals_the_python_reference() -> None:
    h = get("othello", "learned")
    W = load_weights()
    for s in random_positions(61, 60, lo=0, hi=58):
        own, opp = (s.black, s.white) if s.to_move == 0 else (s.white, s.black)
        v = evaluate_state(s, "learned")
        assert v == pytest.approx(evaluate_python(own, opp, W), abs=1e-9)
        assert h(s, s.to_move) == pytest.approx(v, abs=1e-9)
        assert h(s, 1 - s.to_move) == pytest.approx(-v, abs=1e-9)


def test_engine_equals_textbook_with_learned_heuristic(learned_engine: Engine) -> None:
    h = get("othello", "learned")
    for i, s in enumerate(random_positions(62, 12, lo=0, hi=58)):
        depth = 1 + i % 3
        expected = alphabeta(s, depth, h)
        got = learned_engine.search(s, depth=depth)
        assert got.value == pytest.approx(expected.value, abs=1e-6), (depth, s.to_text())
        assert got.move in s.legal_moves()
        assert got.evaluation == "learned"


def test_values_are_in_discs_and_time_search_works(learned_engine: Engine) -> None:
    s = random_positions(63, 1, lo=10, hi=20)[0]
    r = learned_engine.search(s, time=0.2)
    assert r.move in s.legal_moves()
    assert abs(r.value) <= 64


def test_player_spec_and_cli_accept_learned(capsys: pytest.CaptureFixture[str]) -> None:
    p = parse_player("engine:depth=3,eval=learned", "othello")
    assert isinstance(p, EnginePlayer) and p.engine.evaluation == "learned"
    assert main(["analyse", "othello", "--depth", "3", "--eval", "learned", "--json"]) == 0
    assert '"learned"' in capsys.readouterr().out


@pytest.mark.skipif(not FFO.exists(), reason="shared FFO data not present")
def test_exact_solver_unaffected_by_learned_evaluation(learned_engine: Engine) -> None:
    pos = next(p for p in read_suite(FFO) if p.id == 40)
    r = learned_engine.search(pos.state, exact=True)
    assert r.exact and r.value == pos.score
    assert r.move in pos.best_moves


def test_a_predicted_disc_difference_never_exceeds_a_wipe_out() -> None:
    """The learned evaluation can predict more than 64 discs in a lopsided position; the engine reports at most 64
    (an exact solve of the same position gives +64)."""
    from plies.games.othello import OthelloState

    s = OthelloState.from_transcript("d3c3c4e3d2c2e2c5b3a3b4d1b5a4a5e1a2a6a7b2b6b7b1c1f1f2c7b8c6d7")
    for depth in (2, 4, 6):
        results = Engine(hash_mb=8, threads=1).analyse(s, depth=depth, multipv=3)
        assert all(-64 <= r.value <= 64 for r in results), [r.value for r in results]
    assert max(r.value for r in results) == 64
