"""Balanced openings: random openings kept only when the engine rates them near even; the shipped set."""

from __future__ import annotations

import json
import re

import pytest

from plies.cli import main
from plies.engine import Engine
from plies.engine.book import canonical
from plies.engine.probcut import weights_digest
from plies.engine.weights import DEFAULT_WEIGHTS
from plies.game import PliesError
from plies.games.othello import OthelloState
from plies.match.balanced import SHIPPED, balanced_openings, format_openings, openings_path
from plies.match.openings import read_openings

VALUE = re.compile(r"#\s*([+-]\d+\.\d+) at depth (\d+)")


def test_kept_openings_are_within_the_margin_distinct_and_reproducible():
    rated = balanced_openings(6, 4, 1.5, 4, seed=3)
    assert len(rated) == 4
    keys = set()
    for r in rated:
        state = OthelloState.from_transcript(r.opening.moves)
        assert state.to_text() == r.opening.position
        assert abs(r.value) <= 1.5 and r.depth == 4
        assert Engine(threads=1).search(state, depth=4).value == pytest.approx(r.value)  # the value is the search's
        keys.add(canonical(*state.own_opp())[0])
    assert len(keys) == 4  # no two are images of each other under a board symmetry
    assert balanced_openings(6, 4, 1.5, 4, seed=3) == rated
    assert balanced_openings(6, 4, 1.5, 4, seed=4) != rated


def test_a_margin_no_opening_meets_is_a_clear_error():
    with pytest.raises(PliesError, match=r"only 0 of 3 openings within 0 discs after 5 candidates"):
        balanced_openings(8, 3, 0.0, 3, seed=1, max_candidates=5)
    with pytest.raises(PliesError, match="--within"):
        balanced_openings(8, 3, float("nan"), 3, seed=1)


def test_the_file_reads_back_as_match_openings(tmp_path):
    rated = balanced_openings(4, 3, 3.0, 3, seed=1)
    path = tmp_path / "b.txt"
    path.write_text(format_openings(rated, "three openings\nsecond line"))
    lines = path.read_text().splitlines()
    assert lines[:2] == ["# three openings", "# second line"]
    assert [o.position for o in read_openings(path, "othello")] == [r.opening.position for r in rated]


def test_the_shipped_set_is_what_its_header_says():
    path = SHIPPED["balanced8"].path
    text = path.read_text()
    made_by = re.search(r"made by: plies train openings (.*)", text)
    assert made_by is not None
    args = dict(re.findall(r"--(\w+) (\S+)", made_by.group(1)))
    openings = read_openings(path, "othello")
    assert len(openings) == int(args["count"])
    keys = set()
    for opening, line in zip(openings, [ln for ln in text.splitlines() if not ln.startswith("#")], strict=True):
        state = OthelloState.from_text(opening.position)
        assert state.empties() == 60 - int(args["plies"])  # 8 plies, none a pass
        value = VALUE.search(line)
        assert value is not None and abs(float(value.group(1))) <= float(args["within"])
        assert int(value.group(2)) == int(args["depth"])
        keys.add(canonical(*state.own_opp())[0])
    assert len(keys) == len(openings)
    first = openings[0]  # the first one's value is the engine's at that depth, with the weights that rated it
    line = next(ln for ln in text.splitlines() if not ln.startswith("#"))
    shown = float(VALUE.search(line).group(1))
    got = Engine(threads=1).search(OthelloState.from_text(first.position), depth=int(args["depth"])).value
    rated_by = re.search(r"weights: ([0-9a-f]{16}) ", text)
    assert rated_by is not None
    if rated_by.group(1) == weights_digest(DEFAULT_WEIGHTS):
        assert got == pytest.approx(shown, abs=0.006)
    else:  # rated by earlier weights: the shipped ones still find it near even
        assert abs(got) <= float(args["within"]) + 2


def test_openings_path_prefers_a_real_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert openings_path("balanced8", "othello") == SHIPPED["balanced8"].path
    with pytest.raises(PliesError, match="balanced8 is a set of 8x8 Othello openings, not of tictactoe"):
        openings_path("balanced8", "tictactoe")
    (tmp_path / "balanced8").write_text("f5\n")
    assert openings_path("balanced8", "othello").resolve() == (tmp_path / "balanced8").resolve()
    assert openings_path("other.txt", "othello", tmp_path) == tmp_path / "other.txt"


def test_cli_writes_a_set_and_a_match_plays_the_shipped_one(tmp_path, capsys):
    out = tmp_path / "o.txt"
    assert main(["train", "openings", "-o", str(out), "--count", "2", "--depth", "2", "--within", "3"]) == 0
    assert len(read_openings(out, "othello")) == 2
    assert "made by: plies train openings --count 2 --plies 8 --within 3 --depth 2 --seed 1" in out.read_text()
    assert f"weights: {weights_digest(DEFAULT_WEIGHTS)} (the evaluation that rated them)" in out.read_text()
    capsys.readouterr()
    assert main(["train", "openings", "-o", str(out), "--count", "2"]) == 2  # exists: one line, no overwrite
    assert "add --force" in capsys.readouterr().err
    assert main(["match", "random", "greedy", "--openings", "balanced8", "--games", "4", "--json"]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    shipped = read_openings(SHIPPED["balanced8"].path, "othello")
    assert [g["start"] for g in games] == [shipped[0].position] * 2 + [shipped[1].position] * 2


def test_a_tournament_file_names_the_shipped_set(tmp_path):
    from plies.tournament.config import load_config

    toml = tmp_path / "t.toml"
    toml.write_text('openings = "balanced8"\ngames_per_pair = 4\nplayers = ["random", "greedy"]\n')
    shipped = read_openings(SHIPPED["balanced8"].path, "othello")
    assert load_config(toml).config.openings == shipped
