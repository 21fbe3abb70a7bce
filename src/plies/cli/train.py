"""``plies train data|fit|average|book``: make the learned evaluation and the opening book from self-play;
``plies train hexthello-data|hexthello-fit``: the HexThello engine's learned evaluation."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from pathlib import Path

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from plies.game import PliesError

from ._common import FiniteRange, console, err_console


@click.group()
def train() -> None:
    """Train the learned Othello evaluation and build the opening book (see docs/training.md)."""


@train.command("data")
@click.option("--games", "-n", type=click.IntRange(1), required=True, help="Games in the run (indices 0..N-1).")
@click.option("--out", "-o", "out", required=True, type=click.Path(dir_okay=False), help="Data file (JSON lines).")
@click.option("--workers", "-w", type=click.IntRange(1, 256), default=1, show_default=True, help="Processes.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the run (game i has its own).")
@click.option("--resume", is_flag=True, help="Continue an existing file made with the same settings.")
@click.option("--backend", type=click.Choice(["engine", "python"]), default="engine", show_default=True,
              help="Searcher: the compiled engine, or the textbook alpha-beta (slow, for trials).")
@click.option("--depth", "-d", type=click.IntRange(1, 30), default=None, help="Self-play depth [engine 4, python 1].")
@click.option("--exact", "exact_empties", type=click.IntRange(0, 30), default=None,
              help="Solve exactly from this many empties [engine 18, python 8].")
@click.option("--random-plies", default="2-12", show_default=True, help="Random opening length range MIN-MAX.")
@click.option("--epsilon", type=FiniteRange(0, 1), default=0.0, show_default=True,
              help="Chance of a random move in the midgame.")
@click.option("--eval", "evaluation", default="default", show_default=True, help="Evaluation of the self-play.")
@click.option("--search-values", is_flag=True,
              help="Also keep the self-play search's value of each position before the exact phase (for fit "
                   "--search-share).")
@click.option("--weights", default=None, type=click.Path(exists=True, dir_okay=False),
              help="Learned weights the self-play searches with [the shipped ones] (the next round of a fit).")
@click.option("--stats", default=None, type=click.Path(exists=True, dir_okay=False),
              help="ProbCut statistics measured with --weights (plies train probcut) [the shipped ones].")
@click.option("--ray", "use_ray", is_flag=True, help="Run the games on a Ray cluster (pip install 'plies[ray]').")
def data_cmd(games: int, out: str, workers: int, seed: int, resume: bool, backend: str, depth: int | None,
             exact_empties: int | None, random_plies: str, epsilon: float, evaluation: str, search_values: bool,
             weights: str | None, stats: str | None, use_ray: bool) -> None:
    """Play self-play games and write their positions with exact-result labels to OUT."""
    from plies.train.data import Searcher, Settings, generate

    try:
        lo, hi = (int(x) for x in random_plies.split("-"))
    except ValueError:
        raise PliesError(f"--random-plies wants MIN-MAX such as 2-12, not {random_plies!r}") from None
    if exact_empties is None:
        exact_empties = 18 if backend == "engine" else 8
    settings = Settings(seed=seed, backend=backend, depth=depth or (4 if backend == "engine" else 1),
                        exact_empties=exact_empties,
                        random_min=lo, random_max=hi, epsilon=epsilon, evaluation=evaluation,
                        search_values=search_values)
    if not resume and os.path.exists(out) and os.path.getsize(out):
        raise PliesError(f"{out} exists; add --resume to continue it or choose another --out")
    t0 = time.perf_counter()
    positions = 0
    with _progress() as bar:
        task = bar.add_task("self-play", total=games)

        def on_start(done: int, todo: int) -> None:
            bar.update(task, completed=done)

        def on_game(n: int) -> None:
            nonlocal positions
            positions += n
            bar.update(task, advance=1, description=f"self-play ({positions:,} positions)")

        played, total = generate(out, games, settings, workers=workers, resume=resume, use_ray=use_ray,
                                 on_start=on_start, on_game=on_game, searcher=Searcher(weights, stats))
    dt = time.perf_counter() - t0
    console.print(f"{played} games played now ({positions:,} positions) in {dt:.1f} s; {total} games in {out}")


@train.command("fit")
@click.argument("data", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "-o", "out", required=True, type=click.Path(dir_okay=False), help="Weights file (.npz).")
@click.option("--holdout", type=FiniteRange(0, 0.9), default=0.1, show_default=True,
              help="Fraction of the games held out to measure the error.")
@click.option("--phases", type=click.IntRange(1, 60), default=12, show_default=True, help="Game phases.")
@click.option("--l2", type=FiniteRange(0, min_open=True), default=50.0, show_default=True,
              help="Ridge penalty per weight (above 0).")
@click.option("--iterations", type=click.IntRange(1), default=300, show_default=True, help="CG iterations cap.")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True, help="Seed of the held-out split.")
@click.option("--overlap", type=click.IntRange(0, 60), default=4, show_default=True,
              help="Also train each phase on positions this many empties outside it.")
@click.option("--only", default=None, help="Fit only these patterns (comma-separated names), e.g. for little data.")
@click.option("--refit", default=None, help="Fit only these phases (comma-separated), keep the others from --base.")
@click.option("--base", default=None, type=click.Path(exists=True, dir_okay=False),
              help="Weights file whose phases --refit keeps (or that --tune starts from).")
@click.option("--tune", is_flag=True,
              help="Fit the change from --base: the ridge pulls weights towards --base, not towards 0.")
@click.option("--search-share", type=FiniteRange(0, 1), default=0.0, show_default=True,
              help="Share of a game-result label taken from the self-play search's value (data --search-values).")
@click.option("--workers", "-w", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Processes fitting phases side by side.")
@click.option("--force", is_flag=True, help="Overwrite an existing OUT.")
def fit_cmd(data: tuple[str, ...], out: str, holdout: float, phases: int, l2: float, iterations: int,
            seed: int, overlap: int, only: str | None, refit: str | None, base: str | None, tune: bool,
            search_share: float, workers: int, force: bool) -> None:
    """Fit pattern weights per phase to DATA files; print the held-out error per phase."""
    from plies.train.data import load, search_weights
    from plies.train.fit import fit, load_weights, save_weights

    refit_phases = None
    if refit is not None:
        try:
            refit_phases = [int(x) for x in refit.split(",")]
        except ValueError:
            raise PliesError(f"--refit wants phase numbers such as 7 or 6,7, not {refit!r}") from None
        if base is None:
            raise PliesError("--refit needs --base WEIGHTS (the phases it keeps)")
    if tune and base is None:
        raise PliesError("--tune needs --base WEIGHTS (the weights it starts from)")

    _check_fit_out(out, [*data, *([base] if base else [])])
    _check_new_out(out, force)
    made_by = search_weights(data)  # the headers first: a malformed one fails before the long load
    t0 = time.perf_counter()
    ds = load(data)
    n_games = len(set(ds.game.tolist()))
    console.print(f"{len(ds):,} positions from {n_games:,} games ({int((ds.kind == 1).sum()):,} solved exactly, "
                  f"{int((ds.kind == 2).sum()):,} labelled by search)")
    if search_share > 0 and len(set(made_by.values())) > 1:
        console.print("[yellow]warning:[/] the search values of these files come from different weights ("
                      + ", ".join(f"{p}: {w}" for p, w in made_by.items())
                      + "); two evaluations' values are two kinds of label, and the fit learns their average")
    table = Table(title="fit by phase (mean absolute error, discs)")
    for col in ("phase", "empties", "train", "held-out", "train MAE", "held-out MAE", "predict-mean MAE", "CG its"):
        table.add_column(col, justify="right")
    with _progress() as bar:
        task = bar.add_task("fitting", total=phases)

        def on_phase(rep: object) -> None:
            bar.advance(task)

        result = fit(ds, n_phases=phases, l2=l2, holdout=holdout, seed=seed, iterations=iterations,
                     on_phase=on_phase, only=only.split(",") if only else None, overlap=overlap,
                     refit=refit_phases, base=load_weights(base) if base else None, search_share=search_share,
                     workers=workers, tune=tune)
    for p in result.phases:
        table.add_row(str(p.phase), f"{p.empties[1]}-{p.empties[0]}", f"{p.train:,}", f"{p.held:,}",
                      _f(p.train_mae), _f(p.held_mae), _f(p.baseline_mae), str(p.iterations))
    console.print(table)
    dt = time.perf_counter() - t0
    meta = {"data": [str(d) for d in data], "positions": len(ds), "games": n_games, "l2": l2, "holdout": holdout,
            "overlap": overlap, "only": only, "refit": refit, "base": base, "tune": tune, "search_share": search_share,
            "search_weights": made_by, "held_out_mae": [round(p.held_mae, 3) for p in result.phases],
            "seconds": round(dt, 1)}
    save_weights(out, result.weights, meta)
    console.print(f"held-out MAE {_f(result.held_mae())} discs; weights written to {out} in {dt:.1f} s")


@train.command("label")
@click.argument("data", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "-o", "out", required=True, type=click.Path(dir_okay=False), help="New data file.")
@click.option("--depth", "-d", type=click.IntRange(1, 30), default=6, show_default=True, help="Search depth.")
@click.option("--empties", default="19-60", show_default=True, help="Relabel positions with LO-HI empty squares.")
@click.option("--weights", default=None, type=click.Path(exists=True, dir_okay=False),
              help="Weights of the search's evaluation [the shipped ones].")
@click.option("--blend", type=FiniteRange(0, 1, min_open=True), default=1.0, show_default=True,
              help="New label = blend * search value + (1 - blend) * old label.")
@click.option("--workers", "-w", type=click.IntRange(1, 256), default=1, show_default=True, help="Processes.")
@click.option("--resume", is_flag=True, help="Continue an existing OUT made from the same DATA and settings.")
def label_cmd(data: str, out: str, depth: int, empties: str, weights: str | None, blend: float, workers: int,
              resume: bool) -> None:
    """Copy DATA to OUT with midgame positions relabelled by a search (Buro's phase-by-phase labels)."""
    from plies.train.label import LabelSettings, relabel

    try:
        lo, hi = (int(x) for x in empties.split("-"))
    except ValueError:
        raise PliesError(f"--empties wants LO-HI such as 21-25, not {empties!r}") from None
    settings = LabelSettings(depth=depth, lo=lo, hi=hi, weights=weights or "", blend=blend)
    t0 = time.perf_counter()
    with _progress() as bar:
        task = bar.add_task("labelling", total=None)

        def on_start(done: int, todo: int) -> None:
            bar.update(task, total=done + todo, completed=done)

        def on_game(n: int) -> None:
            bar.advance(task, n)

        now, total = relabel(data, out, settings, workers=workers, resume=resume, on_start=on_start,
                             on_game=on_game)
    console.print(f"{now} games relabelled now in {time.perf_counter() - t0:.1f} s; {total} games in {out}")


@train.command("book")
@click.option("--out", "-o", "out", required=True, type=click.Path(dir_okay=False), help="Book file (.npz).")
@click.option("--depth", "-d", type=click.IntRange(1, 30), default=8, show_default=True,
              help="Analysis depth of every book position.")
@click.option("--plies", "-p", type=click.IntRange(0, 30), default=8, show_default=True, help="Book depth in moves.")
@click.option("--branch", type=click.IntRange(1, 30), default=2, show_default=True,
              help="Moves expanded at each position (the best ones).")
@click.option("--width", type=FiniteRange(0), default=None,
              help="Expand only moves within WIDTH discs of the best (>= 0) [no limit].")
@click.option("--backend", type=click.Choice(["engine", "python"]), default="engine", show_default=True)
@click.option("--eval", "evaluation", default="default", show_default=True, help="Evaluation of the analysis.")
@click.option("--workers", "-w", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Processes analysing the positions of a ply.")
@click.option("--max-positions", type=click.IntRange(1), default=100_000, show_default=True,
              help="Stop expanding once the book has this many positions.")
@click.option("--force", is_flag=True, help="Overwrite an existing OUT.")
def book_cmd(out: str, depth: int, plies: int, branch: int, width: float | None, backend: str,
             evaluation: str, workers: int, max_positions: int, force: bool) -> None:
    """Build an opening book by analysing the opening tree and backing the values up by negamax."""
    from plies.outfiles import write_whole
    from plies.train.backends import get_backend
    from plies.train.book import build_book
    from plies.train.files import check_out_dir

    _check_new_out(out, force)
    check_out_dir(out)
    t0 = time.perf_counter()
    be = get_backend(backend, evaluation)
    with _progress() as bar:
        task = bar.add_task("book", total=None)
        book = build_book(be, depth, plies, branch=branch, width=float("inf") if width is None else width,
                          on_position=lambda n: bar.update(task, completed=n, description=f"book ({n} positions)"),
                          workers=workers, evaluation=evaluation, max_positions=max_positions)
    book.meta["evaluation"] = evaluation
    book.meta["seconds"] = round(time.perf_counter() - t0, 1)
    write_whole(out, book.save)
    console.print(f"{len(book)} positions written to {out} in {time.perf_counter() - t0:.1f} s")


@train.command("openings")
@click.option("--out", "-o", "out", required=True, type=click.Path(dir_okay=False),
              help="Openings file (one transcript a line), for plies match --openings.")
@click.option("--count", "-n", type=click.IntRange(1, 100_000), default=500, show_default=True,
              help="Openings to keep (each is one pair of games).")
@click.option("--plies", "-p", type=click.IntRange(1, 40), default=8, show_default=True,
              help="Random plies from the start.")
@click.option("--within", type=FiniteRange(0), default=1.0, show_default=True,
              help="Keep an opening only when its value is within this many discs of even.")
@click.option("--depth", "-d", type=click.IntRange(1, 30), default=14, show_default=True,
              help="Depth of the engine search that rates each opening.")
@click.option("--seed", "-s", type=int, default=1, show_default=True, help="Seeds the random plies.")
@click.option("--force", is_flag=True, help="Overwrite an existing OUT.")
def openings_cmd(out: str, count: int, plies: int, within: float, depth: int, seed: int, force: bool) -> None:
    """Write COUNT random openings that the engine rates close to even, for matches where every pair counts."""
    from plies.engine.probcut import weights_digest
    from plies.engine.weights import DEFAULT_WEIGHTS
    from plies.match.balanced import balanced_openings, format_openings
    from plies.outfiles import write_whole
    from plies.train.files import check_out_dir

    _check_new_out(out, force)
    check_out_dir(out)
    t0 = time.perf_counter()
    with _progress() as bar:
        task = bar.add_task("openings", total=count)

        def on_candidate(tried: int, kept: int) -> None:
            bar.update(task, completed=kept, description=f"openings ({tried} tried)")

        rated = balanced_openings(plies, count, within, depth, seed, on_candidate)
    header = (f"{count} Othello openings of {plies} random plies that the plies engine rates within {within:g} "
              f"disc{'' if within == 1 else 's'} of even at depth {depth}\n"
              f"made by: plies train openings --count {count} --plies {plies} --within {within:g} --depth {depth} "
              f"--seed {seed}\n"
              f"weights: {weights_digest(DEFAULT_WEIGHTS)} (the evaluation that rated them)")
    text = format_openings(rated, header)

    def write(path: str) -> None:
        Path(path).write_text(text, encoding="utf-8")

    write_whole(out, write)
    console.print(f"{len(rated)} openings written to {out} in {time.perf_counter() - t0:.1f} s")


@train.command("compare")
@click.option("--weights", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Weights file [the shipped one].")
@click.option("--depth", "-d", type=click.IntRange(1, 12), default=4, show_default=True, help="Search depth of both.")
@click.option("--pairs", type=click.IntRange(1), default=20, show_default=True, help="Openings (2 games each).")
@click.option("--opening-plies", type=click.IntRange(0, 30), default=8, show_default=True,
              help="Random plies of each opening.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the openings.")
def compare_cmd(weights: str | None, depth: int, pairs: int, opening_plies: int, seed: int) -> None:
    """Learned vs hand-made evaluation in the same alpha-beta at equal depth, paired openings."""
    from plies.match.record import GameRecord
    from plies.train.compare import Comparison, compare
    from plies.train.fit import load_weights

    w = load_weights(weights)
    t0 = time.perf_counter()
    with _progress() as bar:
        task = bar.add_task("games", total=2 * pairs)

        def on_game(rec: GameRecord, res: Comparison) -> None:
            bar.update(task, advance=1, description=f"learned scores {res.score:.0%}")

        res = compare(w, depth, pairs, opening_plies, seed, on_game=on_game)
    console.print(f"learned vs hand-made at depth {depth}, {res.games} games on {pairs} paired openings: "
                  f"+{res.wins} ={res.draws} -{res.losses}, score {res.score:.1%} ± {res.interval():.1%} "
                  f"(95%), mean disc margin {res.disc_sum / res.games:+.1f}, {time.perf_counter() - t0:.0f} s")


@train.command("hexthello-data")
@click.option("--games", "-n", type=click.IntRange(1), required=True, help="Games in the run (indices 0..N-1).")
@click.option("--out", "-o", "out", required=True, type=click.Path(dir_okay=False), help="Data file (.npz).")
@click.option("--workers", "-w", type=click.IntRange(1, 256), default=1, show_default=True, help="Processes.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the run (game i has its own).")
@click.option("--depth", "-d", type=click.IntRange(1, 30), default=4, show_default=True, help="Self-play depth.")
@click.option("--random-plies", default="2-12", show_default=True, help="Random opening length range MIN-MAX.")
@click.option("--epsilon", type=FiniteRange(0, 1), default=0.03, show_default=True,
              help="Chance of a random move after the opening.")
@click.option("--eval", "evaluation", type=click.Choice(["classic", "learned"]), default="classic",
              show_default=True, help="Evaluation of the self-play engine.")
@click.option("--weights", default=None, type=click.Path(exists=True, dir_okay=False),
              help="Weights of a learned self-play engine [the shipped ones].")
@click.option("--force", is_flag=True, help="Overwrite an existing OUT.")
def hex_data_cmd(games: int, out: str, workers: int, seed: int, depth: int, random_plies: str, epsilon: float,
                 evaluation: str, weights: str | None, force: bool) -> None:
    """Play HexThello self-play games; write their positions, labelled with the final disc difference, to OUT."""
    from plies.train.files import check_out_dir
    from plies.train.hexthello import SelfPlay, generate, save_data

    try:
        lo, hi = (int(x) for x in random_plies.split("-"))
    except ValueError:
        raise PliesError(f"--random-plies wants MIN-MAX such as 2-12, not {random_plies!r}") from None
    _check_new_out(out, force)
    check_out_dir(out)
    cfg = SelfPlay(games=games, seed=seed, depth=depth, epsilon=epsilon, opening=(lo, hi), evaluation=evaluation,
                   weights=weights)
    t0 = time.perf_counter()
    with _progress() as bar:
        task = bar.add_task("self-play", total=games)
        data = generate(cfg, workers=workers, on_game=lambda n: bar.advance(task, n))
    save_data(out, data)
    console.print(f"{games} games ({len(data['labels']):,} positions) in {time.perf_counter() - t0:.1f} s; "
                  f"written to {out}")


@train.command("hexthello-fit")
@click.argument("data", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "-o", "out", required=True, type=click.Path(dir_okay=False), help="Weights file (.npz).")
@click.option("--holdout", type=FiniteRange(0, 0.9), default=0.1, show_default=True,
              help="Fraction of the games held out to measure the error.")
@click.option("--l2", type=FiniteRange(0, min_open=True), default=20.0, show_default=True,
              help="Ridge penalty of an edge weight, above 0 (the dense and class weights get 1/100 of it).")
@click.option("--overlap", type=click.IntRange(0, 60), default=4, show_default=True,
              help="Also train each phase on positions this many empties outside it.")
@click.option("--iterations", type=click.IntRange(1), default=300, show_default=True, help="CG iterations cap.")
@click.option("--seed", type=click.IntRange(0), default=1, show_default=True, help="Seed of the held-out split.")
@click.option("--force", is_flag=True, help="Overwrite an existing OUT.")
def hex_fit_cmd(data: tuple[str, ...], out: str, holdout: float, l2: float, overlap: int, iterations: int,
                seed: int, force: bool) -> None:
    """Fit the HexThello learned evaluation to DATA files; print the held-out error per phase."""
    import numpy as np

    from plies.hexsearch import kernels as k
    from plies.hexsearch.learned import save_weights
    from plies.outfiles import write_whole
    from plies.train.hexthello import fit, load_data

    _check_fit_out(out, data)
    _check_new_out(out, force)
    t0 = time.perf_counter()
    ds = load_data(list(data))
    n_games = len(np.unique(ds["game"]))
    console.print(f"{len(ds['labels']):,} positions from {n_games:,} games")
    weights, reports = fit(ds, l2=l2, overlap=overlap, holdout=holdout, seed=seed, iterations=iterations)
    table = Table(title="fit by phase (mean absolute error, discs)")
    for col in ("phase", "empties", "train", "held-out", "train MAE", "held-out MAE", "predict-mean MAE"):
        table.add_column(col, justify="right")
    for r in reports:
        lo = r.phase * k.PHASE_WIDTH
        hi = f"{lo + k.PHASE_WIDTH - 1}" if r.phase < k.PHASES - 1 else "+"
        table.add_row(str(r.phase), f"{lo}-{hi}", f"{r.train:,}", f"{r.held:,}", _f(r.mae_train), _f(r.mae_held),
                      _f(r.mae_mean))
    console.print(table)
    dt = time.perf_counter() - t0
    meta = {"data": [os.path.basename(d) for d in data], "positions": len(ds["labels"]), "games": n_games,
            "l2": l2, "overlap": overlap, "holdout": holdout, "seed": seed,
            "held_out_mae": [round(r.mae_held, 3) for r in reports], "seconds": round(dt, 1)}
    write_whole(out, lambda tmp: save_weights(tmp, weights, meta))
    console.print(f"weights written to {out} in {dt:.1f} s")


@train.command("probcut")
@click.option("--out", "-o", "out", required=True, type=click.Path(dir_okay=False),
              help="Statistics file (JSON), e.g. src/plies/engine/data/probcut.json.")
@click.option("--positions", "-n", type=click.IntRange(20), default=1500, show_default=True,
              help="Positions measured, spread over the empties.")
@click.option("--depth", "-d", type=click.IntRange(3, 20), default=12, show_default=True,
              help="Deepest search measured (deeper nodes extend its statistics).")
@click.option("--exact-from", type=click.IntRange(0, 30), default=24, show_default=True,
              help="Solve positions with at most this many empties exactly (0: no solver statistics).")
@click.option("--exact-to", type=click.IntRange(1, 30), default=14, show_default=True,
              help="... and at least this many.")
@click.option("--weights", default=None, type=click.Path(exists=True, dir_okay=False),
              help="Weights file measured (default: the shipped weights).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the self-play positions.")
@click.option("--samples", default=None, type=click.Path(dir_okay=False),
              help="Keep the measured values in this .npz (a stopped run resumes; a refit searches nothing).")
@click.option("--workers", "-w", type=click.IntRange(1, 256), default=1, show_default=True, help="Processes.")
@click.option("--force", is_flag=True, help="Overwrite an existing OUT.")
def probcut_cmd(out: str, positions: int, depth: int, exact_from: int, exact_to: int, weights: str | None,
                seed: int, samples: str | None, workers: int, force: bool) -> None:
    """Measure how shallow searches predict deep ones and exact scores, and fit the selective search's
    statistics (multi-ProbCut) to OUT."""
    from plies.engine.probcut import weights_digest
    from plies.engine.weights import DEFAULT_WEIGHTS
    from plies.train.files import check_out_dir
    from plies.train.probcut import Settings, collect, fit, summary, write_statistics

    _check_new_out(out, force)
    check_out_dir(out)
    settings = Settings(positions=positions, depth=depth, seed=seed, exact_from=exact_from, exact_to=exact_to,
                        weights=weights or "")
    settings.check()
    t0 = time.perf_counter()
    with _progress() as bar:
        task = bar.add_task("searching positions", total=positions)

        def on_start(done: int, todo: int) -> None:
            bar.update(task, completed=done)

        samples_ = collect(settings, samples, workers, on_start=on_start,
                           on_sample=lambda: bar.update(task, advance=1))
    weights_file = weights or str(DEFAULT_WEIGHTS)
    meta = {"weights": os.path.basename(weights_file), "weights_sha256": weights_digest(weights_file),
            "positions": len(samples_.own), "depth": depth, "seed": seed, "exact": [exact_to, exact_from],
            "command": f"plies train probcut --positions {positions} --depth {depth} --seed {seed} "
                       f"--exact-from {exact_from} --exact-to {exact_to}"}
    stats = fit(samples_, meta)
    table = Table(title="depth d predicted from depth d' (means over the positions; discs)")
    for col in ("d", "d'", "slope", "offset", "sigma"):
        table.add_column(col, justify="right")
    for d, ds, _, a, b, sg in summary(stats, samples_):
        table.add_row("exact" if d == 63 else str(d), str(ds), f"{a:.3f}", f"{b:+.2f}", f"{sg:.2f}")
    console.print(table)
    write_statistics(stats, out)
    console.print(f"statistics of {len(samples_.own)} positions written to {out} in {time.perf_counter() - t0:.1f} s")


@train.command("average")
@click.argument("weights", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "-o", "out", required=True, type=click.Path(dir_okay=False), help="Averaged weights file.")
@click.option("--force", is_flag=True, help="Overwrite an existing OUT.")
def average_cmd(weights: tuple[str, ...], out: str, force: bool) -> None:
    """Average two or more WEIGHTS files of the same phases into OUT: the evaluation is linear in its weights,
    so OUT values every position at the mean of their values (an ensemble of fits at the cost of one)."""
    import numpy as np

    from plies.train.average import average_weights
    from plies.train.fit import save_weights

    _check_fit_out(out, weights)
    _check_new_out(out, force)
    mean, meta = average_weights(weights)
    table = Table(title="averaged weights")
    for col in ("file", "sha256", "positions", "held-out MAE (mean of phases)"):
        table.add_column(col, justify="right")
    for part in meta["average_of"]:
        mae = part["held_out_mae"]
        table.add_row(part["file"], part["sha256"], f"{part['positions']:,}" if part["positions"] else "-",
                      _f(float(np.mean(mae))) if mae else "-")
    console.print(table)
    save_weights(out, mean, meta)
    console.print(f"the mean of {len(weights)} weights files written to {out}")


@train.command("calibrate")
@click.option("--out", "-o", "out", required=True, type=click.Path(dir_okay=False), help="Calibrated weights file.")
@click.option("--weights", default=None, type=click.Path(exists=True, dir_okay=False),
              help="Weights file to calibrate (default: the shipped weights).")
@click.option("--positions", "-n", type=click.IntRange(20), default=600, show_default=True,
              help="Self-play positions measured each round.")
@click.option("--depth", "-d", type=click.IntRange(6, 16), default=10, show_default=True,
              help="Deepest search measured.")
@click.option("--rounds", type=click.IntRange(1, 10), default=2, show_default=True,
              help="Rounds of measuring and shifting (one more round measures the result).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the self-play positions.")
@click.option("--anchor", "anchor_data", multiple=True, type=click.Path(exists=True, dir_okay=False),
              help="Training data whose game results set each phase's leaning between odd and even empties "
                   "(repeatable).")
@click.option("--workers", "-w", type=click.IntRange(1, 256), default=1, show_default=True, help="Processes.")
@click.option("--force", is_flag=True, help="Overwrite an existing OUT.")
def calibrate_cmd(out: str, weights: str | None, positions: int, depth: int, rounds: int, seed: int,
                  anchor_data: tuple[str, ...], workers: int, force: bool) -> None:
    """Shift each phase's bias so that values searched to odd and even depths agree (no swing with the
    depth's parity), and with --anchor set the leaning between odd and even empties from game results; write
    the calibrated weights to OUT."""
    from plies.engine.weights import DEFAULT_WEIGHTS, weights_meta
    from plies.train.calibrate import calibrate
    from plies.train.fit import save_weights

    _check_fit_out(out, [weights] if weights else [])
    _check_new_out(out, force)
    t0 = time.perf_counter()
    table = Table(title="odd minus even depth, by the phase of the leaves (discs); shift added to the bias")
    table.add_column("phase", justify="right")
    table.add_column("empties", justify="right")
    rows: list[list[str]] = []

    with _progress() as bar:
        task = bar.add_task("measuring", total=positions * (rounds + 1))

        def on_round(k: int, rnd: object) -> None:
            from plies.train.calibrate import Round

            assert isinstance(rnd, Round)
            table.add_column(f"swing {k}" if k < rounds else "swing after", justify="right")
            if k < rounds:
                table.add_column(f"shift {k + 1}", justify="right")
            for p in range(len(rnd.swing)):
                if len(rows) <= p:
                    lo, hi = _phase_empties(p, len(rnd.swing))
                    rows.append([str(p), f"{hi}-{lo}"])
                rows[p].append(_f(float(rnd.swing[p])))
                if k < rounds:
                    rows[p].append(f"{rnd.shift[p]:+.2f}")

        W, report = calibrate(weights, positions, depth, seed, rounds, workers, on_round=on_round,
                              on_sample=lambda: bar.update(task, advance=1))
    change = None
    if anchor_data:
        from plies.train.calibrate import anchor
        from plies.train.data import load

        ds = load(anchor_data)
        W, change = anchor(W, ds.own, ds.opp, ds.label, seed)
        table.add_column("parity anchor", justify="right")
        for p, row in enumerate(rows):
            row.append(f"{change[p]:+.2f}")
    for row in rows:
        table.add_row(*row)
    console.print(table)
    meta = weights_meta(weights or DEFAULT_WEIGHTS)
    meta["calibration"] = {"positions": positions, "depth": depth, "rounds": rounds, "seed": seed,
                           "shift": [[round(float(x), 3) for x in r.shift] for r in report[:-1]],
                           "swing_after": [None if x != x else round(float(x), 3) for x in report[-1].swing],
                           "anchor": None if change is None else {"data": [str(d) for d in anchor_data],
                                                                  "parity": [round(float(x), 3) for x in change]}}
    save_weights(out, W, meta)
    console.print(f"calibrated weights written to {out} in {time.perf_counter() - t0:.1f} s")


def _phase_empties(phase: int, phases: int) -> tuple[int, int]:
    """The lowest and highest empties of a weight phase."""
    from plies.engine.patterns import phase_of

    ks = [k for k in range(61) if int(phase_of(k, phases)) == phase]
    return min(ks), max(ks)


def _check_new_out(out: str, force: bool) -> None:
    """Refuse an OUT that already holds something unless ``--force``: a finished fit or book is not replaced
    by accident."""
    if not force and os.path.exists(out) and os.path.getsize(out):
        raise PliesError(f"{out} exists; add --force to overwrite it or choose another --out")


def _check_fit_out(out: str, inputs: Iterable[str]) -> None:
    """Refuse an OUT that is one of the command's inputs (it would be lost) or in a missing folder (the fit would
    be lost), before the fit."""
    from plies.train.files import check_out_dir, same_file

    for path in inputs:
        if same_file(path, out):
            raise PliesError(f"--out {out} is an input of the fit; choose another file")
    check_out_dir(out)


def _f(x: float) -> str:
    return "-" if x != x else f"{x:.2f}"


def _progress() -> Progress:
    """A progress bar on stderr, only in a terminal: stdout keeps the results alone (for pipes and files)."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TimeRemainingColumn(), console=err_console, transient=False, disable=not err_console.is_terminal)


def register(main_group: click.Group) -> None:
    main_group.add_command(train)
