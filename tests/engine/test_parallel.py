"""Parallel search: the same values as one thread (exact scores and depth-limited values), stop and time
limits respected with threads, bad thread counts refused."""

from __future__ import annotations

import random
import threading

import pytest

from plies.engine import Engine, api
from plies.game import ParseError, PliesError
from plies.games.othello import OthelloState
from plies.players import parse_player

from .conftest import positions_with_empties, random_positions


@pytest.fixture(autouse=True)
def _all_threads_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests run more threads than the machine may have cores, to exercise the split points: every thread
    asked for runs (the engine itself runs at most one a core)."""
    monkeypatch.setattr(api, "usable_threads", lambda threads: threads)


@pytest.mark.parametrize("threads", [2, 3])
def test_exact_scores_equal_one_thread(threads: int) -> None:
    for s in positions_with_empties(31, 6, 16) + positions_with_empties(32, 3, 19):
        one = Engine(hash_mb=8, threads=1).analyse(s, exact=True, multipv=2)
        many = Engine(hash_mb=8, threads=threads).analyse(s, exact=True, multipv=2)
        assert [r.value for r in many] == [r.value for r in one], s.to_text()
        assert many[0].move in [r.move for r in one if r.value == one[0].value] or many[0].value == one[0].value


@pytest.mark.parametrize(("threads", "evaluation"), [(2, "default"), (4, "default"), (3, "learned"), (8, "learned")])
def test_depth_limited_values_equal_one_thread(threads: int, evaluation: str) -> None:
    """Without selectivity a depth-limited value is the alpha-beta value, whatever the table holds (a selective
    search's values depend on what its shallow searches left in the table, so on the threads' timing)."""
    for s in random_positions(33, 8, lo=8, hi=40):
        one = Engine(hash_mb=8, threads=1, evaluation=evaluation, probcut=None).analyse(s, depth=7, multipv=2)
        e = Engine(hash_mb=8, threads=threads, evaluation=evaluation, probcut=None)
        timer = threading.Timer(0.002, e.stop)  # a search stopped early first: it must leave no wrong bound
        timer.start()
        e.search(s, depth=9)
        timer.join()
        many = e.analyse(s, depth=7, multipv=2)
        assert [r.value for r in many] == [r.value for r in one], s.to_text()
        assert many[0].move in s.legal_moves()
        for r in many:  # a variation found by a helper at a split PV node comes back whole and legal
            assert r.pv[0] == r.move
            t = s
            for m in r.pv:
                t = t.play(m)


def test_split_search_survives_stops_and_more_threads_than_cores() -> None:
    """The exact solve's split points (Young Brothers Wait): with 2-8 threads, some solves stopped at a random
    moment first, the next solve on the same engine still gives the one-thread scores (a cut-off or a stop never
    leaves a wrong bound in the shared table)."""
    rng = random.Random(37)
    for empties in (15, 17, 19):
        for s in positions_with_empties(37 + empties, 2, empties):
            one = [r.value for r in Engine(hash_mb=8, threads=1).analyse(s, exact=True, multipv=3)]
            for threads in (2, 5, 8):
                e = Engine(hash_mb=8, threads=threads)
                if rng.random() < 0.5:
                    timer = threading.Timer(rng.random() * 0.03, e.stop)
                    timer.start()
                    e.analyse(s, exact=True)
                    timer.join()
                assert [r.value for r in e.analyse(s, exact=True, multipv=3)] == one, (s.to_text(), threads)


def test_threads_count_the_nodes_of_every_thread() -> None:
    s = positions_with_empties(34, 1, 18)[0]
    r = Engine(hash_mb=8, threads=2).search(s, exact=True)
    assert r.stats.nodes > 0 and r.exact


def test_stop_and_time_limits_with_threads() -> None:
    """A timed search and a stop() from another thread end the parallel search; the engine stays usable."""
    e = Engine(hash_mb=8, threads=3)
    start = OthelloState.start()
    for _ in range(5):
        r = e.search(start, time=0.1)
        assert r.move in start.legal_moves()
    s = positions_with_empties(35, 1, 24)[0]
    timer = threading.Timer(0.2, e.stop)
    timer.start()
    r = e.search(s, exact=True)  # stopped long before a 24-empties solve ends: the presearch's move
    timer.join()
    assert r.move in s.legal_moves()
    small = positions_with_empties(36, 1, 14)[0]
    assert e.search(small, exact=True).value == Engine(hash_mb=8, threads=1).search(small, exact=True).value


def test_bad_thread_counts_are_refused() -> None:
    with pytest.raises(PliesError):
        Engine(threads=0)
    with pytest.raises(ParseError):
        parse_player("engine:threads=0")
    assert parse_player("engine:threads=2,depth=3").engine.threads == 2


def test_threads_from_the_command_line_and_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--threads`` reaches the engine; an engine player without ``threads=`` takes ``$PLIES_ENGINE_THREADS``
    (match workers set it to 1), else the machine's cores."""
    import json

    from click.testing import CliRunner

    from plies.cli import main_group
    from plies.engine.api import default_threads

    text = "OXXO--O-XXX--OXXXXXXOXXXXOXOXOXXXXXOOXXXOOOOOXXX-OOOOOXX---OOXX- X"
    one = CliRunner().invoke(main_group, ["analyse", text, "--exact", "--json", "--threads", "1"])
    two = CliRunner().invoke(main_group, ["analyse", text, "--exact", "--json", "--threads", "2"])
    assert one.exit_code == two.exit_code == 0
    assert json.loads(one.output)["score"] == json.loads(two.output)["score"]
    bad = CliRunner().invoke(main_group, ["analyse", text, "--threads", "0"])
    assert bad.exit_code != 0
    monkeypatch.delenv("PLIES_ENGINE_THREADS", raising=False)
    assert parse_player("engine:depth=2").engine.threads == default_threads()
    monkeypatch.setenv("PLIES_ENGINE_THREADS", "1")
    assert parse_player("engine:depth=2").engine.threads == 1
    assert parse_player("engine:depth=2,threads=3").engine.threads == 3


def test_a_search_runs_at_most_one_thread_a_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """More threads than cores only slow the split points down (each waits for helpers that have no core):
    the engine keeps the count asked for but searches on at most the machine's cores."""
    monkeypatch.undo()  # the real cap, not this module's fixture
    from plies.engine import endgame, midgame

    s = positions_with_empties(38, 1, 16)[0]
    one = Engine(hash_mb=8, threads=1).search(s, exact=True).value
    seen: list[int] = []
    for module, name in ((endgame, "solve_root"), (midgame, "search_root")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, _real=real, **kw: seen.append(a[-1]) or _real(*a, **kw))
    cores = api.default_threads()
    e = Engine(hash_mb=8, threads=256)
    assert e.threads == 256
    assert e.search(s, exact=True).value == one
    e.search(OthelloState.start(), depth=4)
    assert seen and set(seen) == {cores}
    assert api.usable_threads(1) == 1 and api.usable_threads(cores + 5) == cores
