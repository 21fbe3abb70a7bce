"""With the same evaluation and depth, the engine's value equals the textbook alpha-beta value."""

from __future__ import annotations

import random

import pytest

from plies.engine import Engine
from plies.engine.eval import evaluate_state
from plies.game import PASS, PliesError
from plies.games.othello import OthelloState
from plies.heuristics import get
from plies.search import alphabeta

from .conftest import random_position, random_positions

SEEDS = ["discs", "parity-mobility-corners", "corner-edge-blocking", "disc-mobility-stability", "weighted-squares"]


def _default(state: OthelloState, player: int) -> float:
    v = evaluate_state(state)
    return v if state.to_move == player else -v


@pytest.mark.parametrize("name", SEEDS)
def test_engine_equals_textbook_with_seed_heuristics(name: str) -> None:
    h = get("othello", name)
    engine = Engine(hash_mb=2, evaluation=name)
    for i, s in enumerate(random_positions(31 + len(name), 24, lo=0, hi=57)):
        depth = 1 + i % 4
        expected = alphabeta(s, depth, h)
        got = engine.search(s, depth=depth)
        assert got.value == expected.value, (name, depth, s.to_text())
        assert got.move in s.legal_moves()


def test_engine_equals_textbook_with_default_eval_and_endings() -> None:
    """Positions near the end: finished games inside the horizon score ±(WIN + margin) in both searches."""
    engine = Engine(hash_mb=2)
    for i, s in enumerate(random_positions(41, 30, lo=44, hi=58)):
        depth = 2 + i % 4
        assert engine.search(s, depth=depth).value == alphabeta(s, depth, _default).value, s.to_text()


def test_best_move_reaches_the_value_and_pv_is_legal(engine: Engine) -> None:
    for s in random_positions(42, 10, lo=4, hi=40):
        r = engine.search(s, depth=4)
        t = s
        for m in r.pv:
            assert m in t.legal_moves()
            t = t.play(m)
        assert r.pv[0] == r.move
        # the chosen move's own value is the root value
        child = engine.search(s.play(r.move), depth=3) if s.legal_moves() != [PASS] else None
        if child is not None and not s.play(r.move).is_over():
            assert -child.value == r.value


def test_multipv_lists_best_first_with_exact_values(engine: Engine) -> None:
    s = random_positions(43, 1, lo=10, hi=20)[0]
    lines = engine.analyse(s, depth=3, multipv=3)
    assert len(lines) == min(3, len(s.legal_moves()))
    values = [r.value for r in lines]
    assert values == sorted(values, reverse=True)
    for r in lines:
        assert -engine.search(s.play(r.move), depth=2).value == r.value


def test_progress_is_called_after_each_depth(engine: Engine) -> None:
    seen: list[int] = []
    engine.search(OthelloState.start(), depth=5, on_progress=lambda rs: seen.append(rs[0].stats.depth))
    assert seen == [1, 2, 3, 4, 5]


def test_passes_and_finished_games(engine: Engine) -> None:
    rng = random.Random(44)
    found = 0
    while found < 3:
        s = random_position(rng, rng.randint(30, 60))
        if s.legal_moves() != [PASS]:
            continue
        found += 1
        r = engine.search(s, depth=3)
        assert r.move == PASS
        assert r.value == alphabeta(s, 3, _default).value
    over = OthelloState.from_text("X" * 64 + " O")
    r = engine.search(over, depth=3)
    assert r.move is None and r.exact and r.value == -64


def test_only_8x8_othello(engine: Engine) -> None:
    with pytest.raises(PliesError):
        engine.search(OthelloState.start(6), depth=2)
    with pytest.raises(PliesError):
        engine.search(OthelloState.start(), depth=0)


def test_stopped_iteration_answers_a_root_move_it_proved_better(engine: Engine) -> None:
    """A timed search stopped part way through a depth takes a later root move the deeper search already proved
    better than the previous best; with none proved better, the previous depth's answer stands."""
    import time

    import numpy as np

    s = random_positions(45, 1, lo=12, hi=20)[0]
    lines = engine.analyse(s, depth=3, multipv=len(s.legal_moves()))
    worst, top = lines[-1], lines[0]
    assert top.value > worst.value
    root = np.array([worst.move, top.move] + [r.move for r in lines[1:-1]], dtype=np.int64)
    values = np.zeros(len(root))
    values[0], values[1] = worst.value, top.value
    rpv = np.zeros((len(root), 8), dtype=np.int8)
    rpv[0, 0], rpv[1, 0] = worst.move, top.move
    rlen = np.array([1, 1] + [0] * (len(root) - 2), dtype=np.int64)
    previous = [worst]
    flags = np.array([0, 0] + [1] * (len(root) - 2), dtype=np.int64)
    got = engine._partial_best(s, previous, root, values, flags, rpv, rlen, 2, 3, time.perf_counter())
    assert got[0].move == top.move and got[0].value == top.value and got[0].pv[0] == top.move
    assert got[0].stats.depth == 3
    flags[1] = 1  # the second move only proved no better: the previous answer stands
    assert engine._partial_best(s, previous, root, values, flags, rpv, rlen, 2, 3, time.perf_counter()) is previous
