"""Pictures of a recorded search, drawn by plies itself (``plies.draw``: no system program needed).

MAX nodes are triangles pointing up, MIN nodes triangles pointing down, leaves boxes; each node shows its name
and value (``≤2`` after a cut-off) with its visit number and α/β window under it.  Pruned branches are grey,
dashed and crossed with a red ✗; nodes never looked at are dotted; the principal path is thick and blue; the
caption gives the answer.  Game nodes can carry a board thumbnail.  SVG groups get ``id`` = node id and
``class`` = its marks (``node max|min|leaf pv pruned unvisited cut``; edges ``edge pv|pruned|unvisited``), so
tests and pages can read them.  PNG and PDF come from the same scene through matplotlib.

``engine="graphviz"`` draws with Graphviz's ``dot`` instead (``plies.teach.dot``, optional).
"""

from __future__ import annotations

from pathlib import Path as FsPath
from typing import TYPE_CHECKING, cast

from plies import draw as canvas
from plies.draw.boards import thumbnail
from plies.draw.tree import SLIDE_WIDTH, TreeNode, positions, tree_scene
from plies.game import PliesError, State
from plies.games import type_of
from plies.games.tree import TreeState
from plies.i18n import N_, _, ngettext
from plies.teach.schema import Layout
from plies.teach.trace import NodeInfo, Trace, fmt, path_id

if TYPE_CHECKING:
    from plies.draw import Scene
    from plies.teach.stepper import Snapshot

FORMATS = canvas.FORMATS
ENGINES = ("plies", "graphviz")
THUMBNAIL_LIMIT = 80


NAMES = {"minimax": "minimax", "alphabeta": N_("alpha-beta"), "quiescence": N_("alpha-beta + quiescence"),
         "extension": N_("alpha-beta + extension"), "id+tt": N_("alpha-beta with a table")}


def summary(trace: Trace) -> str:
    """One line: algorithm, value, the choice, how much was pruned."""
    name = _(NAMES.get(trace.algorithm, trace.algorithm))
    if trace.algorithm == "id+tt":
        name = _("iteration {depth} ({name})").format(depth=trace.depth, name=name)
    text = _("{algorithm}: value {value}, MAX chooses {choice}; ").format(
        algorithm=name, value=trace.fmt(trace.value), choice=trace.best_text)
    n = trace.leaves_evaluated
    text += ngettext("{n} leaf evaluated", "{n} leaves evaluated", n).format(n=n)
    if trace.windowed:
        n = len(trace.pruned)
        text += ngettext(", {n} branch pruned", ", {n} branches pruned", n).format(n=n)
    hits = sum(1 for n in trace.nodes.values() if n.table)
    if hits:
        text += ngettext(", {n} position from the table", ", {n} positions from the table", hits).format(n=hits)
    return text


def _last_move(trace: Trace, info: NodeInfo) -> int | None:
    if not info.path:
        return None
    parent = trace.nodes[info.path[:-1]].state
    move = parent.legal_moves()[info.path[-1]]
    return move if isinstance(move, int) and move >= 0 else None


def _window(trace: Trace, alpha: float | None, beta: float | None) -> str:
    return f"α={trace.fmt(alpha)} β={trace.fmt(beta)}"


def _is_leaf(trace: Trace, info: NodeInfo) -> bool:
    """Drawn as a leaf: evaluated there, or (never visited) at the depth limit of a game's search."""
    if info.leaf or isinstance(trace.root, TreeState):
        return info.leaf
    return not info.visited and len(info.path) >= trace.depth


def horizon(trace: Trace) -> int | None:
    """The depth limit of a search that looked past it (quiescence, extension), else None."""
    if isinstance(trace.root, TreeState):
        return None
    return trace.depth if any(len(p) > trace.depth for p in trace.nodes) else None


def _extra_notes(trace: Trace, info: NodeInfo) -> list[str]:
    out = []
    if info.table:
        out.append("table")
    if info.stand is not None:
        out.append(f"stand pat {trace.fmt(info.stand)}")
    if info.hint:
        out.append("★")
    return out


def _thumbnail(state: State, last: int | None) -> Scene | None:
    """A node's small board: the game's own picture, else its square board from its type's view (Connect Four)."""
    board = thumbnail(state, last)
    t = type_of(state)
    if board is None and t is not None:
        board = thumbnail(state, last, view=t.view(state))
    return board


