"""Game trees as scenes: a tidy layout (subtrees packed side by side by their contours, each parent centred
over its children, one row per depth) and the lessons' shapes.

MAX nodes are triangles pointing up, MIN nodes triangles pointing down, leaves boxes; a node shows its name
and value, with a small note under it (visit number, α/β window).  Marks change the look: ``pv`` (the
principal path: thick blue), ``pruned`` (dashed grey, its edge crossed with a red ✗), ``unvisited`` (dotted
grey), ``unseen`` (not reached yet while stepping), ``current`` (the node a step is at), ``cut`` (a cut-off
happened here).  Every node is ``<g id=ID class="node KIND MARKS...">``, every edge ``<g id="e-ID"
class="edge MARKS...">`` with a ``<text class="cross">✗</text>`` on a pruned one, so the structure can be
read back from the SVG.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from plies.draw import Group, Line, Poly, Rect, Scene, Text, text_width

PV = "#1565c0"
GREY = "#9e9e9e"
CROSS = "#d32f2f"
INK = "#263238"
CURRENT_FILL = "#ffd54f"
CURRENT_STROKE = "#e65100"

TRI_W, TRI_H = 64.0, 46.0
LEAF_W, LEAF_H = 44.0, 30.0
H_GAP, V_GAP = 14.0, 30.0
NOTE_SIZE, NOTE_GAP = 10.0, 9.0
NAME_SIZE, VALUE_SIZE = 12.0, 13.0


@dataclass
class TreeNode:
    """One node to draw: ``kind`` is max, min or leaf; ``parent`` the id of its parent (None at the root)."""

    id: str
    parent: str | None
    kind: str
    name: str = ""
    value: str = ""
    note: str = ""
    marks: set[str] = field(default_factory=set)
    board: Scene | None = None
    tooltip: str = ""


@dataclass
class Placed:
    node: TreeNode
    x: float = 0.0
    y: float = 0.0               # the centre of the shape
    w: float = 0.0               # the shape
    h: float = 0.0
    left: float = 0.0            # the footprint: how far the node and its note reach left and right of x
    right: float = 0.0
    depth: int = 0

    @property
    def note_beside(self) -> bool:
        """Inner nodes write their note to the right (edges leave from the bottom); leaves under them."""
        return self.node.kind != "leaf" or self.node.board is not None


def _shape_size(n: TreeNode) -> tuple[float, float]:
    texts = [t for t in (n.name, n.value) if t]
    tw = max((text_width(t, VALUE_SIZE, bold=True) for t in texts), default=0.0)
    if n.board is not None:
        head = _board_head(n)
        return max(n.board.width + 8, text_width(head, 11, bold=True) + 16), n.board.height + 24
    if n.kind == "leaf":
        return max(LEAF_W, tw + 12), (LEAF_H + 12 if len(texts) == 2 else LEAF_H)
    # the text row sits at about 60% of the triangle's width: widen the triangle for long texts
    return max(TRI_W, (tw + 10) / 0.58), TRI_H


def _board_head(n: TreeNode) -> str:
    arrow = "▲" if n.kind == "max" else "▼" if n.kind == "min" else "■"
    if not n.value:
        return f"{arrow} {n.name}"
    return f"{arrow} {n.name}" + (f" {n.value}" if n.value[0] in "≤≥" else f" = {n.value}")


def layout(nodes: list[TreeNode]) -> tuple[dict[str, Placed], float, float]:
    """Positions of every node (centre of its shape), and the width and height of the picture."""
    placed = {n.id: Placed(n) for n in nodes}
    kids: dict[str, list[str]] = {n.id: [] for n in nodes}
    root = None
    for n in nodes:
        if n.parent is None:
            root = n.id
        else:
            kids[n.parent].append(n.id)
    if root is None:
        raise ValueError("a tree needs a root (a node whose parent is None)")
    for p in placed.values():
        p.w, p.h = _shape_size(p.node)
        note_w = text_width(p.node.note, NOTE_SIZE) if p.node.note else 0.0
        if p.note_beside:
            p.left, p.right = p.w / 2 + H_GAP / 2, p.w / 2 + (note_w + 6 if note_w else 0) + H_GAP / 2
        else:
            p.left = p.right = max(p.w, note_w) / 2 + H_GAP / 2

    rel: dict[str, float] = {}

    def place(nid: str, depth: int) -> list[tuple[float, float]]:
        p = placed[nid]
        p.depth = depth
        own = (-p.left, p.right)
        if not kids[nid]:
            return [own]
        subs = [place(k, depth + 1) for k in kids[nid]]
        offsets = [0.0]
        merged = list(subs[0])
        for c in subs[1:]:
            common = min(len(merged), len(c))
            shift = max(merged[d][1] - c[d][0] for d in range(common))
            offsets.append(shift)
            out = []
            for d in range(max(len(merged), len(c))):
                lo = merged[d][0] if d < len(merged) else c[d][0] + shift
                hi = c[d][1] + shift if d < len(c) else merged[d][1]
                out.append((lo, hi))
            merged = out
        centre = (offsets[0] + offsets[-1]) / 2
        for k, off in zip(kids[nid], offsets, strict=True):
            rel[k] = off - centre
        return [own] + [(lo - centre, hi - centre) for lo, hi in merged]

    contour = place(root, 0)
    left = min(lo for lo, _ in contour)
    right = max(hi for _, hi in contour)

    def absolute(nid: str, x: float) -> None:
        placed[nid].x = x
        for k in kids[nid]:
            absolute(k, x + rel[k])

    absolute(root, -left)
    depth_max = max(p.depth for p in placed.values())
    rows_h = [0.0] * (depth_max + 1)
    rows_note = [False] * (depth_max + 1)
    for p in placed.values():
        rows_h[p.depth] = max(rows_h[p.depth], p.h)
        rows_note[p.depth] = rows_note[p.depth] or (bool(p.node.note) and not p.note_beside)
    tops, y = [], 8.0
    for d in range(depth_max + 1):
        tops.append(y)
        y += rows_h[d] + (NOTE_SIZE + NOTE_GAP if rows_note[d] else 0) + V_GAP
    for p in placed.values():
        p.y = tops[p.depth] + rows_h[p.depth] / 2
    height = y - V_GAP + 8
    return placed, right - left, height


def _style(marks: set[str]) -> tuple[str, str, float, tuple[float, float] | None, str]:
    """(fill, stroke, stroke width, dash, text colour) of a node."""
    if "current" in marks:
        return CURRENT_FILL, CURRENT_STROKE, 3.0, None, INK
    if "pruned" in marks:
        return "#f5f5f5", GREY, 1.5, (5, 3), GREY
    if "unvisited" in marks:
        return "#fafafa", GREY, 1.3, (2, 3), GREY
    if "unseen" in marks:
        return "#eceff1", "#b0bec5", 1.3, None, "#78909c"
    if "pv" in marks:
        return "#ffffff", PV, 3.0, None, INK
    return "#ffffff", INK, 1.5, None, INK


def _node_items(p: Placed) -> list[Any]:
    n = p.node
    fill, stroke, width, dash, ink = _style(n.marks)
    w, h = p.w, p.h
    items: list[Any] = []
    if n.board is not None:
        items.append(Rect(-w / 2, -h / 2, w, h, fill=fill, stroke=stroke, width=width, dash=dash, rx=4,
                          cls="shape"))
        items.append(Text(0, -h / 2 + 10, _board_head(n), size=11, fill=PV if "pv" in n.marks else ink,
                          bold="pv" in n.marks, cls="head"))
        items.append(Group(list(n.board.items), cls="thumb", dx=-n.board.width / 2, dy=-h / 2 + 20))
        if "pruned" in n.marks or "unvisited" in n.marks:      # grey the board out: never looked at
            items.append(Rect(-w / 2 + 1, -h / 2 + 18, w - 2, h - 19, fill="#ffffffa8", cls="veil"))
        return items
    if n.kind == "leaf":
        items.append(Rect(-w / 2, -h / 2, w, h, fill=fill, stroke=stroke, width=width, dash=dash, rx=3,
                          cls="shape"))
        if n.name and n.value:
            items.append(Text(0, -8, n.name, size=NAME_SIZE, fill=ink, cls="name"))
            items.append(Text(0, 9, n.value, size=VALUE_SIZE, fill=ink, bold=True, cls="value"))
        elif n.name or n.value:
            items.append(Text(0, 0, n.value or n.name, size=VALUE_SIZE, fill=ink, bold=bool(n.value),
                              cls="value" if n.value else "name"))
        return items
    if n.kind == "max":
        pts = [(0, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
        name_y, value_y, only_y = 3.0, 15.0, 10.0
    else:
        pts = [(-w / 2, -h / 2), (w / 2, -h / 2), (0, h / 2)]
        name_y, value_y, only_y = -15.0, -3.0, -10.0
    items.append(Poly(pts, fill=fill, stroke=stroke, width=width, dash=dash, cls="shape"))
    if n.name and n.value:
        items.append(Text(0, name_y, n.name, size=NAME_SIZE, fill=ink, cls="name"))
        items.append(Text(0, value_y, n.value, size=VALUE_SIZE, fill=ink, bold=True, cls="value"))
    elif n.name or n.value:
        items.append(Text(0, only_y, n.value or n.name, size=VALUE_SIZE, fill=ink, bold=bool(n.value),
                          cls="value" if n.value else "name"))
    return items


def tree_scene(nodes: list[TreeNode], caption: str = "", legend: bool = False, label: str = "game tree") -> Scene:
    """The tree drawn: edges first, then nodes and their notes; ``caption`` under it (the answer)."""
    placed, width, height = layout(nodes)
    cap_lines = [c for c in caption.split("\n") if c] if caption else []
    foot = 18.0 * len(cap_lines) + (22.0 if legend else 0.0) + (6.0 if cap_lines or legend else 0.0)
    need = max([width] + [text_width(c, 12) + 16 for c in cap_lines] + ([430.0] if legend else []))
    shift = (need - width) / 2
    scene = Scene(need, height + foot, label=label)
    edges = Group(cls="edges", dx=shift)
    body = Group(cls="nodes", dx=shift)
    notes = Group(cls="notes", dx=shift)
    for p in placed.values():
        n = p.node
        if n.parent is not None:
            q = placed[n.parent]
            x1, y1 = q.x, q.y + q.h / 2
            x2, y2 = p.x, p.y - p.h / 2
            if n.kind == "max" and n.board is None:
                y2 += 2                                    # into the apex
            cls = ["edge"]
            stroke, w, dash = INK, 1.5, None
            if "pruned" in n.marks:
                cls.append("pruned")
                stroke, dash = GREY, (6, 4)
            elif "unvisited" in n.marks:
                cls.append("unvisited")
                stroke, dash = GREY, (2, 3)
            elif "unseen" in n.marks:
                stroke = "#b0bec5"
            elif "pv" in n.marks and "pv" in q.node.marks:
                cls.append("pv")
                stroke, w = PV, 4.0
            items: list[Any] = [Line(x1, y1, x2, y2, stroke=stroke, width=w, dash=dash)]
            if "pruned" in n.marks:
                items.append(Text((x1 + x2) / 2, (y1 + y2) / 2, "✗", size=20, fill=CROSS, bold=True, cls="cross",
                                  halo=True))
            edges.items.append(Group(items, id=f"e-{n.id}", cls=" ".join(cls)))
        kind = n.kind
        marks = sorted(n.marks)
        body.items.append(Group(_node_items(p), id=n.id, cls=" ".join(["node", kind, *marks]),
                                title=n.tooltip, dx=p.x, dy=p.y))
        if n.note:
            colour = GREY if {"pruned", "unvisited", "unseen"} & n.marks else "#37474f"
            if p.note_beside:                          # beside the wide part of the triangle
                y = p.y + (p.h / 4 if n.kind == "max" else -p.h / 4 if n.kind == "min" else 0)
                notes.items.append(Text(p.x + p.w / 2 + 5, y, n.note, size=NOTE_SIZE, fill=colour, anchor="start",
                                        cls="note", halo=True))
            else:
                notes.items.append(Text(p.x, p.y + p.h / 2 + NOTE_GAP / 2 + NOTE_SIZE / 2, n.note,
                                        size=NOTE_SIZE, fill=colour, cls="note", halo=True))
    scene.items += [edges, body, notes]
    y = height + 6
    for line in cap_lines:
        scene.add(Text(need / 2, y + 8, line, size=12, fill=INK, cls="caption"))
        y += 18
    if legend:
        scene.add(_legend(need / 2 - 212, y + 10))
    return scene


def _legend(x: float, y: float) -> Group:
    g = Group(cls="legend", dx=x, dy=y)
    g.items += [
        Poly([(0, 6), (6, -6), (12, 6)], fill="#ffffff", stroke=INK), Text(16, 0, "MAX", size=10, anchor="start"),
        Poly([(48, -6), (60, -6), (54, 6)], fill="#ffffff", stroke=INK), Text(64, 0, "MIN", size=10, anchor="start"),
        Rect(96, -6, 14, 12, fill="#ffffff", stroke=INK), Text(114, 0, "leaf", size=10, anchor="start"),
        Line(146, 0, 170, 0, stroke=PV, width=4), Text(174, 0, "principal path", size=10, anchor="start"),
        Line(252, 0, 276, 0, stroke=GREY, dash=(6, 4), width=1.5),
        Text(264, 0, "✗", size=14, fill=CROSS, bold=True, halo=True),
        Text(280, 0, "pruned", size=10, anchor="start"),
        Line(322, 0, 340, 0, stroke=GREY, dash=(2, 3), width=1.3),
        Text(344, 0, "never examined", size=10, anchor="start"),
    ]
    return g


def explicit_nodes(root: Any, here: tuple[int, ...] = ()) -> list[TreeNode]:
    """An explicit tree (``plies.games.tree.Node``: ``label``, ``value``, ``children``) as nodes to draw,
    MAX at the root and levels alternating; the node at path ``here`` (if not the root) is marked current."""
    out: list[TreeNode] = []

    def walk(node: Any, path: tuple[int, ...]) -> None:
        nid = "r" + "".join(f".{i}" for i in path)
        parent = None if not path else "r" + "".join(f".{i}" for i in path[:-1])
        leaf = not node.children
        kind = "leaf" if leaf else ("max" if len(path) % 2 == 0 else "min")
        value = "" if not leaf or node.value is None else f"{node.value:g}"
        marks = {"current"} if path and path == here else set()
        out.append(TreeNode(nid, parent, kind, name=node.label or "", value=value, marks=marks,
                            tooltip=f"{node.label or nid} ({'leaf' if leaf else kind.upper()})"))
        for i, c in enumerate(node.children):
            walk(c, path + (i,))

    walk(root, ())
    return out


def explicit_tree_svg(root: Any, here: tuple[int, ...] = ()) -> str:
    """The SVG of an explicit tree before any search (what ``TreeState._repr_svg_`` shows)."""
    return tree_scene(explicit_nodes(root, here), label="game tree").to_svg()


def positions(nodes: list[TreeNode]) -> dict[str, Any]:
    """The layout as plain data for pages: width, height and each node's centre and shape size."""
    placed, width, height = layout(nodes)
    return {"width": round(width, 1), "height": round(height, 1),
            "nodes": {i: {"x": round(p.x, 1), "y": round(p.y, 1), "w": round(p.w, 1), "h": round(p.h, 1)}
                      for i, p in placed.items()}}


__all__ = ["TreeNode", "explicit_nodes", "explicit_tree_svg", "layout", "positions", "tree_scene"]
