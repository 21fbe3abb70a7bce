"""``plies match`` (two players, paired openings) and ``plies tournament`` (a TOML file: round robin or
gauntlet), with ``plies tournament show`` / ``export`` for a results database."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import click
from sqlalchemy.exc import SQLAlchemyError

from plies.cli._common import Decorated, FiniteRange, console, emit_json, err_console, json_option
from plies.game import PliesError
from plies.games import start_position
from plies.match.balanced import openings_path, shipped_for
from plies.match.event import EventResult, run_event
from plies.match.openings import read_openings
from plies.match.plan import MAX_GAMES, Entrant, EventConfig, resolve_spec, spec_name
from plies.match.runner import Finished, load_modules
from plies.match.store import Store, StoredEvent
from plies.tournament.export import csv_text, transcript_text
from plies.tournament.report import failures_table, print_report
from plies.tournament.sprt import SprtSettings, parse_sprt, pentanomial, sprt_state
from plies.tournament.standings import Standings, tabulate

SPRT_GAMES = 20_000
"""Games a match with ``--sprt`` plans when ``--games`` is not given (it stops when the test decides)."""

run_options = [
    click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
                 help="Worker processes playing games in parallel."),
    click.option("--db", type=click.Path(dir_okay=False), default=None,
                 help="SQLite file: every game is written to it as soon as it ends."),
    click.option("--resume", is_flag=True, help="Continue the run stored in --db: play only the missing games."),
    click.option("--ray", "ray", metavar="ADDRESS", default=None,
                 help="Play the games as Ray tasks on the cluster at ADDRESS ('local' starts one here)."),
    click.option("--progress/--no-progress", default=True, help="Live progress on stderr (terminals only)."),
    json_option,
]


def _apply(options: list[Callable[[Decorated], Decorated]]) -> Callable[[Decorated], Decorated]:
    def deco(f: Decorated) -> Decorated:
        for o in reversed(options):
            f = o(f)
        return f

    return deco


@click.command("match")
@click.argument("player_a")
@click.argument("player_b")
@click.option("--game", "-g", default="othello", show_default=True, help="othello, othello6, tictactoe, ...")
@click.option("--games", "-n", type=click.IntRange(max=MAX_GAMES), default=None,
              help="Number of games (even: each opening is played twice, colours swapped). Default: 2 per opening.")
@click.option("--openings", type=click.Path(dir_okay=False), default=None,
              help="File of openings, one position or transcript per line (cycled); 'balanced8': the shipped "
                   "8-ply openings the engine rates within a disc of even (every pair counts).")
@click.option("--random-openings", type=int, default=None, metavar="K",
              help="Each pair of games starts after K random plies (seeded).")
@click.option("--depth", "-d", type=click.IntRange(1, 60), default=None,
              help="Depth for players whose spec names no depth/time.")
@click.option("--time", "-t", "think", type=FiniteRange(min=0.001), default=None,
              help="Seconds per move for players with a clock (engine) whose spec names no depth/time.")
@click.option("--time-limit", type=FiniteRange(min=0.001), default=None,
              help="Forfeit: a move slower than this many seconds loses the game on time.")
@click.option("--seed", "-s", type=int, default=0, show_default=True,
              help="Seeds random openings and unseeded random players (per game index).")
@click.option("--load", "modules", multiple=True, metavar="MODULE",
              help="Import MODULE first (in every worker) so its player kinds can be used.")
@click.option("--sprt", metavar="ELO0,ELO1", default=None,
              help="Stop as soon as the sequential probability ratio test decides between A being ELO0 and ELO1 "
                   f"Elo stronger than B (pairs of games; up to --games, default {SPRT_GAMES:,}).")
@click.option("--alpha", type=FiniteRange(min=0.0001, max=0.4999), default=0.05, show_default=True,
              help="SPRT: the chance of accepting ELO1 when ELO0 holds.")
@click.option("--beta", type=FiniteRange(min=0.0001, max=0.4999), default=0.05, show_default=True,
              help="SPRT: the chance of accepting ELO0 when ELO1 holds.")
@_apply(run_options)
def match_cmd(player_a: str, player_b: str, game: str, games: int | None, openings: str | None,
              random_openings: int | None, depth: int | None, think: float | None, time_limit: float | None,
              seed: int, modules: tuple[str, ...], sprt: str | None, alpha: float, beta: float,
              workers: int | None, db: str | None, resume: bool, ray: str | None, progress: bool,
              as_json: bool) -> int:
    """Play PLAYER_A against PLAYER_B over paired openings and report score, Elo difference and margins.

    Players are specs: random, greedy, minimax:depth=3,eval=doc000, alphabeta:depth=5,eval=doc001,pruning=off,
    engine:level=7, nboard:/path/to/program ...  Example (the HexThello course report's pruning check: identical games):

    \b
      plies match alphabeta:depth=3,eval=doc004 alphabeta:depth=3,eval=doc004,pruning=off
    """
    start_position(game)
    if openings and random_openings is not None:
        raise PliesError("give --openings or --random-openings, not both")
    if time_limit is not None and time_limit <= 0:
        raise PliesError("--time-limit must be positive")
    if random_openings is not None and random_openings < 0:
        raise PliesError("--random-openings needs a number of plies, 0 or more")
    test = parse_sprt(sprt, alpha, beta) if sprt is not None else None
    load_modules(modules)
    opening_list = read_openings(openings_path(openings, game), game) if openings else []
    slots = len(opening_list) or 1
    n = games if games is not None else (SPRT_GAMES if test is not None else 2 * slots)
    names = [spec_name(player_a), spec_name(player_b)]  # an nboard player's name= names it in the results
    if names[0] == names[1]:
        names = [f"{names[0]} #1", f"{names[1]} #2"]
    specs = (player_a, player_b)
    entrants = [Entrant(nm, resolve_spec(spec, game, depth, think)) for nm, spec in zip(names, specs, strict=True)]
    config = EventConfig(
        players=entrants, kind="match", name=f"{names[0]} vs {names[1]}", game=game, games_per_pair=n,
        openings=opening_list, random_plies=random_openings or 0, seed=seed, depth=depth, time=think,
        time_limit=time_limit, modules=list(modules),
    )
    if n > 2 and n % 2 == 0 and not opening_list and not random_openings:
        err_console.print("note: every game starts from the start position; deterministic players will repeat "
                          "the same two games (use --random-openings K or --openings FILE)")
    stop = None
    if test is not None:
        def stop(finished: list[Finished]) -> bool:
            return sprt_state(sprt_results(finished, names[0]), test).decision is not None

    result = run_event(config, db, resume, workers or 1, ray, err_console, progress, stop=stop)
    return _finish(result, config, db, as_json, test)


def sprt_results(finished: list[Finished], a: str) -> list[tuple[int, int | None, float]]:
    """(game index, pair, A's score) of every game with a result, for ``sprt_state``."""
    out: list[tuple[int, int | None, float]] = []
    for f in finished:
        r = f.record
        if r.winner is None and r.termination != "normal":
            continue  # abandoned without a result
        score = 0.5 if r.winner is None else float((f.black, f.white)[r.winner] == a)
        out.append((f.planned.index, f.planned.pair, score))
    return out


def _finish(result: EventResult, config: EventConfig, db: str | Path | None, as_json: bool,
            test: SprtSettings | None = None) -> int:
    names = [p.name for p in config.players]
    standings = tabulate(result.games, names)
    state = sprt_state(sprt_results(result.games, names[0]), test) if test is not None else None
    if as_json:
        emit_json({
            "kind": config.kind, "name": config.name, "game": config.game, "event": result.event.id,
            "db": None if db is None else str(db), "planned": len(result.plan), "finished": len(result.games),
            "played_now": result.played, "interrupted": result.interrupted, "complete": result.complete,
            "players": [{"name": e.name, "spec": e.spec} for e in config.players],
            **standings.to_dict(),
            **({"pentanomial": pentanomial(sprt_results(result.games, names[0]))} if config.kind == "match" else {}),
            **({} if state is None or test is None else {"sprt": {**state.to_dict(), "elo0": test.elo0,
                                                                   "elo1": test.elo1, "alpha": test.alpha,
                                                                   "beta": test.beta}}),
            "games": [_game_json(f) for f in result.games],
        })
    elif config.kind == "match":
        _print_match(result, standings, names, config.game)
        if state is not None and test is not None:
            console.print(f"{state.text()} ({test.text()})", markup=False, soft_wrap=True)
    else:
        print_report(console, standings, f"Standings of {config.name}: {len(result.games)}/{len(result.plan)} games")
    if result.interrupted:
        kept = f"saved in {db}; run again with --resume to finish" if db else "not saved (no --db)"
        err_console.print(f"interrupted: {len(result.games)} of {len(result.plan)} games finished, {kept}",
                          markup=False)
        return 130
    return 0


def _game_json(f: Finished) -> dict[str, object]:
    d: dict[str, object] = f.record.to_dict()
    d.update(index=f.planned.index, pair=f.planned.pair, black=f.black, white=f.white,
             opening=f.planned.opening.moves or f.planned.opening.position, seed=f.planned.seed, seconds=f.seconds)
    return d


def identical_pairs(result: EventResult) -> tuple[int, int]:
    """(pairs whose two games have the same moves, complete pairs): the HexThello course report's pruning check."""
    by_pair: dict[int, list[Finished]] = {}
    for f in result.games:
        by_pair.setdefault(f.planned.pair, []).append(f)
    complete = [fs for fs in by_pair.values() if len(fs) == 2]
    same = sum(1 for x, y in complete if x.record.moves == y.record.moves and x.record.final == y.record.final)
    return same, len(complete)


SPLIT_HINT = 0.6
"""Above this share of pairs split one point each (with 10 pairs or more), a match of a game with a shipped set of
balanced openings suggests it."""


def pairs_text(counts: list[int], game: str, identical: int = 0) -> str:
    """The pentanomial line: complete pairs by A's points, and a hint when most pairs split evenly other than by
    ``identical`` pairs (the same game twice, colours swapped: deterministic equal players)."""
    total = sum(counts)
    text = (f"Pairs by A's points (0, ½, 1, 1½, 2): {', '.join(map(str, counts))}; {counts[2]} of {total} split "
            "evenly")
    sets = shipped_for(game)
    if sets and total >= 10 and counts[2] - identical > SPLIT_HINT * total:
        text += f"; most pairs were decided by their opening: --openings {sets[0]} makes every pair count"
    return text


def _print_match(result: EventResult, s: Standings, names: list[str], game: str) -> None:
    a, b = names
    label = {a: "A", b: "B"}
    console.print(f"A = {a}\nB = {b}", markup=False)
    if len(result.games) <= 24:
        for f in result.games:
            r = f.record
            if r.termination != "normal":
                if r.winner is None:
                    what = f"no result: {r.termination} ({r.detail[:60]})"
                else:
                    what = f"{label[(f.black, f.white)[r.winner]]} wins: " \
                           f"{label[(f.black, f.white)[1 - r.winner]]} {r.termination} ({r.detail[:60]})"
            elif r.winner is None:
                what = f"draw {r.score:+g}"
            else:
                what = f"{label[(f.black, f.white)[r.winner]]} wins by {abs(r.score):g}"
            opening = f.planned.opening.moves or ("start" if f.planned.opening.position == "start" else "position")
            console.print(f"{f.planned.index + 1:>4}. Black {label[f.black]} - White {label[f.white]}: {what}  "
                          f"({len(r.moves)} plies, opening {opening})", markup=False)
    p = s.pair(a, b)
    console.print(f"A {p.points:g} - {p.games - p.points:g} B   (A: {p.wins} won, {p.draws} drawn, {p.losses} lost "
                  f"of {p.games})")
    spm = [s.lines[n].seconds_per_move for n in (a, b)]
    if all(x is not None for x in spm):
        console.print(f"Time a move: A {spm[0]:.3f} s, B {spm[1]:.3f} s "
                      f"({s.lines[a].moves} and {s.lines[b].moves} moves)")
    mm = p.mean_margin
    los = p.elo.los
    console.print(f"Elo difference A - B: {p.elo.text()} (95%)"
                  + ("" if los is None else f", LOS {100 * los:.1f}%")
                  + ("" if mm is None else f", mean disc margin {mm:+.1f}"))
    counts = pentanomial(sprt_results(result.games, a))
    same, pairs = identical_pairs(result)
    if sum(counts):
        console.print(pairs_text(counts, game, same), markup=False, soft_wrap=True)
    if same:
        console.print(f"{same} of {pairs} pairs: both games identical move for move, colours swapped")
    ft = failures_table(s)
    if ft is not None:
        console.print(ft)


class _DefaultRun(click.Group):
    """``plies tournament CONFIG`` means ``plies tournament run CONFIG``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


@click.group("tournament", cls=_DefaultRun)
def tournament_group() -> None:
    """Round robin or gauntlet from a TOML file: cross table, points, Elo ± 95%, disc margins, failures.

    \b
      plies tournament CONFIG.toml [--workers N] [--db FILE] [--resume] [--ray ADDRESS]
      plies tournament show DB
      plies tournament export DB --csv FILE --transcript FILE
    """


@tournament_group.command("run")
@click.argument("config_file", type=click.Path(dir_okay=False))
@click.option("--seed", "-s", type=int, default=None, help="Override the file's seed.")
@_apply(run_options)
def tournament_run(config_file: str, seed: int | None, workers: int | None, db: str | None, resume: bool,
                   ray: str | None, progress: bool, as_json: bool) -> int:
    """Play the tournament described in CONFIG_FILE (see docs/tournament.md) and print its tables."""
    from plies.tournament.config import load_config

    tf = load_config(config_file, seed=seed)
    database = db if db is not None else tf.db
    result = run_event(tf.config, database, resume, workers or tf.workers, ray or tf.ray, err_console, progress)
    return _finish(result, tf.config, database, as_json)


def _read_event(path: str, event_id: int | None) -> tuple[StoredEvent, list[Finished]]:
    """An event and its games, read through a read-only connection: show and export never change the file."""
    store = Store(path, readonly=True)
    try:
        ev = store.event(event_id)
        return ev, store.games(ev.id)
    except SQLAlchemyError as e:  # a damaged file, or one locked by a crashed writer
        raise PliesError(f"cannot read database {path}: {getattr(e, 'orig', None) or e}") from None
    finally:
        store.close()


@tournament_group.command("show")
@click.argument("db", type=click.Path(dir_okay=False))
@click.option("--event", "event_id", type=int, default=None, help="Event id (default: the latest).")
@json_option
def tournament_show(db: str, event_id: int | None, as_json: bool) -> int:
    """Print the tables of a stored match or tournament (finished or not)."""
    ev, games = _read_event(db, event_id)
    s = tabulate(games, [p.name for p in ev.config.players])
    if as_json:
        emit_json({"event": ev.id, "kind": ev.kind, "name": ev.name, "planned": ev.planned, **s.to_dict()})
    else:
        print_report(console, s, f"Standings of {ev.name}: {len(games)}/{ev.planned} games")
    return 0


@tournament_group.command("export")
@click.argument("db", type=click.Path(dir_okay=False))
@click.option("--event", "event_id", type=int, default=None, help="Event id (default: the latest).")
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False), default=None, help="CSV file ('-': stdout).")
@click.option("--transcript", "transcript_file", type=click.Path(dir_okay=False), default=None,
              help="Transcript file of every game ('-': stdout).")
def tournament_export(db: str, event_id: int | None, csv_file: str | None, transcript_file: str | None) -> int:
    """Write the games of a stored event as CSV and/or a transcript file."""
    if not csv_file and not transcript_file:
        raise PliesError("say what to write: --csv FILE and/or --transcript FILE")
    targets = [t for t in (csv_file, transcript_file) if t and t != "-"]
    if len(targets) == 2 and Path(targets[0]).resolve() == Path(targets[1]).resolve():
        raise PliesError(f"--csv and --transcript both name {targets[0]}: give two files")
    for target in targets:  # every output checked before any is written: a bad one leaves the others untouched
        _check_writable(target)
    ev, games = _read_event(db, event_id)
    outputs = [(csv_file, csv_text(games)) if csv_file else None,
               (transcript_file, transcript_text(games, ev.name)) if transcript_file else None]
    for target, text in (o for o in outputs if o is not None):
        if target == "-":
            sys.stdout.write(text)
        else:
            try:
                Path(target).write_text(text, encoding="utf-8")
            except OSError as e:
                raise PliesError(f"cannot write {target}: {e.strerror}") from None
            err_console.print(f"wrote {len(games)} games to {target}", markup=False)
    return 0


def _check_writable(target: str) -> None:
    """PliesError unless ``target`` can be written: its folder exists and takes files, and it is no folder or
    read-only file (checked before anything is written)."""
    path = Path(target)
    folder = path.parent
    if not folder.is_dir():
        raise PliesError(f"cannot write {target}: folder {folder} does not exist")
    if path.is_dir():
        raise PliesError(f"cannot write {target}: it is a folder")
    if path.exists() and not os.access(path, os.W_OK):
        raise PliesError(f"cannot write {target}: permission denied")
    if not path.exists() and not os.access(folder, os.W_OK | os.X_OK):
        raise PliesError(f"cannot write {target}: folder {folder} is not writable")


def register(main_group: click.Group) -> None:
    main_group.add_command(match_cmd)
    main_group.add_command(tournament_group)
