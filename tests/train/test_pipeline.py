"""End to end: ``plies train data`` -> ``fit`` -> evaluate, ``book``; labels checked against exact solves."""

from __future__ import annotations

import json

import numpy as np
import pytest

from plies.cli import main
from plies.engine import patterns as pt
from plies.engine.weights import load_weights
from plies.game import WIN
from plies.games import OthelloState
from plies.heuristics import get as get_heuristic
from plies.search import alphabeta
from plies.train.backends import PythonBackend, engine_available, get_backend
from plies.train.book import Book
from plies.train.data import Settings, load, play_one, replay

SMALL = ["--backend", "python", "--depth", "1", "--exact", "6", "--random-plies", "2-6"]


def _exact(state: OthelloState) -> int:
    v = alphabeta(state, 2 * state.empties() + 2, get_heuristic("othello", "discs")).value
    return int(v - WIN if v >= WIN else v + WIN if v <= -WIN else v)


def _games(path) -> list[dict]:
    with open(path) as f:
        f.readline()
        return [json.loads(line) for line in f]


def test_data_fit_evaluate_round_trip(tmp_path) -> None:
    data = tmp_path / "d.jsonl"
    assert main(["train", "data", "--games", "4", "--out", str(data), *SMALL]) == 0
    games = _games(data)
    assert sorted(g["i"] for g in games) == [0, 1, 2, 3]
    for g in games:
        states = replay(g["moves"])
        assert states[-1].is_over()
        assert len(g["positions"]) == len(states) - 1
        for (own, opp, label, kind), state in zip(g["positions"], states, strict=False):
            assert (own, opp) == state.own_opp()
            if kind == 1:
                assert label == _exact(state)
        final = states[-1].score()
        first = states[0]
        assert g["positions"][0][2] == (final if first.to_move == 0 else -final) or g["positions"][0][3] == 1
    weights = tmp_path / "w.npz"
    assert main(["train", "fit", str(data), "--out", str(weights), "--phases", "3", "--holdout", "0.25"]) == 0
    w = load_weights(weights)
    assert w.shape == (3, pt.N_PARAMS)
    state = replay(games[0]["moves"])[20]
    own, opp = state.own_opp()
    v = pt.evaluate_patterns(np.uint64(own), np.uint64(opp), w)
    assert np.isfinite(v) and v == pytest.approx(pt.evaluate_python(own, opp, w))


