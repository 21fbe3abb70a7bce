"""plies' own pictures (no graphviz): the SVG's structure read back and compared with the textbook search's trace
(nodes, crossed branches, highlighted path), boards, plots, PNG/PDF, and the optional graphviz engine."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET

import pytest

from plies import draw as canvas
from plies.draw.boards import board_scene, board_svg
from plies.draw.chart import Series, line_chart
from plies.draw.tree import TreeNode, layout
from plies.game import PliesError
from plies.games import OthelloState, TicTacToeState, TreeState
from plies.games.hexthello import HexThelloState
from plies.heuristics import get
from plies.teach import draw, solve_tree, trace_search
from plies.teach.examples import DOC000_EXAMPLE, DOC002_EXERCISE, DOC002_SLIDE
from plies.teach.trace import path_id

SVG_NS = "{http://www.w3.org/2000/svg}"


def groups(svg: str | bytes, kind: str) -> dict[str, set[str]]:
    """id -> classes of every <g> whose class list contains ``kind`` (node / edge)."""
    out = {}
    for g in ET.fromstring(svg).iter(SVG_NS + "g"):
        cls = set(g.get("class", "").split())
        if kind in cls:
            out[g.get("id")] = cls
    return out


def texts(svg: str | bytes, cls: str | None = None) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(SVG_NS + "text")
            if cls is None or cls in (t.get("class") or "").split()]


def node_text(svg: str | bytes, node_id: str, cls: str) -> str | None:
    for g in ET.fromstring(svg).iter(SVG_NS + "g"):
        if g.get("id") == node_id:
            for t in g.iter(SVG_NS + "text"):
                if cls in (t.get("class") or "").split():
                    return t.text
    return None


def checked_svg(trace) -> str:
    """The trace's picture, checked: every node drawn once; crossed, pruned and highlighted exactly where the search
    says."""
    svg = draw.svg(trace)
    nodes = groups(svg, "node")
    copies = {i for i, c in nodes.items() if "continued" in c}      # a folded tree repeats its root per band
    assert all(i.startswith("r~") for i in copies)
    nodes = {i: c for i, c in nodes.items() if i not in copies}
    assert set(nodes) == {n.id for n in trace.nodes.values()}
    pruned_ids = {path_id(p) for p in trace.pruned}
    assert {i for i, c in nodes.items() if "pruned" in c} == pruned_ids
    assert {i for i, c in nodes.items() if "pv" in c} == {"r"} | {path_id(p) for p in trace.pv}
    for n in trace.nodes.values():
        kind = "leaf" if n.leaf or len(n.path) == trace.depth else n.kind   # a skipped move at the depth limit
        assert kind in nodes[n.id]
        if n.under_pruned:
            assert "unvisited" in nodes[n.id]
    edges = groups(svg, "edge")
    assert len(edges) == len(trace.nodes) - 1
    assert {i for i, c in edges.items() if "pruned" in c} == {"e-" + i for i in pruned_ids}
    assert {i for i, c in edges.items() if "pv" in c} == {"e-" + path_id(p) for p in trace.pv}
    assert texts(svg, "cross").count("✗") == len(trace.pruned)
    for n in trace.nodes.values():                        # the values the search found, as it writes them
        if n.visited and not n.leaf:
            value = node_text(svg, n.id, "value")
            if value is None:                                   # a board thumbnail: "▲ d3 = 4" above it
                assert node_text(svg, n.id, "head").endswith((f"= {n.value_text()}", f" {n.value_text()}"))
            else:
                assert value == n.value_text()
    return svg


def test_doc000_svg_structure() -> None:
    svg = checked_svg(solve_tree(DOC000_EXAMPLE))
    nodes = groups(svg, "node")
    assert len(nodes) == 13
    assert {i for i, c in nodes.items() if "pruned" in c} == {"r.1.1", "r.1.2"}
    assert {i for i, c in nodes.items() if "pv" in c} == {"r", "r.0", "r.0.0"}
    assert {i for i, c in nodes.items() if "max" in c} == {"r"}
    assert {i for i, c in nodes.items() if "min" in c} == {"r.0", "r.1", "r.2"}
    assert {i for i, c in nodes.items() if "cut" in c} == {"r.1"}
    assert node_text(svg, "r.1", "value") == "≤2"
    assert "#6 α=3 β=2" in texts(svg, "note")                  # C's visit number and the window it ended with
    assert "#1 α=3 β=+∞" in texts(svg, "note") and "#2 α=−∞ β=3" in texts(svg, "note")
    assert texts(svg, "move") == ["a1", "b1", "b2", "b3", "a2", "c1", "c2", "c3", "a3", "d1", "d2", "d3"]
    assert any("value 3, MAX chooses B" in t for t in texts(svg, "caption"))


def test_lab_tree_as_nested_lists() -> None:
    svg = checked_svg(solve_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    assert node_text(svg, "r.1.1", "value") == "4"          # never examined, its number still shown (greyed)


def test_doc002_greek_labels_and_unvisited_subtree() -> None:
    svg = checked_svg(solve_tree(DOC002_EXERCISE))
    nodes = groups(svg, "node")
    assert len(nodes) == 19
    assert {i for i, c in nodes.items() if "pruned" in c} == {"r.0.1.1", "r.1.1"}
    assert {i for i, c in nodes.items() if "unvisited" in c} == {"r.1.1.0", "r.1.1.1"}
    assert {i for i, c in nodes.items() if "pv" in c} == {"r", "r.2", "r.2.0", "r.2.0.0"}
    names = texts(svg, "name")
    for label in ("α", "ιθ", "στ", "ιστ"):
        assert label in names
    assert node_text(svg, "r.0.1", "value") == "≥7" and node_text(svg, "r.1", "value") == "≤3"


@pytest.mark.parametrize("algo", ["alphabeta", "minimax"])
def test_slide_exercise_both_algorithms(algo) -> None:
    svg = checked_svg(solve_tree(DOC002_SLIDE, algo))
    assert len(groups(svg, "node")) == 9
    assert texts(svg, "cross").count("✗") == (1 if algo == "alphabeta" else 0)


def test_layout_is_tidy() -> None:
    trace = solve_tree(DOC002_EXERCISE)
    pos = draw.layout(trace)["nodes"]
    assert pos["r"]["y"] < pos["r.0"]["y"] < pos["r.0.0"]["y"] < pos["r.0.0.0"]["y"]   # depth goes down
    assert pos["r.0"]["x"] < pos["r.1"]["x"] < pos["r.2"]["x"]                        # children left to right
    for parent in ("r", "r.0", "r.1", "r.2"):                                        # parents centred
        kids = [v for k, v in pos.items() if k.startswith(parent + ".") and k.count(".") == parent.count(".") + 1]
        assert pos[parent]["x"] == pytest.approx((kids[0]["x"] + kids[-1]["x"]) / 2, abs=0.1)
    placed, _, _ = layout(draw.tree_nodes(trace))
    rows: dict[float, list] = {}
    for p in placed.values():
        rows.setdefault(p.y, []).append(p)
    for row in rows.values():                                                        # no two nodes overlap
        row.sort(key=lambda p: p.x)
        for a, b in zip(row, row[1:], strict=False):
            assert a.x + a.right <= b.x - b.left + 1e-6


def test_uneven_tree_layout() -> None:
    nodes = [TreeNode("r", None, "max"), TreeNode("r.0", "r", "leaf", value="1"),
             TreeNode("r.1", "r", "min"), TreeNode("r.1.0", "r.1", "max"), TreeNode("r.1.0.0", "r.1.0", "leaf"),
             TreeNode("r.2", "r", "leaf", value="2")]
    placed, width, height = layout(nodes)
    assert placed["r.0"].x < placed["r.1"].x < placed["r.2"].x and width > 0 and height > 0


def test_answer_does_not_depend_on_drawing() -> None:
    before = solve_tree(DOC002_EXERCISE).to_dict(steps=True)
    trace = solve_tree(DOC002_EXERCISE)
    draw.svg(trace)
    draw.layout(trace)
    assert trace.to_dict(steps=True) == before


def test_png_pdf_and_files(tmp_path) -> None:
    trace = solve_tree(DOC000_EXAMPLE)
    png = draw.save(trace, str(tmp_path / "t.png"))
    assert (tmp_path / "t.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.endswith("t.png")
    draw.save(trace, str(tmp_path / "t.pdf"))
    assert (tmp_path / "t.pdf").read_bytes()[:5] == b"%PDF-"
    draw.save(trace, str(tmp_path / "t.svg"))
    assert (tmp_path / "t.svg").read_text(encoding="utf-8").startswith("<?xml")
    with pytest.raises(PliesError, match="cannot draw"):
        draw.save(trace, str(tmp_path / "t.bmp"))
    with pytest.raises(PliesError, match="cannot write"):
        draw.save(trace, str(tmp_path / "missing" / "t.svg"))


def test_othello_thumbnails() -> None:
    trace = trace_search(OthelloState.start(), 2, get("othello"))
    svg = checked_svg(trace)
    root = ET.fromstring(svg)
    g = next(g for g in root.iter(SVG_NS + "g") if g.get("id") == "r")
    assert sum(1 for c in g.iter(SVG_NS + "circle") if "disc" in (c.get("class") or "")) == 4   # the start's discs
    assert draw.tree_nodes(trace, thumbnails=False)[0].board is None


def test_tictactoe_and_hexthello_trees() -> None:
    ttt = trace_search(TicTacToeState.from_text("XO.X.O...X"), 2, get("tictactoe"))
    checked_svg(ttt)
    hexa = trace_search(HexThelloState.start(), 1, get("hexthello"))
    svg = draw.svg(hexa)
    assert len(groups(svg, "node")) == len(hexa.nodes)


def test_stepper_picture_marks_the_current_node() -> None:
    trace = solve_tree(DOC000_EXAMPLE)
    st = trace.stepper()
    st.go(9)                                                     # the cut-off at C
    svg = st.svg()
    nodes = groups(svg, "node")
    assert "current" in nodes["r.1"]
    assert {i for i, c in nodes.items() if "pruned" in c} == {"r.1.1", "r.1.2"}
    assert {i for i, c in nodes.items() if "unseen" in c} == {"r.2", "r.2.0", "r.2.1", "r.2.2"}
    assert not any("pv" in c for c in nodes.values())            # the path shows only at the end
    assert trace._repr_svg_() == draw.svg(trace)


def test_board_pictures() -> None:
    o = OthelloState.start()
    svg = o._repr_svg_()
    cells = groups(svg, "cell")
    assert {i for i, c in cells.items() if "legal" not in c} == {"d4", "e4", "d5", "e5"}
    assert {i for i, c in cells.items() if "legal" in c} == {o.move_str(m) for m in o.legal_moves()}
    discs = [c.get("class") for c in ET.fromstring(svg).iter(SVG_NS + "circle") if "disc" in (c.get("class") or "")]
    assert sorted(discs) == ["disc black"] * 2 + ["disc white"] * 2
    t = TicTacToeState.from_text("XO.X.O...X")._repr_svg_()
    assert {i for i, c in groups(t, "cell").items()} == {"a1", "b1", "a2", "c2"}
    assert sum(1 for g in ET.fromstring(t).iter(SVG_NS + "g") if g.get("class") == "x") == 2
    assert sum(1 for c in ET.fromstring(t).iter(SVG_NS + "circle") if c.get("class") == "o") == 2
    h = HexThelloState.start()._repr_svg_()
    assert len(groups(h, "cell")) == 169
    assert board_scene(object()) is None and board_svg(TreeState([1, 2])) is None
    assert OthelloState.start(6)._repr_svg_().count('class="cell') == 4 + 4     # 4 discs, 4 legal moves


def test_a_game_without_a_picture_of_its_own_is_drawn_from_its_view() -> None:
    """Connect Four has no scene in plies.draw: its board is drawn from its type's BoardView (the rack, red and
    yellow discs, the legal cells, the winning line), in a notebook and as the thumbnails of a search tree."""
    from plies.games.connect4 import ConnectFourState

    s = ConnectFourState.from_transcript("dedede")
    svg = s._repr_svg_()
    cells = groups(svg, "cell")
    assert len(cells) == 42  # the rack shows every slot
    assert {i for i, c in cells.items() if "legal" in c} == {"a1", "b1", "c1", "d4", "e4", "f1", "g1"}
    held = {g.get("id") for g in ET.fromstring(svg).iter(SVG_NS + "g") if g.get("id") in cells
            and any("disc" in (c.get("class") or "") for c in g.iter(SVG_NS + "circle"))}
    assert held == {"d1", "d2", "d3", "e1", "e2", "e3"}
    won = s.play(3)._repr_svg_()
    discs = [c.get("class") for c in ET.fromstring(won).iter(SVG_NS + "circle") if "disc" in (c.get("class") or "")]
    assert sorted(discs) == ["disc red"] * 4 + ["disc yellow"] * 3
    assert sum(1 for c in ET.fromstring(won).iter(SVG_NS + "circle") if c.get("class") == "line") == 4
    trace = trace_search(s, 2, get("connect4", "open-lines"))
    nodes = draw.tree_nodes(trace)
    assert nodes and all(n.board is not None for n in nodes)


def test_explicit_tree_repr() -> None:
    svg = TreeState([[3, 12, 8], [2, 4, 6]], (1,))._repr_svg_()
    nodes = groups(svg, "node")
    assert len(nodes) == 9 and "current" in nodes["r.1"]
    assert sorted(texts(svg, "value")) == sorted(["3", "12", "8", "2", "4", "6"])


def test_line_chart_log_axis(tmp_path) -> None:
    scene = line_chart([Series("minimax", [1, 2, 3], [10, 100, 1000]),
                        Series("alpha-beta", [1, 2, 3], [10, 30, 90], colour="#c62828", marker="square")],
                       title="t", xlabel="depth", ylabel="leaves", log_y=True)
    svg = scene.to_svg()
    series = groups(svg, "series")
    assert set(series) == {"series-minimax", "series-alpha-beta"}
    assert texts(svg, "ytick") == ["10", "100", "1k"]
    assert texts(svg, "xtick") == ["1", "2", "3"]
    canvas.save(scene, tmp_path / "c.png")
    assert (tmp_path / "c.png").read_bytes()[:4] == b"\x89PNG"


def test_graphviz_engine_is_optional(monkeypatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    trace = solve_tree(DOC000_EXAMPLE)
    with pytest.raises(PliesError, match="graphviz's 'dot' program is not installed"):
        draw.render(trace, "svg", engine="graphviz")
    assert draw.render(trace, "svg").startswith(b"<?xml")                # plies' own drawing needs no dot
    with pytest.raises(PliesError, match="unknown drawing engine"):
        draw.render(trace, "svg", engine="tikz")


@pytest.mark.skipif(shutil.which("dot") is None, reason="needs graphviz's dot")
def test_graphviz_engine_when_installed() -> None:
    svg = draw.render(solve_tree(DOC000_EXAMPLE), "svg", engine="graphviz")
    nodes = groups(svg, "node")
    assert {i for i, c in nodes.items() if "pruned" in c} == {"r.1.1", "r.1.2"}


def test_search_result_html() -> None:
    from plies.search import alphabeta

    html = alphabeta(OthelloState.start(), 2, get("othello"))._repr_html_()
    root = ET.fromstring(html)
    rows = {tr[0].text: tr[1].text for tr in root.iter("tr")}
    assert rows["value"] == "0" and rows["algorithm"].startswith("alphabeta") and int(rows["nodes"]) > 0
