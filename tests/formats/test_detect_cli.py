"""Format detection, ``plies show`` and ``plies convert``."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from plies.cli import main
from plies.formats.detect import detect, load
from plies.formats.errors import FormatError
from plies.formats.ggf import write_ggf, write_ggf_games
from plies.formats.obf import read_obf
from plies.formats.wthor import WthorGame, write_wtb

from .test_ggf import NBOARD
from .test_obf import TEXT as OBF_TEXT

BOARD = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"


def test_detects_every_format(some_games):
    wtb = write_wtb([WthorGame.from_game(some_games[0])], created=date(2024, 1, 2))
    assert detect(wtb) == "wthor"
    assert detect(NBOARD) == "ggf"
    assert detect(OBF_TEXT) == "obf"
    assert detect(BOARD) == "board"
    assert detect(BOARD + "\n" + BOARD.replace(" X", " O")) == "board"
    assert detect("f5d6c3") == "transcript"
    assert detect("1. F5 d6 2. C3") == "transcript"
    assert detect(b"f5d6") == "transcript"
    with pytest.raises(FormatError) as info:
        detect("f5 d6\nhello")
    assert (info.value.line, info.value.column) == (2, 1)


def test_one_transcript_per_line_is_many_games(some_games):
    text = "\n".join(g.move_names()[0] + "".join(n for n in g.move_names()[1:8] if n != "pass")
                     for g in some_games[:3])
    assert len(load(text).games) == 3
    bad = text.splitlines()
    bad[1] = bad[1][:6] + "a1"                               # an illegal move on line 2, column 7
    with pytest.raises(FormatError) as info:
        load("\n".join(bad))
    assert (info.value.line, info.value.column) == (2, 7)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_show_text_and_json(capsys, tmp_path, some_games):
    code, out, _ = run(capsys, "show", "f5d6c3")
    assert code == 0 and "1. F5 d6 2. C3" in out and "Score X=" in out
    code, out, _ = run(capsys, "show", "--json", NBOARD)
    data = json.loads(out)
    assert data["format"] == "ggf" and data["games"][0]["moves"][:2] == ["f5", "f6"]
    assert data["games"][0]["black"] == "./mEdax"
    path = tmp_path / "games.ggf"
    path.write_text(write_ggf_games(some_games))
    code, out, _ = run(capsys, "show", str(path), "--limit", "3")
    assert code == 0 and f"{len(some_games) - 3} more games" in out
    code, out, _ = run(capsys, "show", "--json", BOARD)
    pos = json.loads(out)["positions"][0]
    assert pos["to_move"] == "black" and pos["empties"] == 20 and "a2" in pos["legal"]
    wtb = tmp_path / "x.wtb"
    wtb.write_bytes(write_wtb([WthorGame.from_game(g) for g in some_games if g.final.is_over()]))
    code, out, _ = run(capsys, "show", "--json", str(wtb))
    data = json.loads(out)
    assert data["format"] == "wthor" and data["games"][0]["moves"] == some_games[0].move_names()
    code, out, _ = run(capsys, "convert", str(wtb), "-", "--to", "ggf")      # WTHOR -> GGF reads back
    assert code == 0 and load(out).games[0].same_game(some_games[0])


def test_show_errors_are_one_located_line(capsys, tmp_path):
    bad = tmp_path / "bad.ggf"
    bad.write_text(NBOARD + "\n" + NBOARD.replace("W[F7]", "W[F8]") + "\n")
    code, _, err = run(capsys, "show", str(bad))
    assert code == 2 and "line 2, column" in err and "illegal move W[F8]" in err and "Traceback" not in err
    code, _, err = run(capsys, "show", "f5 d6 q7")
    assert code == 2 and "line 1, column 7" in err


@pytest.mark.parametrize("to", ["ggf", "transcript", "csv", "wtb"])
def test_convert_games_round_trip(capsys, tmp_path, some_games, to):
    finished = [g for g in some_games if g.final.is_over()]
    src = tmp_path / "in.ggf"
    src.write_text(write_ggf_games(finished))
    out = tmp_path / f"out.{ {'transcript': 'txt'}.get(to, to) }".replace(" ", "")
    code, _, err = run(capsys, "convert", str(src), str(out), "--to", to)
    assert code == 0, err
    if to == "csv":
        from plies.formats.csvgames import read_csv

        back = read_csv(out.read_text())
    else:
        back = load(out.read_bytes(), str(out)).games
    assert len(back) == len(finished)
    for a, b in zip(finished, back, strict=True):
        assert b.same_game(a)
        if to in ("ggf", "csv", "wtb"):
            assert b.score() == a.score()


def test_convert_positions(capsys, tmp_path):
    src = tmp_path / "suite.obf"
    src.write_text(OBF_TEXT)
    code, out, _ = run(capsys, "convert", str(src), "-", "--to", "obf")
    assert code == 0
    assert [p.scores for p in read_obf(out)] == [p.scores for p in read_obf(OBF_TEXT)]
    code, out, _ = run(capsys, "convert", BOARD, "-", "--to", "ggf")
    assert code == 0 and "BO[8 O--OOOO" in out
    code, _, err = run(capsys, "convert", BOARD, "-", "--to", "transcript")
    assert code == 2 and "no games" in err
    code, _, err = run(capsys, "convert", "f5d6", str(tmp_path / "x.unknown"))
    assert code == 2 and "--to" in err
    assert write_ggf(load("f5d6").games[0]).endswith("B[F5]W[D6];)")


def test_a_byte_order_mark_is_skipped_in_every_text_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bom = b"\xef\xbb\xbf"
    start = "---------------------------O*------*O--------------------------- *"
    files = {"t.txt": b"f5d6\n", "g.ggf": f"(;GM[Othello]PC[x]TY[8]BO[8 {start}]B[F5];)\n".encode(),
             "p.obf": f"{start.replace('O', 'o').replace('*', 'X')};\n".encode()}
    for name, body in files.items():
        path = tmp_path / name
        path.write_bytes(bom + body)
        assert main(["show", str(path)]) == 0, capsys.readouterr().err
    toml = tmp_path / "t.toml"
    toml.write_bytes(bom + b'[[players]]\nname = "a"\nspec = "random"\n[[players]]\nname = "b"\nspec = "greedy"\n')
    from plies.tournament.config import load_config

    assert [p.name for p in load_config(toml).config.players] == ["a", "b"]
