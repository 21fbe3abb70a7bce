"""Random exercises: reproducible by seed, answers computed by the textbook search, checks that say why."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.game import ParseError
from plies.teach import solve_tree
from plies.teach.quiz import KINDS, make_quiz, name, parse_shape, parse_values


def test_names() -> None:
    assert [name(k) for k in (0, 1, 25, 26, 27, 51, 52)] == ["A", "B", "Z", "AA", "AB", "AZ", "BA"]


def test_shapes_and_values() -> None:
    s = parse_shape("2-3x3")
    assert (s.low, s.high, s.depth, s.text) == (2, 3, 3, "2-3x3")
    assert parse_shape(" 3 x 2 ").text == "3x2"
    assert parse_values("-9..9") == (-9, 9) and parse_values("0:20") == (0, 20) and parse_values("0-20") == (0, 20)
    for bad in ("", "3", "0x2", "3x0", "3x6", "6x4", "1x3", "2-1x2"):
        with pytest.raises(ParseError):
            parse_shape(bad)
    for bad in ("9..1", "a..b", "0..99999"):
        with pytest.raises(ParseError):
            parse_values(bad)


def test_same_seed_same_exercise() -> None:
    a, b = make_quiz(42, "3x3"), make_quiz(42, "3x3")
    assert a.tree == b.tree and [q.answer for q in a.questions] == [q.answer for q in b.questions]
    assert make_quiz(43, "3x3").tree != a.tree
    assert isinstance(make_quiz(None).seed, int)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["2x2", "3x2", "2x3", "2-3x3", "3x3", "2-4x2"]))
def test_answers_are_the_searchs(seed, shape) -> None:
    q = make_quiz(seed, shape)
    t = solve_tree(q.tree)
    assert t.pruned, "an alpha-beta exercise always has something to prune"
    leaves = [n.label for n in sorted(t.nodes.values(), key=lambda n: n.path) if n.leaf]
    evaluated = [n.label for n in t.visit_order() if n.leaf]
    for kind in KINDS:
        assert q.check(kind, q.question(kind).answer).correct, kind
    assert q.question("order").answer.split() == evaluated
    assert set(q.question("pruned").answer.split()) == set(leaves) - set(evaluated)
    assert float(q.question("value").answer) == t.value == solve_tree(q.tree, "minimax").value


def test_checks_say_why() -> None:
    q = make_quiz(7, "3x2")                      # A: B(E -2, F -7, G 8) C(H 4, I -8, J 9) D(K -6, L -2, M 9)
    assert q.question("pruned").answer == "J" and q.question("value").answer == "-6"
    r = q.check("pruned", "none")
    assert not r.correct and "J is pruned too" in r.feedback and "α cut-off at C" in r.feedback
    r = q.check("pruned", "j k")
    assert not r.correct and "K is evaluated" in r.feedback
    assert q.check("pruned", "J").correct
    assert q.check("order", "EFGHIKLM").correct and q.check("order", "e, f, g, h, i, k, l, m").correct
    r = q.check("order", "E F G H I J K L M")
    assert not r.correct and "J is never evaluated" in r.feedback
    r = q.check("order", "F E G H I K L M")
    assert not r.correct and "wrong order" in r.feedback
    r = q.check("order", "E F Q")
    assert not r.correct and "Q is not a leaf" in r.feedback
    assert q.check("value", "−6").correct and q.check("value", "-6.0").correct
    r = q.check("value", "three")
    assert not r.correct and "write a number" in r.feedback
    assert q.check("move", "d").correct
    assert "answer with a child of A" in q.check("move", "Q").feedback
    assert not q.check("move", "B").correct


def test_minimax_exercises_ask_no_pruned_question() -> None:
    q = make_quiz(3, "2x2", algorithm="minimax")
    assert [x.kind for x in q.questions] == ["value", "move", "order"]
    assert len(q.question("order").answer.split()) == 4
    with pytest.raises(ParseError, match="asks no 'pruned' question"):
        q.check("pruned", "none")
    with pytest.raises(ParseError, match="unknown question"):
        make_quiz(3, ask=["colour"])


def test_text_tree_and_dict() -> None:
    q = make_quiz(7, "3x2", values=(0, 20))
    text = q.text_tree()
    assert text.splitlines()[0] == "A (MAX)" and "├── B (MIN)" in text and "└── D (MIN)" in text
    d = q.to_dict(answers=False)
    assert d["values"] == [0, 20] and all("answer" not in x for x in d["questions"])
    assert all(0 <= n.given <= 20 for n in q.trace.nodes.values() if n.leaf)
