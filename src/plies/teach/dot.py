"""Draw a recorded search with Graphviz instead of plies' own drawing (``plies tree solve --engine graphviz``).

Optional: it needs the ``graphviz`` Python package and Graphviz's ``dot`` program (Debian: apt install
graphviz), and is used only when asked for; ``plies.teach.draw`` draws every teaching picture without it.

MAX nodes are triangles pointing up, MIN nodes triangles pointing down, leaves boxes; each node shows its name
and value (``≤2`` after a cut-off), with its visit number and α/β window beside it.  Pruned branches are grey,
dashed and crossed with a red ✗; nodes never looked at are dotted; the principal path is thick and blue.
Game nodes can carry a board thumbnail.  SVG elements get ``id`` = node id and ``class`` = its marks
(``max``/``min``/``leaf``, ``pv``, ``pruned``, ``unvisited``, ``cut``) so tests and pages can read them.
"""

from __future__ import annotations

import shutil
from typing import TYPE_CHECKING

from plies.extras import optional_import
from plies.game import PliesError, State
from plies.teach.trace import NodeInfo, Trace, fmt, path_id

if TYPE_CHECKING:
    import graphviz

FONT = "DejaVu Sans"
PV_COLOUR = "#1565c0"
PRUNE_COLOUR = "#9e9e9e"
CROSS_COLOUR = "#d32f2f"
FORMATS = ("svg", "png", "pdf")
MISSING_DOT = ("graphviz's 'dot' program is not installed (Debian/Ubuntu: apt install graphviz); "
               "leave out --engine graphviz to draw with plies itself")


def require_dot() -> None:
    """Fail with one clear line when graphviz's ``dot`` program (or its Python package) is missing."""
    if shutil.which("dot") is None:
        raise PliesError(MISSING_DOT)
    optional_import("graphviz", "graphviz", "--engine graphviz")


def _classes(info: NodeInfo) -> str:
    marks = [("leaf" if info.leaf else info.kind)]
    marks += [name for name, on in (("pv", info.on_pv), ("pruned", info.pruned),
                                    ("unvisited", info.under_pruned or (not info.visited and not info.pruned)),
                                    ("cut", info.cutoff is not None and info.bound != "=")) if on]
    return " ".join(marks)


def _side_text(info: NodeInfo, windows: bool) -> str:
    """The small text beside a node: visit number and the α/β window it ended with."""
    parts = []
    if info.visit is not None:
        parts.append(f"#{info.visit}")
    if windows and info.visit is not None and info.alpha is not None and not info.leaf:
        parts.append(f"α={fmt(info.alpha, info.style)} β={fmt(info.beta, info.style)}")
    return " ".join(parts)


def board_cells(state: State) -> list[str] | None:
    """Rows of 'X' / 'O' / '.' for the boards plies can draw small (Othello, tic-tac-toe), else None."""
    n = getattr(state, "n", None)
    if hasattr(state, "black") and hasattr(state, "white") and n:
        rows = []
        for r in range(n):
            rows.append("".join("X" if state.black >> (r * n + c) & 1 else "O" if state.white >> (r * n + c) & 1
                                else "." for c in range(n)))
        return rows
    if hasattr(state, "x") and hasattr(state, "o"):
        return ["".join("X" if state.x >> (r * 3 + c) & 1 else "O" if state.o >> (r * 3 + c) & 1 else "."
                        for c in range(3)) for r in range(3)]
    return None


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _thumbnail(info: NodeInfo, last: int | None, windows: bool) -> str | None:
    """A graphviz HTML-like label: header (▲/▼, move, value), the board, the visit number and window."""
    rows = board_cells(info.state)
    if rows is None:
        return None
    n = len(rows)
    big = n <= 3
    size = 12 if big else 7
    grey = info.pruned or info.under_pruned
    cells = []
    for r, row in enumerate(rows):
        tds = []
        for c, ch in enumerate(row):
            sq = r * n + c
            if big:
                colour = "#ffffff" if sq != last else "#ffe082"
                text = {"X": "X", "O": "O"}.get(ch, " ")
                tds.append(f'<TD WIDTH="{size}" HEIGHT="{size}" FIXEDSIZE="TRUE" BGCOLOR="{colour}">'
                           f'<FONT POINT-SIZE="9">{text}</FONT></TD>')
            else:
                colour = {"X": "#111111", "O": "#f5f5f5"}.get(ch, "#2e7d32")
                if sq == last:
                    colour = "#c62828" if ch == "X" else "#ef9a9a"
                tds.append(f'<TD WIDTH="{size}" HEIGHT="{size}" FIXEDSIZE="TRUE" BGCOLOR="{colour}"></TD>')
        cells.append("<TR>" + "".join(tds) + "</TR>")
    arrow = "▲" if info.kind == "max" else "▼"
    head = f"{arrow} {_esc(info.label)}"
    value = info.value_text()
    if info.pruned:
        value = "✗"
    head += f" = {_esc(value)}" if value else ""
    side_px = n * size
    board = (f'<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="0" COLOR="#444444" FIXEDSIZE="TRUE" '
             f'WIDTH="{side_px}" HEIGHT="{side_px}">{"".join(cells)}</TABLE>')
    side = _esc(_side_text(info, windows))
    colour = PRUNE_COLOUR if grey else (PV_COLOUR if info.on_pv else "#000000")
    return (f'<<TABLE BORDER="{2 if info.on_pv else 1}" COLOR="{colour}" CELLBORDER="0" CELLSPACING="1" '
            f'CELLPADDING="1"><TR><TD><FONT POINT-SIZE="10" COLOR="{colour}">{head}</FONT></TD></TR>'
            f'<TR><TD>{board}</TD></TR>'
            + (f'<TR><TD><FONT POINT-SIZE="8" COLOR="#555555">{side}</FONT></TD></TR>' if side else "")
            + "</TABLE>>")


