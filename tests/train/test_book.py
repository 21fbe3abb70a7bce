"""Opening book: symmetry canonicalisation, lookup in every orientation, file round trip, negamax backup."""

from __future__ import annotations

import pytest

from plies.engine.patterns import SYMMETRIES
from plies.game import PASS, PliesError
from plies.games import OthelloState
from plies.players import RandomPlayer
from plies.train.backends import PythonBackend
from plies.train.book import Book, build_book, canonical, transform
from plies.train.players import BookPlayer


def _image(state: OthelloState, g: int) -> OthelloState:
    return OthelloState(transform(state.black, g), transform(state.white, g), state.to_move)


def test_transform_is_a_permutation_of_squares() -> None:
    for g in range(8):
        assert sorted(int(x) for x in SYMMETRIES[g]) == list(range(64))
        assert transform((1 << 64) - 1, g) == (1 << 64) - 1
    b = (1 << 0) | (1 << 10) | (1 << 63)
    assert transform(transform(b, 4), 4) == b  # the transpose is its own inverse


def test_canonical_is_the_same_for_all_images() -> None:
    state = OthelloState.from_transcript("f5d6c3d3c4")
    key, _ = canonical(*state.own_opp())
    for g in range(8):
        image = _image(state, g)
        assert canonical(*image.own_opp())[0] == key


def test_lookup_maps_moves_into_every_orientation(tmp_path) -> None:
    state = OthelloState.from_transcript("f5d6c3")
    moves = state.legal_moves()
    book = Book()
    book.add(state, [(m, float(k)) for k, m in enumerate(moves)])
    path = tmp_path / "book.npz"
    book.save(path)
    back = Book.load(path)
    assert len(back) == 1
    for g in range(8):
        image = _image(state, g)
        got = back.lookup(image)
        assert [v for _, v in got] == sorted((float(k) for k in range(len(moves))), reverse=True)
        # the move valued k in the original is its image in the transformed position
        for m, v in got:
            assert m in image.legal_moves()
            assert int(SYMMETRIES[g, moves[int(v)]]) == m
    assert back.lookup(OthelloState.start()) == []


def test_pass_entries_survive(tmp_path) -> None:
    book = Book()
    state = OthelloState.from_transcript("f5d6c3d3c4")
    book.add(state, [(PASS, 3.0)])
    book.save(tmp_path / "b.npz")
    assert Book.load(tmp_path / "b.npz").lookup(_image(state, 5)) == [(PASS, 3.0)]


def test_bad_book_file_is_a_clear_error(tmp_path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(PliesError):
        Book.load(bad)
    with pytest.raises(PliesError):
        Book.load(tmp_path / "missing.npz")


def test_build_backs_up_values_by_negamax() -> None:
    backend = PythonBackend("weighted-squares")
    book = build_book(backend, depth=1, plies=3, branch=2)
    start = OthelloState.start()
    root = book.lookup(start)
    assert {m for m, _ in root} == set(start.legal_moves())
    for move, value in root:
        child = book.lookup(start.play(move))
        if child:  # an expanded move: its value is minus the best reply's value
            assert value == pytest.approx(-child[0][1])
    # every book position is reachable: all 4 first moves are one symmetry class
    assert len({v for _, v in root}) == 1


def test_deviation_expansion_and_workers_give_the_same_book() -> None:
    """Moves within ``width`` of the best are expanded (at most ``branch``); two worker processes build the
    book one process builds."""
    from plies.train.backends import get_backend

    one = build_book(get_backend("engine"), depth=3, plies=3, branch=3, width=1.5)
    two = build_book(get_backend("engine"), depth=3, plies=3, branch=3, width=1.5, workers=2)
    assert one.entries == two.entries and len(one) > 4
    narrow = build_book(get_backend("engine"), depth=3, plies=3, branch=3, width=0.0)
    assert len(narrow) < len(one)


def test_book_player_uses_the_book_then_the_fallback() -> None:
    start = OthelloState.start()
    book = Book()
    best = start.legal_moves()[2]
    book.add(start, [(best, 5.0)] + [(m, 0.0) for m in start.legal_moves() if m != best])
    player = BookPlayer(RandomPlayer(seed=1), book)
    assert player.choose(start) == best
    later = start.play(best).play(start.play(best).legal_moves()[0])
    assert player.choose(later) in later.legal_moves()
    assert player.in_book == 1
    varied = BookPlayer(RandomPlayer(seed=1), book, margin=10.0, seed=4)
    picks = {varied.choose(start) for _ in range(40)}
    assert len(picks) > 1 and picks <= set(start.legal_moves())
