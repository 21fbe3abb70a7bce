"""Accuracy against perfect play: how many discs the engine's move loses against the best move, by empties.

Positions come from the engine's own self-play (8 random plies from the start, then ``engine:depth=4`` on both
sides, all fixed by ``--seed``), stopped at each number of empties asked for.  Each position is solved exactly
for every move (the engine's exact multi-PV solve, checked: every value is a final disc difference), then the
engine chooses a move with ``--times`` seconds per move; its loss is the best move's value minus the chosen
move's (0 when it finds a best move).

    python benchmarks/accuracy.py                                # 20-24 empties, 4 positions each, 0.1 s and 1 s
    python benchmarks/accuracy.py --empties 24-30 --count 10 --times 0.1,1 --threads 2 --json

The exact solves take most of the time (seconds a position at 20-24 empties, minutes at 30).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from plies.engine import Engine
from plies.games.othello import OthelloState


def self_play_positions(empties: list[int], count: int, seed: int) -> dict[int, list[OthelloState]]:
    """``count`` positions at each number of ``empties``, from seeded self-play games (one game gives one
    position at every number of empties it passes through)."""
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
            if e in out and len(out[e]) < count and s.legal_moves() != [-1]:
                out[e].append(s)
            s = s.play(engine.search(s, depth=4).move)
    return out


def exact_values(state: OthelloState, engine: Engine) -> dict[int, int]:
    """The exact final disc difference after each legal move (side to move's view)."""
    engine.clear()
    results = engine.analyse(state, exact=True, multipv=len(state.legal_moves()))
    assert all(r.exact for r in results)
    return {int(r.move): int(r.value) for r in results}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--empties", default="20-24", help="numbers of empty squares: a range A-B or a list A,B,C")
    ap.add_argument("--count", type=int, default=4, help="positions at each number of empties")
    ap.add_argument("--times", default="0.1,1", help="seconds per move to measure, comma-separated")
    ap.add_argument("--threads", type=int, default=1, help="threads of the engine that chooses the moves")
    ap.add_argument("--seed", type=int, default=2027)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    if "-" in args.empties:
        lo, hi = (int(x) for x in args.empties.split("-"))
        empties = list(range(lo, hi + 1))
    else:
        empties = [int(x) for x in args.empties.split(",")]
    times = [float(t) for t in args.times.split(",")]
    console = Console(stderr=True)
    positions = self_play_positions(empties, args.count, args.seed)
    solver = Engine(hash_mb=256, threads=args.threads)
    rows: list[dict[str, object]] = []
    with Progress(console=console, transient=True, disable=args.json) as bar:
        task = bar.add_task("solving and playing", total=sum(len(v) for v in positions.values()))
        for e in empties:
            for s in positions[e]:
                t0 = time.perf_counter()
                values = exact_values(s, solver)
                solve_s = time.perf_counter() - t0
                best = max(values.values())
                row: dict[str, object] = {"empties": e, "position": s.to_text(), "best": best,
                                          "solve_seconds": round(solve_s, 2)}
                for t in times:
                    player = Engine(hash_mb=64, threads=args.threads)
                    move = int(player.search(s, time=t).move)
                    row[f"loss@{t:g}"] = best - values[move]
                rows.append(row)
                bar.advance(task)
    summary = []
    for e in empties:
        mine = [r for r in rows if r["empties"] == e]
        for t in times:
            losses = [int(r[f"loss@{t:g}"]) for r in mine]  # type: ignore[call-overload]
            summary.append({"empties": e, "seconds_per_move": t, "positions": len(losses),
                            "mean_loss": round(statistics.fmean(losses), 2), "worst_loss": max(losses),
                            "best_move_share": round(sum(x == 0 for x in losses) / len(losses), 3)})
    if args.json:
        print(json.dumps({"seed": args.seed, "threads": args.threads, "summary": summary, "positions": rows}))
        return
    table = Table(title=f"disc loss against perfect play (seed {args.seed}, {args.threads} thread(s))")
    for col in ("empties", "s/move", "positions", "mean loss", "worst loss", "best move"):
        table.add_column(col, justify="right")
    for r in summary:
        table.add_row(str(r["empties"]), f"{r['seconds_per_move']:g}", str(r["positions"]), f"{r['mean_loss']:.2f}",
                      str(r["worst_loss"]), f"{100 * float(r['best_move_share']):.0f}%")  # type: ignore[arg-type]
    Console().print(table)
    for t in times:
        losses = [int(r[f"loss@{t:g}"]) for r in rows]  # type: ignore[call-overload]
        print(f"all positions at {t:g} s a move: mean loss {statistics.fmean(losses):.2f} discs, worst {max(losses)}",
              file=sys.stdout)


if __name__ == "__main__":
    main()
