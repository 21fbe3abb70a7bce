"""``plies analyse``, ``plies solve``, ``plies bench``, ``plies levels`` through the CLI entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from plies.cli import main
from plies.game import WIN
from plies.heuristics import get
from plies.search import alphabeta

from .conftest import positions_with_empties


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    capsys.readouterr()
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_analyse_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, ["analyse", "othello", "--depth", "4", "--json"])
    for key in ("score", "move", "pv", "nodes", "seconds", "depth", "exact"):
        assert key in out
    assert out["depth"] == 4 and out["exact"] is False and out["pv"][0] == out["move"]


def test_analyse_exact_and_multipv(capsys: pytest.CaptureFixture[str]) -> None:
    s = positions_with_empties(81, 1, 9)[0]
    v = alphabeta(s, 20, get("othello", "discs")).value
    expected = int(v - WIN) if v > 0 else int(v + WIN) if v < 0 else 0
    out = _json(capsys, ["analyse", s.to_text(), "--exact", "--multipv", "2", "--json"])
    assert out["exact"] is True and out["score"] == expected
    assert len(out["lines"]) == min(2, len(s.legal_moves()))


def test_analyse_wld_json(capsys: pytest.CaptureFixture[str]) -> None:
    """``--wld``: score and value -1, 0 or +1 with the sign of the exact score, in the unit ``win/draw/loss``."""
    for s in positions_with_empties(83, 3, 10):
        v = alphabeta(s, 22, get("othello", "discs")).value
        out = _json(capsys, ["analyse", s.to_text(), "--wld", "--json"])
        assert out["unit"] == "win/draw/loss" and out["score"] == out["value"] == (v > 0) - (v < 0)


def test_analyse_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "othello", "--depth", "3"]) == 0
    assert "nodes" in capsys.readouterr().out
    assert main(["analyse", "tictactoe", "--depth", "3"]) == 2
    assert "Othello" in capsys.readouterr().err
    assert main(["analyse", "othello", "--exact"]) == 2
    assert "--time" in capsys.readouterr().err


def test_solve_a_suite_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    h = get("othello", "discs")
    lines = []
    for i, s in enumerate(positions_with_empties(82, 3, 8)):
        v = alphabeta(s, 20, h).value
        score = int(v - WIN) if v > 0 else int(v + WIN) if v < 0 else 0
        board, side = s.to_text().split()
        lines.append(f"{i + 1} {board} {side} {score:+d}")
    suite = tmp_path / "suite.txt"
    suite.write_text("\n".join(lines) + "\n")
    out = _json(capsys, ["solve", str(suite), "--json"])
    assert out["solved"] == out["total"] == 3
    assert main(["solve", str(suite), "--ids", "1-2"]) == 0
    assert "2/2 correct" in capsys.readouterr().out
    bad = tmp_path / "bad.txt"
    bad.write_text("1 XO X +2\n")
    assert main(["solve", str(bad)]) == 2
    assert "bad.txt:1:" in capsys.readouterr().err


def test_bench_perft_and_levels(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, ["bench", "perft", "--depth", "6", "--python-depth", "4", "--json"])
    assert out["leaves"] == 8200 and out["python_leaves"] == 244 and out["ratio"] > 0
    assert main(["levels"]) == 0
    assert "exact from" in capsys.readouterr().out


E62 = "-" * 62


@pytest.mark.parametrize(("argv", "says"), [
    (["analyse", "othello", "--time", "inf"], "not a finite number"),
    (["analyse", "othello", "--time", "nan"], "not a finite number"),
    (["analyse", "othello", "--exact", "--wld"], "not both"),
    (["analyse", "othello", "--exact", "--depth", "3"], "no --depth or --level"),
    (["solve", "ffo", "--ids", ","], "no id in"),
    (["solve", "ffo", "--ids", "40-100000000000"], "too long"),
    (["solve", "ffo:40", "--ids", "41"], "give the ids once"),
    (["match", "random", "random", "--time", "inf"], "not a finite number"),
    (["play", "-1", "engine:level=1,threads=300", "-2", "random"], "engine option threads"),
    (["play", "-1", "engine:time=nan", "-2", "random"], "engine option time"),
    (["nboard", "--time", "nan"], "not a finite number"),
])
def test_bad_engine_options_are_one_line(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Options a search cannot run with (an endless clock, contradictory modes, id lists that name nothing or
    billions) are refused at once in one line, before any search."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(("plies: error:", "Usage:")) and says in err, err


START = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X"  # the opening position: 60 empties


def test_solve_refuses_what_it_cannot_solve_before_solving(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A finished game, an empty suite or a file that is not text: one line, and no row lost to a crash half way
    (the finished game is refused before the position above it is solved)."""
    good = positions_with_empties(84, 1, 6)[0].to_text()
    (tmp_path / "over.txt").write_text(f"1 {good}\n2 XX{E62} O\n")
    (tmp_path / "empty.txt").write_text("% nothing here\n")
    (tmp_path / "binary.txt").write_bytes(b"\xff\xfe\x00garbage\n")
    for name, says in (("over.txt", "the game is over in position #2"), ("empty.txt", "no position to solve"),
                       ("binary.txt", "not a UTF-8 text file")):
        assert main(["solve", str(tmp_path / name)]) == 2, name
        err = capsys.readouterr().err
        assert err.startswith("plies: error:") and says in err and err.count("\n") == 1, err
    assert main(["analyse", f"@{tmp_path / 'binary.txt'}", "--depth", "2"]) == 2
    assert "not a UTF-8 text file" in capsys.readouterr().err
    assert main(["analyse", good, "--depth", "2", "--eval", ""]) == 2  # an empty name is a mistake, not the default
    assert "unknown evaluation ''" in capsys.readouterr().err
    (tmp_path / "deep.txt").write_text(f"1 {good}\n7 {START}\n")
    for args in (["solve", str(tmp_path / "deep.txt")], ["bench", "endgame", str(tmp_path / "deep.txt"), "--ids", "7"],
                 ["solve", str(tmp_path / "deep.txt"), "--max-empties", "20"]):
        assert main(args) == 2, args
        err = capsys.readouterr().err
        assert "position #7 has 60 empties" in err and err.count("\n") == 1, err
        assert ("more than --max-empties 20" if "20" in args else "add --max-empties 60") in err, err
    assert main(["solve", "ffo:"]) == 2  # an empty id list is a mistake, not every position
    assert "no ids after 'ffo:'" in capsys.readouterr().err


