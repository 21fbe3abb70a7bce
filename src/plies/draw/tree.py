"""Game trees as scenes: a tidy layout (subtrees packed side by side by their contours, each parent centred
over its children, one row per depth) and the lessons' shapes.

MAX nodes are triangles pointing up, MIN nodes triangles pointing down, leaves boxes; a node shows its name
and value, with a small note under it (visit number, α/β window).  Marks change the look: ``pv`` (the
principal path: thick blue), ``pruned`` (dashed grey, its edge crossed with a red ✗), ``unvisited`` (dotted
grey), ``unseen`` (not reached yet while stepping), ``current`` (the node a step is at), ``cut`` (a cut-off
happened here), ``table`` (its value came from a transposition table: green), ``hint`` (searched first as the
table's best move: ★ in its note), ``beyond`` (searched past the
horizon by a quiescence search or an extension: violet), ``continued`` (a repeated root of a folded tree).  An
edge carries the move that leads to its node (``d3``, ``a1``) as ``<text class="move">``.  Every node is
``<g id=ID class="node KIND MARKS...">``, every edge ``<g id="e-ID" class="edge MARKS...">`` with a
``<text class="cross">✗</text>`` on a pruned one, so the structure can be read back from the SVG.

A tree wider than ``max_width`` is folded: its root's subtrees are dealt into bands, one under the other, each
band under a dashed copy of the root ("continued"); a band still too wide is scaled down to fit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from plies.draw import Group, Item, Line, Poly, Rect, Scene, Text, text_width
from plies.game import Move, State

PV = "#1565c0"
GREY = "#9e9e9e"
CROSS = "#d32f2f"
INK = "#263238"
CURRENT_FILL = "#ffd54f"
CURRENT_STROKE = "#e65100"
TABLE_FILL, TABLE_STROKE = "#e8f5e9", "#2e7d32"
BEYOND_FILL, BEYOND_STROKE = "#f3e5f5", "#6a1b9a"
MOVE_INK = "#546e7a"
MOVE_SIZE = 10.0
MARGIN = 6.0
SLIDE_WIDTH = 1280.0
"""The widest picture drawn as it is by default (a 16:9 slide at 1280 points); wider trees are folded."""

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
    edge: str = ""                   # the move into this node, written on its edge


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
    if not n.name:
        return f"{arrow} {n.value}".rstrip()
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
        # renderers hint small text to whole pixels, which widens it a little: leave it room
        note_w = text_width(p.node.note, NOTE_SIZE) * 1.08 + 2 if p.node.note else 0.0
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
    if "continued" in marks:
        return "#ffffff", INK, 1.3, (4, 3), INK
    fill = TABLE_FILL if "table" in marks else BEYOND_FILL if "beyond" in marks else "#ffffff"
    stroke = TABLE_STROKE if "table" in marks else BEYOND_STROKE if "beyond" in marks else INK
    if "pv" in marks:
        return fill, PV, 3.0, None, INK
    return fill, stroke, 1.5, None, INK


def _node_items(p: Placed) -> list[Item]:
    n = p.node
    fill, stroke, width, dash, ink = _style(n.marks)
    w, h = p.w, p.h
    items: list[Item] = []
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


def _edge_items(p: Placed, q: Placed) -> tuple[list[Item], list[str]]:
    """The edge from ``q`` (the parent) to ``p``: its line, the ✗ of a pruned edge and the move's label."""
    n = p.node
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
    items: list[Item] = [Line(x1, y1, x2, y2, stroke=stroke, width=w, dash=dash)]
    if "pruned" in n.marks:
        items.append(Text((x1 + x2) / 2, (y1 + y2) / 2, "✗", size=20, fill=CROSS, bold=True, cls="cross", halo=True))
    if n.edge:
        # beside the edge, a little nearer the child, on the side away from the parent's centre line
        t = 0.7
        mx, my = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        side = 1 if x2 >= x1 else -1
        half = text_width(n.edge, MOVE_SIZE) / 2
        ink = GREY if {"pruned", "unvisited"} & n.marks else PV if "pv" in cls else MOVE_INK
        items.append(Text(mx + side * (half + 4), my, n.edge, size=MOVE_SIZE, fill=ink, cls="move", halo=True,
                          bold="pv" in cls))
    return items, cls


