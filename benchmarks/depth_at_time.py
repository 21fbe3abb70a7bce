"""How deep the selective midgame search gets in a given time, by ProbCut confidence: what a looser confidence
buys in depth (its price in strength is measured by ``plies match --sprt``, not here).

    .venv/bin/python benchmarks/depth_at_time.py [--time 0.6] [--confidence 1.5,1.1,0.8] [--positions 8] [--plies 24]

Positions: ``plies bench midgame``'s seeded openings, ``--plies`` random moves in (24: 36 empties).  One thread,
a fresh engine (empty table) for each search; wall time, so run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.progress import track
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_midgame import plies_count  # noqa: E402

from plies.engine import Engine  # noqa: E402
from plies.engine.bench import opening_positions  # noqa: E402


def confidences(text: str) -> list[float]:
    """``1.5,1.1`` as confidences (standard deviations); argparse turns the ValueError into a usage line."""
    values = [float(t) for t in text.split(",")]
    if not all(0 < t <= 5 for t in values):
        raise ValueError(text)
    return values


def budget(text: str) -> float:
    """A time budget above 0 (at most an hour); argparse turns the ValueError into a usage line."""
    t = float(text)
    if not 0 < t <= 3600:
        raise ValueError(text)
    return t


def positive(text: str) -> int:
    """A count of 1 or more; argparse turns the ValueError into a usage line."""
    n = int(text)
    if n < 1:
        raise ValueError(text)
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time", type=budget, default=0.6, help="seconds a search (default 0.6)")
    ap.add_argument("--confidence", type=confidences, default=[1.5, 1.1, 0.8], help="ProbCut t values to compare")
    ap.add_argument("--positions", type=positive, default=8)
    ap.add_argument("--plies", type=plies_count, default=24, help="random moves from the start to each position")
    args = ap.parse_args()
    positions = opening_positions(args.positions, args.plies)
    table = Table(title=f"depth reached in {args.time:g} s, {len(positions)} positions "
                        f"({statistics.mean(s.empties() for s in positions):.0f} empties on average)")
    for column in ("t", "depth: mean", "min-max", "each", "seconds a search", "M nodes a search"):
        table.add_column(column, justify="right")
    for t in args.confidence:
        depths, seconds, nodes = [], [], []
        for s in track(positions, description=f"t = {t:g}", transient=True):
            start = time.perf_counter()
            r = Engine(hash_mb=64, threads=1, probcut=t).search(s, time=args.time)
            seconds.append(time.perf_counter() - start)
            depths.append(r.stats.depth)
            nodes.append(r.stats.nodes)
        table.add_row(f"{t:g}", f"{statistics.mean(depths):.2f}", f"{min(depths)}-{max(depths)}",
                      " ".join(map(str, depths)), f"{statistics.mean(seconds):.2f}",
                      f"{statistics.mean(nodes) / 1e6:.2f}")
    Console().print(table)


if __name__ == "__main__":
    main()
