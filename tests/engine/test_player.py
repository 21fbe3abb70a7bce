"""The ``engine`` player kind: specs, legal play in a whole game, errors."""

from __future__ import annotations

import pytest

from plies.analysis.levels import MAX_LEVEL as WEB_MAX_LEVEL
from plies.cli.engine import MAX_LEVEL as CLI_MAX_LEVEL
from plies.engine.levels import MAX_LEVEL
from plies.game import ParseError
from plies.games.othello import OthelloState
from plies.match.record import play_game
from plies.players import parse_player


@pytest.mark.parametrize("spec", ["engine", "engine:level=7", "engine:time=1", "engine:depth=8,eval=doc001"])
def test_specs_build_players(spec: str) -> None:
    p = parse_player(spec, "othello")
    assert p.name.startswith("engine")


@pytest.mark.parametrize("spec", ["engine:level=99", "engine:speed=3", "engine:depth=x", "engine:eval=nope"])
def test_bad_specs(spec: str) -> None:
    with pytest.raises(ParseError):
        parse_player(spec, "othello")


def test_engine_only_plays_othello() -> None:
    with pytest.raises(ParseError):
        parse_player("engine", "tictactoe")


def test_full_game_level_2_against_random() -> None:
    record = play_game(OthelloState.start(), (parse_player("engine:level=2"), parse_player("random:seed=3")))
    assert record.termination == "normal"
    assert OthelloState.from_text(record.final).is_over()


def test_level_1_slips_like_a_learner() -> None:
    """Level 1 values every move by a one-ply search and draws one with weight exp(-loss / 6 discs): the
    best move is the most frequent choice, the worst the rarest, and several moves are played."""
    p = parse_player("engine:level=1,seed=1")
    s = OthelloState.from_transcript("f5d6c3d3c4f4f6")
    lines = p.engine.analyse(s, level=1, multipv=len(s.legal_moves()))
    assert lines[0].value > lines[1].value + 1 and lines[-2].value > lines[-1].value
    picks = [p.choose(s) for _ in range(300)]
    assert max(set(picks), key=picks.count) == lines[0].move
    assert picks.count(lines[-1].move) < picks.count(lines[0].move) / 2
    assert len(set(picks)) >= 4
    assert p.last_result is not None and p.last_result.stats.depth == 1


def test_slips_are_seeded_and_strong_levels_do_not_slip() -> None:
    s = OthelloState.from_transcript("f5d6c3d3c4f4")
    first, second = parse_player("engine:level=2,seed=5"), parse_player("engine:level=2,seed=5")
    assert [first.choose(s) for _ in range(30)] == [second.choose(s) for _ in range(30)]
    strong = parse_player("engine:level=6,book=off,seed=5")
    assert len({strong.choose(s) for _ in range(5)}) == 1


def test_full_engine_plays_the_book_unless_told_not_to() -> None:
    start = OthelloState.start()
    booked = parse_player("engine:level=8")
    booked.choose(start)
    assert booked.last_result is not None and booked.last_result.algorithm == "book"
    plain = parse_player("engine:level=8,book=off")
    plain.choose(start)
    assert plain.last_result is not None and plain.last_result.algorithm != "book"
    weak = parse_player("engine:level=3")  # learners have no book
    weak.choose(start)
    assert weak.last_result is not None and weak.last_result.algorithm != "book"


def test_level_table_slips_shrink_and_strong_levels_use_the_book() -> None:
    from plies.engine.levels import LEVELS

    temps = [LEVELS[lv].temperature for lv in range(1, 6)]
    assert temps == sorted(temps, reverse=True) and all(t > 0 for t in temps)
    assert all(LEVELS[lv].temperature == 0 and LEVELS[lv].book for lv in range(6, MAX_LEVEL + 1))


@pytest.mark.parametrize("spec", ["engine:book=maybe", "engine:seed=x"])
def test_bad_book_and_seed_options(spec: str) -> None:
    with pytest.raises(ParseError):
        parse_player(spec, "othello")


def test_weights_option_plays_with_another_weights_file(tmp_path) -> None:
    """engine:weights=FILE searches with those weights: zeroed weights value every position 0."""
    import numpy as np

    from plies.train.fit import load_weights, save_weights

    zero = tmp_path / "zero.npz"
    save_weights(zero, np.zeros_like(load_weights()))
    p = parse_player(f"engine:depth=3,book=off,weights={zero}", "othello")
    assert f"weights={zero}" in p.name
    state = OthelloState.start().play(OthelloState.start().legal_moves()[0])
    p.choose(state)
    assert p.last_result.value == 0
    shipped = parse_player("engine:depth=3,book=off", "othello")
    shipped.choose(state)
    assert shipped.last_result.value != 0


@pytest.mark.parametrize("spec", ["engine:weights=/no/such.npz", "engine:eval=handmade,weights=x.npz"])
def test_bad_weights_option(spec: str, tmp_path) -> None:
    with pytest.raises(ParseError):
        parse_player(spec, "othello")
    bad = tmp_path / "bad.npz"
    bad.write_text("not a weights file")
    with pytest.raises(ParseError):
        parse_player(f"engine:weights={bad}", "othello")


def test_clear_makes_an_engine_search_like_a_new_one() -> None:
    from plies.engine import Engine

    state = OthelloState.start().play(OthelloState.start().legal_moves()[0])
    used = Engine(hash_mb=4)
    used.search(state, depth=7)
    used.search(state.play(state.legal_moves()[0]), depth=6)
    used.clear()
    again = used.search(state, depth=7)
    fresh = Engine(hash_mb=4).search(state, depth=7)
    assert (again.value, again.move, again.stats.nodes) == (fresh.value, fresh.move, fresh.stats.nodes)


def test_every_level_list_ends_at_the_engine_table() -> None:
    """The CLI, the terminal menu and the web page offer exactly the engine's levels (no unmeasured extras)."""
    assert CLI_MAX_LEVEL == WEB_MAX_LEVEL == MAX_LEVEL == 12
    with pytest.raises(ParseError, match="1 to 12"):
        parse_player(f"engine:level={MAX_LEVEL + 1}")
