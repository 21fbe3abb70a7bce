"""``plies analyse``, ``plies solve``, ``plies levels`` and ``plies bench``: the fast engine from the terminal."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click
from rich.console import JustifyMethod
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from plies.analysis.levels import MAX_LEVEL
from plies.analysis.value import RESULT, Value, discs_text, from_search
from plies.game import PliesError, State
from plies.games import type_of
from plies.games.othello import OthelloState
from plies.games.record import Game, move_names
from plies.search.result import SearchResult

from ._common import Decorated, FiniteRange, console, emit_json, err_console, json_option, read_position
from .schema import Line

if TYPE_CHECKING:
    from plies.engine import Engine

T = TypeVar("T")

MAX_UNTIMED_SOLVE = 32
MAX_SUITE_SOLVE = 36  # the hardest FFO position (#79); beyond, an exact solve can take days


def _engine(hash_mb: int, evaluation: str, threads: int | None = None) -> Engine:
    from plies.engine import Engine
    from plies.engine.api import default_threads

    return Engine(hash_mb=hash_mb, evaluation=evaluation, threads=threads or default_threads())


def threads_option(default: int | None = None) -> Callable[[Decorated], Decorated]:
    """``--threads N``: the engine's search threads (default: the machine's cores, or ``default``)."""
    text = "the machine's cores" if default is None else str(default)
    return click.option("--threads", type=click.IntRange(1, 256), default=default,
                        help=f"Search threads of the engine (default: {text}).")


def _interruptible(engine: Engine | None, work: Callable[[], T], cancel: threading.Event | None = None) -> T:
    """Run ``work()`` in a thread so that Ctrl-C stops the engine (compiled code does not see signals; without
    an engine Ctrl-C returns at once and the program's end takes the thread with it).  On
    Ctrl-C ``cancel`` is set (work of several searches checks it between them) and the engine is told to stop
    until the work ends: a search that had not started yet when the key came is stopped as it starts."""
    box: dict[str, T] = {}
    error: list[BaseException] = []
    done = threading.Event()  # not Thread.join: an interrupted join can report a running thread as ended

    def run() -> None:
        try:
            box["value"] = work()
        except BaseException as e:  # handed back to the caller's thread
            error.append(e)
        finally:
            done.set()

    threading.Thread(target=run, daemon=True).start()
    try:
        while not done.wait(0.1):
            pass
    except KeyboardInterrupt:
        if cancel is not None:
            cancel.set()
        while engine is not None and not done.wait(0.02):
            engine.stop()
        raise
    if error:
        raise error[0]
    return box["value"]


def _line(state: State, r: SearchResult) -> Line:
    value, proven = _value(r)
    line: Line = {
        "score": r.value,
        "value": round(value, 2),
        "unit": _unit(r, proven),
        "move": state.move_str(r.move) if r.move is not None else None,
        "pv": move_names(state, r.pv),
        "nodes": r.stats.nodes,
        "seconds": round(r.stats.seconds, 6),
        "depth": r.stats.depth,
        "exact": r.exact,
    }
    if r.selectivity is not None:
        line["selectivity"] = r.selectivity
    return line


def _value(r: SearchResult) -> tuple[float, bool]:
    """The search value as a disc difference where it is one (a won or lost game found in the midgame search
    becomes its exact margin), else the evaluation's own number; and whether it is proven."""
    return from_search(r.value, r.exact)


def _unit(r: SearchResult, proven: bool) -> str:
    """``discs`` for the learned evaluation and for exact scores; ``win/draw/loss`` for a win/draw/loss solve
    (+1, 0, -1); ``<evaluation> units`` for the others (the hand-made evaluation counts about 10 a disc; the other
    heuristics have their own scale)."""
    if r.algorithm == "engine-wld":
        return "win/draw/loss"
    if proven or r.exact or r.evaluation in ("learned", "exact", ""):
        return "discs"
    return f"{r.evaluation} units"


def _mega(n: float) -> str:
    return f"{n / 1e6:,.1f}M" if n >= 1e5 else f"{n:,.0f}"


def _score_text(r: SearchResult, sign: int = 1) -> str:
    """The value for a person: ``-1.5 discs``, ``+4 discs (exact)``, ``win``, or ``+23 handmade units`` (another
    evaluation's own units, named); one decimal at most; ``sign`` -1 shows it from the other side's view."""
    if r.algorithm == "engine-wld":
        return Value(sign * max(-1, min(1, r.value)), RESULT).short()
    value, proven = _value(r)
    return str(Value(sign * value, _unit(r, proven), proven))


@click.command()
@click.argument("position")
@click.option("--depth", "-d", type=click.IntRange(1, 60), default=None, help="Search this many plies.")
@click.option("--time", "-t", "seconds", type=FiniteRange(min=0.001), default=None,
              help="Search for this many seconds (a hard limit).")
@click.option("--exact", is_flag=True, help="Solve the endgame exactly (final disc difference).")
@click.option("--wld", is_flag=True, help="Solve for win/draw/loss only (faster than --exact).")
@click.option("--level", "-l", type=click.IntRange(1, MAX_LEVEL), default=None, help="Search as the engine level does.")
@click.option("--multipv", "-m", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Show the best N moves, each with its value and variation.")
@click.option("--eval", "evaluation", default="default", show_default=True,
              help="Evaluation: learned (the default), handmade, or an Othello heuristic by name "
                   "(corner-edge-blocking, weighted-squares, ...: 'plies heuristics othello').")
@click.option("--hash", "hash_mb", type=click.IntRange(1, 4096), default=64, show_default=True,
              help="Transposition table size in MB.")
@click.option("--view", type=click.Choice(["black", "white", "mover"], case_sensitive=False), default="black",
              show_default=True, help="Whose point of view the values are printed from (--json keeps the side to "
                                      "move's).")
@threads_option()
@json_option
def analyse(position: str, depth: int | None, seconds: float | None, exact: bool, wld: bool, level: int | None,
            multipv: int, evaluation: str, hash_mb: int, view: str, threads: int | None, as_json: bool) -> None:
    """Analyse an 8x8 Othello POSITION with the fast engine: value for the side to move, best move(s),
    principal variation, nodes and time.  Progress is shown after each completed depth."""
    if exact and wld:
        raise PliesError("choose --exact (the final disc difference) or --wld (win/draw/loss), not both")
    if (exact or wld) and (depth is not None or level is not None):
        raise PliesError(f"--{'exact' if exact else 'wld'} solves to the end of the game: it takes no --depth or "
                         "--level (--time limits it)")
    state = read_position(position)
    named = _opening(position, state)
    engine = _engine(hash_mb, evaluation, threads)
    side = {"black": 0, "white": 1}.get(view.lower(), getattr(state, "to_move", 0))
    sign = 1 if side == getattr(state, "to_move", 0) else -1

    def progress(results: list[SearchResult]) -> None:
        r = results[0]
        pv = " ".join(_line(state, r)["pv"])
        console.print(f"[dim]depth {r.depth_text():>8}  {_score_text(r, sign):>12}  {r.stats.nodes:>12,} nodes  "
                      f"{r.stats.seconds:7.2f} s  {pv}[/dim]")

    t = type_of(state)
    empties = max(0, t.empties(state)) if t is not None else 0
    if (exact or wld) and seconds is None and empties > MAX_UNTIMED_SOLVE and not state.is_over():
        raise PliesError(f"an exact solve from {empties} empties could take hours; "
                         f"add --time S, or solve from at most {MAX_UNTIMED_SOLVE} empties")
    if not (exact or wld):  # the evaluation's tables read now: the time printed is the search's alone
        _ = engine.weights, engine.mpc
    results = _interruptible(engine, lambda: engine.analyse(
        cast(OthelloState, state), depth=depth, time=seconds, exact=exact, wld=wld, multipv=multipv, level=level,
        on_progress=None if as_json else progress))
    if as_json:
        first: Line = _line(state, results[0]) if results[0].move is not None else {
            "score": results[0].value, "value": results[0].value, "unit": "discs", "move": None, "pv": [],
            "nodes": 0, "seconds": 0.0, "depth": 0, "exact": True}
        emit_json({**first, "position": state.to_text(), "opening": named, "evaluation": results[0].evaluation,
                   **({"lines": [_line(state, r) for r in results]} if multipv > 1 else {})})
        return
    names = state.player_names
    if named is not None:
        console.print(f"Opening: {named}")
    if results[0].move is None:
        console.print(f"game over: {sign * results[0].value:+d} discs for {names[side]}")
        return
    unit = _unit(results[0], _value(results[0])[1])
    in_discs = "in discs " if unit == "discs" else ""  # else each value names its unit (win, loss, ... units)
    table = Table(title=f"{names[state.to_move]} to move; values {in_discs}from {names[side]}'s view",
                  show_edge=False)
    for col in ("move", "value", "principal variation"):
        table.add_column(col)
    for r in results:
        line = _line(state, r)
        table.add_row(line["move"], _score_text(r, sign), " ".join(line["pv"]))
    console.print(table)
    r = results[0]
    nps = r.stats.nodes / r.stats.seconds if r.stats.seconds > 0 else 0
    kind = "exact" if r.exact else ("win/draw/loss" if r.algorithm == "engine-wld" else f"depth {r.depth_text()}")
    console.print(f"{kind}, {r.stats.nodes:,} nodes in {r.stats.seconds:.2f} s ({nps:,.0f} nodes/s)")


def _opening(text: str, state: State) -> str | None:
    """The named opening of the position analysed: the last one its transcript went through, or the position's own
    name when it was given as a board."""
    from plies.analysis.openings import opening

    states: list[State] = [state]
    t = type_of(state)
    if t is not None and not text.startswith("@"):
        with contextlib.suppress(PliesError):
            game = Game.from_transcript(t, text, t.start(t.board_size(state), "standard"))
            if game.state == state:
                states = game.states
    found = opening(states)
    return found.name if found is not None else None


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--ids", default=None, help="Only these position ids, e.g. 40-49 or 40,42,45-47.")
@click.option("--wld", is_flag=True, help="Win/draw/loss only (checks the sign of the score).")
@click.option("--hash", "hash_mb", type=click.IntRange(1, 4096), default=64, show_default=True,
              help="Transposition table size in MB.")
@threads_option()
@click.option("--max-empties", type=click.IntRange(0, 60), default=MAX_SUITE_SOLVE, show_default=True,
              help="Refuse positions with more empty squares (an exact solve grows about 3x an empty).")
@json_option
def solve(file: str, ids: str | None, wld: bool, hash_mb: int, threads: int | None, max_empties: int,
          as_json: bool) -> None:
    """Solve every position of a test suite FILE (FFO list or OBF lines) exactly and compare with its answers.

    FILE 'ffo' is the FFO endgame suite bundled with plies (positions 40-79); 'ffo:40-44' picks ids too."""
    from plies.engine.bench import solve_suite
    from plies.formats.suite import parse_ids, read_suite, select

    if ids is not None and _names_bundled_ids(file):
        name = file.partition(":")[0]
        raise PliesError(f"give the ids once: '{name}:IDS' or '{name} --ids IDS', not both")
    positions = select(read_suite(file), parse_ids(ids))
    if not positions:
        raise PliesError(f"{file}: no position to solve")
    deepest = max(positions, key=lambda p: 0 if p.state.is_over() else p.empties)  # (a finished game: refused later)
    if deepest.empties > max_empties and not deepest.state.is_over():
        if max_empties == MAX_SUITE_SOLVE:
            raise PliesError(f"position #{deepest.id} has {deepest.empties} empties: an exact solve from more than "
                             f"{max_empties} could take days; add --max-empties {deepest.empties} to solve it anyway")
        raise PliesError(f"position #{deepest.id} has {deepest.empties} empties, more than --max-empties "
                         f"{max_empties}")
    engine = _engine(hash_mb, "default", threads)
    rows = []

    def solving(i: int) -> str:  # the bar names the position being solved and its size
        return f"solving #{positions[i].id} ({positions[i].empties} empties)" if i < len(positions) else "done"

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=as_json) as bar:
        task = bar.add_task(solving(0), total=len(positions))

        def on_row(row: Any) -> None:  # a bench SolveRow, its position read as the suite's SuitePosition
            rows.append(row)
            bar.update(task, advance=1, description=solving(len(rows)))

        cancel = threading.Event()
        _interruptible(engine, lambda: solve_suite(positions, engine, wld=wld, on_row=on_row, cancel=cancel),
                       cancel)

    total_nodes = sum(r.nodes for r in rows)
    total_wall = sum(r.wall for r in rows)
    total_cpu = sum(r.cpu for r in rows)
    good = sum(r.score_ok and r.move_ok for r in rows)
    if as_json:
        emit_json({
            "positions": [{
                "id": r.position.id, "empties": r.position.empties, "expected": r.position.score,
                "best_moves": r.position.best_names(), "score": r.score, "move": r.position.state.move_str(r.move),
                "score_ok": r.score_ok, "move_ok": r.move_ok, "nodes": r.nodes, "seconds": round(r.wall, 4),
                "cpu_seconds": round(r.cpu, 4), "nodes_per_second": round(r.nps),
            } for r in rows],
            "solved": good, "total": len(rows), "nodes": total_nodes, "seconds": round(total_wall, 3),
            "cpu_seconds": round(total_cpu, 3),
        })
        _exit_if_wrong(good, len(rows))
        return
    table = Table(title=f"{file}: {'win/draw/loss' if wld else 'exact'} solve")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("id", "right"), ("empties", "right"), ("expected", "left"), ("got", "left"), ("ok", "center"),
        ("nodes", "right"), ("wall s", "right"), ("cpu s", "right"), ("nodes/s", "right"))
    for col, just in columns:
        table.add_column(col, justify=just, no_wrap=True)
    for r in rows:
        exp = r.position.best_names()
        expected = (f"{r.position.score:+d} " if r.position.score is not None else "") + ",".join(exp)
        got = f"{r.score:+d} {r.position.state.move_str(r.move)}"
        table.add_row(str(r.position.id), str(r.position.empties), expected,
                      got if r.score_ok else f"[red]{got}[/red]", "yes" if r.move_ok else "[red]no[/red]",
                      _mega(r.nodes), f"{r.wall:.2f}", f"{r.cpu:.2f}", _mega(r.nps))
    table.add_section()
    nps = total_nodes / total_cpu if total_cpu > 0 else 0
    table.add_row("total", "", "", "", "", _mega(total_nodes), f"{total_wall:.2f}", f"{total_cpu:.2f}", _mega(nps))
    console.print(table)
    console.print(f"{good}/{len(rows)} correct (score and move); {total_wall:.2f} s wall, {total_cpu:.2f} s CPU")
    _exit_if_wrong(good, len(rows))


