"""Replay a textbook search (``plies.search``) as a table of nodes and a list of steps, for teaching views.

The search itself is the single source of truth: values, cut-offs, the chosen move and the counts come from
``plies.search.minimax`` / ``alphabeta`` through a ``Tracer``.  This module only records what the tracer
reports, names the nodes by their path of child indices from the root, and writes each step as a sentence
(``α cut-off at C: 2 ≤ α=3``).  α and β between events are followed with the same rule as the search
(MAX raises α to its best value, MIN lowers β) and checked against the search's own numbers at every cut-off.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from plies.game import WIN, PliesError, describe_value
from plies.games.tree import Node, TreeState, tree_height
from plies.heuristics import Evaluation, get
from plies.search import SearchResult, Tracer, alphabeta, minimax

Path = tuple[int, ...]
ALGORITHMS = ("minimax", "alphabeta")
ORDERS = ("left", "right", "best")


def fmt(v: float | None) -> str:
    """A value as the lessons write it: ``+∞``, ``−∞``, ``3``, ``2.5``, ``win by 4``."""
    if v is None:
        return "?"
    if v == math.inf:
        return "+∞"
    if v == -math.inf:
        return "−∞"
    if abs(v) >= WIN:
        return describe_value(v)
    return f"{v:g}"


def jnum(v: float | None) -> float | str | None:
    """A value for JSON: infinities as the strings ``"inf"`` / ``"-inf"`` (JSON has no infinity)."""
    if v is None:
        return None
    if v == math.inf:
        return "inf"
    if v == -math.inf:
        return "-inf"
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def path_id(path: Path) -> str:
    """A node's id in pictures and JSON: ``r`` for the root, ``r.1.0`` for its 2nd child's 1st child."""
    return "r" + "".join(f".{i}" for i in path)


class Tracked:
    """Any game state plus the path of child indices (in ``legal_moves()`` order) that reached it."""

    __slots__ = ("state", "path", "_moves")

    def __init__(self, state: Any, path: Path = ()) -> None:
        self.state = state
        self.path = path
        self._moves: list[Any] | None = None

    @property
    def to_move(self) -> int:
        return self.state.to_move

    def legal_moves(self) -> list[Any]:
        if self._moves is None:
            self._moves = self.state.legal_moves()
        return list(self._moves)

    def is_over(self) -> bool:
        return not self.legal_moves()

    def utility(self, player: int) -> float:
        return self.state.utility(player)

    def index(self, move: Any) -> int:
        return self.legal_moves().index(move)

    def play(self, move: Any) -> Tracked:
        return Tracked(self.state.play(move), self.path + (self.index(move),))


@dataclass
class NodeInfo:
    """One node as a lesson shows it: who moves, its value (``bound`` ``≤``/``≥`` after a cut-off), the α/β
    window when it was visited, its place in the visit order, and whether it was pruned."""

    path: Path
    label: str
    move: str | None
    kind: str                       # "max" or "min" (relative to the root player)
    leaf: bool
    state: Any = field(repr=False, default=None)
    value: float | None = None
    bound: str = "="
    alpha: float | None = None
    beta: float | None = None
    visit: int | None = None
    pruned: bool = False            # the top of a pruned subtree (the exercise's X)
    under_pruned: bool = False      # inside a pruned subtree (never looked at)
    cutoff: str | None = None       # "alpha" / "beta" when this node was cut off
    best_child: int | None = None
    on_pv: bool = False
    given: float | None = None      # an explicit tree's leaf value, shown greyed when never evaluated
    named: bool = True              # False for explicit-tree nodes without a label (named by their path)

    @property
    def id(self) -> str:
        return path_id(self.path)

    @property
    def visited(self) -> bool:
        return self.visit is not None

    def value_text(self) -> str:
        if self.value is None:
            return ""
        return ("" if self.bound == "=" else self.bound) + fmt(self.value)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "path": list(self.path), "label": self.label, "move": self.move, "kind": self.kind,
            "leaf": self.leaf, "value": jnum(self.value), "value_text": self.value_text(), "bound": self.bound,
            "alpha": jnum(self.alpha), "beta": jnum(self.beta), "visit": self.visit, "pruned": self.pruned,
            "under_pruned": self.under_pruned, "cutoff": self.cutoff, "best_child": self.best_child,
            "on_pv": self.on_pv, "given": jnum(self.given), "named": self.named,
        }


@dataclass
class Step:
    """One moment of the search: what happened at which node, the window there, and the sentence for it."""

    kind: str                       # enter / leaf / exit / alpha-cutoff / beta-cutoff
    path: Path
    text: str
    value: float | None = None
    alpha: float | None = None
    beta: float | None = None
    parent: Path | None = None      # the node whose best/α/β changed with this value
    parent_best: float | None = None
    parent_alpha: float | None = None
    parent_beta: float | None = None
    pruned: list[Path] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "id": path_id(self.path), "path": list(self.path), "text": self.text,
            "value": jnum(self.value), "alpha": jnum(self.alpha), "beta": jnum(self.beta),
            "parent": None if self.parent is None else path_id(self.parent),
            "parent_best": jnum(self.parent_best), "parent_alpha": jnum(self.parent_alpha),
            "parent_beta": jnum(self.parent_beta), "pruned": [path_id(p) for p in self.pruned],
        }


@dataclass
class _Frame:
    path: Path
    is_max: bool
    alpha: float
    beta: float
    best: float
    best_child: int | None = None


class TooBig(PliesError):
    """The search tree grew past the node limit of a picture or page."""


class StepTracer(Tracer):
    """Collects the search's events into NodeInfo and Step records (nodes are ``Tracked`` states)."""

    def __init__(self, root: Tracked, algorithm: str, max_nodes: int | None = None) -> None:
        self.max_nodes = max_nodes
        self.max_player = root.to_move
        self.windows = algorithm == "alphabeta"
        self.nodes: dict[Path, NodeInfo] = {}
        self.steps: list[Step] = []
        self.frames: list[_Frame] = []
        self.pruned: list[Path] = []
        self.visits = 0
        self.consistent = True       # the followed α/β equalled the search's own at every cut-off

    # -- helpers ---------------------------------------------------------------------------------
    def _info(self, node: Tracked, leaf: bool) -> NodeInfo:
        info = self.nodes.get(node.path)
        if info is None:
            kind = "max" if node.to_move == self.max_player else "min"
            name, move = _label(node, self.nodes.get(node.path[:-1]) if node.path else None)
            info = NodeInfo(node.path, name, move, kind, leaf, state=node.state)
            if isinstance(node.state, TreeState) and node.state.node.label is None:
                info.named = False
            self.nodes[node.path] = info
            if self.max_nodes is not None and len(self.nodes) > self.max_nodes:
                hint = "" if self.windows else ", alpha-beta"
                raise TooBig(f"the search tree has more than {self.max_nodes} nodes to show: use a smaller depth, "
                             f"a position with fewer moves{hint} or a higher node limit")
        return info

    def _visit(self, info: NodeInfo, alpha: float | None, beta: float | None) -> None:
        self.visits += 1
        info.visit = self.visits
        if self.windows:
            info.alpha, info.beta = alpha, beta

    def _report(self, step: Step, child: Path, v: float) -> None:
        """A child's value reaches its parent: update the parent's best and window like the search does."""
        if not self.frames:
            return
        f = self.frames[-1]
        idx = child[-1]
        if (v > f.best) if f.is_max else (v < f.best):
            f.best, f.best_child = v, idx
        pinfo = self.nodes[f.path]
        who = pinfo.label or path_id(f.path)
        cut = self.windows and (f.best >= f.beta if f.is_max else f.best <= f.alpha)
        if self.windows and not cut:
            if f.is_max:
                f.alpha = max(f.alpha, f.best)
            else:
                f.beta = min(f.beta, f.best)
        step.parent, step.parent_best = f.path, f.best
        if self.windows:
            step.parent_alpha, step.parent_beta = f.alpha, f.beta
            bound = f"α={fmt(f.alpha)}" if f.is_max else f"β={fmt(f.beta)}"
            step.text += f" → {who} ({'MAX' if f.is_max else 'MIN'}): best {fmt(f.best)}, {bound}"
        else:
            step.text += f" → {who} ({'MAX' if f.is_max else 'MIN'}): best {fmt(f.best)}"

    # -- tracer events ---------------------------------------------------------------------------
    def enter(self, node: Tracked, alpha: float, beta: float) -> None:
        info = self._info(node, leaf=False)
        self._visit(info, alpha, beta)
        is_max = node.to_move == self.max_player
        self.frames.append(_Frame(node.path, is_max, alpha, beta, -math.inf if is_max else math.inf))
        who = "MAX" if is_max else "MIN"
        text = f"Enter {info.label} ({who})" + (f" with α={fmt(alpha)}, β={fmt(beta)}" if self.windows else "")
        self.steps.append(Step("enter", node.path, text, None, *((alpha, beta) if self.windows else (None, None))))

    def leaf(self, node: Tracked, value: float) -> None:
        info = self._info(node, leaf=True)
        f = self.frames[-1] if self.frames else None
        window = (f.alpha, f.beta) if f is not None else (-math.inf, math.inf)
        self._visit(info, *window)
        info.value = value
        step = Step("leaf", node.path, f"Leaf {info.label} = {fmt(value)}", value,
                    *(window if self.windows else (None, None)))
        self._report(step, node.path, value)
        self.steps.append(step)

    def cutoff(self, node: Tracked, kind: str, value: float, alpha: float, beta: float, skipped: list[Any]) -> None:
        f = self.frames[-1]
        if f.path != node.path or f.alpha != alpha or f.beta != beta or f.best != value:
            self.consistent = False
        info = self.nodes[node.path]
        info.cutoff = kind
        paths = [node.path + (node.index(m),) for m in skipped]
        self.pruned.extend(paths)
        for p, m in zip(paths, skipped, strict=True):
            child = Tracked(node.state.play(m), p)
            c = self._info(child, leaf=False)
            c.pruned = True
        if kind == "beta":
            cond = f"β cut-off at {info.label}: {fmt(value)} ≥ β={fmt(beta)}"
        else:
            cond = f"α cut-off at {info.label}: {fmt(value)} ≤ α={fmt(alpha)}"
        names = ", ".join(self.nodes[p].label for p in paths)
        cond += f" — pruned: {names}" if paths else " (no moves left to prune)"
        if paths:
            info.bound = "≥" if kind == "beta" else "≤"
        self.steps.append(Step(kind + "-cutoff", node.path, cond, value, alpha, beta, pruned=paths))

    def exit(self, node: Tracked, value: float) -> None:
        f = self.frames.pop()
        info = self.nodes[node.path]
        info.value, info.best_child = value, f.best_child
        step = Step("exit", node.path, f"{info.label} = {info.value_text()} (final)", value)
        self._report(step, node.path, value)
        self.steps.append(step)


