"""Replay a textbook search (``plies.search``) as a table of nodes and a list of steps, for teaching views.

The search itself is the single source of truth: values, cut-offs, the chosen move and the counts come from
``plies.search.minimax`` / ``alphabeta`` through a ``Tracer``.  This module only records what the tracer
reports, names the nodes by their path of child indices from the root, and writes each step as a sentence
(``α cut-off at C: 2 ≤ α=3``).  α and β between events are followed with the same rule as the search
(MAX raises α to its best value, MIN lowers β) and checked against the search's own numbers at every cut-off.

The steps follow the lab notes' rule: when a node gets a value, its parent's bound is updated first (α at a MAX
parent, β at a MIN parent); a cut-off is reported afterwards, when the parent's window has closed (α ≥ β).  A
node's window starts as its parent's (``entry_alpha``, ``entry_beta``) and moves as its children report;
``alpha`` and ``beta`` are the window it ends with, which every picture and page shows.

Values are written as the course writes them: finished tic-tac-toe games as +1 / −1 / 0 (the slides'
utilities) where the evaluation cannot exceed 1 in size or the search reaches the end of the game, else as
``win`` / ``loss``; finished Othello games with their margin (``win by 4``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from plies.draw.tree import explicit_edge
from plies.game import WIN, Move, PliesError, State, describe_value
from plies.games import type_of
from plies.games.tree import Node, TreeState, tree_height
from plies.heuristics import Evaluation, get
from plies.i18n import N_, _
from plies.search import SearchResult, Tracer, alphabeta, minimax
from plies.search.alphabeta import MoveOrder
from plies.teach.schema import NodeDict, StepDict, TraceDict

if TYPE_CHECKING:
    from plies.teach.stepper import Stepper

Path = tuple[int, ...]
ALGORITHMS = ("minimax", "alphabeta", "quiescence", "extension")
ORDERS = ("left", "right", "best")


def fmt(v: float | None, style: str = "margin") -> str:
    """A value as the lessons write it: ``+∞``, ``−∞``, ``3``, ``2.5``, ``win by 4`` (``margin``; ``+1`` / ``−1``,
    the tic-tac-toe slides' utilities, in the ``unit`` style; ``win`` / ``loss`` in the ``result`` style)."""
    if v is None:
        return "?"
    if v == math.inf:
        return "+∞"
    if v == -math.inf:
        return "−∞"
    if abs(v) >= WIN:
        if style == "unit":
            return "+1" if v > 0 else "−1"
        if style == "result":
            return "win" if v > 0 else "loss"
        return describe_value(v)
    if style == "unit" and v > 0:
        return f"+{v:g}"
    return f"{v:g}"


def value_style(state: State, depth: int, evaluate: Evaluation) -> str:
    """The style a trace of ``state`` writes values in: ``unit`` for a game whose results carry no margin (its
    type's ``result``: tic-tac-toe, Connect Four) when the evaluation never exceeds 1 in size or the search reaches
    every game's end; ``result`` for such a game under a bigger evaluation (a win outranks every evaluation); else
    ``margin``."""
    t = type_of(state)
    if t is None or t.result != "result":
        return "margin"
    bound = getattr(evaluate, "bound", None)
    left = t.max_plies(state)
    if (bound is not None and bound <= 1) or (left is not None and depth >= left):
        return "unit"
    return "result"


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
    """Any game state plus the path of child indices (in ``legal_moves()`` order) that reached it.  Two tracked
    nodes are equal when their states are (a transposition table finds a position reached another way)."""

    __slots__ = ("state", "path", "_moves")

    def __init__(self, state: State, path: Path = ()) -> None:
        self.state = state
        self.path = path
        self._moves: list[Move] | None = None

    @property
    def to_move(self) -> int:
        return self.state.to_move

    def legal_moves(self) -> list[Move]:
        if self._moves is None:
            self._moves = self.state.legal_moves()
        return list(self._moves)

    def is_over(self) -> bool:
        return not self.legal_moves()

    def utility(self, player: int) -> float:
        return self.state.utility(player)

    def index(self, move: Move) -> int:
        return self.legal_moves().index(move)

    def play(self, move: Move) -> Tracked:
        return Tracked(self.state.play(move), self.path + (self.index(move),))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tracked) and self.state == other.state

    def __hash__(self) -> int:
        return hash(self.state)


