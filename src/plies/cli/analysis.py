"""``plies perft`` and ``plies search``: count leaves, run the textbook searches and compare them."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

import click
from rich.progress import Progress
from rich.table import Table

from plies import heuristics
from plies.game import ParseError, State
from plies.games.record import move_names
from plies.games.tree import TreeState, tree_height
from plies.search import alphabeta, minimax
from plies.search.perft import fast_perft
from plies.search.result import SearchResult
from plies.teach.hooks import load_modules, load_option
from plies.teach.trace import fmt, value_style

from ._common import console, emit_json, json_option, read_position

DEFAULT_DEPTH = 4
"""``plies search``'s depth where the game's type gives no depth that reaches the end (``solved_depth``)."""
TREE_DEPTH = 64
"""An explicit tree is searched to its leaves."""


@click.command()
@click.argument("position", default="othello")
@click.option("--depth", "-d", type=click.IntRange(0, 30), required=True, help="Plies to count.")
@click.option("--divide", is_flag=True, help="Also print the count below each first move.")
@click.option("--rules", is_flag=True,
              help="Count with the pure-Python rules, as the textbook searches play (8x8 Othello is otherwise "
                   "counted by the compiled engine: the same count, thousands of times faster).")
@json_option
def perft(position: str, depth: int, divide: bool, rules: bool, as_json: bool) -> None:
    """Count the leaves DEPTH plies below POSITION (default: the Othello start).

    A forced pass counts as a ply; a game that ends earlier is one leaf.  8x8 Othello is counted by the compiled
    engine (bulk counting at the last ply); other games and boards, and --rules, by the Python rules.
    """
    state = read_position(position)
    count, counter = _counter(state, rules)
    t0 = time.perf_counter()
    parts: list[tuple[str, int]] = []
    moves = state.legal_moves() if depth > 0 else []
    if moves and (divide or depth >= 6):
        with Progress(console=console, transient=True, disable=as_json) as bar:
            task = bar.add_task(f"perft {depth}", total=len(moves))
            for m in moves:
                parts.append((state.move_str(m), count(state.play(m), depth - 1)))
                bar.advance(task)
        nodes = sum(n for _, n in parts)
    else:
        nodes = count(state, depth)
    seconds = time.perf_counter() - t0
    rate = nodes / seconds if seconds > 0 else 0.0
    if as_json:
        out: dict[str, Any] = {"position": state.to_text(), "depth": depth, "nodes": nodes, "counter": counter,
                               "seconds": round(seconds, 6), "nodes_per_second": round(rate)}
        if divide:
            out["divide"] = dict(parts)
        emit_json(out)
        return
    if divide:
        for name, n in parts:
            click.echo(f"{name}: {n}")
    where = "compiled engine" if counter == "compiled" else "Python rules"
    click.echo(f"perft({depth}) = {nodes}   [{seconds:.3f} s, {rate:,.0f} leaves/s, {where}]")


def _counter(state: State, rules: bool) -> tuple[Callable[[State, int], int], str]:
    """The perft function for ``state`` and its name: the compiled engine's for 8x8 Othello (unless ``rules``),
    run so that Ctrl-C ends the program at once (compiled code does not see signals); else the Python rules'."""
    from plies.games import type_of

    t = type_of(state)
    if not rules and t is not None and t.engine(state) == "engine":  # 8x8 Othello, with the compiled core
        from plies.engine.perft import perft as compiled

        from .engine import _interruptible

        def count(s: State, depth: int) -> int:
            return int(_interruptible(None, lambda: compiled(s, depth)))

        return count, "compiled"
    return fast_perft, "rules"


def _default_depth(state: State) -> int:
    """The whole game where a depth reaches its end (tic-tac-toe: 9), an explicit tree to its leaves, else 4."""
    from plies.games import type_of

    t = type_of(state)
    if t is not None and t.solved_depth is not None:
        return t.solved_depth
    return TREE_DEPTH if isinstance(state, TreeState) else DEFAULT_DEPTH


def run_search(state: State, algo: str, depth: int, evaluation: str | None, pruning: bool = True) -> SearchResult:
    """One textbook search by name ('minimax' or 'alphabeta')."""
    h = heuristics.get(state.game, evaluation)
    if algo == "minimax":
        result = minimax(state, depth, h)
    else:
        result = alphabeta(state, depth, h, pruning=pruning)
    result.evaluation = h.name
    return result


@click.command()
@click.argument("position")
@click.option("--algo", type=click.Choice(["minimax", "alphabeta", "both"]), default="alphabeta", show_default=True)
@click.option("--depth", "-d", type=click.IntRange(1, 64), default=None,
              help="Search depth in plies [default: 4; 9 for tic-tac-toe; the whole tree for explicit trees].")