@dataclass
class Trace:
    """A finished, recorded search: the result, every node shown, every step, the pruned subtrees."""

    root: Any
    algorithm: str
    order: str
    depth: int
    result: SearchResult
    nodes: dict[Path, NodeInfo]
    steps: list[Step]
    pruned: list[Path]
    pv: list[Path]
    consistent: bool

    @property
    def value(self) -> float:
        return self.result.value

    @property
    def leaves_evaluated(self) -> int:
        return self.result.stats.leaves

    @property
    def best_index(self) -> int | None:
        return None if not self.pv else self.pv[0][0]

    @property
    def best(self) -> str | int | None:
        """The chosen child: its label where it has one, else its index (explicit trees) or move (games)."""
        if self.best_index is None:
            return None
        info = self.nodes[self.pv[0]]
        if isinstance(self.root, TreeState):
            return self.root.node.children[self.best_index].label or self.best_index
        return info.move

    def _repr_svg_(self) -> str:
        """The tree as a notebook shows it: plies' own picture of the finished search."""
        from plies.teach.draw import svg

        return svg(self)

    def stepper(self) -> Any:
        """A ``Stepper`` on this search (forward, back, α/β at each step; ``.widget()`` in a notebook)."""
        from plies.teach.stepper import Stepper

        return Stepper(self)

    def visit_order(self) -> list[NodeInfo]:
        return sorted((n for n in self.nodes.values() if n.visited), key=lambda n: n.visit or 0)

    def to_dict(self, steps: bool = False) -> dict[str, Any]:
        d: dict[str, Any] = {
            "algorithm": self.algorithm, "order": self.order, "depth": self.depth,
            "value": jnum(self.value), "best": self.best, "best_index": self.best_index,
            "pruned": [list(p) for p in self.pruned], "leaves_evaluated": self.leaves_evaluated,
            "nodes_visited": self.result.stats.nodes, "alpha_cutoffs": self.result.stats.alpha_cutoffs,
            "beta_cutoffs": self.result.stats.beta_cutoffs,
            "pv": [list(p) for p in self.pv],
            "visit_order": [n.id for n in self.visit_order()],
            "nodes": [n.to_dict() for n in self.nodes.values()],
        }
        if steps:
            d["steps"] = [s.to_dict() for s in self.steps]
        return d


