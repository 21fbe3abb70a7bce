"""The seeds' trees solved by the traced textbook search: values, pruned sets, visit order, α/β, by hand."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.game import PliesError
from plies.games import OthelloState, TicTacToeState
from plies.games.tree import TreeState
from plies.heuristics import get
from plies.search import alphabeta, minimax
from plies.teach import solve_tree, trace_search
from plies.teach.examples import DOC000_EXAMPLE, DOC002_EXERCISE

DOC000 = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


def labels(trace, paths):
    return [trace.nodes[tuple(p)].label for p in paths]


@pytest.mark.parametrize("tree", [DOC000, DOC000_EXAMPLE])
def test_doc000_example(tree) -> None:
    t = solve_tree(tree)
    assert t.value == 3
    assert t.best_index == 0
    assert t.best == (0 if isinstance(tree, list) else "B")
    assert [list(p) for p in t.pruned] == [[1, 1], [1, 2]]     # the 2nd and 3rd leaves of C
    assert t.leaves_evaluated == 7
    assert t.consistent
    c = t.nodes[(1,)]
    assert (c.entry_alpha, c.entry_beta, c.value, c.bound, c.cutoff) == (3, math.inf, 2, "≤", "alpha")
    assert (c.alpha, c.beta) == (3, 2)                        # it ends with α ≥ β: the lab notes' cut-off
    # hand-checked visit order: A B b1 b2 b3 C c1 D d1 d2 d3
    assert [n.path for n in t.visit_order()] == [(), (0,), (0, 0), (0, 1), (0, 2), (1,), (1, 0), (2,), (2, 0),
                                                 (2, 1), (2, 2)]
    # β at B falls to 3 after its first leaf; D's window narrows 14 then 5
    assert [t.nodes[p].beta for p in [(0, 1), (0, 2), (2, 1), (2, 2)]] == [3, 3, 14, 5]
    assert [(t.nodes[p].alpha, t.nodes[p].beta) for p in [(), (0,), (2,)]] == [(3, math.inf), (-math.inf, 3), (3, 2)]


def test_doc000_steps_hand_checked() -> None:
    t = solve_tree(DOC000_EXAMPLE)
    kinds = [s.kind for s in t.steps]
    assert kinds == ["enter", "enter", "leaf", "leaf", "leaf", "exit", "enter", "leaf", "alpha-cutoff", "exit",
                     "enter", "leaf", "leaf", "leaf", "alpha-cutoff", "exit", "exit"]
    cut = t.steps[8]
    assert cut.text.startswith("α cut-off at C: α=3 ≥ β=2")
    assert t.steps[7].text == "Leaf [1,0] = 2 → C (MIN): best 2, β=2"      # the bound first, then the cut-off
    assert [list(p) for p in cut.pruned] == [[1, 1], [1, 2]]
    assert t.steps[-1].text.endswith("MAX chooses B (move a1)")


def test_doc002_exercise_hand_checked() -> None:
    t = solve_tree(DOC002_EXERCISE)
    assert t.value == 8 and t.best == "δ"
    assert labels(t, t.pruned) == ["ιδ", "η"]
    assert [list(p) for p in t.pruned] == [[0, 1, 1], [1, 1]]
    never = sorted(n.label for n in t.nodes.values() if not n.visited)
    assert never == sorted(["ιδ", "η", "ιστ", "ιζ"])
    assert t.leaves_evaluated == 6
    values = {n.label: n.value_text() for n in t.nodes.values() if n.visited and not n.leaf}
    assert values == {"α": "8", "β": "6", "γ": "≤3", "δ": "8", "ε": "6", "στ": "≥7", "ζ": "3", "θ": "8", "ι": "9"}
    assert [n.label for n in t.visit_order()] == ["α", "β", "ε", "ια", "ιβ", "στ", "ιγ", "γ", "ζ", "ιε", "δ", "θ",
                                                  "ιη", "ι", "ιθ"]
    assert [t.nodes[p].label for p in t.pv] == ["δ", "θ", "ιη"]
    assert t.consistent


def test_minimax_sees_everything() -> None:
    t = solve_tree(DOC002_EXERCISE, "minimax")
    assert t.value == 8 and t.best == "δ" and not t.pruned and t.leaves_evaluated == 9
    assert all(n.alpha is None for n in t.nodes.values())
    assert all(s.kind in ("enter", "leaf", "exit") for s in t.steps)


def test_orders() -> None:
    best = solve_tree(DOC000, order="best")
    assert best.value == 3 and best.best == 0 and best.leaves_evaluated == 5
    assert sorted(map(list, best.pruned)) == [[1, 1], [1, 2], [2, 0], [2, 1]]
    right = solve_tree(DOC000, order="right")
    assert right.value == 3 and right.best == 0 and right.pruned == [] and right.leaves_evaluated == 9
    with pytest.raises(PliesError):
        solve_tree(DOC000, order="sideways")
    assert solve_tree(DOC000, "minimax", order="best").order == "left"     # minimax has no move ordering


def test_bad_leaves() -> None:
    with pytest.raises(PliesError, match="finite"):
        solve_tree([[1, float("nan")], [2]])


trees = st.recursive(st.integers(-20, 20), lambda kids: st.lists(kids, min_size=1, max_size=3), max_leaves=18)


@settings(max_examples=60, deadline=None)
@given(trees)
def test_value_independent_of_algorithm_and_order(tree) -> None:
    if not isinstance(tree, list):
        tree = [tree]
    ref = solve_tree(tree, "minimax")
    state = TreeState(tree)
    plain = alphabeta(state, 50, get("tree", "leaf"))
    for order in ("left", "right", "best"):
        t = solve_tree(tree, "alphabeta", order)
        assert t.value == ref.value == plain.value
        assert t.consistent
        assert t.nodes[(t.best_index,)].value == ref.value            # the chosen child has the root's value
        assert t.leaves_evaluated <= ref.leaves_evaluated
    left = solve_tree(tree)
    assert left.leaves_evaluated == plain.stats.leaves and left.best_index == plain.move


def _set_leaves_under(tree, prefix, value):
    """A copy of ``tree`` with every leaf below path ``prefix`` set to ``value``."""
    def walk(node, path):
        if not isinstance(node, list):
            return value if path[: len(prefix)] == prefix else node
        return [walk(c, path + (i,)) for i, c in enumerate(node)]
    return walk(tree, ())


@settings(max_examples=60, deadline=None)
@given(trees, st.sampled_from([-1000, 1000]))
def test_pruned_leaves_never_matter(tree, extreme) -> None:
    """Whatever the never-examined leaves hold, alpha-beta's answer is the same: the pruned set is right."""
    if not isinstance(tree, list):
        tree = [tree]
    t = solve_tree(tree)
    for p in t.pruned:
        changed = _set_leaves_under(tree, p, extreme)
        u = solve_tree(changed)
        assert (u.value, u.best_index, u.pruned) == (t.value, t.best_index, t.pruned)
        assert solve_tree(changed, "minimax").value == t.value            # and minimax agrees


def test_doc002_slide() -> None:
    from plies.teach.examples import DOC002_SLIDE

    t = solve_tree(DOC002_SLIDE)
    assert (t.value, t.best, [list(p) for p in t.pruned]) == (4, 0, [[1, 2]])


def test_real_positions_match_the_search() -> None:
    o = OthelloState.start()
    h = get("othello")
    t = trace_search(o, 2, h)
    r = alphabeta(o, 2, h)
    assert (t.value, t.nodes[t.pv[0]].move) == (r.value, o.move_str(r.move))
    assert t.leaves_evaluated == r.stats.leaves
    x = TicTacToeState.from_text("XO.X.O...X")
    th = get("tictactoe")
    t = trace_search(x, 3, th, "minimax")
    assert t.value == minimax(x, 3, th).value
    assert all(n.move for p, n in t.nodes.items() if p)


def test_node_limit() -> None:
    with pytest.raises(PliesError, match="more than 50 nodes"):
        trace_search(TicTacToeState.start(), 4, get("tictactoe"), "minimax", max_nodes=50)