@click.option("--eval", "evaluation", default=None, metavar="NAME",
              help="Heuristic at the depth limit (see 'plies heuristics').")
@click.option("--pruning", type=click.Choice(["on", "off"]), default="on", show_default=True,
              help="Alpha-beta's pruning switch (off = visits exactly minimax's nodes).")
@load_option
@json_option
def search(position: str, algo: str, depth: int | None, evaluation: str | None, pruning: str,
           modules: tuple[str, ...], as_json: bool) -> None:
    """Run minimax and/or alpha-beta on POSITION: value, best move, principal variation, node counts.

    POSITION is a game name (othello, tictactoe), a board plus side to move, a transcript (f5d6c3)
    or an explicit tree ([[3,12,8],[2,4,6],[14,5,2]]).  Values are from the side to move's point of view.
    """
    load_modules(modules)
    state = read_position(position)
    if state.is_over():
        raise ParseError("the game is already over in this position")
    d = depth if depth is not None else _default_depth(state)
    if isinstance(state, TreeState) and depth is not None and depth < tree_height(state.node):
        raise ParseError(f"the tree is {tree_height(state.node)} plies deep and its inner nodes have no value: "
                         "leave --depth out, or give at least that")
    algos = ["minimax", "alphabeta"] if algo == "both" else [algo]
    with console.status("searching...", spinner="dots") if not as_json else _null():
        results = {a: run_search(state, a, d, evaluation, pruning == "on") for a in algos}
    if as_json:
        if len(results) == 1:
            emit_json({"position": state.to_text(), "depth": d, **next(iter(results.values())).to_dict(state)})
        else:
            mm, ab = results["minimax"], results["alphabeta"]
            emit_json({
                "position": state.to_text(), "depth": d,
                "minimax": mm.to_dict(state), "alphabeta": ab.to_dict(state),
                "same_value": mm.value == ab.value,
                "node_ratio": ab.stats.nodes / mm.stats.nodes if mm.stats.nodes else None,
            })
        return
    table = Table(title=f"{state.game}, depth {d}, eval {next(iter(results.values())).evaluation}")
    table.add_column("")
    for name in results:
        table.add_column(name, justify="right")
    rows = [
        ("value", lambda r: fmt(r.value, value_style(state, d, heuristics.get(state.game, evaluation)))),
        ("best move", lambda r: state.move_str(r.move) if r.move is not None else "-"),
        ("principal variation", lambda r: " ".join(move_names(state, r.pv)) or "-"),
        ("nodes visited", lambda r: f"{r.stats.nodes:,}"),
        ("leaves evaluated", lambda r: f"{r.stats.leaves:,}"),
        ("α cut-offs", lambda r: f"{r.stats.alpha_cutoffs:,}"),
        ("β cut-offs", lambda r: f"{r.stats.beta_cutoffs:,}"),
        ("time", lambda r: f"{r.stats.seconds:.3f} s"),
        ("nodes/s", lambda r: f"{r.stats.nodes_per_second:,.0f}"),
    ]
    for label, fn in rows:
        table.add_row(label, *(fn(r) for r in results.values()))
    console.print(table)
    if len(results) == 2:
        mm, ab = results["minimax"], results["alphabeta"]
        same = "same value" if mm.value == ab.value else "DIFFERENT VALUES (a bug!)"
        console.print(f"{same}; alpha-beta visited {ab.stats.nodes / mm.stats.nodes:.1%} of minimax's nodes")


class _null:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


@click.command(name="heuristics")
@click.argument("game", default="othello")
@json_option
def list_heuristics(game: str, as_json: bool) -> None:
    """List the evaluation functions a game accepts (names usable in --eval and eval=NAME)."""
    from plies.games import start_position

    if not heuristics.names(game):  # othello6, reversi ...: the game whose heuristics they use
        with contextlib.suppress(ParseError):
            game = start_position(game).game
    if not heuristics.names(game):
        raise ParseError(f"no heuristics for game {game!r}")
    if as_json:
        emit_json({"game": game, "default": heuristics.DEFAULTS.get(game), "heuristics": [
            {"name": n, "aliases": list(heuristics.get(game, n).aliases),
             "description": heuristics.get(game, n).description} for n in heuristics.names(game)]})
        return
    table = Table(title=f"heuristics for {game}")
    table.add_column("name")
    table.add_column("aliases")
    table.add_column("what it measures")
    for name in heuristics.names(game):
        h = heuristics.get(game, name)
        mark = " (default)" if heuristics.DEFAULTS.get(game) == name else ""
        table.add_row(name + mark, ", ".join(h.aliases), h.description)
    console.print(table)


def register(main: click.Group) -> None:
    main.add_command(perft)
    main.add_command(search)
    main.add_command(list_heuristics)
