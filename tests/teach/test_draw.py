"""Pictures drawn by graphviz: structure read back from the SVG (nodes, pruned marks, principal path)."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET

import pytest

from plies.game import PliesError
from plies.games import OthelloState
from plies.heuristics import get
from plies.teach import draw, solve_tree, trace_search
from plies.teach.examples import DOC000_EXAMPLE, DOC002_EXERCISE

pytestmark = pytest.mark.skipif(shutil.which("dot") is None, reason="needs graphviz's dot")
NS = {"s": "http://www.w3.org/2000/svg"}


def groups(svg: bytes, kind: str) -> dict[str, set[str]]:
    """id -> classes of every <g> whose class list contains ``kind`` (node / edge)."""
    root = ET.fromstring(svg)
    out = {}
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        cls = set(g.get("class", "").split())
        if kind in cls:
            out[g.get("id")] = cls
    return out


def texts(svg: bytes) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]


def test_doc000_svg_structure() -> None:
    svg = draw.render(solve_tree(DOC000_EXAMPLE), "svg")
    nodes = groups(svg, "node")
    assert len(nodes) == 13
    assert {i for i, c in nodes.items() if "pruned" in c} == {"r.1.1", "r.1.2"}
    assert {i for i, c in nodes.items() if "pv" in c} == {"r", "r.0", "r.0.0"}
    assert {i for i, c in nodes.items() if "max" in c} == {"r"}
    assert {i for i, c in nodes.items() if "min" in c} == {"r.0", "r.1", "r.2"}
    assert {i for i, c in nodes.items() if "cut" in c} == {"r.1"}
    edges = groups(svg, "edge")
    assert len(edges) == 12
    assert {i for i, c in edges.items() if "pruned" in c} == {"e-r.1.1", "e-r.1.2"}
    assert {i for i, c in edges.items() if "pv" in c} == {"e-r.0", "e-r.0.0"}
    t = texts(svg)
    assert t.count("✗") == 2
    assert "≤2" in t and "B" in t


def test_doc002_greek_labels_and_unvisited_subtree() -> None:
    trace = solve_tree(DOC002_EXERCISE)
    svg = draw.render(trace, "svg")
    nodes = groups(svg, "node")
    assert len(nodes) == 19
    assert {i for i, c in nodes.items() if "pruned" in c} == {"r.0.1.1", "r.1.1"}
    assert {i for i, c in nodes.items() if "unvisited" in c} == {"r.1.1.0", "r.1.1.1"}
    assert {i for i, c in nodes.items() if "pv" in c} == {"r", "r.2", "r.2.0", "r.2.0.0"}
    t = texts(svg)
    for label in ("α", "ιθ", "στ", "ιστ"):
        assert label in t
    assert "≥7" in t and "≤3" in t


def test_answer_does_not_depend_on_drawing() -> None:
    before = solve_tree(DOC002_EXERCISE).to_dict(steps=True)
    trace = solve_tree(DOC002_EXERCISE)
    draw.render(trace, "svg")
    draw.layout(trace)
    assert trace.to_dict(steps=True) == before


def test_png_and_files(tmp_path) -> None:
    trace = solve_tree(DOC000_EXAMPLE)
    png = draw.save(trace, str(tmp_path / "t.png"))
    assert (tmp_path / "t.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.endswith("t.png")
    with pytest.raises(PliesError, match="cannot draw"):
        draw.save(trace, str(tmp_path / "t.bmp"))


def test_layout_positions_from_graphviz() -> None:
    lay = draw.layout(solve_tree(DOC000_EXAMPLE))
    pos = lay["nodes"]
    assert len(pos) == 13
    assert pos["r"]["y"] < pos["r.0"]["y"] < pos["r.0.0"]["y"]               # depth goes down the page
    assert pos["r.0"]["x"] < pos["r.1"]["x"] < pos["r.2"]["x"]               # children left to right


def test_othello_thumbnails() -> None:
    trace = trace_search(OthelloState.start(), 2, get("othello"))
    svg = draw.render(trace, "svg")
    nodes = groups(svg, "node")
    assert len(nodes) == len(trace.nodes)
    assert {i for i, c in nodes.items() if "pruned" in c} == {"r" + "".join(f".{i}" for i in p) for p in trace.pruned}
    # each thumbnail is a board of 64 small cells (polygons) inside the node's group
    root = ET.fromstring(svg)
    g = next(g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("id") == "r")
    assert sum(1 for _ in g.iter("{http://www.w3.org/2000/svg}polygon")) >= 64


def test_missing_dot_is_one_clear_error(monkeypatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(PliesError, match="graphviz's 'dot' program is not installed"):
        draw.render(solve_tree(DOC000_EXAMPLE), "svg")