def _names_bundled_ids(file: str) -> bool:
    """``ffo:40-44``: a bundled suite with ids after the colon (not a file whose name holds a colon)."""
    from plies.formats.suite import bundled_name

    bundled = bundled_name(file)
    return bundled is not None and bool(bundled[1])


def _exit_if_wrong(good: int, total: int) -> None:
    """Exit 1 (after the table) when a solve disagrees with the suite's answers, so that scripts see it."""
    if good < total:
        err_console.print(f"plies: {total - good} of {total} solves differ from the suite's answers")
        raise click.exceptions.Exit(1)


@click.command()
def levels() -> None:
    """The engine levels: 1-5 search as many plies as their number and slip like learners; 6-12 are the full
    engine."""
    from plies.engine.levels import LEVELS, seconds_text

    wide = console.width >= 110  # else the notes go under the table: a narrow column of them is unreadable
    table = Table(title="engine levels (engine:level=N)", caption="time a move: the mean and the 95th percentile "
                  "in self-play, measured by benchmarks/engine_levels.py")
    for col in ("level", "depth", "exact from", "slips", "book", "time a move", "95% under", "note")[:8 if wide else 7]:
        table.add_column(col, no_wrap=col != "note")
    for lv in LEVELS.values():
        table.add_row(str(lv.level), str(lv.depth), f"{lv.exact_empties} empties",
                      f"{lv.temperature:g} discs" if lv.temperature else "none", "yes" if lv.book else "no",
                      seconds_text(lv.seconds), seconds_text(lv.p95), *([lv.note] if wide else []))
    console.print(table)
    if not wide:
        for lv in LEVELS.values():
            if lv.note:
                console.print(f"level {lv.level}: {lv.note}")


