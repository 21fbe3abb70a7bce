"""Files as an attacker (or a big archive) makes them, each built exactly: a 50 MB one-line transcript, a
valid 50 MB WTHOR file, a 50 MB GGF read with ``--limit 1``, rich markup in names and paths; and the short
version of the mutation fuzz."""

from __future__ import annotations

import json
import os
import sys
import tracemalloc
from pathlib import Path

import pytest

from plies.cli import main
from plies.formats.ggf import write_ggf
from plies.formats.stream import SMALL, open_source
from plies.formats.wthor import WthorGame, write_names, write_wtb

from .conftest import random_game

MB50 = 50_000_000
TOOLS = Path(__file__).resolve().parents[2] / "tools"

pytestmark = pytest.mark.timeout(120)


def peak_of(fn) -> int:  # type: ignore[no-untyped-def]
    """Peak Python allocation (bytes) while ``fn`` runs."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_50_mb_one_line_transcript_is_refused_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.txt"
    path.write_text("f5d6" * (MB50 // 4))
    peak = peak_of(lambda: main(["show", str(path)]))
    err = capsys.readouterr().err
    assert "longer than 4096 characters" in err and "line 1" in err
    assert peak < 4 << 20  # it looked at the first 64 kB only (was: 3.6 GB)
    small = tmp_path / "small.txt"
    small.write_text("f5d6" * 200_000)  # under SMALL: read whole, the same clean error
    assert main(["show", str(small)]) == 2 and "longer than any game" in capsys.readouterr().err


@pytest.mark.slow
def test_a_valid_50_mb_wthor_file_streams(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = [WthorGame.from_game(random_game(s)) for s in range(50)]
    count = (MB50 - 16) // 68
    path = tmp_path / "big.wtb"
    path.write_bytes(write_wtb([games[i % 50] for i in range(count)]))
    assert path.stat().st_size > MB50 - 100
    peak = peak_of(lambda: main(["show", str(path)]))
    out = capsys.readouterr().out
    assert f"{count - 20} more games ({count} in all" in out and peak < 16 << 20  # (was: 2 GB)
    assert main(["show", str(path), "--json", "--limit", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["games"]) == 3 and data["count"] == count and data["more"] is True
    assert data["games"][1]["moves"] == random_game(1).move_names()


@pytest.mark.slow
def test_a_50_mb_ggf_with_limit_1_reads_one_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [write_ggf(random_game(s)) + "\n" for s in range(50)]
    path = tmp_path / "big.ggf"
    block = "".join(lines)
    path.write_text(block * (MB50 // len(block) + 1))
    peak = peak_of(lambda: main(["show", str(path), "--limit", "1"]))
    out = capsys.readouterr().out
    assert "more games follow" in out and peak < 8 << 20  # (was: 109 s, the whole file parsed)
    stream = open_source(str(path))
    first = next(stream.items)
    assert first.move_names() == random_game(0).move_names() and stream.total is None


@pytest.mark.slow
def test_big_files_convert_a_game_at_a_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = [random_game(s) for s in range(40)]
    text = "".join(write_ggf(g) + "\n" for g in games)
    path = tmp_path / "many.ggf"
    path.write_text(text * (SMALL // len(text) + 2))  # just over SMALL: the streaming path
    total = len(games) * (SMALL // len(text) + 2)
    assert main(["convert", str(path), str(tmp_path / "out.wtb")]) == 0
    assert f"wrote {total} games" in capsys.readouterr().err
    assert main(["show", str(tmp_path / "out.wtb"), "--json", "--limit", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == total and data["games"][0]["moves"] == games[0].move_names()
    assert main(["convert", str(path), str(tmp_path / "out.txt")]) == 0
    assert (tmp_path / "out.txt").read_text().count("\n") == total
    bad = tmp_path / "bad.ggf"
    bad.write_text(text * (SMALL // len(text) + 1) + "(;GM[Othello]B[A1];)\n")
    assert main(["convert", str(bad), str(tmp_path / "bad.txt")]) == 2
    err = capsys.readouterr().err
    assert f"line {len(games) * (SMALL // len(text) + 1) + 1}" in err and "illegal move" in err
    assert not (tmp_path / "bad.txt").exists() and not (tmp_path / "bad.txt.part").exists()


def test_markup_in_names_and_paths_is_printed_as_text(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    ggf = "(;GM[Othello]PB[x[/b\\]]PW[y]B[F5];)\n"  # the exact name: PB[x[/b\]]
    (tmp_path / "one.ggf").write_text(ggf)
    assert main(["show", str(tmp_path / "one.ggf")]) == 0
    assert "Black: x[/b]" in capsys.readouterr().out
    (tmp_path / "two.ggf").write_text(ggf * 2)
    assert main(["show", str(tmp_path / "two.ggf")]) == 0
    assert "x[/b]" in capsys.readouterr().out
    folder = tmp_path / "["  # the exact path: '[/x].ggf'
    folder.mkdir()
    (folder / "x].ggf").write_text(ggf)
    monkeypatch.chdir(tmp_path)
    assert main(["show", "[/x].ggf"]) == 0
    assert "ggf from [/x].ggf" in capsys.readouterr().out
    wtb = tmp_path / "games.wtb"  # a WTHOR player file holding [/b]
    wtb.write_bytes(write_wtb([WthorGame.from_game(random_game(s), black=1, white=0) for s in range(2)]))
    (tmp_path / "WTHOR.JOU").write_bytes(write_names(["[/b]", "[bold]al"], 20))
    assert main(["show", str(wtb)]) == 0
    out = capsys.readouterr().out
    assert "[/b]" in out and "[bold]al" in out
    assert main(["show", str(tmp_path / "WTHOR.JOU")]) == 0
    assert "[/b]" in capsys.readouterr().out


def test_fuzzed_files_meet_a_clean_error(tmp_path: Path) -> None:
    """The short run of tools/fuzz_formats.py: mutated files of every format, each a clean result or one
    located error line, never a traceback."""
    sys.path.insert(0, str(TOOLS))
    try:
        import fuzz_formats
    finally:
        sys.path.remove(str(TOOLS))
    report = fuzz_formats.run(files=300, seed=7, folder=tmp_path)
    assert report["files"] == 300 and report["crashes"] == [], report["crashes"][:3]
    assert report["errors"] > 0 and report["read"] > 0
    assert os.listdir(tmp_path)  # the mutated files are kept for a person to look at
