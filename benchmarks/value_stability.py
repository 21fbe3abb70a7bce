"""Do the engine's values stay put from one depth to the next?  The values a player sees (hints, graphs, reviews)
should not swing with the parity of the search depth.

    .venv/bin/python benchmarks/value_stability.py [--weights FILE] [--stats FILE] [--positions 8] [--depths 8-12]

For each of the seeded opening positions of ``plies bench midgame`` (8 random plies from the start) it prints the
value (discs, side to move) at each depth and the mean absolute change from one depth to the next; then the start
position's value at levels 6-11 (the engine's search alone: the book is a player's).  One thread, a fresh engine
for each position.
"""

from __future__ import annotations

import argparse

from plies.engine import Engine
from plies.engine.bench import opening_positions
from plies.games.othello import OthelloState


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--weights", default=None, help="weights file (default: the shipped weights)")
    ap.add_argument("--stats", default=None, help="probcut statistics file (default: the shipped ones)")
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--depths", default="8-12")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.depths.split("-"))

    def engine() -> Engine:
        return Engine(hash_mb=64, threads=1, weights=args.weights, statistics=args.stats)

    changes: list[float] = []
    for k, s in enumerate(opening_positions(args.positions)):
        values = [float(engine().search(s, depth=d).value) for d in range(lo, hi + 1)]
        steps = [abs(b - a) for a, b in zip(values, values[1:], strict=False)]
        changes += steps
        print(f"position {k + 1} ({s.empties()} empties): " + "  ".join(f"{v:+6.2f}" for v in values)
              + f"   mean change {sum(steps) / len(steps):.2f}", flush=True)
    print(f"mean absolute change from depth d to d + 1 ({lo}-{hi}): {sum(changes) / len(changes):.2f} discs")
    start = OthelloState.start()
    levels = {lv: float(engine().search(start, level=lv).value) for lv in range(6, 12)}
    print("start position by level: " + "  ".join(f"{lv}: {v:+.2f}" for lv, v in levels.items()))


if __name__ == "__main__":
    main()