def test_resume_adds_only_missing_games_and_runs_are_reproducible(tmp_path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main(["train", "data", "--games", "2", "--out", str(a), *SMALL]) == 0
    assert main(["train", "data", "--games", "2", "--out", str(a), *SMALL]) == 2  # exists, no --resume
    with open(a, "a") as f:
        f.write('{"i": 7, "moves": "f5')  # a torn line from an interrupted run
    assert main(["train", "data", "--games", "3", "--out", str(a), "--resume", *SMALL]) == 0
    assert main(["train", "data", "--games", "3", "--out", str(b), *SMALL]) == 0
    ga = sorted(_games(a), key=lambda g: g["i"])
    gb = sorted(_games(b), key=lambda g: g["i"])
    assert ga == gb
    other = [*SMALL[:-1], "3-5"]
    assert main(["train", "data", "--games", "4", "--out", str(a), "--resume", *other]) == 2  # other settings


def test_bad_options_are_one_line_errors(tmp_path, capsys) -> None:
    out = str(tmp_path / "x.jsonl")
    assert main(["train", "data", "--games", "2", "--out", out, "--random-plies", "five", *SMALL[:-2]]) == 2
    (tmp_path / "junk.txt").write_text("hello\n")
    assert main(["train", "fit", str(tmp_path / "junk.txt"), "--out", out]) == 2
    assert "not a plies training data file" in capsys.readouterr().err


def test_workers_give_the_same_games(tmp_path) -> None:
    one, two = tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    assert main(["train", "data", "--games", "3", "--out", str(one), *SMALL]) == 0
    assert main(["train", "data", "--games", "3", "--out", str(two), "--workers", "2", *SMALL]) == 0
    assert sorted(_games(one), key=lambda g: g["i"]) == sorted(_games(two), key=lambda g: g["i"])
    ds = load([str(one), str(two)])
    assert len(set(ds.game.tolist())) == 6  # the second file's games get their own ids


def test_book_command(tmp_path) -> None:
    out = tmp_path / "book.npz"
    assert main(["train", "book", "--out", str(out), "--backend", "python", "--depth", "1", "--plies", "2"]) == 0
    book = Book.load(out)
    start = OthelloState.start()
    moves = book.lookup(start)
    assert {m for m, _ in moves} == set(start.legal_moves())
    reply = start.play(moves[0][0])
    assert {m for m, _ in book.lookup(reply)} == set(reply.legal_moves())


@pytest.mark.skipif(not engine_available(), reason="needs the compiled engine (plies installed without a C compiler)")
def test_engine_backend_labels_are_exact() -> None:
    backend = get_backend("engine")
    game = play_one(0, Settings(backend="engine", depth=2, exact_empties=8), backend)
    states = replay(game["moves"])
    checked = 0
    for (_, _, label, kind), state in zip(game["positions"], states, strict=False):
        if kind == 1:
            assert label == _exact(state)
            checked += 1
    assert checked >= 8
    py = PythonBackend()
    assert py.solve(states[-3])[0] == backend.solve(states[-3])[0]


def test_search_values_are_the_self_play_searches_own(tmp_path) -> None:
    """--search-values: every position before the exact phase carries the value of a search at the run's depth
    (the textbook backend: exactly alpha-beta's), none after it; old four-element files still load, and a fit
    blends the two labels by --search-share."""
    data = tmp_path / "sv.jsonl"
    assert main(["train", "data", "--games", "2", "--out", str(data), "--search-values", *SMALL]) == 0
    h = get_heuristic("othello", None)
    searched = 0
    for g in _games(data):
        states = replay(g["moves"])
        for pos, state in zip(g["positions"], states, strict=False):
            if pos[3] == 1:
                assert len(pos) == 4
                continue
            assert len(pos) == 5
            assert pos[4] == pytest.approx(alphabeta(state, 1, h).value, abs=0.01)
            searched += 1
    assert searched >= 10
    plain = tmp_path / "plain.jsonl"
    assert main(["train", "data", "--games", "2", "--out", str(plain), *SMALL]) == 0
    ds = load([str(data), str(plain)])
    assert ds.search is not None
    with_value = np.isfinite(ds.search)
    assert with_value.sum() == searched and not with_value[ds.game >= 2].any()
    from plies.train.fit import blended_labels

    y = blended_labels(ds, 0.25)
    m = with_value
    assert np.allclose(y[m], 0.75 * ds.label[m] + 0.25 * ds.search[m])
    assert np.array_equal(y[~m], ds.label[~m])
    assert np.array_equal(blended_labels(ds, 0.0), ds.label)
    weights = tmp_path / "w.npz"
    assert main(["train", "fit", str(data), "--out", str(weights), "--phases", "2", "--search-share", "0.5"]) == 0
    assert main(["train", "fit", str(data), "--out", str(weights), "--search-share", "2", "--force"]) == 2


@pytest.mark.skipif(not engine_available(), reason="needs the compiled engine (plies installed without a C compiler)")
def test_engine_search_values_are_in_discs() -> None:
    backend = get_backend("engine")
    game = play_one(1, Settings(backend="engine", depth=3, exact_empties=10, search_values=True), backend)
    states = replay(game["moves"])
    rows = [(pos, s) for pos, s in zip(game["positions"], states, strict=False) if len(pos) == 5]
    assert len(rows) >= 30
    for pos, state in rows:
        assert -64 <= pos[4] <= 64
        move, value = get_backend("engine").search(state, 3)
        assert move in state.legal_moves() and -64 <= value <= 64


def test_a_data_file_names_the_weights_its_searches_used(tmp_path, capsys) -> None:
    """The header records the digest of the learned weights the self-play searched with (None for another
    evaluation); a file played with other weights is not resumed, and a fit blending search values from files of
    different weights says so and records each file's in its meta."""
    from plies.engine.probcut import weights_digest
    from plies.engine.weights import DEFAULT_WEIGHTS, weights_meta
    from plies.train.data import read_header, search_weights

    plain, learned = tmp_path / "plain.jsonl", tmp_path / "learned.jsonl"
    assert main(["train", "data", "--games", "1", "--out", str(plain), "--search-values", *SMALL]) == 0
    head = read_header(str(plain))
    assert head is not None and head["weights"] is None
    small = [*SMALL[:2], "--depth", "1", "--exact", "4", "--random-plies", "2-6"]
    assert main(["train", "data", "--games", "1", "--out", str(learned), "--search-values", "--eval", "learned",
                 *small]) == 0
    digest = weights_digest(DEFAULT_WEIGHTS)
    assert search_weights([str(plain), str(learned)]) == {str(plain): None, str(learned): digest}
    if engine_available():
        assert get_backend("engine").weights() == digest and get_backend("engine", "handmade").weights() is None

    text = learned.read_text().splitlines()
    head2 = json.loads(text[0])
    head2["weights"] = "0123456789abcdef"  # as if played before the shipped weights changed
    learned.write_text("\n".join([json.dumps(head2), *text[1:]]) + "\n")
    capsys.readouterr()
    assert main(["train", "data", "--games", "2", "--out", str(learned), "--resume", "--search-values",
                 "--eval", "learned", *small]) == 2
    err = capsys.readouterr().err
    assert "other weights" in err and len(err.strip().splitlines()) == 1

    weights = tmp_path / "w.npz"
    assert main(["train", "fit", str(plain), str(learned), "--out", str(weights), "--phases", "2",
                 "--search-share", "1"]) == 0
    out = capsys.readouterr().out
    assert "different weights" in " ".join(out.split())
    assert weights_meta(weights)["search_weights"] == {str(plain): None, str(learned): "0123456789abcdef"}
    assert main(["train", "fit", str(plain), str(learned), "--out", str(weights), "--phases", "2",
                 "--force"]) == 0
    assert "different weights" not in " ".join(capsys.readouterr().out.split())  # no search values read

    no_values = tmp_path / "nv.jsonl"  # no search values: which weights played it does not matter to a blend
    assert main(["train", "data", "--games", "1", "--out", str(no_values), "--eval", "learned", *small]) == 0
    assert search_weights([str(plain), str(no_values)]) == {str(plain): None}
    assert main(["train", "fit", str(plain), str(no_values), "--out", str(weights), "--phases", "2",
                 "--search-share", "1", "--force"]) == 0
    assert "different weights" not in " ".join(capsys.readouterr().out.split())
    head2["weights"] = [1]  # a malformed header: one line, no traceback
    learned.write_text("\n".join([json.dumps(head2), *text[1:]]) + "\n")
    assert main(["train", "fit", str(learned), "--out", str(weights), "--search-share", "1", "--force"]) == 2
    err = capsys.readouterr().err
    assert "'weights' must be a digest or null" in err and len(err.strip().splitlines()) == 1


@pytest.mark.skipif(not engine_available(), reason="needs the compiled engine (plies installed without a C compiler)")
def test_self_play_with_other_weights_names_them_and_plays_with_them(tmp_path, capsys) -> None:
    """``plies train data --weights W`` (the next round of a fit) searches with W: its header carries W's digest,
    its search values are W's, a run of the shipped weights does not resume it, and the python backend refuses
    the option in one line."""
    from plies.engine.probcut import weights_digest
    from plies.engine.weights import DEFAULT_WEIGHTS
    from plies.train.data import read_header

    rng = np.random.default_rng(4)
    other = tmp_path / "other.npz"
    w = load_weights() + rng.normal(scale=3.0, size=load_weights().shape).astype(np.float32)
    np.savez_compressed(other, weights=w, meta=np.array("{}"))
    args = ["--depth", "2", "--exact", "8", "--search-values", "--random-plies", "4-4", "--seed", "3"]
    shipped, mine = tmp_path / "shipped.jsonl", tmp_path / "mine.jsonl"
    assert main(["train", "data", "--games", "2", "--out", str(shipped), *args]) == 0
    assert main(["train", "data", "--games", "2", "--out", str(mine), "--weights", str(other), *args]) == 0
    assert read_header(str(mine))["weights"] == weights_digest(other) != weights_digest(DEFAULT_WEIGHTS)
    assert read_header(str(shipped))["weights"] == weights_digest(DEFAULT_WEIGHTS)
    values = [[p[4] for p in g["positions"] if len(p) == 5] for g in (_games(shipped)[0], _games(mine)[0])]
    assert values[0] != values[1]  # other weights, other search values (the same random opening)
    engine = get_backend("engine", weights=str(other))
    state = replay(_games(mine)[0]["moves"])[10]
    assert engine.search(state, 2)[1] == pytest.approx(_games(mine)[0]["positions"][10][4], abs=0.006)  # stored to 0.01
    capsys.readouterr()
    assert main(["train", "data", "--games", "3", "--out", str(mine), "--resume", *args]) == 2
    assert "other weights" in capsys.readouterr().err
    assert main(["train", "data", "--games", "1", "--out", str(tmp_path / "p.jsonl"), *SMALL,
                 "--weights", str(other)]) == 2
    err = capsys.readouterr().err
    assert "engine backend" in err and len(err.strip().splitlines()) == 1
    from plies.engine.probcut import DEFAULT_STATISTICS

    assert main(["train", "data", "--games", "1", "--out", str(tmp_path / "s.jsonl"), *args, "--weights", str(other),
                 "--stats", str(DEFAULT_STATISTICS)]) == 2  # the shipped statistics belong to the shipped weights
    err = capsys.readouterr().err
    assert "measured with other weights" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "s.jsonl").exists()
