"""Accuracy against perfect play: how many discs the engine's move loses against the best move, by empties.

Positions come from the engine's own self-play (8 random plies from the start, then ``engine:depth=4`` on both
sides, all fixed by ``--seed``), stopped at each number of empties asked for.  Self-play depends on the shipped
evaluation weights, so the data file also keeps each set as it was drawn (``sets``: seed -> empties -> positions
in order), and a set the file has is read from it: the same positions whatever the weights.  The exact values
come from that data file, which ships with the repository (``benchmarks/data/accuracy-exact.json``), keyed by the
position (board text and side to move) and the move: the best move's value (an exact solve of the position) and
the value of every move some engine chose (an exact solve of the child).  The engine then chooses a move with
each of ``--times`` seconds; its loss is the best value minus the chosen move's (0 when it finds a best move).
Only the engine's thinking is timed: a chosen move missing from the file is solved afterwards (and written to it
with ``--update``).

    python benchmarks/accuracy.py --solve                       # fill the file (resumable: Ctrl-C and rerun)
    python benchmarks/accuracy.py                               # 20-30 empties, 5 positions each, 0.1 s and 1 s
    python benchmarks/accuracy.py --empties 24-30 --times 1 --threads 2 --json

The data file holds the default set (5 positions at each of 20-30 empties) and 20 at each of 20-23.  Most of a
solve pass is at 27-30 empties: the ten positions at 29-30 took 53 minutes with ``--solve-threads 2``.

Beyond what can be solved, ``--reference-depth D`` measures against a deep search instead: the best value is a
depth-D search of the position, a chosen move's value minus a depth-(D - 1) search of its child (the same
horizon), both by the engine's own (selective) search, kept in ``benchmarks/data/accuracy-deep.json``.  A chosen
move that is the reference's best loses 0; a child valued above the reference's best (the selective searches'
windows differ) loses 0 too, and is counted.  The engine's evaluation is its own reference, so the loss measures
what the clock's shallower search gives up against a deeper one, not the evaluation's error:

    python benchmarks/accuracy.py --reference-depth 20 --empties 30-36 --count 3 --solve
    python benchmarks/accuracy.py --reference-depth 20 --empties 30-36 --count 3
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from plies.engine import Engine
from plies.game import PASS, PliesError
from plies.games.othello import OthelloState

DATA = Path(__file__).resolve().parent / "data" / "accuracy-exact.json"
DEEP_DATA = DATA.with_name("accuracy-deep.json")
SUMMARY_EMPTIES = (24, 30)  # the one-line summary: the mean loss over these numbers of empties


def self_play_positions(empties: list[int], count: int, seed: int) -> dict[int, list[OthelloState]]:
    """``count`` positions at each number of ``empties``, from seeded self-play games (one game gives one
    position at every number of empties it passes through; positions where the side to move must pass are
    skipped)."""
    rng = random.Random(seed)
    engine = Engine(hash_mb=16, threads=1)
    out: dict[int, list[OthelloState]] = {e: [] for e in empties}
    while any(len(v) < count for v in out.values()):
        s = OthelloState.start()
        for _ in range(8):
            if s.is_over():
                break
            s = s.play(rng.choice(s.legal_moves()))
        engine.clear()
        while not s.is_over() and s.empties() >= min(empties):
            e = s.empties()
            if e in out and len(out[e]) < count and s.legal_moves() != [PASS]:
                out[e].append(s)
            s = s.play(engine.search(s, depth=4).move)
    return out


class ExactCache:
    """Exact values by position and move, read from and written to a JSON file:
    ``{"positions": {board text: {"empties", "best", "best_move", "moves": {move: value}}}, "sets": {seed:
    {empties: [board text, ...]}}}``, values the final disc difference from the side to move's view."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.positions: dict[str, dict] = {}
        self.sets: dict[str, dict[str, list[str]]] = {}
        if path.exists():
            try:
                data = json.loads(path.read_text())
                self.positions = dict(data["positions"])
                sets = data.get("sets", {})
                self.sets = {str(k): {str(e): [str(t) for t in v] for e, v in d.items()} for k, d in sets.items()}
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise SystemExit(f"error: {path} is not an accuracy data file ({exc})") from None

    def reload(self) -> None:
        """Take in what another run wrote to the file meanwhile."""
        if self.path.exists():
            other = ExactCache(self.path)
            for key, entry in other.positions.items():
                mine = self.positions.setdefault(key, entry)
                if mine is not entry:
                    mine["moves"] = {**entry["moves"], **mine["moves"]}
                    if "best" not in mine and "best" in entry:
                        mine.update({k: v for k, v in entry.items() if k != "moves"})
            for seed, by_empties in other.sets.items():
                for e, texts in by_empties.items():
                    mine_texts = self.sets.setdefault(seed, {}).setdefault(e, [])
                    if len(texts) > len(mine_texts):
                        mine_texts[:] = texts

    def positions_for(self, empties: list[int], count: int, seed: int) -> dict[int, list[OthelloState]]:
        """The first ``count`` positions of ``seed``'s set at each number of ``empties``; a set the file holds
        too few of is extended by self-play (and saved with the next solve)."""
        kept = self.sets.setdefault(str(seed), {})
        short = [e for e in empties if len(kept.get(str(e), [])) < count]
        if short:
            for e, states in self_play_positions(short, count, seed).items():
                texts = kept.setdefault(str(e), [])
                texts.extend(t for t in (x.to_text() for x in states) if t not in texts)
        try:
            return {e: [OthelloState.from_text(t) for t in kept[str(e)][:count]] for e in empties}
        except PliesError as exc:
            raise SystemExit(f"error: {self.path} holds a position that is not a board ({exc})") from None

    def best(self, s: OthelloState) -> float | None:
        entry = self.positions.get(s.to_text())
        return None if entry is None or "best" not in entry else float(entry["best"])

    def best_move(self, s: OthelloState) -> str | None:
        entry = self.positions.get(s.to_text())
        return None if entry is None else entry.get("best_move")

    def value(self, s: OthelloState, move: int) -> float | None:
        entry = self.positions.get(s.to_text())
        if entry is None:
            return None
        v = entry["moves"].get(s.move_str(move))
        return None if v is None else float(v)

    def put_best(self, s: OthelloState, move: int, value: float, seconds: float) -> None:
        entry = self.positions.setdefault(s.to_text(), {"empties": s.empties(), "moves": {}})
        entry.update(best=value, best_move=s.move_str(move), solve_seconds=round(seconds, 2))
        entry["moves"][s.move_str(move)] = value

    def put_move(self, s: OthelloState, move: int, value: float) -> None:
        self.positions[s.to_text()]["moves"][s.move_str(move)] = value

    def save(self) -> None:
        """Write the file (atomically: a stopped run never leaves half a file)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.reload()  # another run (a solve pass beside an --update) may have added values meanwhile
        tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
        ordered = dict(sorted(self.positions.items(), key=lambda kv: (kv[1]["empties"], kv[0])))
        sets = {seed: {e: d[e] for e in sorted(d, key=int)} for seed, d in sorted(self.sets.items())}
        tmp.write_text(json.dumps({"positions": ordered, "sets": sets}, indent=1, sort_keys=False) + "\n")
        os.replace(tmp, self.path)


def solve_position(s: OthelloState, solver: Engine, depth: int | None = None) -> tuple[int, float]:
    """The best move of ``s`` and its exact value (with ``depth``: its depth-``depth`` value, in discs)."""
    solver.clear()
    r = solver.search(s, exact=True) if depth is None else solver.search(s, depth=depth)
    if (depth is None and not r.exact) or r.move is None:
        raise RuntimeError(f"the solve of {s.to_text()} did not finish")
    return int(r.move), (int(r.value) if depth is None else round(float(r.value), 2))


def solve_move(s: OthelloState, move: int, solver: Engine, depth: int | None = None) -> float:
    """The exact value of ``move`` in ``s`` (side to move's view): minus the child's (with ``depth``: minus the
    child's depth-``depth - 1`` value)."""
    c = s.play(move)
    if c.is_over():
        return c.score() if s.to_move == 0 else -c.score()
    solver.clear()
    if depth is not None:
        return round(-float(solver.search(c, depth=max(1, depth - 1)).value), 2)
    r = solver.search(c, exact=True)
    if not r.exact:
        raise RuntimeError(f"the solve of {c.to_text()} did not finish")
    return -int(r.value)


def parse_empties(text: str) -> list[int]:
    try:
        if "-" in text:
            lo, hi = (int(x) for x in text.split("-"))
            out = list(range(lo, hi + 1))
        else:
            out = [int(x) for x in text.split(",")]
    except ValueError:
        raise SystemExit(f"error: --empties takes a range A-B or a list A,B,C, not {text!r}") from None
    if not out or any(not 1 <= e <= 59 for e in out):
        raise SystemExit(f"error: --empties must be numbers from 1 to 59, not {text!r}")
    return out


def parse_times(text: str) -> list[float]:
    try:
        out = [float(t) for t in text.split(",")]
    except ValueError:
        raise SystemExit(f"error: --times takes seconds separated by commas, not {text!r}") from None
    if not out or any(not t > 0 for t in out):
        raise SystemExit(f"error: --times must be positive seconds, not {text!r}")
    return out


def bar(console: Console, disable: bool) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TextColumn("{task.fields[info]}"), console=console, transient=True, disable=disable)


def run_solve(order: list[OthelloState], cache: ExactCache, threads: int, console: Console, quiet: bool,
              depth: int | None = None) -> None:
    """Solve every position of ``order`` missing from the cache, saving after each one (another run may solve
    beside this one, e.g. with ``--reverse``: each skips what the other has written)."""
    todo = [s for s in order if cache.best(s) is None]
    solver = Engine(hash_mb=256, threads=threads)
    with bar(console, quiet) as progress:
        task = progress.add_task("solving", total=len(todo), info="")
        for s in todo:
            cache.reload()
            if cache.best(s) is not None:
                progress.advance(task)
                continue
            progress.update(task, info=f"{s.empties()} empties")
            t0 = time.perf_counter()
            move, value = solve_position(s, solver, depth)
            seconds = time.perf_counter() - t0
            cache.put_best(s, move, value, seconds)
            cache.save()
            progress.advance(task)
            if quiet:
                print(f"{s.empties()} empties: {s.move_str(move)} {value:+g} in {seconds:.1f} s", file=sys.stderr,
                      flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--empties", default="20-30", help="numbers of empty squares: a range A-B or a list A,B,C")
    ap.add_argument("--count", type=int, default=5, help="positions at each number of empties (default 5)")
    ap.add_argument("--times", default="0.1,1", help="seconds per move to measure, comma-separated")
    ap.add_argument("--threads", type=int, default=1, help="threads of the engine that chooses the moves")
    ap.add_argument("--seed", type=int, default=2027)
    ap.add_argument("--data", type=Path, default=None,
                    help=f"the values' file (default {DATA.name}, with --reference-depth {DEEP_DATA.name})")
    ap.add_argument("--reference-depth", type=int, default=None, metavar="D",
                    help="value the moves by a depth-D search instead of an exact solve (positions beyond a solve)")
    ap.add_argument("--solve", action="store_true",
                    help="solve the positions missing from the data file exactly and save them (resumable)")
    ap.add_argument("--solve-threads", type=int, default=1, help="threads of the exact solver (default 1)")
    ap.add_argument("--reverse", action="store_true",
                    help="solve from the last position backwards (a second solve pass beside the first)")
    ap.add_argument("--update", action="store_true",
                    help="write the values of chosen moves that were missing from the data file to it")
    ap.add_argument("--solved-only", action="store_true",
                    help="measure the positions the data file has (while a solve pass is still filling it)")
    ap.add_argument("--midgame-only", action="store_true",
                    help="timed play without the selective endgame searches (the midgame iterations up to the "
                         "exact range): what they add")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    if args.midgame_only:
        import plies.engine.api as engine_api

        engine_api.SELECTIVE_AT_1S = -100  # time_selective_empties() is then 0 at every budget
    empties = parse_empties(args.empties)
    times = parse_times(args.times)
    if args.count < 1:
        raise SystemExit(f"error: --count must be at least 1, not {args.count}")
    for name in ("threads", "solve_threads"):
        if not 1 <= getattr(args, name) <= 256:
            raise SystemExit(f"error: --{name.replace('_', '-')} must be 1 to 256, not {getattr(args, name)}")
    depth = args.reference_depth
    if depth is not None and not 2 <= depth <= 40:
        raise SystemExit(f"error: --reference-depth must be 2 to 40, not {depth}")
    if args.data is None:
        args.data = DATA if depth is None else DEEP_DATA
    console = Console(stderr=True)
    cache = ExactCache(args.data)
    positions = cache.positions_for(empties, args.count, args.seed)
    # position i of every number of empties before position i + 1: a stopped solve covers all empties evenly
    order = [positions[e][i] for i in range(args.count) for e in empties]
    if args.solve:
        run_solve(order[::-1] if args.reverse else order, cache, args.solve_threads, console,
                  quiet=args.json or not console.is_terminal, depth=depth)
        return
    missing = [s for s in order if cache.best(s) is None]
    if args.solved_only:
        order = [s for s in order if cache.best(s) is not None]
        if not order:
            raise SystemExit(f"error: none of the positions is in {args.data}: run with --solve first")
    elif missing:
        raise SystemExit(f"error: {len(missing)} of the {len(order)} positions are not in {args.data}: "
                         f"run with --solve first (same --empties, --count and --seed)")
    # the timed part: only the engine thinks (a fresh engine a move, so no move depends on another)
    chosen: dict[tuple[float, int], int] = {}
    took: dict[tuple[float, int], float] = {}
    with bar(console, args.json) as progress:
        task = progress.add_task("playing", total=len(times) * len(order), info="")
        for t in times:
            progress.update(task, info=f"{t:g} s a move")
            for i, s in enumerate(order):
                player = Engine(hash_mb=64, threads=args.threads)
                t0 = time.perf_counter()
                chosen[(t, i)] = int(player.search(s, time=t).move)
                took[(t, i)] = time.perf_counter() - t0
                progress.advance(task)
    # values of the chosen moves: from the file, else solved now (not timed)
    solver: Engine | None = None
    solved_now = 0
    for (_, i), move in chosen.items():
        s = order[i]
        if cache.value(s, move) is None:
            solver = solver or Engine(hash_mb=256, threads=args.solve_threads)
            cache.put_move(s, move, solve_move(s, move, solver, depth))
            solved_now += 1
            if args.update:  # after each solve: a stopped run keeps what it solved
                cache.save()
    rows: list[dict[str, object]] = []
    above_best = 0  # deep reference only: a child valued above the position (the searches' windows differ)
    for i, s in enumerate(order):
        best = cache.best(s)
        assert best is not None
        row: dict[str, object] = {"empties": s.empties(), "position": s.to_text(), "best": best}
        for t in times:
            move = chosen[(t, i)]
            value = cache.value(s, move)
            assert value is not None
            loss = best - value
            if depth is not None and s.move_str(move) == cache.best_move(s):
                loss = 0.0
            elif depth is not None and loss < 0:
                above_best += 1
                loss = 0.0
            row[f"move@{t:g}"] = s.move_str(move)
            row[f"loss@{t:g}"] = round(loss, 2)
            row[f"seconds@{t:g}"] = round(took[(t, i)], 3)
        rows.append(row)
    summary = []
    for e in empties:
        mine = [r for r in rows if r["empties"] == e]
        if not mine:
            continue
        for t in times:
            losses = [float(r[f"loss@{t:g}"]) for r in mine]  # type: ignore[arg-type]
            summary.append({"empties": e, "seconds_per_move": t, "positions": len(losses),
                            "mean_loss": round(statistics.fmean(losses), 2), "worst_loss": max(losses),
                            "best_move_share": round(sum(x == 0 for x in losses) / len(losses), 3)})
    lo, hi = SUMMARY_EMPTIES if depth is None else (min(empties), max(empties))
    overall = []
    for t in times:
        losses = [float(r[f"loss@{t:g}"]) for r in rows  # type: ignore[arg-type]
                  if lo <= int(r["empties"]) <= hi]  # type: ignore[call-overload]
        if losses:
            overall.append({"empties": f"{lo}-{hi}", "seconds_per_move": t, "positions": len(losses),
                            "mean_loss": round(statistics.fmean(losses), 2), "worst_loss": max(losses),
                            "best_move_share": round(sum(x == 0 for x in losses) / len(losses), 3)})
    slowest = {f"{t:g}": max(took[(t, i)] for i in range(len(order))) for t in times}
    if args.json:
        print(json.dumps({"seed": args.seed, "threads": args.threads, "solved_now": solved_now,
                          "reference_depth": depth, "above_best": above_best,
                          "slowest_move_seconds": {k: round(v, 3) for k, v in slowest.items()},
                          "summary": summary, "overall": overall, "positions": rows}))
        return
    against = "perfect play" if depth is None else f"a depth-{depth} search"
    table = Table(title=f"disc loss against {against} (seed {args.seed}, {args.threads} thread(s))")
    for col in ("empties", "s/move", "positions", "mean loss", "worst loss", "best move"):
        table.add_column(col, justify="right")
    for r in summary:
        table.add_row(str(r["empties"]), f"{r['seconds_per_move']:g}", str(r["positions"]), f"{r['mean_loss']:.2f}",
                      f"{r['worst_loss']:g}", f"{100 * float(r['best_move_share']):.0f}%")
    Console().print(table)
    for o in overall:
        print(f"{o['empties']} empties at {o['seconds_per_move']:g} s a move: mean loss {o['mean_loss']:.2f} discs, "
              f"worst {o['worst_loss']:g}, best move {100 * float(o['best_move_share']):.0f}% "  # type: ignore[arg-type]
              f"({o['positions']} positions)")
    print("slowest move (wall seconds, search call): "
          + ", ".join(f"{v:.2f} at {k} s a move" for k, v in slowest.items()))
    if above_best:
        print(f"{above_best} chosen moves were valued above the reference's best (counted as no loss)")
    if solved_now:
        note = "written to the data file" if args.update else "not saved: --update writes them"
        print(f"{solved_now} chosen moves were solved now ({note})", file=sys.stderr)


if __name__ == "__main__":
    main()