def tree_nodes(trace: Trace, thumbnails: bool | None = None, view: Snapshot | None = None,
               under: tuple[int, ...] = ()) -> list[TreeNode]:
    """The drawing's nodes for ``trace``: the finished search, or with ``view`` the search after k steps; with
    ``under`` (a path), only that node and the nodes below it.  A node's note is its visit number and the α/β
    window it holds at that moment (at the end: the window it ended with), as the Learn page shows it."""
    windows = trace.windowed
    game = not isinstance(trace.root, TreeState)
    shown = [info for info in trace.nodes.values() if info.path[: len(under)] == under]
    if thumbnails is None:
        thumbnails = len(shown) <= THUMBNAIL_LIMIT and _thumbnail(trace.root, None) is not None
    out = []
    for info in shown:
        leaf = _is_leaf(trace, info)
        kind = "leaf" if leaf else info.kind
        marks: set[str] = set()
        note_parts: list[str] = []
        if info.table:
            marks.add("table")
        if info.hint:
            marks.add("hint")
        if game and len(info.path) > trace.depth:
            marks.add("beyond")
        if view is None:
            value = info.value_text()
            if not value and info.given is not None:
                value = fmt(info.given)                     # a leaf never evaluated: its number, greyed
            if info.on_pv:
                marks.add("pv")
            if info.pruned:
                marks.add("pruned")
            if info.under_pruned or (not info.visited and not info.pruned):
                marks.add("unvisited")
            if info.cutoff is not None and info.bound != "=":
                marks.add("cut")
            if info.visit is not None:
                note_parts.append(f"#{info.visit}")
                note_parts += _extra_notes(trace, info)
                if windows and info.alpha is not None and not leaf and not info.table:
                    note_parts.append(_window(trace, info.alpha, info.beta))
        else:
            nv = view.nodes[info.path]
            value = nv.value or (fmt(info.given) if info.leaf and info.given is not None else "")
            if nv.pruned:
                marks.add("pruned" if info.pruned else "unvisited")
            elif not nv.visited:
                marks.add("unseen")
                marks.discard("table")
            if view.current == info.path:
                marks.add("current")
            if view.done and info.on_pv:
                marks.add("pv")
            if nv.visited:
                note_parts.append(f"#{info.visit}")
                note_parts += _extra_notes(trace, info)
                if windows and nv.alpha is not None and not leaf and not info.table:
                    note_parts.append(_window(trace, nv.alpha, nv.beta))
        board = _thumbnail(info.state, _last_move(trace, info)) if thumbnails else None
        name = info.label if info.named else ""
        if game and info.path:
            name = ""                                       # a game node's move is written on its edge
        if board is not None and "pruned" in marks:
            value = ""
        who = "leaf" if leaf else info.kind.upper()
        out.append(TreeNode(
            id=info.id, parent=None if info.path == under else path_id(info.path[:-1]), kind=kind, name=name,
            value=value, note=" ".join(note_parts), marks=marks, board=board, edge=info.edge,
            tooltip=f"{info.label} ({who})" + (f" = {info.value_text()}" if info.value_text() and view is None else ""),
        ))
    return out


def scene(trace: Trace, thumbnails: bool | None = None, view: Snapshot | None = None, caption: bool = True,
          legend: bool = True, max_width: float | None = SLIDE_WIDTH, under: tuple[int, ...] = ()) -> canvas.Scene:
    """The picture of ``trace`` as a scene (see ``plies.draw``); with ``view``, after k steps only; with
    ``under``, the part of the tree below that node (a path of child indices).  Wider than ``max_width`` (a
    slide, by default), the tree is folded into bands; ``None`` keeps it whole."""
    if under and under not in trace.nodes:
        raise PliesError(f"the search has no node {list(under)}")
    text = ""
    if caption and under:
        top = trace.nodes[under]
        count = sum(1 for p in trace.nodes if p[: len(under)] == under)
        text = (f"{NAMES.get(trace.algorithm, trace.algorithm)} below {top.label}: {count} nodes, value "
                f"{top.value_text() or '—'}")
    elif caption:
        if view is None or view.done:
            text = summary(trace)
            if trace.windowed and trace.pruned:
                names = ", ".join(trace.nodes[p].label for p in trace.pruned)
                text += f"\npruned (✗): {_shorten(names, 150)}"
        else:
            text = f"step {view.k} / {view.total}: {view.text}"
    name = NAMES.get(trace.algorithm, trace.algorithm)
    depth_limit = horizon(trace)
    return tree_scene(tree_nodes(trace, thumbnails, view, under), text, legend=legend, label=f"{name} search tree",
                      horizon=None if depth_limit is None else depth_limit - len(under), max_width=max_width,
                      horizon_label="" if depth_limit is None else f"horizon: depth {depth_limit}")


def _shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(", ", 1)[0] + ", …"


def svg(trace: Trace, thumbnails: bool | None = None, max_width: float | None = SLIDE_WIDTH) -> str:
    """The finished search's picture as SVG text."""
    return str(scene(trace, thumbnails, max_width=max_width).to_svg())


def render(trace: Trace, fmt_: str = "svg", thumbnails: bool | None = None, engine: str = "plies",
           max_width: float | None = SLIDE_WIDTH) -> bytes:
    """The picture as bytes in ``fmt_`` (svg, png, pdf); ``engine`` plies (default) or graphviz; wider than
    ``max_width`` points, plies folds the tree (``None``: never)."""
    fmt_ = fmt_.lower()
    if engine not in ENGINES:
        raise PliesError(f"unknown drawing engine {engine!r}; choose from: {', '.join(ENGINES)}")
    if fmt_ not in FORMATS:
        raise PliesError(f"cannot draw {fmt_!r}; choose from: {', '.join(FORMATS)}")
    if engine == "graphviz":
        from plies.teach import dot

        return dot.render(trace, fmt_, thumbnails)
    return canvas.render(scene(trace, thumbnails, max_width=max_width), fmt_)


def save(trace: Trace, path: str, thumbnails: bool | None = None, engine: str = "plies",
         max_width: float | None = SLIDE_WIDTH) -> str:
    """Write the picture to ``path`` in the format its suffix names (.svg, .png, .pdf); returns the path."""
    suffix = FsPath(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise PliesError(f"cannot draw {suffix or 'a file without a suffix'!r}; choose from: {', '.join(FORMATS)}")
    data = render(trace, suffix, thumbnails, engine, max_width)
    try:
        FsPath(path).write_bytes(data)
    except OSError as e:
        raise PliesError(f"cannot write {path}: {e.strerror}") from None
    return path


def layout(trace: Trace) -> Layout:
    """Node positions from plies' tidy layout (centres and shape sizes, y downwards) for pages that draw the
    tree themselves; the same positions as the SVG picture (without thumbnails)."""
    return cast(Layout, positions(tree_nodes(trace, thumbnails=False)))


__all__ = ["ENGINES", "FORMATS", "layout", "render", "save", "scene", "summary", "svg", "tree_nodes"]