@click.group()
def bench() -> None:
    """Measure the engine: perft, endgame suite, midgame search speed."""


@bench.command(name="perft")
@click.option("--depth", "-d", type=click.IntRange(1, 14), default=11, show_default=True)
@click.option("--python-depth", type=click.IntRange(1, 10), default=None,
              help="Depth for the pure-Python rules' rate (default: depth - 3, at most 8).")
@json_option
def bench_perft(depth: int, python_depth: int | None, as_json: bool) -> None:
    """Compiled perft leaves/s from the start, beside the pure-Python rules' rate and the ratio."""
    from plies.engine.bench import load_core, perft_compiled, perft_python

    warm = load_core()
    c = _interruptible(None, lambda: perft_compiled(depth))  # Ctrl-C ends the program; the count needs no stop
    pd = python_depth or max(1, min(8, depth - 3))
    p = perft_python(pd)
    ratio = c.rate / p.rate if p.rate else 0.0
    if as_json:
        emit_json({"depth": depth, "leaves": c.count, "seconds": round(c.wall, 4), "cpu_seconds": round(c.cpu, 4),
                   "leaves_per_second": round(c.rate), "python_depth": pd, "python_leaves": p.count,
                   "python_leaves_per_second": round(p.rate), "ratio": round(ratio, 1),
                   "load_seconds": round(warm, 3)})
        return
    console.print(f"compiled core loaded in {warm:.3f} s (not counted in the rates)")
    console.print(f"compiled perft({depth}) = {c.count:,}  {c.wall:.2f} s wall, {c.cpu:.2f} s CPU  "
                  f"[bold]{c.rate / 1e6:,.1f} M leaves/s[/bold]")
    console.print(f"pure-Python perft({pd}) = {p.count:,}  {p.wall:.2f} s  {p.rate / 1e6:,.2f} M leaves/s")
    console.print(f"ratio: {ratio:,.0f}x")


