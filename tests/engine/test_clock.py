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


def test_a_stop_during_the_weights_read_stops_the_search(monkeypatch) -> None:
    """stop() counts from the moment analyse() has the engine: one that comes while the weights are still being
    read (0.1 s in a new process, made 0.5 s here) is not wiped by the search's start."""
    import time as _t

    from plies.engine import eval as engine_eval

    real = engine_eval.load_expanded
    reading = threading.Event()

    def slow_load(path):  # type: ignore[no-untyped-def]
        reading.set()
        _t.sleep(0.5)
        return real(path)

    monkeypatch.setattr(engine_eval, "_LEARNED_W", [])
    monkeypatch.setattr(engine_eval, "load_expanded", slow_load)
    engine = Engine(hash_mb=4)
    s = positions_with_empties(6, 1, 30)[0]
    out = []
    worker = threading.Thread(target=lambda: out.append(engine.search(s, time=30.0)))
    worker.start()
    assert reading.wait(20)
    engine.stop()  # inside the read
    worker.join(timeout=20)
    assert not worker.is_alive() and out[0].move in s.legal_moves()
    assert out[0].stats.depth <= 2  # stopped at once, not after the 30 s clock (or many depths)


def test_a_search_stopped_before_depth_1_still_answers_a_searched_move() -> None:
    """However early the stop, the answer has a value: depth 1 is searched past the stop (microseconds)."""
    from plies.engine import midgame

    engine = Engine(hash_mb=4)
    s = random_positions(74, 1, lo=10, hi=20)[0]
    real = midgame.search_root

    def stopped_first(*args, **kwargs):  # type: ignore[no-untyped-def]
        engine.stop()  # as if the clock ran out before the first depth finished
        return real(*args, **kwargs)

    import plies.engine.api as api

    one = Engine(hash_mb=4).search(s, depth=1)
    try:
        api.midgame.search_root = stopped_first  # type: ignore[attr-defined]
        r = engine.search(s, time=5.0)
    finally:
        api.midgame.search_root = real  # type: ignore[attr-defined]
    assert r.stats.depth == 1 and r.value != 0
    assert (r.value, r.move) == (one.value, one.move)


def test_an_endless_or_undefined_time_is_refused() -> None:
    import math

    import pytest

    from plies.game import PliesError

    for t in (math.inf, math.nan, 0.0, -1.0):
        with pytest.raises(PliesError, match="finite"):
            Engine(hash_mb=4).search(positions_with_empties(7, 1, 20)[0], time=t)
    r = Engine(hash_mb=4).search(positions_with_empties(7, 1, 10)[0], time=1e300)
    assert r.exact  # a finite but huge budget: solved, with no clock overflow on the way


def test_ctrl_c_stops_a_search_on_the_main_thread() -> None:
    """A script's Ctrl-C or a notebook's interrupt (SIGINT) during a long solve on the main thread: the compiled
    search stops at once and KeyboardInterrupt follows (Python's own handler would wait for the solve to end);
    the engine stays usable and SIGINT is Python's alone again afterwards."""
    import os
    import signal

    import pytest

    from plies.engine import midgame

    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # also where SIGINT came in ignored
    try:
        engine = Engine(hash_mb=16)
        s = positions_with_empties(87, 1, 26)[0]  # about 1.0 G nodes (half a minute) to solve on one thread
        timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            engine.analyse(s, exact=True)
        timer.join()
        assert engine.ctl[midgame.STOP] and engine.ctl[midgame.NODES] < 300_000_000  # stopped, not solved
        small = positions_with_empties(36, 1, 14)[0]
        assert engine.search(small, exact=True).value == Engine(hash_mb=8).search(small, exact=True).value
        engine.ctl[midgame.STOP] = 0
        timer = threading.Timer(0.1, lambda: os.kill(os.getpid(), signal.SIGINT))
        timer.start()
        with pytest.raises(KeyboardInterrupt):  # outside a search, as ever ...
            time.sleep(30)
        timer.join()
        assert engine.ctl[midgame.STOP] == 0  # ... and no longer hooked to the engine
    finally:
        signal.signal(signal.SIGINT, before)


def test_the_interrupt_hook_nests_and_respects_a_programs_own_handler() -> None:
    """A search inside another's (a progress callback's) takes Ctrl-C over and gives it back; under a handler of
    the program's own (asyncio's, say), which may not mean "stop", no search is hooked."""
    import os
    import signal

    import numpy as np
    import pytest

    from plies.engine import midgame

    def interrupt() -> None:
        timer = threading.Timer(0.05, lambda: os.kill(os.getpid(), signal.SIGINT))
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            time.sleep(30)
        timer.join()

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        outer, inner = np.zeros(4, np.int64), np.zeros(4, np.int64)
        assert midgame.hook_interrupt(outer) and midgame.hook_interrupt(inner)
        interrupt()
        assert (outer[midgame.STOP], inner[midgame.STOP]) == (0, 1)
        midgame.unhook_interrupt()
        interrupt()
        assert outer[midgame.STOP] == 1
        midgame.unhook_interrupt()
        outer[:] = 0
        interrupt()
        assert outer[midgame.STOP] == 0
        signal.signal(signal.SIGINT, lambda *a: None)
        assert not midgame.hook_interrupt(outer)
    finally:
        signal.signal(signal.SIGINT, before)
