"""Compiled perft from the start vs the pure-Python rules: leaves/s and the ratio.

    .venv/bin/python benchmarks/engine_perft.py [DEPTH] [RUNS]      (default 11 and 1; the Python rate is taken
                                                                     at 8; with RUNS the compiled perft's fastest)

Rates are per CPU second of this process (the machine may be shared); wall seconds are printed too.
"""

from __future__ import annotations

import argparse

from plies.engine.bench import load_core, perft_compiled, perft_python

KNOWN = {8: 390216, 9: 3005288, 10: 24571284, 11: 212258800, 12: 1939886636}


def main() -> None:
    parser = argparse.ArgumentParser(description="Compiled perft from the start against the pure-Python rules.")
    parser.add_argument("depth", nargs="?", default=11, type=int, choices=range(4, 16), metavar="DEPTH",
                        help="4-15 (default 11)")
    parser.add_argument("runs", nargs="?", default=1, type=int, help="the compiled perft's fastest of RUNS")
    args = parser.parse_args()
    depth, runs = args.depth, args.runs
    print(f"compiled core loaded in {load_core():.3f} s (not counted in the rates)")
    c = min((perft_compiled(depth) for _ in range(max(1, runs))), key=lambda t: t.cpu)
    ok = "" if depth not in KNOWN else (" (matches the known count)" if c.count == KNOWN[depth] else " (WRONG)")
    print(f"compiled perft({depth}) = {c.count:,}{ok}: {c.wall:.2f} s wall, {c.cpu:.2f} s CPU, "
          f"{c.rate / 1e6:.1f} M leaves/s")
    pd = min(8, depth - 3)
    p = perft_python(pd)
    print(f"pure-Python perft({pd}) = {p.count:,}: {p.cpu:.2f} s CPU, {p.rate / 1e6:.2f} M leaves/s")
    print(f"ratio compiled / pure Python: {c.rate / p.rate:.0f}x")


if __name__ == "__main__":
    main()