@bench.command(name="endgame")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--ids", default=None, help="Position ids to solve (default: 40-49 of the bundled 'ffo' suite, every "
              "position of another file).")
@threads_option(1)
@click.option("--max-empties", type=click.IntRange(0, 60), default=MAX_SUITE_SOLVE, show_default=True,
              help="Refuse positions with more empty squares.")
@json_option
@click.pass_context
def bench_endgame(ctx: click.Context, file: str, ids: str | None, threads: int, max_empties: int,
                  as_json: bool) -> None:
    """Solve suite positions exactly (one thread unless --threads): per-position time, nodes, nodes/s (per CPU
    second with one thread, per wall second with several) and the total.  FILE 'ffo' is the bundled FFO suite."""
    from plies.formats.suite import bundled_name

    if ids is None and bundled_name(file) == ("ffo", "") and ":" not in file:
        ids = "40-49"
    ctx.invoke(solve, file=file, ids=ids, wld=False, hash_mb=64, threads=threads, max_empties=max_empties,
               as_json=as_json)


@bench.command(name="midgame")
@click.option("--depth", "-d", type=click.IntRange(1, 20), default=10, show_default=True)
@click.option("--positions", "count", type=click.IntRange(1, 100), default=8, show_default=True)
@click.option("--eval", "evaluation", default="default", show_default=True)
@threads_option(1)
@json_option
def bench_midgame(depth: int, count: int, evaluation: str, threads: int, as_json: bool) -> None:
    """Fixed-depth searches from reproducible opening positions: nodes and nodes/s."""
    from plies.engine.bench import load_core, midgame_bench

    load_core()
    t0 = time.perf_counter()
    rows = midgame_bench(depth, count, evaluation, threads=threads)
    wall = time.perf_counter() - t0
    nodes = sum(r.nodes for r in rows)
    cpu = sum(r.cpu for r in rows)
    per = cpu if threads == 1 else sum(r.wall for r in rows)  # per CPU second with one thread, else per wall second
    rate = nodes / per if per else 0.0
    if as_json:
        emit_json({"depth": depth, "positions": len(rows), "threads": threads, "nodes": nodes,
                   "seconds": round(wall, 3), "cpu_seconds": round(cpu, 3), "nodes_per_second": round(rate)})
        return
    from plies.engine.eval import DEFAULT_EVALUATION

    name = DEFAULT_EVALUATION if evaluation in ("default", "engine") else evaluation
    unit = "discs" if name == "learned" else f"{name} units"
    table = Table(title=f"midgame search, depth {depth}, eval {name} (values for the side to move, in {unit})")
    for col in ("position", "value", "move", "nodes", "time s", "nodes/s"):
        table.add_column(col)
    for r in rows:
        value, proven = from_search(r.value, False)
        table.add_row(r.state.to_text()[:20] + "...", discs_text(value) + (" (exact)" if proven else ""),
                      r.state.move_str(r.move), f"{r.nodes:,}", f"{r.wall:.2f}", f"{r.nps:,.0f}")
    console.print(table)
    console.print(f"total {nodes:,} nodes, {wall:.2f} s wall, {cpu:.2f} s CPU, {threads} thread(s), "
                  f"{rate:,.0f} nodes/s")


def register(main: click.Group) -> None:
    main.add_command(analyse)
    main.add_command(solve)
    main.add_command(levels)
    existing = main.commands.get("bench")
    if isinstance(existing, click.Group):
        for name, cmd in bench.commands.items():
            existing.add_command(cmd, name)
    else:
        main.add_command(bench)
