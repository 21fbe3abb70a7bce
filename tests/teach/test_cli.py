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
    assert "α cut-off at C: α=3 ≥ β=2" in out and "MAX chooses B (move a1)" in out


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
    (["tree", "quiz", "--shape", "3"], "not a tree shape"),
    (["tree", "quiz", "--shape", "7x2"], "branching"),
    (["tree", "quiz", "--values", "9..1"], "lowest value"),
    (["tree", "quiz", "--ask", "colour"], "unknown question"),
    (["tree", "quiz", "--answer", "value"], "KIND=TEXT"),
    (["tree", "quiz", "--algo", "minimax", "--ask", "pruned"], "prunes nothing"),
    (["tree", "solve", "doc000", "--svg", "t.bmp"], "cannot draw"),
])
def test_errors_are_one_line(capsys, argv, message) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1


def test_show_othello(capsys, tmp_path) -> None:
    svg = tmp_path / "o.svg"
    code, out, _ = run(capsys, "tree", "show", "othello", "--depth", "2", "--svg", str(svg), "--json")
    d = json.loads(out[out.index("{"):])
    assert code == 0 and d["best"] in ("d3", "c4", "f5", "e6")
    assert svg.read_text(encoding="utf-8").count('class="node ') == len(d["nodes"])


def test_show_hexthello_png(capsys, tmp_path) -> None:
    png = tmp_path / "h.png"
    code, out, _ = run(capsys, "tree", "show", "hexthello", "--depth", "1", "--png", str(png))
    assert code == 0 and png.read_bytes()[:4] == b"\x89PNG" and "MAX chooses" in out


def test_graphviz_engine_without_dot_is_one_line(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    code, _, err = run(capsys, "tree", "solve", "doc000", "--svg", str(tmp_path / "t.svg"), "--engine", "graphviz")
    assert code == 2 and "graphviz's 'dot' program is not installed" in err and len(err.strip().splitlines()) == 1


@needs_dot
def test_graphviz_engine_with_dot(capsys, tmp_path) -> None:
    svg = tmp_path / "t.svg"
    code, _, _ = run(capsys, "tree", "solve", "doc000", "--svg", str(svg), "--engine", "graphviz")
    assert code == 0 and "<svg" in svg.read_text(encoding="utf-8")


def test_quiz_json_worksheet_is_reproducible(capsys) -> None:
    _, out1, _ = run(capsys, "tree", "quiz", "--seed", "4", "--shape", "2x3", "--json")
    _, out2, _ = run(capsys, "tree", "quiz", "--seed", "4", "--shape", "2x3", "--json")
    d = json.loads(out1)
    assert out1 == out2 and d["seed"] == 4 and d["shape"] == "2x3"
    assert [q["kind"] for q in d["questions"]] == ["value", "move", "order", "pruned"]
    # the answers are the textbook search's
    from plies.teach import solve_tree

    t = solve_tree(d["tree"])
    answers = {q["kind"]: q["answer"] for q in d["questions"]}
    assert answers["value"] == f"{t.value:g}" and answers["move"] == t.best
    assert answers["order"].split() == [n.label for n in t.visit_order() if n.leaf]


def test_quiz_checks_given_answers(capsys) -> None:
    _, out, _ = run(capsys, "tree", "quiz", "--seed", "7", "--json")
    answers = {q["kind"]: q["answer"] for q in json.loads(out)["questions"]}
    code, out, _ = run(capsys, "tree", "quiz", "--seed", "7", "--json", "--answer", f"value={answers['value']}",
                       "--answer", "pruned=none")
    results = {r["kind"]: r for r in json.loads(out)["results"]}
    assert code == 0 and results["value"]["correct"] and not results["pruned"]["correct"]
    assert results["pruned"]["expected"] == answers["pruned"]
    code, out, _ = run(capsys, "tree", "quiz", "--seed", "7", "--answer", f"move={answers['move']}")
    assert code == 0 and "✓ right" in out and "1 of 1 right" in out


def test_quiz_interactive(capsys, monkeypatch) -> None:
    import io

    from plies.teach.quiz import make_quiz

    q = make_quiz(9, "3x2")
    answers = [x.answer for x in q.questions]
    answers[2] = "A B C"                                          # a wrong visit order
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    code, out, _ = run(capsys, "tree", "quiz", "--seed", "9")
    assert code == 0 and "3 of 4 right" in out and out.count("✓ right") == 3 and "✗ wrong" in out
    assert "--solution" in out


def test_quiz_solution_count_and_pictures(capsys, tmp_path) -> None:
    code, out, _ = run(capsys, "tree", "quiz", "--seed", "2", "--count", "3", "--shape", "2x2")
    assert code == 0 and out.count("Exercise ") == 3 and "--solution" in out
    code, out, _ = run(capsys, "tree", "quiz", "--seed", "2", "--solution", "--svg", str(tmp_path / "q.svg"),
                       "--key", str(tmp_path / "k.png"))
    assert code == 0 and "Steps:" in out and "chooses" in out
    q = (tmp_path / "q.svg").read_text(encoding="utf-8")
    assert q.count('class="node ') == 13 and "cross" not in q                     # the exercise: no answer in it
    assert (tmp_path / "k.png").read_bytes()[:4] == b"\x89PNG"


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
    assert code == 0 and "corner at ply 2, just past the horizon of depth 1" in out and "Depth 3" in out