def test_solve_exits_1_when_a_result_differs_from_the_suite(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    s = positions_with_empties(85, 1, 8)[0]
    v = alphabeta(s, 20, get("othello", "discs")).value
    score = int(v - WIN) if v > 0 else int(v + WIN) if v < 0 else 0
    board, side = s.to_text().split()
    suite = tmp_path / "suite.txt"
    suite.write_text(f"1 {board} {side} {score:+d}\n2 {board} {side} {score + 2:+d}\n")
    assert main(["solve", str(suite)]) == 1
    captured = capsys.readouterr()
    assert "1/2 correct" in captured.out and "1 of 2 solves differ" in captured.err


def test_analyse_of_a_finished_game_needs_no_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, ["analyse", f"XX{E62} O", "--exact", "--json"])
    assert out["move"] is None and out["score"] == out["value"] == -64 and out["unit"] == "discs"


def test_ctrl_c_stops_a_search_that_had_not_started_yet() -> None:
    """Ctrl-C while the command is still preparing (here 0.3 s before the solve starts): the stop is repeated
    until the work ends, so the solve is stopped as it starts instead of running to its end."""
    import os
    import signal
    import threading
    import time

    from plies.cli.engine import _interruptible
    from plies.engine import Engine

    engine = Engine(hash_mb=8, threads=1)
    s = positions_with_empties(87, 1, 26)[0]  # about half a minute to solve exactly on one thread
    cancel = threading.Event()
    finished = []

    def work() -> None:
        time.sleep(0.3)
        finished.append(engine.analyse(s, exact=True))

    timer = threading.Timer(0.1, lambda: os.kill(os.getpid(), signal.SIGINT))
    t0 = time.perf_counter()
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # also where SIGINT came in ignored
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            _interruptible(engine, work, cancel)
        timer.join()
    finally:
        signal.signal(signal.SIGINT, before)
    assert cancel.is_set() and finished and not finished[0][0].exact  # stopped: the presearch's answer
    assert time.perf_counter() - t0 < 60


def test_a_folder_named_like_a_game_is_not_taken_for_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Only an argument written as a path (with a separator, or . and ..) is read as a folder: a folder called
    'othello' or 'f5d6c3' in the working directory leaves the game name and the transcript alone."""
    for name in ("othello", "f5d6c3"):
        (tmp_path / name).mkdir()
    monkeypatch.chdir(tmp_path)
    assert main(["review", "f5d6c3", "--level", "1", "--json", "--threads", "1"]) == 0
    assert len(json.loads(capsys.readouterr().out)["moves"]) == 3
    assert main(["review", "./f5d6c3"]) == 2
    assert "is a directory" in capsys.readouterr().err


def test_bench_endgame_takes_40_49_of_ffo_and_every_position_of_a_file(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A file whose path holds a colon is a file (only 'ffo:IDS' names ids): all its positions are solved."""
    s = positions_with_empties(88, 1, 6)[0].to_text()
    folder = tmp_path / "a:b"
    folder.mkdir()
    (folder / "suite.txt").write_text(f"1 {s}\n40 {s}\n")
    out = _json(capsys, ["bench", "endgame", str(folder / "suite.txt"), "--json"])
    assert [p["id"] for p in out["positions"]] == [1, 40]
