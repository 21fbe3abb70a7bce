"""Tagged transcripts (``plies tournament export --transcript``) read back by ``show``, ``convert`` and ``review``:
the same games, whole files and streamed ones; another game's records and bad tags refused with their line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from plies.cli import main
from plies.formats import stream
from plies.formats.detect import load


def _export(tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str = "othello") -> tuple[Path, dict]:
    db, out = tmp_path / f"{game}.sqlite", tmp_path / f"{game}.txt"
    assert main(["match", "random", "greedy", "-n", "2", "-w", "1", "--game", game, "--db", str(db), "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert main(["tournament", "export", str(db), "--transcript", str(out)]) == 0
    capsys.readouterr()
    return out, played


def test_an_exported_match_reads_back_as_the_same_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, played = _export(tmp_path, capsys)
    games = load(path.read_text()).games
    assert [(g.black, g.white) for g in games] == [(p["black"], p["white"]) for p in played["games"]]
    assert [g.move_names() for g in games] == [p["moves"] for p in played["games"]]
    assert [g.result for g in games] == [p["score"] for p in played["games"]]  # Black's disc difference
    assert main(["show", str(path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [g["moves"] for g in shown["games"]] == [p["moves"] for p in played["games"]]


def test_a_large_export_streams(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    path, played = _export(tmp_path, capsys)
    monkeypatch.setattr(stream, "SMALL", 100)  # read as a large file: game by game
    s = stream.open_source(str(path))
    assert s.format == "tagged" and [g.move_names() for g in s.items] == [p["moves"] for p in played["games"]]


def test_another_game_s_records_and_bad_tags_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = _export(tmp_path, capsys, "tictactoe")
    assert main(["show", str(path)]) == 2
    err = capsys.readouterr().err
    assert "game 1 is a tictactoe game: only Othello games are read here" in err and err.count("\n") == 1
    bad = tmp_path / "bad.txt"
    bad.write_text('[Black "a"]\n[White b]\n\n1. f5 d6 *\n')
    assert main(["show", str(bad)]) == 2
    assert "line 2" in capsys.readouterr().err
    illegal = tmp_path / "illegal.txt"
    illegal.write_text('[Black "a"]\n\n1. f5 a1 *\n')
    assert main(["show", str(illegal)]) == 2
    assert "game 1: illegal move a1" in capsys.readouterr().err
