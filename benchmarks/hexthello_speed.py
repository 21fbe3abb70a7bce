"""HexThello speed: perft by the Python bitboards and by the compiled kernels, the engine's nodes per second
(both evaluations), and the course's HexThello student agent's depth-5 search (document 004 of the course), from
the start position; with ``--threads N``, the engine's wall time at a fixed depth on one thread and on N threads
over a few positions (the two runs alternate, each the best of ``--repeat``; the values must agree).

    .venv/bin/python benchmarks/hexthello_speed.py [--perft 5] [--depth 8]
    .venv/bin/python benchmarks/hexthello_speed.py --threads 2 --thread-depth 9 [--positions 4] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
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
    ap.add_argument("--threads", type=int, default=0, help="compare 1 thread with this many at --thread-depth")
    ap.add_argument("--thread-depth", type=int, default=9)
    ap.add_argument("--positions", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if args.threads:
        return compare_threads(args.threads, args.thread_depth, args.positions, args.repeat)
    s = HexThelloState.start()
    n_py, t_py = timed(perft_hex, *s.own_opp(), args.perft)
    n_c, t_c = timed(compiled_perft, s, args.perft)
    assert n_py == n_c
    print(f"perft({args.perft}) = {n_py}: Python bitboards {t_py:.3f} s ({n_py / t_py:,.0f} leaves/s), "
          f"compiled {t_c:.3f} s ({n_c / t_c:,.0f} leaves/s), ratio {t_py / t_c:.1f}x")
    for evaluation in ("learned", "classic"):
        r = HexEngine(evaluation=evaluation).search(s, depth=args.depth)
        print(f"engine ({evaluation}) depth {args.depth}: {r.nodes:,} nodes in {r.seconds:.3f} s = "
              f"{r.nodes / r.seconds:,.0f} nodes/s, best {s.move_str(r.move)} value {r.value}")
    (move, value, nodes), t = timed(doc004_move, s, 5)
    print(f"document 004 alpha-beta depth 5: {nodes:,} nodes in {t:.3f} s, best {s.move_str(move)} value {value}")
    (move, value, nodes), t = timed(doc004_move, s, 5, False)
    print(f"document 004 minimax (pruning off) depth 5: {nodes:,} nodes in {t:.3f} s")
    return 0


def compare_threads(threads: int, depth: int, n: int, repeat: int) -> int:
    rng = random.Random(7)
    positions = []
    while len(positions) < n:
        s = HexThelloState.start()
        for _ in range(rng.randint(10, 50)):
            s = s.play(rng.choice(s.legal_moves()))
        if not s.is_over() and s.legal_moves()[0] >= 0:
            positions.append(s)
    total = {1: 0.0, threads: 0.0}
    own = {1: 0, threads: 0}
    for i, s in enumerate(positions):
        best: dict[int, float] = {1: 1e9, threads: 1e9}
        values = set()
        for rep in range(repeat):
            for t in (1, threads):
                engine = HexEngine(threads=t)
                r = engine.search(s, depth=depth)
                best[t] = min(best[t], r.seconds)
                if rep == 0:
                    own[t] += int(engine.ctl[0])  # the calling thread's nodes in the last depth
                values.add(r.value)
        assert len(values) == 1, values
        total[1] += best[1]
        total[threads] += best[threads]
        print(f"position {i + 1} ({s.empties()} empties) depth {depth}: 1 thread {best[1]:.3f} s, {threads} threads "
              f"{best[threads]:.3f} s ({best[1] / best[threads]:.2f}x), value {values.pop()}", flush=True)
    print(f"total: 1 thread {total[1]:.2f} s, {threads} threads {total[threads]:.2f} s "
          f"({total[1] / total[threads]:.2f}x); the calling thread's nodes in the last depth: {own[1]:,} alone, "
          f"{own[threads]:,} with {threads - 1} helper(s) ({own[threads] / max(1, own[1]):.2f}x)")
    return 0

if __name__ == "__main__":
    sys.exit(main())
