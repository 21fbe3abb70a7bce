"""Midgame search speed: fixed-depth searches from reproducible opening positions, nodes and nodes/s.

    .venv/bin/python benchmarks/engine_midgame.py [DEPTHS] [POSITIONS]     (default depths 10,11,12; 8 positions)

Times are CPU seconds of this process (the machine may be shared).
"""

from __future__ import annotations

import sys

from plies.engine.bench import load_core, midgame_bench


def main() -> None:
    depths = [int(d) for d in (sys.argv[1] if len(sys.argv) > 1 else "10,11,12").split(",")]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    print(f"compiled core loaded in {load_core():.3f} s (not counted in the rates)")
    for depth in depths:
        rows = midgame_bench(depth, count)
        nodes = sum(r.nodes for r in rows)
        cpu = sum(r.cpu for r in rows)
        wall = sum(r.wall for r in rows)
        per = ", ".join(f"{r.cpu:.2f}" for r in rows)
        print(f"depth {depth:>2}: {len(rows)} positions, {nodes:>13,} nodes, {cpu:7.2f} s CPU ({wall:.2f} s wall), "
              f"{nodes / cpu / 1e6:5.1f} M nodes/s; CPU s per position: {per}", flush=True)


if __name__ == "__main__":
    main()
