"""Studies on real Othello positions: how many nodes each search visits, and the horizon effect.

``node_study`` counts nodes and leaves of minimax, alpha-beta without ordering, alpha-beta with move ordering
(children sorted by the evaluation of the position after the move) and iterative deepening + transposition
table, depth by depth, against b^d, b^(d/2) and the perfectly ordered tree's b^⌈d/2⌉ + b^⌊d/2⌋ − 1 leaves
(Knuth & Moore 1975) — document 002's claim that alpha-beta examines about sqrt(N) of minimax's N leaves.
``horizon_cases`` finds positions where a short search likes a move whose refutation — the opponent taking a
corner — comes just past its horizon, at the first ply the opponent moves after the depth limit (ply 2 behind a
depth-1 search, ply 4 behind depth 3), with no corner lost before it; and shows what a quiescence search and an
extension do about it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from plies.game import Move
from plies.games.othello import OthelloState, legal_mask
from plies.games.record import move_names
from plies.heuristics import Evaluation, get
from plies.search import alphabeta, minimax
from plies.search.alphabeta import MoveOrder
from plies.teach.schema import HorizonDict, NodeStudy
from plies.teach.searches import extended_alphabeta, id_tt_alphabeta, quiescent_alphabeta
from plies.teach.trace import Tracked, fmt, make_order

if TYPE_CHECKING:
    from plies.draw import Scene

ALGOS = ("minimax", "alphabeta", "alphabeta+order", "id+tt")


def sample_positions(count: int, seed: int = 1, plies: tuple[int, int] = (10, 36)) -> list[OthelloState]:
    """Reproducible Othello positions: seeded random games from the start, stopped after 10-36 plies,
    keeping positions where the side to move has at least 3 moves."""
    rng = random.Random(seed)
    out: list[OthelloState] = []
    while len(out) < count:
        s = OthelloState.start()
        stop = rng.randint(*plies)
        for _ in range(stop):
            moves = s.legal_moves()
            if not moves:
                break
            s = s.play(rng.choice(moves))
        if len(s.legal_moves()) >= 3:
            out.append(s)
    return out


def _progress(enabled: bool) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    disable=not enabled, transient=True)


def node_study(positions: list[OthelloState], max_depth: int, heuristic: str | None = None, progress: bool = True
               ) -> NodeStudy:
    """Nodes and leaves per algorithm and depth (summed over ``positions``), and whether all values agree."""
    h = get("othello", heuristic)
    b = sum(len(p.legal_moves()) for p in positions) / len(positions)
    rows: list[dict[str, Any]] = []
    agree = True
    with _progress(progress) as bar:
        task = bar.add_task("searching", total=max_depth * len(positions))
        for d in range(1, max_depth + 1):
            row: dict[str, Any] = {"depth": d, **{a: {"nodes": 0, "leaves": 0, "seconds": 0.0} for a in ALGOS}}
            for i, pos in enumerate(positions):
                bar.update(task, description=f"depth {d}, position {i + 1}/{len(positions)}")
                results = {
                    "minimax": minimax(pos, d, h),
                    "alphabeta": alphabeta(pos, d, h),
                    "alphabeta+order": alphabeta(pos, d, h, order=_unwrapped_order(pos, h)),
                    "id+tt": id_tt_alphabeta(pos, d, h),
                }
                values = {r.value for r in results.values()}
                agree = agree and len(values) == 1
                for name, r in results.items():
                    row[name]["nodes"] += r.stats.nodes
                    row[name]["leaves"] += r.stats.leaves
                    row[name]["seconds"] += r.stats.seconds
                bar.advance(task)
            n = len(positions)
            row["b^d"] = b ** d
            row["b^(d/2)"] = b ** (d / 2)
            row["minimal"] = b ** math.ceil(d / 2) + b ** math.floor(d / 2) - 1     # Knuth & Moore's minimal tree
            mm = row["minimax"]["leaves"] / n
            ab = row["alphabeta"]["leaves"] / n
            row["sqrt_minimax_leaves"] = math.sqrt(mm)
            row["exponent"] = {a: (math.log(row[a]["leaves"] / n) / math.log(mm) if mm > 1 else None)
                               for a in ALGOS[1:]}
            row["ab_over_sqrt"] = ab / math.sqrt(mm)
            rows.append(row)
    return {"positions": len(positions), "branching": b, "evaluation": h.name, "rows": rows, "values_agree": agree}


def _unwrapped_order(pos: OthelloState, h: Evaluation) -> MoveOrder[OthelloState]:
    """``make_order('best')`` expects traced nodes; here the search passes plain states."""
    order = make_order("best", pos, h)
    assert order is not None
    return lambda node, moves: order(Tracked(node), moves)


def nodes_table(report: NodeStudy) -> Table:
    n = report["positions"]
    t = Table(title=f"Leaves evaluated per position: {n} Othello positions, b ≈ {report['branching']:.1f}, "
              f"eval {report['evaluation']}")
    t.add_column("d", justify="right")
    for a in ("minimax", "αβ", "αβ+order", "ID+TT", "b^d", "b^(d/2)", "perfect", "√N"):
        t.add_column(a, justify="right")
    for r in report["rows"]:
        cells = [str(r["depth"])] + [f"{r[a]['leaves'] / n:,.0f}" for a in ALGOS]
        cells += [f"{r[k]:,.0f}" for k in ("b^d", "b^(d/2)", "minimal", "sqrt_minimax_leaves")]
        t.add_row(*cells)
    return t


def nodes_conclusions(report: NodeStudy) -> list[str]:
    """Plain sentences: how close alpha-beta gets to sqrt(N), and that every search gave the same value."""
    last = report["rows"][-1]
    n = report["positions"]
    mm = last["minimax"]["leaves"] / n
    lines = [f"At depth {last['depth']}: minimax evaluates N = {mm:,.0f} leaves per position "
             f"({last['minimax']['nodes'] / n:,.0f} nodes); √N = {math.sqrt(mm):,.0f}."]
    for a in ALGOS[1:]:
        leaves, nodes = last[a]["leaves"] / n, last[a]["nodes"] / n
        exp = last["exponent"][a]
        power = f" = N^{exp:.2f}" if exp is not None else ""
        lines.append(f"  {a}: {leaves:,.0f} leaves{power}, {nodes:,.0f} nodes, {leaves / math.sqrt(mm):.1f}×√N")
    lines.append("All four searches returned the same value on every position." if report["values_agree"]
                 else "[red]The searches disagreed on some value: a bug.[/red]")
    return lines


def nodes_chart(report: NodeStudy) -> Scene:
    """The node-count study as a chart (a ``plies.draw`` scene; shows itself in a notebook): leaves evaluated
    per position against depth on a log scale, with b^d, b^(d/2) and the perfectly ordered tree."""
    from plies.draw.chart import COLOURS, Series, line_chart

    n = report["positions"]
    depths = [r["depth"] for r in report["rows"]]
    b = report["branching"]
    series = [Series(a, depths, [r[a]["leaves"] / n for r in report["rows"]], colour, marker=marker)
              for a, colour, marker in zip(ALGOS, COLOURS, ("circle", "square", "triangle", "diamond"), strict=False)]
    series += [
        Series(f"b^d (b={b:.1f})", depths, [r["b^d"] for r in report["rows"]], "#37474f", (6, 4), "none"),
        Series("b^(d/2)", depths, [r["b^(d/2)"] for r in report["rows"]], "#37474f", (2, 3), "none"),
        Series("perfect order", depths, [r["minimal"] for r in report["rows"]], "#9e9e9e", (8, 3), "none"),
    ]
    return line_chart(series, title=f"Leaves evaluated on {n} Othello positions ({report['evaluation']})",
                      xlabel="depth (plies)", ylabel="leaves evaluated per position (log scale)", log_y=True)


def plot_nodes(report: NodeStudy, path: str) -> str:
    """Save ``nodes_chart(report)`` to ``path`` (.svg drawn by plies, .png / .pdf through matplotlib)."""
    from plies import draw

    return draw.save(nodes_chart(report), path)


# -- the horizon effect ---------------------------------------------------------------------------------------

def corners(n: int) -> set[int]:
    return {0, n - 1, n * (n - 1), n * n - 1}


def corner_move(state: OthelloState, move: Move) -> bool:
    """The noisy moves of the quiescence search: taking a corner."""
    return isinstance(move, int) and move in corners(state.n)


def corner_threat(state: OthelloState) -> bool:
    """True when a corner is available to either side (the trigger of the extension)."""
    mask = sum(1 << q for q in corners(state.n))
    own, opp = state.own_opp()
    return bool((legal_mask(own, opp, state.n) | legal_mask(opp, own, state.n)) & mask)


@dataclass
class Remedy:
    """What a remedy's short search plays, what that move is really worth, and what the search cost."""

    name: str
    move: int
    value: float
    deep_value: float
    nodes: int


