"""The teaching commands end to end through ``plies.cli.main``: answers, JSON, files, one-line errors."""

from __future__ import annotations

import json
import shutil

import pytest

from plies.cli import main

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="needs graphviz's dot")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_solve_inline_json(capsys) -> None:
    code, out, _ = run(capsys, "tree", "solve", "[[3,12,8],[2,4,6],[14,5,2]]", "--json")
    d = json.loads(out)
    assert code == 0
    assert (d["value"], d["best"], d["pruned"], d["leaves_evaluated"]) == (3, 0, [[1, 1], [1, 2]], 7)


def test_solve_preset_text(capsys) -> None:
    code, out, _ = run(capsys, "tree", "solve", "doc000", "--steps")
    assert code == 0
    assert "α cut-off at C: 2 ≤ α=3" in out and "MAX chooses B" in out


@needs_dot
def test_solve_unicode_file_with_pictures(capsys, tmp_path) -> None:
    from plies.teach.examples import DOC002_EXERCISE

    f = tmp_path / "exercise.json"
    f.write_text(json.dumps(DOC002_EXERCISE, ensure_ascii=False), encoding="utf-8")
    svg, png = tmp_path / "t.svg", tmp_path / "t.png"
    code, out, _ = run(capsys, "tree", "solve", str(f), "--json", "--svg", str(svg), "--png", str(png))
    assert code == 0
    d = json.loads(out[out.index("{"):])
    assert (d["value"], d["best"], d["pruned"]) == (8, "δ", [[0, 1, 1], [1, 1]])
    assert "ιθ" in svg.read_text(encoding="utf-8")
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_minimax_answer_matches(capsys) -> None:
    _, out, _ = run(capsys, "tree", "solve", "doc002", "--algo", "minimax", "--json")
    d = json.loads(out)
    assert (d["value"], d["best"], d["pruned"], d["leaves_evaluated"]) == (8, "δ", [], 9)


@pytest.mark.parametrize("argv, message", [
    (["tree", "solve", "[[3,"], "not a tree"),
    (["tree", "solve", "nofile.json"], "no tree file"),
    (["tree", "solve", "[]"], "at least one child"),
    (["tree", "show", "othello", "--depth", "4", "--algo", "minimax", "--max-nodes", "100"], "more than 100 nodes"),
    (["tree", "show", "tictactoe", "zzz"], "not a move"),
    (["tree", "show", "othello", "zzz"], "Othello position"),
])
def test_errors_are_one_line(capsys, argv, message) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1


@needs_dot
def test_show_othello(capsys, tmp_path) -> None:
    svg = tmp_path / "o.svg"
    code, out, _ = run(capsys, "tree", "show", "othello", "--depth", "2", "--svg", str(svg), "--json")
    d = json.loads(out[out.index("{"):])
    assert code == 0 and d["best"] in ("d3", "c4", "f5", "e6")
    assert svg.read_text(encoding="utf-8").count('class="node') == len(d["nodes"])


def test_show_tictactoe_text(capsys) -> None:
    code, out, _ = run(capsys, "tree", "show", "tictactoe", "XO.X.O...X", "--depth", "2")
    assert code == 0 and "MAX chooses" in out


def test_study_nodes_json_and_plot(capsys, tmp_path) -> None:
    plot = tmp_path / "nodes.svg"
    code, out, _ = run(capsys, "study", "nodes", "--depth", "2", "--positions", "2", "--json", "--plot", str(plot))
    d = json.loads(out)
    assert code == 0 and d["values_agree"] and len(d["rows"]) == 2
    assert plot.read_text().lstrip().startswith("<?xml")


def test_study_horizon_text(capsys) -> None:
    code, out, _ = run(capsys, "study", "horizon", "--positions", "30", "--show", "1")
    assert code == 0 and "corner" in out and "Depth 2" in out