def to_graph(trace: Trace, thumbnails: bool | None = None, title: bool = True) -> graphviz.Digraph:
    """The graphviz description of a trace; ``thumbnails`` None = boards only when there are few nodes."""
    from plies.teach.draw import summary

    graphviz = optional_import("graphviz", "graphviz", "drawing with Graphviz")

    windows = trace.windowed
    if thumbnails is None:
        thumbnails = len(trace.nodes) <= 80 and board_cells(trace.root) is not None
    g = graphviz.Digraph("search", encoding="utf-8")
    g.attr(rankdir="TB", nodesep="0.3", ranksep="0.55", forcelabels="true", fontname=FONT)
    g.attr("node", fontname=FONT, fontsize="11")
    g.attr("edge", fontname=FONT, arrowhead="none")
    for info in trace.nodes.values():
        grey = info.pruned or info.under_pruned
        attrs: dict[str, str] = {"id": info.id, "class": _classes(info), "tooltip": info.label or info.id}
        html = None
        if thumbnails:
            last = None
            if info.path:
                move = trace.nodes[info.path[:-1]].state.legal_moves()[info.path[-1]]
                last = move if isinstance(move, int) and move >= 0 else None
            html = _thumbnail(info, last, windows)
        if html is not None:
            attrs.update(shape="plain", label=html)
        else:
            value = info.value_text()
            if not value and info.given is not None:
                value = fmt(info.given)                     # a leaf never evaluated: its number, greyed
            name = info.label if info.named else ""        # unlabelled nodes show just their value
            side = _side_text(info, windows)
            small = f'<FONT POINT-SIZE="8">{_esc(side)}</FONT>' if side else ""
            main = "<BR/>".join(_esc(x) for x in (name, value) if x) or " "
            if info.leaf:
                lines = [main, small]
                attrs.update(shape="box", margin="0.04,0.02")
            elif info.kind == "max":                        # wide base at the bottom: the window goes last
                lines = [main, small]
                attrs.update(shape="triangle", margin="0.01")
            else:                                           # MIN: wide top, window first
                lines = [small, main]
                attrs.update(shape="invtriangle", margin="0.01")
            attrs["label"] = "<" + "<BR/>".join(x for x in lines if x) + ">"
        if grey:
            attrs.update(color=PRUNE_COLOUR, fontcolor=PRUNE_COLOUR, style="dashed" if info.pruned else "dotted")
        elif info.on_pv:
            attrs.update(color=PV_COLOUR, penwidth="2.5")
        g.node(info.id, **attrs)
    for info in trace.nodes.values():
        if not info.path:
            continue
        parent = path_id(info.path[:-1])
        eattrs: dict[str, str] = {"id": f"e-{info.id}", "class": "edge"}
        if info.edge and not info.pruned:
            eattrs.update(xlabel=_esc(info.edge), fontsize="9", fontcolor="#546e7a")
        if info.pruned:
            eattrs.update(style="dashed", color=PRUNE_COLOUR, label="✗", fontcolor=CROSS_COLOUR, fontsize="18",
                          **{"class": "edge pruned"})
        elif info.under_pruned:
            eattrs.update(style="dotted", color=PRUNE_COLOUR, **{"class": "edge unvisited"})
        elif info.on_pv:
            eattrs.update(color=PV_COLOUR, penwidth="3", **{"class": "edge pv"})
        g.edge(parent, info.id, **eattrs)
    if title:
        g.attr(label=summary(trace), labelloc="b", fontsize="12")
    return g


def render(trace: Trace, fmt_: str = "svg", thumbnails: bool | None = None) -> bytes:
    """The picture as bytes in ``fmt_`` (svg, png, pdf), laid out and drawn by Graphviz."""
    if fmt_ not in FORMATS:
        raise PliesError(f"cannot draw {fmt_!r}; choose from: {', '.join(FORMATS)}")
    require_dot()
    graphviz = optional_import("graphviz", "graphviz", "drawing with Graphviz")
    try:
        return to_graph(trace, thumbnails).pipe(format=fmt_)
    except graphviz.ExecutableNotFound:
        raise PliesError(MISSING_DOT) from None
    except graphviz.CalledProcessError as e:
        raise PliesError(f"graphviz failed: {(e.stderr or b'').decode(errors='replace').strip()[:200]}") from None
