"""The HexThello engine on several threads: the values of the one-thread search, stop() and the clock."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest

from plies import heuristics
from plies.engine import api
from plies.game import PASS, PliesError
from plies.games.hexthello import HexThelloState
from plies.hexsearch import HexEngine
from plies.hexsearch import kernels as k
from plies.search import minimax

from .conftest import near_end_positions
from .test_hex_search import random_positions

USABLE_THREADS = api.usable_threads


@pytest.fixture(autouse=True)
def _all_threads_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every thread asked for runs, however many cores the machine has (the engine runs at most one a core)."""
    monkeypatch.setattr(api, "usable_threads", lambda threads: threads)


def test_the_engine_runs_at_most_one_thread_a_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api, "usable_threads", USABLE_THREADS)
    seen: list[int] = []
    real = k.root_search
    monkeypatch.setattr(k, "root_search", lambda *a: seen.append(a[-1]) or real(*a))
    s = HexThelloState.start()
    e = HexEngine(table_bits=12, threads=64)
    assert e.threads == 64 and e.search(s, depth=3).value == HexEngine(table_bits=12).search(s, depth=3).value
    assert seen[:3] == [api.default_threads()] * 3


def _positions(n: int, seed: int) -> list[HexThelloState]:
    return [s for s in random_positions(3 * n, seed=seed, plies=(4, 110)) if s.legal_moves() != [PASS]][:n]


@pytest.mark.parametrize("evaluation", ["learned", "classic"])
def test_threads_give_the_one_thread_values(evaluation: str) -> None:
    for s in _positions(6, seed=21):
        for depth in (3, 5):
            one = HexEngine(table_bits=16, evaluation=evaluation).search(s, depth=depth)
            for threads in (2, 3, 4):
                r = HexEngine(table_bits=16, evaluation=evaluation, threads=threads).search(s, depth=depth)
                assert r.value == one.value and r.depth == depth, (s.to_text(), depth, threads)
                assert r.move in s.legal_moves()
                if r.move != one.move:  # another best move: it has the same value
                    child = s.play(r.move)
                    if child.legal_moves() != [PASS] and not child.is_over():
                        again = HexEngine(table_bits=16, evaluation=evaluation).search(child, depth=depth - 1)
                        assert -again.value == r.value


def test_threads_solve_endgames_exactly() -> None:
    for near in near_end_positions(8, 3, 8):
        exact = minimax(near, 20, heuristics.get("hexthello", "discs"))
        for threads in (1, 2, 4):
            r = HexEngine(table_bits=12, threads=threads).search(near, depth=20)
            assert r.exact and r.value == exact.value


def test_a_set_stop_flag_aborts_every_thread() -> None:
    s = HexThelloState.start()
    board = k.to_padded(s.black, s.white)
    for threads in (1, 3):
        ctl = np.zeros(4, dtype=np.int64)
        ctl[k.STOP] = 1
        p, v, nodes, aborted = k.root_search(board, k.BLACK, 10, *k.new_tables(12), 1 << 62, -1, ctl, k.LEARNED,
                                             HexEngine().weights, threads)
        assert aborted
        if threads == 1:
            assert nodes == 1  # the first node saw the flag


def test_stop_from_another_thread_ends_a_parallel_search() -> None:
    engine = HexEngine(table_bits=16, threads=2)
    s = _positions(1, seed=3)[0]
    out: list = []
    worker = threading.Thread(target=lambda: out.append(engine.search(s, depth=40)))
    worker.start()
    for _ in range(2400):  # stop() until the search ends (a search resets the flag as it starts)
        engine.stop()
        worker.join(0.05)
        if not worker.is_alive():
            break
    assert not worker.is_alive()  # a guard against a hang (2 minutes), not a timing check
    r = out[0]
    assert r.move in s.legal_moves() and 1 <= r.depth < 40


def test_clock_stress_with_threads() -> None:
    """Many short timed searches on 1-4 threads, the stop timer firing anywhere in them: every one answers a
    legal move from a finished depth (at least MIN_TIMED_DEPTH, which a clock never cuts)."""
    positions = _positions(6, seed=9)
    engines = {t: HexEngine(table_bits=14, threads=t) for t in (1, 2, 3, 4)}
    rng = random.Random(5)
    for i in range(40):
        s = positions[i % len(positions)]
        t = rng.choice((1, 2, 3, 4))
        r = engines[t].search(s, seconds=rng.choice((0.001, 0.005, 0.01, 0.03)))
        assert r.move in s.legal_moves()
        assert r.depth >= min(4, s.empties())


def test_searches_of_several_engines_at_once() -> None:
    from concurrent.futures import ThreadPoolExecutor

    positions = _positions(4, seed=6)
    want = [HexEngine(table_bits=14).search(p, depth=4).value for p in positions]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda p: HexEngine(table_bits=14, threads=2).search(p, depth=4).value, positions))
    assert got == want


def test_bad_thread_counts_are_refused() -> None:
    s = HexThelloState.start()
    board = k.to_padded(s.black, s.white)
    tables = k.new_tables(8)
    for bad in (0, -1, 257):
        with pytest.raises(ValueError):
            k.root_search(board, k.BLACK, 3, *tables, 1 << 40, -1, None, k.CLASSIC, None, bad)
        with pytest.raises(PliesError):
            HexEngine(threads=bad)
    with pytest.raises(PliesError):
        HexEngine(threads=True)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        k.root_search(board, k.BLACK, 3, *tables, 1 << 40, -1, None, 7, None, 1)  # no such evaluation
    with pytest.raises(ValueError):
        k.root_search(board, k.BLACK, 3, *tables, 1 << 40, -1, np.zeros(2, np.int64), k.CLASSIC, None, 1)  # ctl
    with pytest.raises(TypeError):
        k.root_search(board, k.BLACK, 3, *tables, 1 << 40, -1, None, k.LEARNED, None, 1)  # no weights
    with pytest.raises(ValueError):
        k.root_search(board, k.BLACK, 3, *tables, 1 << 40, -1, None, k.LEARNED, np.zeros(10, np.int32), 1)
