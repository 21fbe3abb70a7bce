"""Scaling of the parallel search with the number of threads: exact FFO solves and fixed-depth midgame searches,
each thread count run in alternated rounds (1, 2, 4, ... then back), wall time and nodes against one thread.

    .venv/bin/python benchmarks/engine_scaling.py [--threads 1,2,4,8,16] [--ids 40-49] [--rounds 2]
                                                  [--depth 13] [--hash 64]

The solves are those of ``plies bench endgame ffo --threads N`` (one 64 MB table, kept across the positions);
the midgame searches those of ``plies bench midgame --depth D --threads N`` (a fresh engine per opening).
Every exact score is checked against the suite's; the midgame values are printed so that runs can be compared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from plies.core import lib
from plies.engine import Engine
from plies.engine.bench import midgame_bench, solve_suite
from plies.formats.suite import bundled_suite_path, parse_ids, read_suite, select


def default_threads() -> str:
    """Powers of two up to the machine's cores (and the core count itself where it is not one)."""
    cores = os.cpu_count() or 1
    counts = [1]
    while counts[-1] * 2 <= cores:
        counts.append(counts[-1] * 2)
    if counts[-1] != cores:
        counts.append(cores)
    return ",".join(map(str, counts))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", default=default_threads(), help="thread counts (default: powers of two up to "
                    "the cores)")
    ap.add_argument("--ids", default="40-49", help="FFO positions to solve (default 40-49); '' for none")
    ap.add_argument("--rounds", type=int, default=2, help="rounds over the thread counts, every other one "
                    "reversed (default 2)")
    ap.add_argument("--depth", type=int, default=0, help="also midgame searches to this depth (default: none)")
    ap.add_argument("--hash", dest="hash_mb", type=int, default=64, help="table size in MB for the solves")
    args = ap.parse_args()
    counts = [int(t) for t in args.threads.split(",")]
    positions = select(read_suite(bundled_suite_path("ffo")), parse_ids(args.ids)) if args.ids else []
    print(f"{os.cpu_count()} cores; core {lib.__name__}; threads {counts}, "
          f"{args.rounds} rounds", flush=True)

    results: dict[tuple[str, int], list[tuple[float, float, int]]] = {}
    for rnd in range(args.rounds):
        for n in counts if rnd % 2 == 0 else counts[::-1]:
            if positions:
                w, c = time.perf_counter(), time.process_time()
                rows = solve_suite(positions, Engine(hash_mb=args.hash_mb, threads=n))
                wall, cpu = time.perf_counter() - w, time.process_time() - c
                nodes = sum(r.nodes for r in rows)
                bad = [r.position.id for r in rows if not (r.score_ok and r.move_ok)]
                results.setdefault(("endgame", n), []).append((wall, cpu, nodes))
                print(f"endgame  round {rnd + 1} threads {n:>2}: {wall:7.2f} s wall {cpu:8.2f} s CPU "
                      f"{nodes:>15,} nodes {nodes / wall / 1e6:7.1f} M nodes/s  "
                      f"{'all correct' if not bad else 'WRONG: ' + ','.join(map(str, bad))}", flush=True)
            if args.depth:
                w, c = time.perf_counter(), time.process_time()
                mrows = midgame_bench(args.depth, threads=n)
                wall, cpu = time.perf_counter() - w, time.process_time() - c
                nodes = sum(r.nodes for r in mrows)
                results.setdefault(("midgame", n), []).append((wall, cpu, nodes))
                values = " ".join(f"{r.value:+.2f}" for r in mrows)
                print(f"midgame  round {rnd + 1} threads {n:>2}: {wall:7.2f} s wall {cpu:8.2f} s CPU "
                      f"{nodes:>15,} nodes  values {values}", flush=True)

    print("\nmedian wall time against one thread (wall s; nodes against one thread):")
    for kind in ("endgame", "midgame"):
        base = results.get((kind, counts[0]))
        if not base:
            continue
        b = statistics.median(r[0] for r in base)
        bn = statistics.median(r[2] for r in base)
        cells = []
        for n in counts:
            rs = results[(kind, n)]
            t = statistics.median(r[0] for r in rs)
            mnodes = statistics.median(r[2] for r in rs)
            cells.append(f"{n}T {t / b:.2f} ({t:.1f} s; {mnodes / bn:.2f}x nodes)")
        print(f"{kind}: " + "  ".join(cells))


if __name__ == "__main__":
    main()
