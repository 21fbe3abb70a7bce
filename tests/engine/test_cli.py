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
