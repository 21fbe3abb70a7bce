"""Planning: paired openings swap colours, seeds depend only on (seed, index), budgets, openings files."""

from __future__ import annotations

import pytest

from plies.game import ParseError, PliesError
from plies.games import start_position
from plies.match.openings import derive_seed, parse_opening, random_openings, read_openings
from plies.match.plan import Entrant, EventConfig, apply_budget, make_plan, plan_hash, resolve_spec

A, B, C = Entrant("a", "random"), Entrant("b", "greedy"), Entrant("c", "alphabeta:depth=1")


def test_paired_openings_swap_colours():
    plan = make_plan(EventConfig(players=[A, B], games_per_pair=6, random_plies=4, seed=1))
    assert len(plan) == 6
    assert [g.index for g in plan] == list(range(6))
    for first, second in zip(plan[::2], plan[1::2], strict=True):
        assert first.pair == second.pair
        assert first.opening == second.opening
        assert (first.black, first.white) == (second.white, second.black)
    assert len({g.opening.position for g in plan}) == 3


def test_round_robin_and_gauntlet_pairings():
    rr = make_plan(EventConfig(players=[A, B, C], games_per_pair=2))
    assert {frozenset((g.black.name, g.white.name)) for g in rr} == {frozenset("ab"), frozenset("ac"), frozenset("bc")}
    assert len(rr) == 6
    gauntlet = make_plan(EventConfig(players=[A, B, C], format="gauntlet", gauntlet="c", games_per_pair=4))
    assert len(gauntlet) == 8
    assert all("c" in (g.black.name, g.white.name) for g in gauntlet)
    with pytest.raises(PliesError, match="not one of the players"):
        make_plan(EventConfig(players=[A, B], format="gauntlet", gauntlet="zz"))


def test_plan_errors():
    with pytest.raises(PliesError, match="even"):
        make_plan(EventConfig(players=[A, B], games_per_pair=3))
    with pytest.raises(PliesError, match="distinct"):
        make_plan(EventConfig(players=[A, Entrant("a", "greedy")]))
    with pytest.raises(PliesError, match="at least two"):
        make_plan(EventConfig(players=[A]))


def test_seeds_and_openings_are_reproducible_and_seed_dependent():
    p1 = make_plan(EventConfig(players=[A, B], games_per_pair=4, random_plies=6, seed=5))
    p2 = make_plan(EventConfig(players=[A, B], games_per_pair=4, random_plies=6, seed=5))
    p3 = make_plan(EventConfig(players=[A, B], games_per_pair=4, random_plies=6, seed=6))
    assert p1 == p2 and plan_hash(p1) == plan_hash(p2)
    assert plan_hash(p1) != plan_hash(p3)
    assert [g.seed for g in p1] == [derive_seed(5, "game", i) for i in range(4)]
    assert len({g.seed for g in p1}) == 4
    assert derive_seed(5, "game", 0) != derive_seed(6, "game", 0)


def test_random_openings_are_legal_unfinished_and_distinct():
    ops = random_openings("othello", 8, 10, seed=3)
    assert len({o.position for o in ops}) == 10
    for o in ops:
        state = parse_opening(o.moves, "othello")
        assert state.to_text() == o.position and not state.is_over()
        assert o.state("othello").to_text() == o.position
    ttt = random_openings("tictactoe", 2, 3, seed=1)
    assert all(not o.state("tictactoe").is_over() for o in ttt)
    with pytest.raises(PliesError, match="fewer"):
        random_openings("tictactoe", 9, 1, seed=1)


def test_read_openings(tmp_path):
    board = start_position("othello").play(19).to_text()  # d3
    f = tmp_path / "ops.txt"
    f.write_text(f"# my openings\nf5d6\n\n{board}   # after d3\nstart\n")
    ops = read_openings(f, "othello")
    assert [o.position for o in ops] == [
        parse_opening("f5d6", "othello").to_text(), board, start_position("othello").to_text()]
    f.write_text("f5 zz\n")
    with pytest.raises(PliesError, match="ops.txt:1"):
        read_openings(f, "othello")
    f.write_text("# nothing\n")
    with pytest.raises(PliesError, match="no opening"):
        read_openings(f, "othello")
    with pytest.raises(PliesError, match="cannot read"):
        read_openings(tmp_path / "missing.txt", "othello")
    six = start_position("othello6")
    first = six.move_str(six.legal_moves()[0])
    assert parse_opening(first, "othello6") == six.play(six.legal_moves()[0])
    f.write_text("d3 d3\n")
    with pytest.raises(PliesError, match="ops.txt:1"):
        read_openings(f, "othello")


def test_apply_budget():
    assert apply_budget("alphabeta:eval=doc004", 3, None) == "alphabeta:eval=doc004,depth=3"
    assert apply_budget("minimax", 2, 1.0) == "minimax:depth=2"
    assert apply_budget("alphabeta:depth=5", 3, None) == "alphabeta:depth=5"
    assert apply_budget("alphabeta", None, 1.0) == "alphabeta"
    assert apply_budget("random", 3, 1.0) == "random"
    assert apply_budget("engine:level=7", 3, 1.0) == "engine:level=7"
    assert apply_budget("engine", None, 0.5) == "engine:time=0.5"
    assert apply_budget("engine:eval=x", 4, None) == "engine:eval=x,depth=4"


def test_resolve_spec_checks_the_spec_and_falls_back():
    assert resolve_spec("alphabeta:eval=doc004", "othello", 2) == "alphabeta:eval=doc004,depth=2"
    assert resolve_spec("greedy", "othello", 2, 1.0) == "greedy"
    with pytest.raises(ParseError):
        resolve_spec("alphabeta:eval=nope", "othello", 2)
    with pytest.raises(ParseError):
        resolve_spec("nosuchkind", "othello")
