"""The lessons beyond alpha-beta, traced: iterative deepening with a transposition table (table answers, the
stored move first), quiescence and extensions past the horizon, the slides' +1/−1/0, edges named by their
moves, and wide trees folded to a slide's width."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from plies.draw.tree import SLIDE_WIDTH, TreeNode, fold, tree_scene
from plies.games import OthelloState, TicTacToeState
from plies.heuristics import get
from plies.search import alphabeta
from plies.teach import draw, solve_tree, study, trace_search
from plies.teach.searches import id_tt_alphabeta
from plies.teach.trace import fmt, trace_iterations

SVG_NS = "{http://www.w3.org/2000/svg}"


def classes(svg: str) -> dict[str, set[str]]:
    return {g.get("id"): set((g.get("class") or "").split()) for g in ET.fromstring(svg).iter(SVG_NS + "g")
            if g.get("id")}


def test_iterations_share_a_table() -> None:
    h = get("tictactoe", "open-lines")
    s = TicTacToeState.from_text("XO-X-O---X")
    its = trace_iterations(s, 4, h)
    assert [t.depth for t in its] == [1, 2, 3, 4] and all(t.consistent for t in its)
    # each iteration is alpha-beta to its depth: the same value
    for t in its:
        assert t.value == alphabeta(s, t.depth, h).value
    assert its[-1].value == id_tt_alphabeta(s, 4, h).value
    # iteration 1 finds a3 (a win); from then on the table's best move is searched first
    first = its[0].pv[0]
    for t in its[1:]:
        root_kids = sorted((n for n in t.nodes.values() if len(n.path) == 1 and n.visited), key=lambda n: n.visit)
        assert root_kids[0].path == first and root_kids[0].hint
    hits = [n for n in its[-1].nodes.values() if n.table]
    assert len(hits) == 2 and all(n.value is not None and not any(
        p[: len(n.path)] == n.path and len(p) > len(n.path) for p in its[-1].nodes) for n in hits)
    steps = [st for st in its[-1].steps if st.kind == "table"]
    assert len(steps) == 2 and steps[0].text.startswith("Table: ")
    svg = draw.svg(its[-1])
    cls = classes(svg)
    assert {n.id for n in hits} == {i for i, c in cls.items() if "table" in c and "node" in c}
    assert "from the table" in svg and "2 positions from the table" in svg


def test_quiescence_goes_past_the_horizon() -> None:
    discs = get("othello", "discs")
    cases, _ = study.horizon_cases(study.sample_positions(150, seed=7), 1, 2, "discs", limit=2, progress=False)
    case = cases[1]
    s = case.state
    plain = trace_search(s, 1, discs)
    quiet = trace_search(s, 1, discs, "quiescence", noisy=study.corner_move)
    assert plain.result.move == case.short_move and quiet.result.move == case.remedies[0].move
    assert quiet.consistent and quiet.windowed
    beyond = [n for n in quiet.nodes.values() if len(n.path) > 1]
    assert beyond and all(study.corner_move(quiet.nodes[n.path[:-1]].state, quiet.nodes[n.path[:-1]].state
                                            .legal_moves()[n.path[-1]]) for n in beyond)
    stands = [n for n in quiet.nodes.values() if n.stand is not None]
    assert stands and all(len(n.path) == 1 for n in stands)
    svg = draw.svg(quiet)
    cls = classes(svg)
    assert {i for i, c in cls.items() if "beyond" in c} == {n.id for n in beyond}
    assert "horizon: depth 1" in svg and "stand pat" in svg
    ext = trace_search(s, 1, discs, "extension", threat=study.corner_threat, max_nodes=3000)
    assert ext.result.move == case.remedies[1].move and ext.consistent
    below = (s.legal_moves().index(case.short_move),)
    part = draw.scene(ext, thumbnails=False, under=below)
    ids = {i for i, c in classes(part.to_svg()).items() if "node" in c}
    assert ids == {n.id for p, n in ext.nodes.items() if p[:1] == below}
    with pytest.raises(Exception, match="needs noisy"):
        trace_search(s, 1, discs, "quiescence")


def test_extension_trace_equals_a_deeper_search_when_always_extended() -> None:
    h = get("othello", "discs")
    s = OthelloState.from_transcript("f5d6c3")
    t = trace_search(s, 1, h, "extension", threat=lambda state: True, extension=2)
    assert t.value == alphabeta(s, 3, h).value and t.consistent


def test_slides_utilities_for_tictactoe() -> None:
    end = trace_search(TicTacToeState.from_text("XO.X.O.X.O"), 4, get("tictactoe", "win-loss"))
    assert end.style == "unit"
    texts = {n.value_text() for n in end.nodes.values() if n.value is not None}
    assert texts <= {"+1", "−1", "0", "≤+1", "≥+1", "≤−1", "≥−1", "≤0", "≥0"}
    assert "win by" not in draw.svg(end)
    mixed = trace_search(TicTacToeState.from_text("XO-X-O---X"), 2, get("tictactoe", "open-lines"))
    assert mixed.style == "result" and mixed.fmt(mixed.value) == "win"
    whole = trace_search(TicTacToeState.from_text("XO-X-O---X"), 5, get("tictactoe", "open-lines"), max_nodes=5000)
    assert whole.style == "unit"                           # five empty squares: every leaf is a finished game
    othello = trace_search(OthelloState.start(), 1, get("othello"))
    assert othello.style == "margin"
    assert (fmt(1_000_004), fmt(1_000_001, "unit"), fmt(-1_000_001, "result"), fmt(math.inf)) == \
        ("win by 4", "+1", "loss", "+∞")


def test_edges_carry_moves_and_choices_are_named() -> None:
    t = solve_tree({"label": "A", "children": [{"label": "B", "children": [3, 12, 8]},
                                               {"label": "C", "children": [2, 4, 6]}]})
    assert [t.nodes[p].edge for p in [(0,), (1,), (0, 2)]] == ["a1", "a2", "b3"]
    assert t.best_text == "B (move a1)"
    plain = solve_tree([[1, 2], [8, 9]])
    assert plain.best_text == "the second child, [1]" and plain.nodes[(1, 0)].edge == "0"
    game = trace_search(OthelloState.start(), 1, get("othello"))
    assert sorted(n.edge for n in game.nodes.values() if n.path) == ["c4", "d3", "e6", "f5"]
    greek = solve_tree({"label": "α", "children": [{"label": "β", "value": 1}, {"label": "γ", "value": 2}]})
    assert greek.nodes[(0,)].edge == "" and greek.best_text == "γ"


def test_wide_trees_fold_to_a_slide() -> None:
    nodes = [TreeNode("r", None, "max", name="root")]
    for i in range(12):
        nodes.append(TreeNode(f"r.{i}", "r", "min", value=str(i), note="#1 α=−∞ β=+∞"))
        for j in range(4):
            nodes.append(TreeNode(f"r.{i}.{j}", f"r.{i}", "leaf", value=str(j), edge=f"m{j}"))
    bands = fold(nodes, SLIDE_WIDTH)
    assert len(bands) > 1
    assert sorted(n.id for b in bands for n in b if "continued" not in n.marks) == sorted(n.id for n in nodes)
    assert all("continued" in b[0].marks for b in bands[1:]) and bands[0][0].id == "r"
    scene = tree_scene(nodes, "a caption", legend=True)
    assert scene.width <= SLIDE_WIDTH + 1e-6
    whole = tree_scene(nodes, max_width=None)
    assert whole.width > SLIDE_WIDTH
    svg = scene.to_svg()
    cls = classes(svg)
    assert {i for i in cls if i.startswith("r~")} == {f"r~{k}" for k in range(1, len(bands))}
    assert "root (continued)" in svg