@dataclass
class HorizonCase:
    """A position where the short search's move is refuted past its horizon, and what the remedies do."""

    state: OthelloState
    depth: int
    deep: int
    evaluation: str
    short_move: int
    short_value: float               # what the short search believes
    short_deep_value: float          # what the short search's move is really worth (deeper search)
    short_nodes: int
    line: list[int]                  # the deeper search's line after the short move
    deep_move: int
    deep_value: float
    deep_nodes: int
    remedies: list[Remedy]

    def corner_plies(self) -> list[int]:
        """Plies from the root (1 = the short move) where the opponent takes a corner in the deeper line."""
        out, s = [], self.state.play(self.short_move)
        for i, m in enumerate(self.line, 2):
            if s.to_move != self.state.to_move and m in corners(s.n):
                out.append(i)
            s = s.play(m)
        return out

    @property
    def corner_refutation(self) -> bool:
        return bool(self.corner_plies())

    def first_ply_beyond(self) -> int | None:
        """The first ply past the short search's depth at which the opponent moves in the deeper line (plies from
        the root: 1 = the short move), None if the line ends first."""
        s = self.state.play(self.short_move)
        for i, m in enumerate(self.line, 2):
            if i > self.depth and s.to_move != self.state.to_move:
                return i
            s = s.play(m)
        return None

    @property
    def beyond(self) -> bool:
        """The refutation lies just past the horizon: the opponent takes a corner at the first ply it moves after
        the depth limit, and at no ply before."""
        plies = self.corner_plies()
        return bool(plies) and plies[0] == self.first_ply_beyond()

    def fixes(self, remedy: Remedy) -> bool:
        return remedy.deep_value > self.short_deep_value

    def line_text(self) -> str:
        return " ".join(move_names(self.state, [self.short_move, *self.line]))

    def to_dict(self) -> HorizonDict:
        s = self.state
        return {
            "position": s.to_text(), "depth": self.depth, "deeper": self.deep, "evaluation": self.evaluation,
            "short_move": s.move_str(self.short_move), "short_value": self.short_value,
            "short_move_deep_value": self.short_deep_value, "short_nodes": self.short_nodes,
            "line": self.line_text(), "corner_plies": self.corner_plies(), "first_ply_beyond": self.first_ply_beyond(),
            "deep_move": s.move_str(self.deep_move), "deep_value": self.deep_value, "deep_nodes": self.deep_nodes,
            "remedies": [{"name": r.name, "move": s.move_str(r.move), "value": r.value,
                          "move_deep_value": r.deep_value, "nodes": r.nodes, "fixes": self.fixes(r)}
                         for r in self.remedies],
        }