@dataclass
class NodeInfo:
    """One node as a lesson shows it: who moves, its value (``bound`` ``≤``/``≥`` after a cut-off), its α/β
    window (``entry_alpha``/``entry_beta`` as copied from its parent, ``alpha``/``beta`` as it ended), its place
    in the visit order, and whether it was pruned."""

    path: Path
    label: str
    move: str | None
    kind: str                       # "max" or "min" (relative to the root player)
    leaf: bool
    state: State = field(repr=False)
    value: float | None = None
    bound: str = "="
    alpha: float | None = None
    beta: float | None = None
    entry_alpha: float | None = None
    entry_beta: float | None = None
    visit: int | None = None
    pruned: bool = False            # the top of a pruned subtree (the exercise's X)
    under_pruned: bool = False      # inside a pruned subtree (never looked at)
    cutoff: str | None = None       # "alpha" / "beta" when this node was cut off
    best_child: int | None = None
    on_pv: bool = False
    given: float | None = None      # an explicit tree's leaf value, shown greyed when never evaluated
    named: bool = True              # False for explicit-tree nodes without a label (named by their path)
    edge: str = ""                  # the label of the edge into this node: the move (d3, a1), or ""
    style: str = "margin"           # how values are written (see ``fmt``)
    table: str | None = None        # its value came from the transposition table: "exact", "lower", "upper"
    stand: float | None = None      # a quiescence node's static value (the side to move may stand pat on it)
    hint: bool = False              # searched first because the table held it as the best move

    @property
    def id(self) -> str:
        return path_id(self.path)

    @property
    def visited(self) -> bool:
        return self.visit is not None

    def value_text(self) -> str:
        if self.value is None:
            return ""
        return ("" if self.bound == "=" else self.bound) + fmt(self.value, self.style)

    def to_dict(self) -> NodeDict:
        return {
            "id": self.id, "path": list(self.path), "label": self.label, "move": self.move, "edge": self.edge,
            "kind": self.kind, "leaf": self.leaf, "value": jnum(self.value), "value_text": self.value_text(),
            "bound": self.bound, "alpha": jnum(self.alpha), "beta": jnum(self.beta),
            "entry_alpha": jnum(self.entry_alpha), "entry_beta": jnum(self.entry_beta), "visit": self.visit,
            "pruned": self.pruned, "under_pruned": self.under_pruned, "cutoff": self.cutoff,
            "best_child": self.best_child, "on_pv": self.on_pv, "given": jnum(self.given), "named": self.named,
            "table": self.table, "stand": jnum(self.stand), "hint": self.hint,
        }


@dataclass
class Step:
    """One moment of the search: what happened at which node, the window there, and the sentence for it."""

    kind: str                       # enter / leaf / table / stand / exit / alpha-cutoff / beta-cutoff
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

    def to_dict(self) -> StepDict:
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


WINDOWED = ("alphabeta", "quiescence", "extension", "id+tt")
"""The algorithms that carry an α/β window (all but minimax)."""


