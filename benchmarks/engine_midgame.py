"""Midgame search speed: fixed-depth searches from reproducible opening positions, nodes and nodes/s.

    .venv/bin/python benchmarks/engine_midgame.py [DEPTHS] [POSITIONS] [--plies K]
                                                    (default depths 10,11,12; 8 positions 8 random plies in)

Times are CPU seconds of this process (the machine may be shared).
"""

from __future__ import annotations

import argparse

from plies.engine.bench import load_core, midgame_bench


def depth_list(text: str) -> list[int]:
    """``10,11,12`` as depths; argparse turns the ValueError into a usage line."""
    depths = [int(d) for d in text.split(",")]
    if not all(1 <= d <= 30 for d in depths):
        raise ValueError(text)
    return depths


def plies_count(text: str) -> int:
    """0-40 random moves before each position (later ones may end the game)."""
    k = int(text)
    if not 0 <= k <= 40:
        raise ValueError(text)
    return k


def main() -> None:
    parser = argparse.ArgumentParser(description="Midgame search speed at fixed depths from opening positions.")
    parser.add_argument("depths", nargs="?", default="10,11,12", type=depth_list, help="e.g. 10,11,12")
    parser.add_argument("positions", nargs="?", default=8, type=int, help="how many opening positions")
    parser.add_argument("--plies", default=8, type=plies_count, metavar="K",
                        help="seeded random moves from the start to each position (default 8; 20-30: the midgame)")
    args = parser.parse_args()
    depths, count = args.depths, args.positions
    print(f"compiled core loaded in {load_core():.3f} s (not counted in the rates)")
    for depth in depths:
        rows = midgame_bench(depth, count, plies=args.plies)
        nodes = sum(r.nodes for r in rows)
        cpu = sum(r.cpu for r in rows)
        wall = sum(r.wall for r in rows)
        per = ", ".join(f"{r.cpu:.2f}" for r in rows)
        print(f"depth {depth:>2}: {len(rows)} positions, {nodes:>13,} nodes, {cpu:7.2f} s CPU ({wall:.2f} s wall), "
              f"{nodes / cpu / 1e6:5.1f} M nodes/s; CPU s per position: {per}", flush=True)


if __name__ == "__main__":
    main()