def _value_after(state: OthelloState, move: int, depth: int, h: Evaluation) -> tuple[float, list[int]]:
    """Value for the mover of ``move`` searched ``depth`` more plies, and the line that follows it."""
    child = state.play(move)
    r = alphabeta(child, depth, h)
    v = r.value if child.to_move == state.to_move else -r.value     # zero-sum: the other side's view, negated
    return v, r.pv


def horizon_cases(positions: list[OthelloState], depth: int, deeper: int, heuristic: str = "discs", limit: int = 3,
                  progress: bool = True) -> tuple[list[HorizonCase], int]:
    """Scan ``positions`` for moves a depth-``depth`` search likes but a ``deeper``-plies-deeper search refutes
    with a corner taken just past the horizon (``HorizonCase.beyond``); returns (cases, positions scanned)."""
    h = get("othello", heuristic)
    deep = depth + deeper
    found: list[HorizonCase] = []
    scanned = 0
    with _progress(progress) as bar:
        task = bar.add_task("scanning", total=len(positions))
        for pos in positions:
            scanned += 1
            bar.advance(task)
            short = alphabeta(pos, depth, h)
            long = alphabeta(pos, deep, h)
            if short.move is None or short.move == long.move:
                continue
            sdv, line = _value_after(pos, short.move, deep - 1, h)
            if sdv >= long.value:                       # equal value: just another good move
                continue
            case = HorizonCase(pos, depth, deep, h.name, short.move, short.value, sdv, short.stats.nodes, line,
                               long.move, long.value, long.stats.nodes, [])
            if not case.beyond:
                continue
            for name, r in (("quiescence (corner captures)", quiescent_alphabeta(pos, depth, h, corner_move)),
                            ("extension (+2 plies at a corner threat)",
                             extended_alphabeta(pos, depth, h, corner_threat))):
                dv = sdv if r.move == short.move else _value_after(pos, r.move, deep - 1, h)[0]
                case.remedies.append(Remedy(name, r.move, r.value, dv, r.stats.nodes))
            found.append(case)
            if len(found) >= limit:
                break
    return found, scanned


def print_case(console: Console, c: HorizonCase) -> None:
    s = c.state
    me, opp = s.player_names[s.to_move], s.player_names[1 - s.to_move]
    console.print(str(s))  # a board game prints its board_str
    console.print(f"{me} to move.  Depth {c.depth} ({c.evaluation}, {c.short_nodes} nodes) plays "
                  f"[bold]{s.move_str(c.short_move)}[/bold], worth {fmt(c.short_value)} at its horizon.")
    ply = c.corner_plies()[0]
    console.print(f"  Searched {c.deep} plies, {s.move_str(c.short_move)} is worth only {fmt(c.short_deep_value)}: "
                  f"in the line {c.line_text()} {opp} takes a corner at ply {ply}, just past the horizon of depth "
                  f"{c.depth}.  Depth {c.deep} ({c.deep_nodes} nodes) plays {s.move_str(c.deep_move)} "
                  f"({fmt(c.deep_value)}).")
    for r in c.remedies:
        verdict = "[green]avoids the trap[/green]" if c.fixes(r) else "[red]does not help here[/red]"
        console.print(f"  With {r.name}, depth {c.depth} ({r.nodes} nodes) plays [bold]{s.move_str(r.move)}[/bold] "
                      f"(really worth {fmt(r.deep_value)}): {verdict}.")
    console.print()


__all__ = ["ALGOS", "HorizonCase", "Remedy", "corner_move", "corner_threat", "horizon_cases", "node_study",
           "nodes_chart", "nodes_table", "plot_nodes", "print_case", "sample_positions"]
