"""HexThello speed: perft by the Python bitboards and by the compiled kernels, the engine's nodes per second,
and the course's HexThello student agent's depth-5 search (document 004 of the course), from the start position.

    .venv/bin/python benchmarks/hexthello_speed.py [--perft 5] [--depth 8]
"""

from __future__ import annotations

import argparse
import sys
import time

from plies.games.hexthello import HexThelloState, perft_hex
from plies.hexsearch.engine import HexEngine, compiled_perft, doc004_move


def timed(fn, *args):  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--perft", type=int, default=5)
    ap.add_argument("--depth", type=int, default=8)
    args = ap.parse_args()
    s = HexThelloState.start()
    n_py, t_py = timed(perft_hex, *s.own_opp(), args.perft)
    n_c, t_c = timed(compiled_perft, s, args.perft)
    assert n_py == n_c
    print(f"perft({args.perft}) = {n_py}: Python bitboards {t_py:.3f} s ({n_py / t_py:,.0f} leaves/s), "
          f"compiled {t_c:.3f} s ({n_c / t_c:,.0f} leaves/s), ratio {t_py / t_c:.1f}x")
    r = HexEngine().search(s, depth=args.depth)
    print(f"engine depth {args.depth}: {r.nodes:,} nodes in {r.seconds:.3f} s = {r.nodes / r.seconds:,.0f} nodes/s, "
          f"best {s.move_str(r.move)} value {r.value}")
    (move, value, nodes), t = timed(doc004_move, s, 5)
    print(f"document 004 alpha-beta depth 5: {nodes:,} nodes in {t:.3f} s, best {s.move_str(move)} value {value}")
    (move, value, nodes), t = timed(doc004_move, s, 5, False)
    print(f"document 004 minimax (pruning off) depth 5: {nodes:,} nodes in {t:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
