"""What ``show``, ``convert`` and ``review`` read: a FIFO or a device is read (never taken for a transcript spelled
like its path), and ``show --json`` puts one whole JSON object on stdout or nothing."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from plies.cli import main
from plies.cli.play import read_game
from plies.formats.stream import SMALL
from plies.formats.wthor import GAME_SIZE, HEADER_SIZE, WthorGame, write_wtb
from plies.games.othello import OthelloState

from .conftest import random_game

pytestmark = [pytest.mark.timeout(120), pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")]
TRANSCRIPT = "f5d6c3d3c4"


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    """A FIFO that a thread fills with ``TRANSCRIPT`` once a reader opens it (as a shell's ``<(echo ...)``)."""
    path = tmp_path / "z"
    os.mkfifo(path)

    def write() -> None:
        with open(path, "w") as f:
            f.write(TRANSCRIPT + "\n")

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    yield path
    # Let a writer still waiting for a reader go.  A non-blocking open never waits: a blocking one would hang when
    # the test has read the FIFO and the writer, about to finish, still looks alive (no second writer comes).
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        writer.join(10)
    finally:
        os.close(fd)


def test_show_reads_a_fifo(fifo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", str(fifo), "--json"]) == 0, capsys.readouterr().err
    data = json.loads(capsys.readouterr().out)
    assert data["games"][0]["moves"] == ["f5", "d6", "c3", "d3", "c4"] and data["source"] == str(fifo)


def test_convert_reads_a_fifo(fifo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.ggf"
    assert main(["convert", str(fifo), str(out)]) == 0, capsys.readouterr().err
    assert "B[F5]" in out.read_text()


def test_review_reads_its_game_from_a_fifo(fifo: Path) -> None:
    start, moves = read_game(str(fifo))
    assert start == OthelloState.start() and len(moves) == 5


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero and /dev/null")
def test_devices_are_read_too(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["show", "/dev/null"])
    err = capsys.readouterr().err
    assert "not a move" not in err and "'/dev/null'" not in err
    assert code in (0, 2) and err.count("\n") <= 1
    assert main(["show", "/dev/zero"]) == 2  # endless: refused at its first long line, one line
    err = capsys.readouterr().err
    assert err.startswith("plies: error: ") and err.count("\n") == 1 and "longer than" in err
    assert main(["review", "/dev/zero"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("plies: error: ") and err.count("\n") == 1 and "not a move" not in err


def test_a_bad_record_in_a_big_wtb_leaves_no_partial_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    games = [WthorGame.from_game(random_game(s)) for s in range(20)]
    count = SMALL // GAME_SIZE + 100  # over SMALL: the file is streamed, a record at a time
    data = bytearray(write_wtb([games[i % 20] for i in range(count)]))
    data[HEADER_SIZE + GAME_SIZE + 8] = 99  # the second game's first move: byte 99 is no square
    path = tmp_path / "big.wtb"
    path.write_bytes(bytes(data))
    assert main(["show", str(path), "--json", "--limit", "2"]) == 2
    out, err = capsys.readouterr()
    assert out == "", out[:200]
    assert err.startswith("plies: error: ") and "game 2" in err and "move byte 99" in err and err.count("\n") == 1
    assert main(["show", str(path), "--json", "--limit", "1"]) == 0  # the good first game alone is fine
    assert json.loads(capsys.readouterr().out)["games"][0]["moves"] == random_game(0).move_names()


def test_a_missing_path_is_no_such_file(capsys: pytest.CaptureFixture[str]) -> None:
    for arg in ("/dev/z", "./nothere", "../nothere"):
        assert main(["show", arg]) == 2
        assert capsys.readouterr().err == f"plies: error: no such file: {arg}\n"
