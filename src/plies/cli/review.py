"""``plies review GAME``: every move of a finished (or unfinished) game against the best move, in discs.

The same analysis as the browser's review (``plies.analysis``): on 8x8 Othello the fast engine values every
legal move of every position at an engine level (multi-PV; exact final disc differences once the level solves
the endgame), and a move that loses at least ``--threshold`` discs against the best one is a mistake.  Other
games are valued by the textbook search (tic-tac-toe solved to the end; elsewhere a heuristic, named as such).
"""

from __future__ import annotations

import click
from rich.console import JustifyMethod
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from plies.analysis.levels import DEFAULT_ANALYSIS_LEVEL, MAX_LEVEL, engine_applies, engine_games, fallback_applies
from plies.analysis.review import Review
from plies.analysis.value import RESULT, Value, discs_text
from plies.game import PASS, PliesError, State
from plies.games import TYPES, type_of

from ._common import FiniteRange, console, emit_json, err_console, json_option
from .engine import threads_option


@click.command("review")
@click.argument("game")
@click.option("--level", "-l", type=click.IntRange(1, MAX_LEVEL), default=None,
              help="Engine level of the analysis (default 8: depth 10, exact from 14 empties).")
@click.option("--view", type=click.Choice(["black", "white"], case_sensitive=False), default="black",
              show_default=True, help="Whose point of view the values are from.")
@click.option("--threshold", type=FiniteRange(min=0.1), default=None,
              help="Discs a move must lose against the best move to count as a mistake (Othello; default 2).")
@click.option("--number", "-n", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which game of a file that holds several.")
@threads_option()
@json_option
def review(game: str, level: int | None, view: str, threshold: float | None, number: int, threads: int | None,
           as_json: bool) -> None:
    """Review GAME: each move against the best move, the discs it lost, the mistakes and a sum per player.

    GAME is a transcript (f5d6c3...), a file (@FILE or a path: a saved game, a transcript, GGF, WTHOR, ...)
    or a HexThello / tic-tac-toe transcript.  A progress bar runs on stderr while the positions are analysed.
    """
    from plies.analysis.review import review as run_review

    from .play import read_game

    start, moves = read_game(game, index=number)
    if not any(m != PASS for m in moves):
        raise PliesError("no moves to review: give a game (a transcript or a file), not a position")
    if not (engine_applies(start) or fallback_applies(start)) and (level is not None or threshold is not None):
        t = type_of(start)
        raise PliesError(f"--level and --threshold are for reviews by the engine ({engine_games()}, in discs): "
                         f"{t.a_noun() if t is not None else 'a ' + start.game} game is valued by the textbook "
                         "search, and a mistake loses a clear margin")
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err_console, transient=True) as bar:
        task = bar.add_task("analysing positions", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = run_review(start, moves, level or DEFAULT_ANALYSIS_LEVEL, on_progress=progress,
                            threshold=2.0 if threshold is None else threshold,
                            threads=threads or _default_threads(start))
    if as_json:
        emit_json(result)
        return
    _print(result, 0 if view.lower() == "black" else 1)


def _default_threads(start: State) -> int:
    """The engine's threads: the machine's cores (one where the engine does not search)."""
    if not engine_applies(start):
        return 1
    from plies.engine.api import default_threads

    return default_threads()


def _print(r: Review, side: int) -> None:
    names = r["side_names"]
    unit = r["unit"]
    t = TYPES.get(r["game"])

    def pov(value: float, mover: int) -> str:
        return Value(value, unit).seen_by(mover, side).short()

    def lost(x: float) -> str:
        return discs_text(x).lstrip("+") if unit != RESULT else ("result" if x else "0")

    what = "discs" if unit == "discs" else "results (win / draw / loss)" if unit == "result" else f"{unit} units"
    console.print(f"[bold]Review[/bold] of {sum(1 for m in r['moves'] if not m.get('forced'))} moves: {r['source']}")
    console.print(f"values in {what}, from {names[side]}'s point of view; a mistake loses at least "
                  f"{lost(r['threshold']) if unit == 'discs' else 'a clear margin'} against the best move")
    table = Table(show_edge=False, pad_edge=False)
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("#", "right"), ("side", "left"), ("move", "left"), ("value", "right"), ("best", "left"),
        ("best value", "right"), ("lost", "right"), ("", "left"))
    for col, just in columns:
        table.add_column(col, justify=just, no_wrap=True)
    for m in r["moves"]:
        if m.get("forced") or "best" not in m:
            table.add_row(str(m["ply"]), names[m["side"]], m["move"], "", "", "", "", "forced pass")
            continue
        note = "[red]mistake[/red]" if m["mistake"] else ("only move" if m.get("only") else "")
        if m.get("book"):
            note = (note + " " if note else "") + "book"
        if m["exact"]:
            note = (note + " " if note else "") + "exact"
        loss = lost(m["loss"]) if m["loss"] else "0"
        table.add_row(str(m["ply"]), names[m["side"]], m["move"], pov(m["value"], m["side"]),
                      m["best"] if m["best"] != m["move"] else "=", pov(m["best_value"], m["side"]),
                      f"[red]{loss}[/red]" if m["mistake"] else loss, note)
    console.print(table)
    mistakes = [m for m in r["moves"] if m.get("mistake")]
    if mistakes:
        console.print("[bold]Mistakes[/bold]")
        sep = t.separator if t is not None else " "
        for m in mistakes:
            console.print(f"  {m['ply']}. {names[m['side']]} {m['move']} ({pov(m['value'], m['side'])}) lost "
                          f"{lost(m['loss'])}{' (exact)' if m['exact'] else ''}; best {m['best']} "
                          f"({pov(m['best_value'], m['side'])}): {sep.join(m['best_line'])}", markup=False)
    else:
        console.print("No mistakes.")
    for p in r["players"]:
        worst = p["worst"]
        tail = f", worst {worst['ply']}. {worst['move']} ({lost(worst['loss'])})" if worst else ""
        if p.get("book"):
            tail += f", {p['book']} book move{'s' if p['book'] != 1 else ''}"
        console.print(f"{p['name']}: {p['moves']} moves, {p['mistakes']} mistake{'s' if p['mistakes'] != 1 else ''}, "
                      f"{lost(p['lost'])} {'discs ' if unit == 'discs' else ''}lost{tail}")
    if r["over"] and r["score"] is not None:
        s = r["score"]
        console.print("Final result: " + ("draw" if s == 0 else
                                          f"{names[0 if s > 0 else 1]} wins" +
                                          (f" by {abs(s):g}" if t is None or t.result == "discs" else "")))


def register(main: click.Group) -> None:
    main.add_command(review)
