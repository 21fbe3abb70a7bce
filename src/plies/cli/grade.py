"""``plies grade FOLDER``: the lecturer's grading run over a class's agents (``plies.tournament.grade``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.table import Table

from plies.cli._common import FiniteRange, console, emit_json, err_console, json_option
from plies.game import PliesError

if TYPE_CHECKING:
    from plies.tournament.grade import Agent, SheetRow


@click.command("grade")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--game", "-g", type=click.Choice(["hexthello", "othello"]), default="hexthello", show_default=True,
              help="The game the agents play.")
@click.option("--reference", "references", multiple=True, metavar="SPEC",
              help="A reference player (repeatable; replaces the defaults: random, the course report's evaluation "
                   "at depths 2-4 and the engine).")
@click.option("--games-per-pair", "-n", type=click.IntRange(2, 1000), default=2, show_default=True,
              help="Games each pair plays (even: each opening twice, colours swapped).")
@click.option("--random-openings", type=click.IntRange(0, 40), default=0, metavar="K",
              help="Each pair of games starts after K random plies (default: the start position, as the course).")
@click.option("--move-time", type=FiniteRange(0.05, 3600), default=10.0, show_default=True,
              help="Seconds an agent has for a move; a slower one loses that game on time.")
@click.option("--connect-time", type=FiniteRange(0.5, 3600), default=10.0, show_default=True,
              help="Seconds an agent's program has to start, connect and give its name.")
@click.option("--depth", type=click.IntRange(1, 20), default=3, show_default=True,
              help="Depth of the alpha-beta that plays a module that registers only a heuristic.")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of the random openings and players.")
@click.option("--out", "out", type=click.Path(file_okay=False), default="grading", show_default=True,
              help="Folder for sheet.html, sheet.csv and games.csv (made if missing).")
@click.option("--db", type=click.Path(dir_okay=False), default=None,
              help="SQLite file every game is stored in as it ends (default: OUT/grading.sqlite).")
@click.option("--resume", is_flag=True, help="Continue the grading stored in --db: play only the missing games.")
@click.option("--workers", "-w", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Games played at the same time, each in a process of its own.")
@click.option("--progress/--no-progress", default=True, help="Live progress on stderr (terminals only).")
@json_option
def grade_cmd(folder: str, game: str, references: tuple[str, ...], games_per_pair: int, random_openings: int,
              move_time: float, connect_time: float, depth: int, seed: int, out: str, db: str | None, resume: bool,
              workers: int, progress: bool, as_json: bool) -> int:
    """Grade a class: every agent in FOLDER against reference players and in a round robin, with a result sheet.

    FOLDER holds one agent per file: NAME.py (a module that registers a player kind or a heuristic), NAME.course
    (the command line of a course agent that connects over TCP: {host} and {port} in it, or -i HOST -p PORT
    added), NAME.nboard (the command line of an NBoard engine, for Othello), or an executable program.  Every
    game is stored in --db as it ends; a run stopped at any moment goes on with --resume.  An agent that moves
    illegally, crashes, overruns --move-time or never connects loses that game, and the sheet says why.

    \b
      plies grade class/ --out sheet --workers 2
      plies grade class/ --out sheet --resume
    """
    from plies.match.plan import resolve_spec
    from plies.tournament.grade import GradeSettings, grade, sheet_rows, write_sheet

    if games_per_pair % 2:
        raise PliesError(f"--games-per-pair must be even (each opening is played twice, colours swapped), "
                         f"not {games_per_pair}")
    for spec in references:  # a typo fails now, in one line, not in every game
        resolve_spec(spec, game)
    settings = GradeSettings(game=game, references=list(references), games_per_pair=games_per_pair,
                             random_plies=random_openings, seed=seed, move_time=move_time,
                             connect_time=connect_time, depth=depth)
    out_dir = Path(out)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PliesError(f"cannot make the folder {out}: {e.strerror or e}") from None
    database = Path(db) if db is not None else out_dir / "grading.sqlite"

    def show_agents(agents: list[Agent], ignored: list[str]) -> None:
        if as_json:
            return
        err_console.print(f"{len(agents)} agent(s) in {folder}:", markup=False)
        for a in agents:
            what = f"not played: {a.problem}" if a.problem else a.note or a.kind
            err_console.print(f"  {a.name} ({a.source}, {a.kind}): {what}", markup=False, soft_wrap=True)
        if ignored:
            err_console.print(f"  ignored (not agents): {', '.join(ignored)}", markup=False, soft_wrap=True)

    result = grade(folder, settings, database, resume, workers, err_console, progress and not as_json,
                   on_agents=show_agents)
    paths = write_sheet(result, out_dir)
    ev = result.event
    if as_json:
        emit_json({"folder": folder, "game": game, "db": str(database), "planned": len(ev.plan),
                   "finished": len(ev.games), "played_now": ev.played, "interrupted": ev.interrupted,
                   "complete": ev.complete, "sheet": [str(p) for p in paths],
                   "agents": [{"name": r.name, "kind": r.kind, "source": r.source, "reference": r.reference,
                               "rank": r.rank, "games": r.games, "points": r.points, "status": r.status,
                               "failures": r.failures,
                               "reasons": [{"game": n, "reason": t, "detail": d} for n, t, d in r.reasons]}
                              for r in sheet_rows(result)]})
    else:
        rows = sheet_rows(result)
        console.print(sheet_table(rows, f"{result.config.name}: {len(ev.games)}/{len(ev.plan)} games"))
        for line in reason_lines(rows):
            console.print(line, markup=False, soft_wrap=True)
        console.print(f"sheet: {paths[1]} (and {paths[0].name}, {paths[2].name}); games stored in {database}",
                      markup=False, soft_wrap=True)
    if ev.interrupted:
        err_console.print(f"interrupted: {len(ev.games)} of {len(ev.plan)} games finished, saved in {database}; "
                          "run the same command with --resume to finish", markup=False)
        return 130
    return 0


def sheet_table(rows: list[SheetRow], title: str) -> Table:
    """The sheet in the terminal: one line per agent and reference (kinds, wins, draws and losses are in the CSV
    and HTML sheets; the reasons are listed under the table)."""
    from rich import box
    from rich.text import Text

    table = Table(title=Text(title), box=box.SIMPLE_HEAD, pad_edge=False)
    for col in ("#", "agent", "points", "vs refs", "vs class", "s/move", "status"):
        table.add_column(col, justify="right" if col in ("#", "points", "s/move") else "left",
                         no_wrap=col != "agent", overflow="fold", min_width=16 if col == "agent" else None)
    for r in rows:
        status = "not played" if r.problem else r.status
        table.add_row(str(r.rank or ("ref" if r.reference else "-")), Text(r.name),
                      f"{r.points:g}/{r.games}" if r.games else "",
                      f"{r.vs_references[0]:g}/{r.vs_references[1]}" if r.vs_references[1] else "",
                      f"{r.vs_class[0]:g}/{r.vs_class[1]}" if r.vs_class[1] else "",
                      "" if r.seconds_per_move is None else f"{r.seconds_per_move:.3f}", Text(status))
    return table


def reason_lines(rows: list[SheetRow]) -> list[str]:
    """Under the table: why each agent that failed lost (its first failure and how many games it lost so), and why
    each agent that could not play did not."""
    lines = []
    for r in rows:
        if r.problem:
            lines.append(f"{r.name}: not played: {r.problem}")
        elif r.reasons and not r.reference:
            n, why, detail = r.reasons[0]
            more = f" (and {len(r.reasons) - 1} more)" if len(r.reasons) > 1 else ""
            lines.append(f"{r.name}: game {n}: {why}: {detail}{more}")
    return lines


def register(main_group: click.Group) -> None:
    main_group.add_command(grade_cmd)