class StepTracer(Tracer[Tracked]):
    """Collects the search's events into NodeInfo and Step records (nodes are ``Tracked`` states)."""

    def __init__(self, root: Tracked, algorithm: str, max_nodes: int | None = None, style: str = "margin") -> None:
        self.max_nodes = max_nodes
        self.max_player = root.to_move
        self.windows = algorithm in WINDOWED
        self.style = style
        self.nodes: dict[Path, NodeInfo] = {}
        self.steps: list[Step] = []
        self.frames: list[_Frame] = []
        self.pruned: list[Path] = []
        self.visits = 0
        self.consistent = True       # the followed α/β equalled the search's own at every cut-off

    def fmt(self, v: float | None) -> str:
        return fmt(v, self.style)

    # -- helpers ---------------------------------------------------------------------------------
    def _info(self, node: Tracked, leaf: bool) -> NodeInfo:
        info = self.nodes.get(node.path)
        if info is None:
            kind = "max" if node.to_move == self.max_player else "min"
            name, move, edge = _label(node, self.nodes.get(node.path[:-1]) if node.path else None)
            info = NodeInfo(node.path, name, move, kind, leaf, state=node.state, edge=edge, style=self.style)
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
            info.entry_alpha, info.entry_beta = alpha, beta

    def _report(self, step: Step, child: Path, v: float) -> None:
        """A child's value reaches its parent: the parent's best, then its bound (the lab notes' rule 2: α at a
        MAX parent, β at a MIN parent), as the search does."""
        if not self.frames:
            return
        f = self.frames[-1]
        idx = child[-1]
        if (v > f.best) if f.is_max else (v < f.best):
            f.best, f.best_child = v, idx
        pinfo = self.nodes[f.path]
        who = pinfo.label or path_id(f.path)
        if self.windows:
            if f.is_max:
                f.alpha = max(f.alpha, f.best)
            else:
                f.beta = min(f.beta, f.best)
        step.parent, step.parent_best = f.path, f.best
        if self.windows:
            step.parent_alpha, step.parent_beta = f.alpha, f.beta
            bound = f"α={self.fmt(f.alpha)}" if f.is_max else f"β={self.fmt(f.beta)}"
            step.text += _(" → {node} ({kind}): best {best}, {bound}").format(
                node=who, kind="MAX" if f.is_max else "MIN", best=self.fmt(f.best), bound=bound)
        else:
            step.text += _(" → {node} ({kind}): best {best}").format(
                node=who, kind="MAX" if f.is_max else "MIN", best=self.fmt(f.best))

    # -- tracer events ---------------------------------------------------------------------------
    def enter(self, node: Tracked, alpha: float, beta: float) -> None:
        info = self._info(node, leaf=False)
        self._visit(info, alpha, beta)
        is_max = node.to_move == self.max_player
        self.frames.append(_Frame(node.path, is_max, alpha, beta, -math.inf if is_max else math.inf))
        who = "MAX" if is_max else "MIN"
        text = _("Enter {node} ({kind})").format(node=info.label, kind=who) + (
            _(" with α={alpha}, β={beta}").format(alpha=self.fmt(alpha), beta=self.fmt(beta)) if self.windows else "")
        self.steps.append(Step("enter", node.path, text, None, *((alpha, beta) if self.windows else (None, None))))

    def leaf(self, node: Tracked, value: float) -> None:
        info = self._info(node, leaf=True)
        info.leaf = True
        f = self.frames[-1] if self.frames else None
        window = (f.alpha, f.beta) if f is not None else (-math.inf, math.inf)
        self._visit(info, *window)
        info.value = value
        step = Step("leaf", node.path, _("Leaf {node} = {value}").format(node=info.label, value=self.fmt(value)), value,
                    *(window if self.windows else (None, None)))
        self._report(step, node.path, value)
        self.steps.append(step)

    def table(self, node: Tracked, value: float, flag: str) -> None:
        """The transposition table answers for ``node``: its subtree is not searched again."""
        info = self._info(node, leaf=False)
        f = self.frames[-1] if self.frames else None
        window = (f.alpha, f.beta) if f is not None else (-math.inf, math.inf)
        self._visit(info, *window)
        info.value, info.table = value, flag
        info.bound = {"lower": "≥", "upper": "≤"}.get(flag, "=")
        step = Step("table", node.path, _("Table: {node} = {value} (stored, not searched again)").format(
                    node=info.label, value=info.value_text()), value, *window)
        self._report(step, node.path, value)
        self.steps.append(step)

    def stand(self, node: Tracked, value: float) -> None:
        """A quiescence node's static value: the side to move may stop here (stand pat), so it is a first best."""
        f = self.frames[-1]
        info = self.nodes[node.path]
        info.stand = value
        if (value > f.best) if f.is_max else (value < f.best):
            f.best = value
        if self.windows:
            if f.is_max:
                f.alpha = max(f.alpha, f.best)
            else:
                f.beta = min(f.beta, f.best)
        bound = f"α={self.fmt(f.alpha)}" if f.is_max else f"β={self.fmt(f.beta)}"
        text = _("Stand pat at {node}: static value {value}, best {best}, {bound}").format(
            node=info.label, value=self.fmt(value), best=self.fmt(f.best), bound=bound)
        self.steps.append(Step("stand", node.path, text, value, f.alpha, f.beta, parent=node.path,
                               parent_best=f.best, parent_alpha=f.alpha, parent_beta=f.beta))

    def cutoff(self, node: Tracked, kind: str, value: float, alpha: float, beta: float, skipped: list[Move]) -> None:
        """The search reports a cut-off with the window it held before this value (it checks, then updates);
        the followed window has taken the value already (the lab notes update, then check α ≥ β)."""
        f = self.frames[-1]
        after = (max(alpha, value), beta) if kind == "beta" else (alpha, min(beta, value))
        if f.path != node.path or (f.alpha, f.beta) != after or f.best != value or f.alpha < f.beta:
            self.consistent = False
        info = self.nodes[node.path]
        info.cutoff = kind
        paths = [node.path + (node.index(m),) for m in skipped]
        self.pruned.extend(paths)
        for p, m in zip(paths, skipped, strict=True):
            child = Tracked(node.state.play(m), p)
            c = self._info(child, leaf=False)
            c.pruned = True
        cond = _("{letter} cut-off at {node}: α={alpha} ≥ β={beta}").format(
            letter="β" if kind == "beta" else "α", node=info.label, alpha=self.fmt(f.alpha), beta=self.fmt(f.beta))
        names = ", ".join(self.nodes[p].label for p in paths)
        cond += _(" — pruned: {nodes}").format(nodes=names) if paths else _(" (no moves left to prune)")
        if paths:
            info.bound = "≥" if kind == "beta" else "≤"
        self.steps.append(Step(kind + "-cutoff", node.path, cond, value, f.alpha, f.beta, pruned=paths))

    def exit(self, node: Tracked, value: float) -> None:
        f = self.frames.pop()
        info = self.nodes[node.path]
        info.value, info.best_child = value, f.best_child
        if self.windows:
            info.alpha, info.beta = f.alpha, f.beta
        step = Step("exit", node.path, _("{node} = {value} (final)").format(node=info.label, value=info.value_text()),
                    value)
        self._report(step, node.path, value)
        self.steps.append(step)


