"""The clock: a search by time returns within the budget plus a margin; stop() ends a search from another
thread.  The margin is generous (the test machine is shared); the engine keeps 30 ms back itself."""

from __future__ import annotations

import threading
import time

from plies.engine import Engine

from .conftest import positions_with_empties, random_positions

MARGIN = 1.5


def test_time_budget_is_respected() -> None:
    engine = Engine(hash_mb=16)
    positions = random_positions(71, 4, lo=4, hi=30) + positions_with_empties(72, 2, 24)
    for budget in (0.05, 0.3):
        for s in positions:
            t0 = time.perf_counter()
            r = engine.search(s, time=budget)
            elapsed = time.perf_counter() - t0
            assert r.move in s.legal_moves()
            assert elapsed < budget + MARGIN, (budget, elapsed, s.to_text())


def test_stop_from_another_thread_returns_best_so_far() -> None:
    engine = Engine(hash_mb=16)
    s = random_positions(73, 1, lo=8, hi=12)[0]
    out = []
    worker = threading.Thread(target=lambda: out.append(engine.search(s, depth=40)))
    worker.start()
    time.sleep(0.5)
    engine.stop()
    worker.join(timeout=30)
    assert not worker.is_alive()
    assert out and out[0].move in s.legal_moves()
    assert 1 <= out[0].stats.depth < 40


def test_the_margin_kept_back_grows_with_the_budget() -> None:
    """A timed search stops early by a share of its budget (a busy machine delays the answer), never less
    than the flat minimum, never more than the cap."""
    from plies.engine.api import SAFETY, SAFETY_MAX, safety_margin

    assert safety_margin(0.05) == SAFETY
    assert abs(safety_margin(0.5) - 0.075) < 1e-12
    assert safety_margin(1.0) == SAFETY_MAX == safety_margin(30.0)


def test_the_weights_are_read_before_any_search_starts_its_clock(monkeypatch) -> None:
    """A new engine with the learned evaluation reads its weights when it is made, so the first timed search
    of a process spends its budget searching (reading them took a third of a 0.3 s budget)."""
    from plies.engine import eval as engine_eval

    monkeypatch.setattr(engine_eval, "_LEARNED_W", [])  # as in a new process
    engine = Engine(hash_mb=4)

    def no_load(path):  # type: ignore[no-untyped-def]
        raise AssertionError("weights read during a search")

    monkeypatch.setattr(engine_eval, "load_expanded", no_load)
    state = positions_with_empties(5, 1, 30)[0]
    assert engine.search(state, time=0.5).stats.depth >= 1
    assert engine.search(state, exact=False, depth=3).move in state.legal_moves()
    assert Engine(hash_mb=4, evaluation="handmade").search(state, depth=2).move in state.legal_moves()
