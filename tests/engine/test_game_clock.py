"""The whole clock: ``time=T`` as T a move on average with what quick moves leave over kept, ``clock=M+I`` game
clocks, and the engine's aim and hard limit within a move."""

from __future__ import annotations

import time

import pytest

from plies.engine import Engine
from plies.engine.clock import PER_MOVE_CAP, Clock, parse_clock
from plies.game import PliesError
from plies.games.othello import OthelloState
from plies.match.record import play_game
from plies.players import parse_player

from .conftest import random_positions
from .test_clock import MARGIN


def test_per_move_clock_keeps_what_moves_leave_over() -> None:
    c = Clock.per_move(1.0)
    aim, limit = c.budget(50)
    # the last moves' credit (solved in no time from 14 empties at 1 s) is shared out over the moves before them
    assert aim == pytest.approx(1.0 + 7 / 18) and limit == pytest.approx(PER_MOVE_CAP)
    assert c.budget(12) == pytest.approx((PER_MOVE_CAP, PER_MOVE_CAP))  # fewer moves to share among, within 2 T
    for _ in range(10):  # ten book moves, no time
        c.spend(0.0)
    raised, limit = c.budget(50)
    assert aim < raised < limit <= PER_MOVE_CAP  # the bank raises the aim; one move never takes more than 2 T
    # whatever the moves take within their limits, the average over the game never exceeds T
    c = Clock.per_move(0.5)
    used = 0.0
    for k in range(30):
        aim, limit = c.budget(60 - 2 * k)
        take = limit if k % 3 else 0.0
        used += take
        c.spend(take)
    assert used <= 30 * 0.5 + 30 * 0.01  # (a move of a spent clock still gets 10 ms to answer)


def test_game_clock_never_goes_below_zero() -> None:
    c = parse_clock("1+0.5")
    assert c.remaining == 60 and c.increment == 0.5
    total = 0.0
    for k in range(32):
        aim, limit = c.budget(60 - 2 * k)
        assert 0 < aim <= limit <= c.remaining
        total += limit
        c.spend(limit)  # the worst case: every move takes its whole limit
        assert c.remaining > 0
    for bad in ("", "x", "0", "-1", "5+x", "inf", "5+-1"):
        with pytest.raises(PliesError, match="clock must be"):
            parse_clock(bad)


def test_the_engine_aims_and_never_passes_the_limit() -> None:
    e = Engine(hash_mb=16)
    worst = 0.0
    for s in random_positions(61, 6, lo=12, hi=36):
        t0 = time.perf_counter()
        r = e.search(s, time=0.05, max_time=0.15)
        dt = time.perf_counter() - t0
        worst = max(worst, dt)
        assert r.move in s.legal_moves()
    assert worst < 0.15 + MARGIN  # the limit, and what a busy machine's scheduling adds
    with pytest.raises(PliesError, match="max_time"):
        e.search(OthelloState.start(), time=1.0, max_time=0.5)
    with pytest.raises(PliesError, match="max_time needs time"):
        e.search(OthelloState.start(), depth=3, max_time=0.5)


def test_timed_players_keep_their_average() -> None:
    """A whole game at time=T: the engine's moves average at most T (and at least a fair share of it), and
    no move takes more than 2 T."""
    a = parse_player("engine:time=0.04,threads=1", "othello")
    b = parse_player("engine:depth=2,threads=1", "othello")
    rec = play_game(OthelloState.from_transcript("f5d6c3d3c4f4f6f3e6e7"), [a, b])
    mine = [t for k, t in enumerate(rec.times) if k % 2 == 0]
    # what one move overran (a busy machine) comes off the next ones: only the last overrun can remain
    assert sum(mine) <= 0.04 * len(mine) + 0.3
    assert max(mine) <= 0.04 * PER_MOVE_CAP + MARGIN


def test_clock_option_of_the_engine_player() -> None:
    p = parse_player("engine:clock=0.05+0.01,threads=1", "othello")
    assert p.clock is not None and p.clock.remaining == pytest.approx(3.0) and "clock=0.05+0.01" in p.name
    s = OthelloState.from_transcript("f5d6c3d3c4f4")
    p.new_game(s)
    before = p.clock.remaining
    assert p.choose(s) in s.legal_moves()
    assert p.clock.remaining < before + 0.01
    with pytest.raises(PliesError, match="clock"):
        parse_player("engine:clock=5+x", "othello")
    with pytest.raises(PliesError, match="clock= alone"):
        parse_player("engine:clock=5,time=1", "othello")
    p.set_clock(10.0, 1.0)
    assert p.clock.remaining == 10.0 and p.clock.increment == 1.0