def _label(node: Tracked, parent: NodeInfo | None) -> tuple[str, str | None]:
    """(label, move): an explicit tree's own label (else its path), a game node's move (``d3``)."""
    s = node.state
    if isinstance(s, TreeState):
        move = None if not node.path else str(node.path[-1])
        if s.node.label is not None:
            return s.node.label, move
        return ("root" if not node.path else "[" + ",".join(map(str, node.path)) + "]"), move
    if not node.path or parent is None:
        return "root", None
    ps = parent.state
    move = ps.move_str(ps.legal_moves()[node.path[-1]])
    return move, move


def _exact(node: Node, is_max: bool, memo: dict[int, float]) -> float:
    key = id(node)
    if key not in memo:
        if node.is_leaf:
            memo[key] = float(node.value if node.value is not None else 0)
        else:
            vals = [_exact(c, not is_max, memo) for c in node.children]
            memo[key] = max(vals) if is_max else min(vals)
    return memo[key]


def make_order(kind: str, root: Any, evaluate: Evaluation) -> Any:
    """Move ordering for ``alphabeta(order=...)``: ``left`` (as given), ``right`` (reversed), ``best``
    (explicit trees: by each child's true minimax value, the perfect order; games: by the evaluation of the
    position after the move, best for the mover first)."""
    if kind == "left":
        return None
    if kind == "right":
        return lambda node, moves: list(reversed(moves))
    if kind != "best":
        raise PliesError(f"unknown order {kind!r}; choose from: {', '.join(ORDERS)}")
    max_player = root.to_move
    if isinstance(root, TreeState):
        memo: dict[int, float] = {}

        def by_value(node: Tracked, moves: list[Any]) -> list[Any]:
            mover_max = node.to_move == max_player
            kids = node.state.node.children
            return sorted(moves, key=lambda m: _exact(kids[m], not mover_max, memo), reverse=mover_max)

        return by_value

    def by_eval(node: Tracked, moves: list[Any]) -> list[Any]:
        mover_max = node.to_move == max_player
        return sorted(moves, key=lambda m: evaluate(node.state.play(m), max_player), reverse=mover_max)

    return by_eval


