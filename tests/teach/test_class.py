"""A class's exercises: worksheets per student from a seed (the same seed, the same sheets; no two students the
same), their answer key, a mark sheet from a batch of JSON answers (bad files never stop it), and notebooks split
into exercise versions (answers hidden, checked on request) and solution versions from one source."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET

import pytest

from plies.cli import main
from plies.heuristics import get
from plies.search import alphabeta
from plies.teach import answers, notebooks, worksheet

SVG_NS = "{http://www.w3.org/2000/svg}"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_sheets_are_reproducible_and_personal() -> None:
    a = worksheet.make_sheet("anna", 7)
    assert a.to_dict() == worksheet.make_sheet("anna", 7).to_dict()
    others = [worksheet.make_sheet(n, 7).to_dict()["exercises"] for n in ("bob", "chloe")]
    assert all(o != a.to_dict()["exercises"] for o in others)
    assert worksheet.make_sheet("anna", 8).to_dict()["exercises"] != a.to_dict()["exercises"]
    kinds = [e.kind for e in a.exercises]
    assert kinds == ["tree", "tree", "tictactoe", "othello"]
    assert [i.id for i in a.items][:4] == ["1.value", "1.move", "1.order", "1.pruned"]


def test_the_key_is_what_the_searches_say() -> None:
    for student in ("anna", "bob", "chloe", "dimitris"):
        sheet = worksheet.make_sheet(student, 11)
        for ex in sheet.exercises:
            answers_ = {i.kind: i.answer for i in ex.items}
            if ex.kind == "tree":
                q = ex.quiz()
                assert all(q.check(k, v).correct for k, v in answers_.items())
            elif ex.kind == "tictactoe":
                s = ex.state()
                assert not s.is_over()
                assert float(answers_["eval"]) == get("tictactoe", "open-lines")(s, 0)
                v = alphabeta(s, 9, get("tictactoe", "win-loss")).value
                want = {1: "+1", 0: "0", -1: "−1"}[(v > 0) - (v < 0)] if s.to_move == 0 else \
                    {1: "−1", 0: "0", -1: "+1"}[(v > 0) - (v < 0)]
                assert answers_["result"] == want
            else:
                s = ex.state()
                assert sorted(answers_["moves"].split()) == sorted(s.move_str(m) for m in s.legal_moves())
                me = s.to_move
                discs = {s.move_str(m): s.play(m).counts()[me] for m in s.legal_moves()}
                best = max(discs.values())
                assert [m for m, c in discs.items() if c == best] == [answers_["greedy"]]


def test_pages_hide_the_answers_and_the_key_shows_them() -> None:
    sheet = worksheet.make_sheet("anna", 3)
    for ex, page, key in zip(sheet.exercises, worksheet.pages(sheet), worksheet.pages(sheet, key=True), strict=True):
        assert (page.width, page.height) == (worksheet.PAGE_W, worksheet.PAGE_H)
        blank = ET.fromstring(page.to_svg())
        solved = ET.fromstring(key.to_svg())
        shown = [t.text for t in solved.iter(SVG_NS + "text") if t.get("class") == "answer"]
        assert shown and all(t.get("class") != "answer" for t in blank.iter(SVG_NS + "text"))
        assert " ".join(shown).split() == " ".join(i.answer for i in ex.items).split()
        if ex.kind == "othello":                    # no legal-move dots on the student's board
            assert not any("legal" in (c.get("class") or "") for c in blank.iter(SVG_NS + "circle"))
        if ex.kind == "tree":                       # the student's tree has no values above the leaves
            values = [t.text for t in blank.iter(SVG_NS + "text") if t.get("class") == "value"]
            leaves = ex.quiz().leaves
            assert len(values) == len(leaves)


def test_write_and_mark_a_class(tmp_path, capsys) -> None:
    roster = tmp_path / "roster.csv"
    roster.write_text("name,group\nAnna Papadopoulou,1\nΝίκος Κ.,1\nBob,2\n\n# left early\n", encoding="utf-8")
    out = tmp_path / "class"
    code, _, err = run(capsys, "class", "worksheets", "--students", str(roster), "--seed", "2024", "--out", str(out),
                       "--format", "html,svg")
    assert code == 0, err
    key = json.loads((out / "key.json").read_text(encoding="utf-8"))
    assert [s["student"] for s in key["sheets"]] == ["Anna Papadopoulou", "Νίκος Κ.", "Bob"]
    assert (out / "sheets" / "Νίκος_Κ.html").exists() and (out / "key" / "Bob-key-4.svg").exists()
    sheet_html = (out / "sheets" / "Bob.html").read_text(encoding="utf-8")
    key_html = (out / "key" / "Bob-key.html").read_text(encoding="utf-8")
    bob = key["sheets"][2]
    greedy = next(i for e in bob["exercises"] for i in e["items"] if i["kind"] == "greedy")
    assert f">{greedy['answer']}</div>" in key_html and f">{greedy['answer']}</div>" not in sheet_html
    # Anna answers all right but one (the moves in another order count); Νίκος leaves the template empty;
    # Bob has one right; a broken file and a stranger are noted, and nothing stops
    anna = key["sheets"][0]
    given = {i["id"]: i["answer"] for e in anna["exercises"] for i in e["items"]}
    given["1.order"] = "nonsense"
    moves = next(i["id"] for e in anna["exercises"] for i in e["items"] if i["kind"] == "moves")
    given[moves] = ", ".join(reversed(given[moves].split()))
    answers_dir = out / "answers"
    (answers_dir / "Anna_Papadopoulou.json").write_text(json.dumps({"student": anna["student"], "answers": given}),
                                                        encoding="utf-8")
    first = bob["exercises"][0]["items"][0]
    (answers_dir / "Bob.json").write_text(json.dumps({"student": "Bob", "answers": {first["id"]: first["answer"]}}),
                                          encoding="utf-8")
    (answers_dir / "broken.json").write_text('{"student": ', encoding="utf-8")
    (answers_dir / "zoe.json").write_text('{"student": "Zoe", "answers": {}}', encoding="utf-8")
    sheet_csv, details = tmp_path / "marks.csv", tmp_path / "details.csv"
    code, out_text, err = run(capsys, "class", "mark", str(out / "key.json"), str(answers_dir), "--csv",
                              str(sheet_csv), "--details", str(details))
    assert code == 0, err
    rows = {r["student"]: r for r in csv.DictReader(io.StringIO(sheet_csv.read_text(encoding="utf-8")))}
    total = len(given)
    assert rows["Anna Papadopoulou"]["right"] == str(total - 1) and rows["Anna Papadopoulou"]["1.order"] == "0"
    assert rows["Anna Papadopoulou"][moves] == "1"
    assert rows["Νίκος Κ."]["right"] == "0" and rows["Bob"]["right"] == "1"
    assert rows["Zoe"]["note"] == "no such student in the key" and rows["?"]["note"].startswith("unreadable")
    why = {(r["student"], r["question"]): r for r in csv.DictReader(io.StringIO(details.read_text(encoding="utf-8")))}
    assert why[("Anna Papadopoulou", "1.order")]["feedback"] and why[("Νίκος Κ.", "1.value")]["feedback"] == \
        "not answered"
    assert "2 of 3 students answered" in out_text


@pytest.mark.parametrize(("argv", "words"), [
    (["class", "worksheets", "--seed", "1", "--out", "x"], "--students FILE or --count N"),
    (["class", "worksheets", "--count", "2", "--seed", "1", "--out", "x", "--format", "docx"], "unknown worksheet"),
    (["class", "worksheets", "--students", "nowhere.txt", "--seed", "1", "--out", "x"], "cannot read"),
    (["class", "mark", "nowhere.json", "a.json"], "cannot read"),
    (["class", "notebooks", "README.md", "--out", "x"], "not a notebook"),
])
def test_bad_input_is_one_line(capsys, tmp_path, monkeypatch, argv, words) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "README.md").write_text("# not a notebook", encoding="utf-8")
    code, _, err = run(capsys, *argv)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1


def test_roster_and_file_names() -> None:
    assert worksheet.read_roster("# class A\nAnna\n\nBob,extra\n") == ["Anna", "Bob"]
    with pytest.raises(Exception, match="twice"):
        worksheet.read_roster("Anna\nAnna\n")
    assert worksheet.file_stem("Anna Papadopoulou") == "Anna_Papadopoulou"
    assert worksheet.file_stem("../../etc") == "etc" and worksheet.file_stem("///") == "student"


def test_answers_are_checked_by_digest() -> None:
    key = answers.make_key({"value": 3, "move": "B", "pruned": ["F", "G"]}, any_order=["pruned"])
    assert all(len(d) == 20 and int(d, 16) >= 0 for _, d in key.values())      # only digests: no answer in it
    assert answers.check({"value": "3.0", "move": "b", "pruned": "g, f"}, key, quiet=True).all_right
    result = answers.check({"value": -3, "move": ...}, key, quiet=True)
    assert result.verdicts == {"value": "wrong", "move": "missing", "pruned": "missing"} and not result
    assert answers.normal("−2") == "-2" and answers.normal(2.0) == "2" and answers.normal(" F  G ") == "f g"


SOURCE = {
    "cells": [
        {"cell_type": "markdown", "id": "a", "metadata": {}, "source": "# A lesson"},
        {"cell_type": "markdown", "id": "b", "metadata": {"tags": ["exercise-only"]}, "source": "Answer below."},
        {"cell_type": "code", "id": "c", "metadata": {"tags": ["solution"],
                                                     "plies": {"answers": {"value": 3, "leaves": [4, 6]},
                                                               "any_order": ["leaves"]}},
         "execution_count": None, "outputs": [], "source": "# the value and the pruned leaves\nvalue = 1 + 2\n"
                                                             "leaves = [6, 4]"},
        {"cell_type": "code", "id": "d", "metadata": {"tags": ["solution"]}, "execution_count": None,
         "outputs": [], "source": "print('the answer is', value)"},
        {"cell_type": "code", "id": "e", "metadata": {}, "execution_count": None, "outputs": [],
         "source": "print('shared')"},
    ],
    "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
}


def _run_cells(nb: dict) -> dict:
    scope: dict = {}
    for c in nb["cells"]:
        if c["cell_type"] == "code":
            exec("".join(c["source"]), scope)
    return scope


def test_split_hides_the_answers(capsys) -> None:
    exercise, solution = notebooks.split(SOURCE)
    ex_text = json.dumps(exercise)
    assert "1 + 2" not in ex_text and "the answer is" not in ex_text and "[6, 4]" not in ex_text
    assert "Answer below." in ex_text and "Answer below." not in json.dumps(solution)
    stub = next(c for c in exercise["cells"] if c["id"] == "c-stub")
    assert stub["source"].splitlines() == ["# the value and the pruned leaves", "value = ...  # your answer",
                                           "leaves = ...  # your answer"]
    _run_cells(exercise)                                       # runs: nothing answered yet
    assert "value: — not answered yet" in capsys.readouterr().out
    scope = _run_cells(solution)                               # the solution passes its own check
    assert scope["value"] == 3 and "2 of 2 right" in capsys.readouterr().out
    wrong = json.loads(json.dumps(SOURCE))
    wrong["cells"][2]["metadata"]["plies"]["answers"]["value"] = 4
    with pytest.raises(AssertionError):                        # a key that disagrees with the solution is caught
        _run_cells(notebooks.split(wrong)[1])
    with pytest.raises(Exception, match="asks nothing"):
        notebooks.split({"cells": [], "nbformat": 4})


def test_the_shipped_exercise_versions_are_current() -> None:
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs" / "notebooks"
    sources = [p for p in sorted(docs.glob("*.ipynb")) if notebooks.asks(notebooks.read(p))]
    assert len(sources) >= 6
    for p in sources:
        for folder, version in zip(("exercises", "solutions"), notebooks.split(notebooks.read(p)), strict=True):
            shipped = docs / folder / p.name
            hint = "run: plies class notebooks docs/notebooks/*.ipynb --out docs/notebooks"
            assert shipped.exists() and json.loads(shipped.read_text(encoding="utf-8")) == version, hint
