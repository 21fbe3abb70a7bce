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


def test_a_timed_search_reads_the_weights_before_its_clock_starts(monkeypatch) -> None:
    """The first timed search of a process spends its whole budget searching: reading the weights (0.1 s, here
    made 0.6 s) happens before the clock starts.  (Inside the budget, a fresh 'plies analyse --time 0.3' at 25
    empties answered from depth 1.)"""
    import time as _t

    from plies.engine import eval as engine_eval

    real = engine_eval.load_expanded

    def slow_load(path):  # type: ignore[no-untyped-def]
        _t.sleep(0.6)
        return real(path)

    monkeypatch.setattr(engine_eval, "_LEARNED_W", [])  # as in a new process
    monkeypatch.setattr(engine_eval, "load_expanded", slow_load)
    state = positions_with_empties(5, 1, 30)[0]
    r = Engine(hash_mb=4).search(state, time=0.3)
    assert r.stats.depth >= 4 and r.stats.seconds < 0.5  # the search's own time: the read came before it


def test_a_timed_engine_player_reads_the_weights_when_it_is_made(monkeypatch) -> None:
    from plies.engine import eval as engine_eval
    from plies.players.engine import EnginePlayer

    monkeypatch.setattr(engine_eval, "_LEARNED_W", [])
    assert EnginePlayer(time=0.1, book=False).engine._weights is not None
    assert Engine(hash_mb=4)._weights is None  # an untimed engine still reads them on first use