def trace_search(
    state: Any, depth: int, evaluate: Evaluation, algorithm: str = "alphabeta", order: str = "left",
    max_nodes: int | None = None,
) -> Trace:
    """Run the textbook search on ``state`` with a recording tracer and return the whole trace."""
    if algorithm not in ALGORITHMS:
        raise PliesError(f"unknown algorithm {algorithm!r}; choose from: {', '.join(ALGORITHMS)}")
    root = Tracked(state)
    tracer = StepTracer(root, algorithm, max_nodes)
    ev = lambda node, player: evaluate(node.state, player)
    if algorithm == "minimax":
        order = "left"                      # plies.search.minimax walks the moves as generated
        result = minimax(root, depth, ev, tracer=tracer)
    else:
        result = alphabeta(root, depth, ev, order=make_order(order, state, evaluate), tracer=tracer)
    nodes = tracer.nodes
    if isinstance(state, TreeState):
        _add_unvisited(state, nodes)
    nodes = dict(sorted(nodes.items()))
    pv: list[Path] = []
    s = root
    path: tuple[int, ...] = ()
    for m in result.pv:
        path = path + (s.index(m),)
        s = s.play(m)
        pv.append(path)
    nodes[()].on_pv = True
    for p in pv:
        nodes[p].on_pv = True
    for p in tracer.pruned:
        for q, info in nodes.items():
            if len(q) > len(p) and q[: len(p)] == p:
                info.under_pruned = True
    if tracer.steps and tracer.steps[-1].path == () and result.move is not None:
        last = tracer.steps[-1]
        chosen = nodes[pv[0]]
        last.text += f": {nodes[()].kind.upper()} chooses {chosen.label or chosen.move}"
    return Trace(state, algorithm, order, depth, result, nodes, tracer.steps, tracer.pruned, pv, tracer.consistent)


def _add_unvisited(root: TreeState, nodes: dict[Path, NodeInfo]) -> None:
    """Explicit trees: add the nodes inside pruned subtrees (never visited) so the picture is complete."""

    def walk(node: Node, path: Path) -> None:
        info = nodes.get(path)
        if info is None:
            s = TreeState(root.root, path)
            name = node.label if node.label is not None else "[" + ",".join(map(str, path)) + "]"
            info = NodeInfo(path, name, str(path[-1]) if path else None, "max" if len(path) % 2 == 0 else "min",
                            node.is_leaf, state=s, named=node.label is not None)
            nodes[path] = info
        info.leaf = node.is_leaf
        if node.is_leaf:
            info.given = node.value
        for i, c in enumerate(node.children):
            walk(c, path + (i,))

    walk(root.root, ())


def _check_leaves(node: Node) -> None:
    if node.is_leaf:
        if node.value is None or not math.isfinite(node.value):
            raise PliesError(f"a leaf value must be a finite number, got {node.value!r}")
        return
    for c in node.children:
        _check_leaves(c)


def solve_tree(tree: Any, algorithm: str = "alphabeta", order: str = "left") -> Trace:
    """Solve an explicit tree (Node, nested list, dict form or TreeState) to its leaves: the exercise's answer."""
    state = tree if isinstance(tree, TreeState) else TreeState(tree)
    _check_leaves(state.root)
    return trace_search(state, tree_height(state.root), get("tree", "leaf"), algorithm, order)