def _band(placed: dict[str, Placed], width: float, height: float, dy: float, horizon: int | None,
          horizon_label: str = "") -> list[Item]:
    """One laid-out tree (a whole tree, or a band of a folded one) as groups, shifted down by ``dy``."""
    edges = Group(cls="edges", dy=dy)
    body = Group(cls="nodes", dy=dy)
    notes = Group(cls="notes", dy=dy)
    for p in placed.values():
        n = p.node
        if n.parent is not None:
            items, cls = _edge_items(p, placed[n.parent])
            edges.items.append(Group(items, id=f"e-{n.id}", cls=" ".join(cls)))
        marks = sorted(n.marks)
        body.items.append(Group(_node_items(p), id=n.id, cls=" ".join(["node", n.kind, *marks]),
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
    out: list[Item] = [edges, body, notes]
    if horizon is not None:
        above = [p.y + p.h / 2 for p in placed.values() if p.depth == horizon]
        below = [p.y - p.h / 2 for p in placed.values() if p.depth == horizon + 1]
        if above and below:
            y = dy + (max(above) + min(below)) / 2 + (NOTE_SIZE / 2 if any(
                p.node.note and not p.note_beside for p in placed.values() if p.depth == horizon) else 0)
            out.insert(0, Group([Line(0, y, width, y, stroke=BEYOND_STROKE, width=1.2, dash=(8, 5)),
                                 Text(width - 4, y - 7, horizon_label or f"horizon: depth {horizon}", size=10,
                                      fill=BEYOND_STROKE, anchor="end", halo=True)], cls="horizon"))
    return out


def _subtree(nodes: list[TreeNode], top: str) -> list[TreeNode]:
    kids: dict[str, list[TreeNode]] = {}
    for n in nodes:
        if n.parent is not None:
            kids.setdefault(n.parent, []).append(n)
    out: list[TreeNode] = []
    todo = [n for n in nodes if n.id == top]
    while todo:
        n = todo.pop()
        out.append(n)
        todo.extend(reversed(kids.get(n.id, [])))
    return out


def fold(nodes: list[TreeNode], max_width: float) -> list[list[TreeNode]]:
    """The tree dealt into bands no wider than ``max_width`` where possible: consecutive subtrees of the root,
    the first band under the root itself, each further band under a dashed copy of it (``continued``)."""
    root = next(n for n in nodes if n.parent is None)
    children = [n for n in nodes if n.parent == root.id]
    subtrees = {c.id: _subtree(nodes, c.id) for c in children}
    bands: list[list[TreeNode]] = []
    group: list[TreeNode] = []

    def band(top: TreeNode, members: list[TreeNode]) -> list[TreeNode]:
        out = [top]
        for c in members:
            for n in subtrees[c.id]:
                out.append(replace(n, parent=top.id) if n.parent == root.id else n)
        return out

    def copy(k: int) -> TreeNode:
        name = f"{root.name} (continued)" if root.name else "(continued)"
        return TreeNode(f"{root.id}~{k}", None, root.kind, name=name, value=root.value, marks={"continued"},
                        tooltip=f"{root.tooltip} (continued)")

    for c in children:
        top = root if not bands else copy(len(bands))
        if group and layout(band(top, group + [c]))[1] > max_width:
            bands.append(band(top, group))
            group = [c]
        else:
            group.append(c)
    bands.append(band(root if not bands else copy(len(bands)), group))
    return bands


def tree_scene(nodes: list[TreeNode], caption: str = "", legend: bool = False, label: str = "game tree",
               horizon: int | None = None, max_width: float | None = SLIDE_WIDTH, horizon_label: str = "") -> Scene:
    """The tree drawn: edges first, then nodes and their notes; ``caption`` under it (the answer).  A dashed
    line marks the ``horizon`` (nodes deeper were searched past it).  A tree wider than ``max_width`` is folded
    into bands (``fold``), and scaled down if a band is still too wide; ``max_width=None`` draws it at full
    width."""
    placed, width, height = layout(nodes)
    bands = [(placed, width, height)]
    if max_width is not None and width > max_width and sum(1 for n in nodes if n.parent is not None) > 1:
        folded = fold(nodes, max_width)
        if len(folded) > 1:
            bands = [layout(b) for b in folded]
    width = max(w for _, w, _ in bands)
    gap = 16.0 if len(bands) > 1 else 0.0
    height = sum(h for _, _, h in bands) + gap * (len(bands) - 1)
    present = {m for pl, _, _ in bands for p in pl.values() for m in p.node.marks}
    entries = _legend_entries(present, horizon is not None and any(p.depth > horizon for p in placed.values()))
    cap_lines = [c for c in caption.split("\n") if c] if caption else []
    legend_w = _legend_width(entries) if legend else 0.0
    legend_rows = _legend_rows(entries, max(width, 430.0)) if legend else []
    foot = 18.0 * len(cap_lines) + 20.0 * len(legend_rows) + (6.0 if cap_lines or legend else 0.0)
    need = max([width + 2 * MARGIN] + [text_width(c, 12) * 1.05 + 16 for c in cap_lines]
               + ([min(legend_w, max(width, 430.0))] if legend else []))
    shift = (need - width) / 2
    content = Group(cls="tree", dx=shift)
    y = 0.0
    for k, (pl, w, h) in enumerate(bands):
        if k:
            content.items.append(Line(0, y - gap / 2, width, y - gap / 2, stroke="#cfd8dc", width=1, dash=(2, 4)))
        for item in _band(pl, w, h, y, horizon, horizon_label):
            content.items.append(item)
        y += h + gap
    k_scale = 1.0
    if max_width is not None and need > max_width:
        k_scale = max_width / need
    scene = Scene(need * k_scale, (height + foot) * k_scale, label=label)
    top = Group([content], scale=k_scale) if k_scale != 1.0 else content
    scene.items.append(top)
    yy = height + 6
    extra: list[Item] = []
    for line in cap_lines:
        extra.append(Text(need / 2, yy + 8, line, size=12, fill=INK, cls="caption"))
        yy += 18
    for row in legend_rows:
        extra.append(_legend(row, need / 2 - _legend_width(row) / 2, yy + 10))
        yy += 20
    if k_scale != 1.0:
        scene.items.append(Group(extra, scale=k_scale))
    else:
        scene.items.extend(extra)
    return scene


def _legend_entries(marks: set[str], beyond: bool) -> list[str]:
    out = ["max", "min", "leaf", "pv", "pruned", "unvisited"]
    if "table" in marks:
        out.append("table")
    if beyond or "beyond" in marks:
        out.append("beyond")
    if "hint" in marks:
        out.append("hint")
    if "continued" in marks:
        out.append("continued")
    return out


LEGEND_TEXT = {"max": "MAX", "min": "MIN", "leaf": "leaf", "pv": "principal path", "pruned": "pruned",
               "unvisited": "never examined", "table": "from the table", "beyond": "past the horizon",
               "continued": "root, continued", "hint": "the table's move, searched first"}


def _legend_width(entries: list[str]) -> float:
    return sum(30 + text_width(LEGEND_TEXT[e], 10) + 12 for e in entries)


def _legend_rows(entries: list[str], width: float) -> list[list[str]]:
    rows: list[list[str]] = [[]]
    for e in entries:
        if rows[-1] and _legend_width(rows[-1] + [e]) > width:
            rows.append([])
        rows[-1].append(e)
    return rows


def _legend(entries: list[str], x: float, y: float) -> Group:
    g = Group(cls="legend", dx=x, dy=y)
    at = 0.0
    for e in entries:
        if e == "max":
            g.items.append(Poly([(at, 6), (at + 6, -6), (at + 12, 6)], fill="#ffffff", stroke=INK))
            sym = 16.0
        elif e == "min":
            g.items.append(Poly([(at, -6), (at + 12, -6), (at + 6, 6)], fill="#ffffff", stroke=INK))
            sym = 16.0
        elif e in ("leaf", "table", "beyond", "continued"):
            fill, stroke, _, dash, _ = _style({e} if e != "leaf" else set())
            g.items.append(Rect(at, -6, 14, 12, fill=fill, stroke=stroke, dash=dash))
            sym = 18.0
        elif e == "pv":
            g.items.append(Line(at, 0, at + 24, 0, stroke=PV, width=4))
            sym = 28.0
        elif e == "pruned":
            g.items.append(Line(at, 0, at + 24, 0, stroke=GREY, dash=(6, 4), width=1.5))
            g.items.append(Text(at + 12, 0, "✗", size=14, fill=CROSS, bold=True, halo=True))
            sym = 28.0
        elif e == "hint":
            g.items.append(Text(at + 6, 0, "★", size=12, fill=INK))
            sym = 16.0
        else:                                           # unvisited
            g.items.append(Line(at, 0, at + 18, 0, stroke=GREY, dash=(2, 3), width=1.3))
            sym = 22.0
        g.items.append(Text(at + sym, 0, LEGEND_TEXT[e], size=10, anchor="start"))
        at += 30 + text_width(LEGEND_TEXT[e], 10) + 12
    return g


class Node(Protocol):
    """What an explicit tree's node (``plies.games.tree.Node``) shows of itself."""

    @property
    def label(self) -> str | None: ...
    @property
    def value(self) -> float | None: ...
    @property
    def children(self) -> Sequence[Node]: ...


class MCTNode(Protocol):
    """What a Monte Carlo search tree's node (``plies.search.mcts.MCTNode``) shows of itself."""

    @property
    def state(self) -> State: ...
    @property
    def parent(self) -> MCTNode | None: ...
    @property
    def move(self) -> Move | None: ...
    @property
    def U(self) -> float: ...
    @property
    def N(self) -> int: ...
    @property
    def children(self) -> Mapping[Move, MCTNode]: ...
    def size(self) -> int: ...


def explicit_edge(parent: Node, index: int) -> str:
    """The label of an explicit tree's edge to child ``index``: ``a1``, ``a2`` ... under a node named by ASCII
    letters (the lab notes' A moves a1 to B), the child's index where neither is labelled, else nothing (the
    child's own name says it)."""
    label = parent.label
    if label and label.isascii() and label.isalpha():
        return f"{label.lower()}{index + 1}"
    if parent.children[index].label is None:
        return str(index)
    return ""


def explicit_nodes(root: Node, here: tuple[int, ...] = ()) -> list[TreeNode]:
    """An explicit tree (``plies.games.tree.Node``: ``label``, ``value``, ``children``) as nodes to draw,
    MAX at the root and levels alternating; the node at path ``here`` (if not the root) is marked current."""
    out: list[TreeNode] = []

    def walk(node: Node, path: tuple[int, ...], edge: str = "") -> None:
        nid = "r" + "".join(f".{i}" for i in path)
        parent = None if not path else "r" + "".join(f".{i}" for i in path[:-1])
        leaf = not node.children
        kind = "leaf" if leaf else ("max" if len(path) % 2 == 0 else "min")
        value = "" if not leaf or node.value is None else f"{node.value:g}"
        marks = {"current"} if path and path == here else set()
        out.append(TreeNode(nid, parent, kind, name=node.label or "", value=value, marks=marks, edge=edge,
                            tooltip=f"{node.label or nid} ({'leaf' if leaf else kind.upper()})"))
        for i, c in enumerate(node.children):
            walk(c, path + (i,), explicit_edge(node, i))

    walk(root, ())
    return out


def explicit_tree_svg(root: Node, here: tuple[int, ...] = ()) -> str:
    """The SVG of an explicit tree before any search (what ``TreeState._repr_svg_`` shows)."""
    return tree_scene(explicit_nodes(root, here), label="game tree").to_svg()


def mcts_nodes(root: MCTNode, depth: int = 2, top: int | None = 3, min_visits: int = 1) -> list[TreeNode]:
    """The top of a Monte Carlo search tree (``plies.search.mcts.MCTNode``: ``state``, ``move``, ``U``, ``N``,
    ``children``) as nodes to draw, ``depth`` plies deep: each node shows ``U/N`` (the wins of the player who
    moved into it, draws counted ½, over its visits), each edge its move; the root's player is MAX.  Below the
    root's children only the ``top`` most visited children of a node with at least ``min_visits`` visits are
    drawn (the note says how many more there are); the most visited path is the principal one."""
    me = root.state.to_move
    out: list[TreeNode] = []
    pv = {id(root)}
    n = root
    while n.children:
        n = max(n.children.values(), key=lambda c: c.N)
        if n.N == 0:
            break
        pv.add(id(n))

    def walk(node: MCTNode, nid: str, parent: str | None, d: int) -> None:
        move = ""
        if node.parent is not None and parent is not None and node.move is not None:
            move = node.parent.state.move_str(node.move)
        kids = sorted(node.children.values(), key=lambda c: -c.N)
        shown = kids if d == 0 else [c for c in kids if c.N >= min_visits][: top if top is not None else None]
        shown = shown if d < depth else []
        leaf = not node.children
        kind = "leaf" if leaf else ("max" if node.state.to_move == me else "min")
        marks = {"pv"} if id(node) in pv else set()
        if node.N == 0:
            marks.add("unvisited")
        hidden = len(node.children) - len(shown)
        note = f"+{hidden} more" if shown and hidden else ""
        value = f"{node.U:g}/{node.N}" if parent is not None else f"N={node.N}"
        out.append(TreeNode(nid, parent, kind, value=value, note=note, marks=marks, edge=move,
                            tooltip=f"{move or 'root'}: {node.U:g} of {node.N} playouts won by the mover"))
        order = {id(c): i for i, c in enumerate(node.children.values())}
        for c in sorted(shown, key=lambda c: order[id(c)]):
            walk(c, f"{nid}.{order[id(c)]}", nid, d + 1)

    walk(root, "r", None, 0)
    return out


def mcts_scene(root: MCTNode, depth: int = 2, top: int | None = 3, min_visits: int = 1, caption: str | None = None,
               max_width: float | None = SLIDE_WIDTH) -> Scene:
    """The picture of ``mcts_nodes(root, ...)`` with a caption: the move chosen and the visits."""
    nodes = mcts_nodes(root, depth, top, min_visits)
    if caption is None:
        best = max(root.children.values(), key=lambda c: c.N) if root.children else None
        caption = (f"MCTS: {root.N} playouts, {root.size()} nodes; plays "
                   f"{root.state.move_str(best.move)} (visited {best.N} times, won {best.U:g})"
                   if best is not None and best.move is not None else f"MCTS: {root.N} playouts")
        caption += "\neach node: wins of the player who moved into it / visits (a draw counts ½)"
    return tree_scene(nodes, caption, label="Monte Carlo search tree", max_width=max_width)


def positions(nodes: list[TreeNode]) -> dict[str, object]:
    """The layout as plain data for pages: width, height and each node's centre and shape size."""
    placed, width, height = layout(nodes)
    return {"width": round(width, 1), "height": round(height, 1),
            "nodes": {i: {"x": round(p.x, 1), "y": round(p.y, 1), "w": round(p.w, 1), "h": round(p.h, 1)}
                      for i, p in placed.items()}}


__all__ = ["SLIDE_WIDTH", "TreeNode", "explicit_nodes", "explicit_tree_svg", "fold", "layout", "mcts_nodes",
           "mcts_scene", "positions", "tree_scene"]