@dataclass
class Trace:
    """A finished, recorded search: the result, every node shown, every step, the pruned subtrees."""

    root: State
    algorithm: str
    order: str
    depth: int
    result: SearchResult
    nodes: dict[Path, NodeInfo]
    steps: list[Step]
    pruned: list[Path]
    pv: list[Path]
    consistent: bool
    style: str = "margin"

    def fmt(self, v: float | None) -> str:
        """A value written in this trace's style (``+1`` for a won tic-tac-toe game, ``win by 4`` in Othello)."""
        return fmt(v, self.style)

    @property
    def windowed(self) -> bool:
        """True for the searches that carry α and β (all but minimax)."""
        return self.algorithm in WINDOWED

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

    @property
    def best_text(self) -> str:
        """The choice in words: ``B (move a1)``, ``d3``, or for a tree without labels ``the first child, [0]``."""
        if self.best_index is None:
            return "—"
        info = self.nodes[self.pv[0]]
        if isinstance(self.root, TreeState):
            if not info.named:
                return _("the {ordinal} child, {node}").format(ordinal=ordinal(self.best_index + 1), node=info.label)
            if info.edge and info.edge != info.label:
                return _("{node} (move {move})").format(node=info.label, move=info.edge)
            return info.label
        return str(info.move)

    def _repr_svg_(self) -> str:
        """The tree as a notebook shows it: plies' own picture of the finished search."""
        from plies.teach.draw import svg

        return svg(self)

    def stepper(self) -> Stepper:
        """A ``Stepper`` on this search (forward, back, α/β at each step; ``.widget()`` in a notebook)."""
        from plies.teach.stepper import Stepper

        return Stepper(self)

    def visit_order(self) -> list[NodeInfo]:
        return sorted((n for n in self.nodes.values() if n.visited), key=lambda n: n.visit or 0)

    def to_dict(self, steps: bool = False) -> TraceDict:
        d: TraceDict = {
            "algorithm": self.algorithm, "order": self.order, "depth": self.depth,
            "value": jnum(self.value), "value_text": self.fmt(self.value), "best": self.best,
            "best_index": self.best_index, "best_text": self.best_text,
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


ORDINALS = (N_("first"), N_("second"), N_("third"), N_("fourth"), N_("fifth"), N_("sixth"), N_("seventh"),
            N_("eighth"), N_("ninth"), N_("tenth"))


def ordinal(n: int) -> str:
    """1 -> ``first`` ... 10 -> ``tenth``, then ``11th``, ``12th``, ``21st``."""
    if 1 <= n <= len(ORDINALS):
        return _(ORDINALS[n - 1])
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _label(node: Tracked, parent: NodeInfo | None) -> tuple[str, str | None, str]:
    """(label, move, edge): an explicit tree's own label (else its path), a game node's move (``d3``); the
    label of the edge into it."""
    s = node.state
    if isinstance(s, TreeState):
        move = None if not node.path else str(node.path[-1])
        edge = ""
        if node.path:
            up = TreeState(s.root, node.path[:-1]).node
            edge = explicit_edge(up, node.path[-1])
        if s.node.label is not None:
            return s.node.label, move, edge
        return ("root" if not node.path else "[" + ",".join(map(str, node.path)) + "]"), move, edge
    if not node.path or parent is None:
        return "root", None, ""
    ps = parent.state
    move = ps.move_str(ps.legal_moves()[node.path[-1]])
    return move, move, move


def _exact(node: Node, is_max: bool, memo: dict[int, float]) -> float:
    key = id(node)
    if key not in memo:
        if node.is_leaf:
            memo[key] = float(node.value if node.value is not None else 0)
        else:
            vals = [_exact(c, not is_max, memo) for c in node.children]
            memo[key] = max(vals) if is_max else min(vals)
    return memo[key]


def make_order(kind: str, root: State, evaluate: Evaluation) -> MoveOrder[Tracked] | None:
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

        def by_value(node: Tracked, moves: list[Move]) -> list[Move]:
            mover_max = node.to_move == max_player
            assert isinstance(node.state, TreeState)
            kids = node.state.node.children
            return sorted(moves, key=lambda m: _exact(kids[node.index(m)], not mover_max, memo), reverse=mover_max)

        return by_value

    def by_eval(node: Tracked, moves: list[Move]) -> list[Move]:
        mover_max = node.to_move == max_player
        return sorted(moves, key=lambda m: evaluate(node.state.play(m), max_player), reverse=mover_max)

    return by_eval


def trace_search(
    state: State, depth: int, evaluate: Evaluation, algorithm: str = "alphabeta", order: str = "left",
    max_nodes: int | None = None, noisy: Callable[[State, Move], bool] | None = None,
    threat: Callable[[State], bool] | None = None, extension: int = 2,
) -> Trace:
    """Run a textbook search on ``state`` with a recording tracer and return the whole trace.

    ``algorithm`` is ``minimax``, ``alphabeta``, ``quiescence`` (alpha-beta, then up to ``extension`` plies of
    the moves ``noisy(state, move)`` calls noisy past the horizon) or ``extension`` (alpha-beta that searches
    ``extension`` plies further where ``threat(state)`` holds at the horizon); nodes past the horizon have paths
    longer than ``depth``.  Iterative deepening with a table: ``trace_iterations``."""
    from plies.teach.searches import extended_alphabeta, quiescent_alphabeta

    if algorithm not in ALGORITHMS:
        raise PliesError(f"unknown algorithm {algorithm!r}; choose from: {', '.join(ALGORITHMS)}")
    if algorithm == "quiescence" and noisy is None:
        raise PliesError("a quiescence search needs noisy(state, move): which moves to search past the horizon")
    if algorithm == "extension" and threat is None:
        raise PliesError("an extension needs threat(state): where to search past the horizon")
    root = Tracked(state)
    style = value_style(state, depth + (extension if algorithm in ("quiescence", "extension") else 0), evaluate)
    tracer = StepTracer(root, algorithm, max_nodes, style)
    ev = lambda node, player: evaluate(node.state, player)
    if algorithm == "minimax":
        order = "left"                      # plies.search.minimax walks the moves as generated
        result = minimax(root, depth, ev, tracer=tracer)
    elif algorithm == "quiescence" and noisy is not None:
        order = "left"
        result = quiescent_alphabeta(root, depth, ev, lambda node, m: noisy(node.state, m), extension, tracer)
    elif algorithm == "extension" and threat is not None:
        order = "left"
        result = extended_alphabeta(root, depth, ev, lambda node: threat(node.state), extension, tracer)
    else:
        result = alphabeta(root, depth, ev, order=make_order(order, state, evaluate), tracer=tracer)
    return _finish(state, root, algorithm, order, depth, result, tracer)


def trace_iterations(state: State, depth: int, evaluate: Evaluation, max_nodes: int | None = None) -> list[Trace]:
    """Iterative deepening with a transposition table (``plies.teach.searches.tt_alphabeta``), one trace per
    iteration 1..``depth``: the table is shared, so iteration d searches the best move iteration d−1 stored first
    (``hint``) and takes stored values where it meets a position again at the same remaining depth (``table``)."""
    from plies.search import Stats
    from plies.teach.searches import Table, tt_alphabeta

    table: Table[Tracked] = {}
    root = Tracked(state)
    ev = lambda node, player: evaluate(node.state, player)
    out = []
    for d in range(1, depth + 1):
        hints = {node.path: entry[3] for node, entry in table.items()}
        tracer = StepTracer(root, "id+tt", max_nodes, value_style(state, d, evaluate))
        result = tt_alphabeta(root, d, ev, table, Stats(depth=d), tracer)
        trace = _finish(state, root, "id+tt", "table", d, result, tracer)
        for path, info in trace.nodes.items():
            if path and info.visited and hints.get(path[:-1]) is not None:
                parent = trace.nodes[path[:-1]]
                info.hint = parent.state.legal_moves()[path[-1]] == hints[path[:-1]] and not parent.table
        out.append(trace)
    return out


def _finish(state: State, root: Tracked, algorithm: str, order: str, depth: int, result: SearchResult,
            tracer: StepTracer) -> Trace:
    """The trace of a finished search: nodes in tree order, the principal path, the subtrees under a cut-off."""
    nodes = tracer.nodes
    if isinstance(state, TreeState):
        _add_unvisited(state, nodes)
    nodes = dict(sorted(nodes.items()))
    pv: list[Path] = []
    s = root
    path: tuple[int, ...] = ()
    for m in result.pv:
        if m not in s.legal_moves():
            break
        path = path + (s.index(m),)
        s = s.play(m)
        if path not in nodes:
            break
        pv.append(path)
    nodes[()].on_pv = True
    for p in pv:
        nodes[p].on_pv = True
    for p in tracer.pruned:
        for q, info in nodes.items():
            if len(q) > len(p) and q[: len(p)] == p:
                info.under_pruned = True
    trace = Trace(state, algorithm, order, depth, result, nodes, tracer.steps, tracer.pruned, pv, tracer.consistent,
                  tracer.style)
    if tracer.steps and tracer.steps[-1].path == () and result.move is not None and pv:
        tracer.steps[-1].text += _(": {kind} chooses {choice}").format(kind=nodes[()].kind.upper(),
                                                                        choice=trace.best_text)
    return trace


def _add_unvisited(root: TreeState, nodes: dict[Path, NodeInfo]) -> None:
    """Explicit trees: add the nodes inside pruned subtrees (never visited) so the picture is complete."""

    def walk(node: Node, path: Path, parent: Node | None) -> None:
        info = nodes.get(path)
        if info is None:
            s = TreeState(root.root, path)
            name = node.label if node.label is not None else "[" + ",".join(map(str, path)) + "]"
            edge = explicit_edge(parent, path[-1]) if parent is not None else ""
            info = NodeInfo(path, name, str(path[-1]) if path else None, "max" if len(path) % 2 == 0 else "min",
                            node.is_leaf, state=s, named=node.label is not None, edge=edge)
            nodes[path] = info
        info.leaf = node.is_leaf
        if node.is_leaf:
            info.given = node.value
        for i, c in enumerate(node.children):
            walk(c, path + (i,), node)

    walk(root.root, (), None)


def _check_leaves(node: Node) -> None:
    if node.is_leaf:
        if node.value is None or not math.isfinite(node.value):
            raise PliesError(f"a leaf value must be a finite number, got {node.value!r}")
        return
    for c in node.children:
        _check_leaves(c)


def solve_tree(tree: object, algorithm: str = "alphabeta", order: str = "left") -> Trace:
    """Solve an explicit tree (Node, nested list, dict form or TreeState) to its leaves: the exercise's answer."""
    state = tree if isinstance(tree, TreeState) else TreeState(tree)
    _check_leaves(state.root)
    return trace_search(state, tree_height(state.root), get("tree", "leaf"), algorithm, order)
