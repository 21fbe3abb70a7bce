"""How long the browser's Solve button takes by number of empty squares, to choose its bound
(``plies.web.thinker.SOLVE_MAX_EMPTIES`` exact, ``WLD_MAX_EMPTIES`` win/draw/loss).

    .venv/bin/python benchmarks/solve_bound.py --empties 24 26 [--count 3] [--wld] [--seed 0]

Positions come from games where each move is the engine's depth-4 choice, or a random move 30% of the time
(balanced endgames, as a game played in the browser reaches them).  Each solve runs as the app's does: a fresh
hash table, the machine's cores; prints the seconds, the value and the nodes of each, and the load average
before and after; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from plies.engine import Engine
from plies.engine.api import default_threads
from plies.games import OthelloState


def endgame(engine: Engine, empties: int, seed: int) -> OthelloState:
    """A position with ``empties`` empty squares from a seeded, mostly engine-played game."""
    rng = random.Random(seed)
    s = OthelloState.start()
    while s.empties() > empties and not s.is_over():
        moves = s.legal_moves()
        m = rng.choice(moves) if rng.random() < 0.3 else engine.search(s, depth=4).move
        s = s.play(m)
    return s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--empties", type=int, nargs="+", default=[22, 24, 26])
    ap.add_argument("--count", type=int, default=3)
    ap.add_argument("--wld", action="store_true", help="win/draw/loss solves instead of exact ones")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    engine = Engine(hash_mb=64, threads=default_threads())
    print(f"load average {os.getloadavg()[0]:.2f}; {default_threads()} threads; "
          f"{'win/draw/loss' if args.wld else 'exact'} solves")
    for e in args.empties:
        for k in range(args.count):
            s = endgame(engine, e, args.seed + 100 * e + k)
            if s.is_over() or s.empties() != e:
                continue
            engine.clear()
            t = time.perf_counter()
            r = engine.analyse(s, exact=not args.wld, wld=args.wld)[0]
            took = time.perf_counter() - t
            print(f"{e} empties  {took:7.2f} s  value {r.value:+d}  nodes {r.stats.nodes:,}  {s.to_text()}", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
