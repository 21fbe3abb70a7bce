"""Exact endgame solving of the FFO suite, one thread: per-position time, nodes, nodes/s and totals.

    .venv/bin/python benchmarks/engine_endgame.py [IDS] [FILE]     (default 40-59 of the bundled FFO suite)

Times are CPU seconds of this process (the machine may be shared; wall seconds printed beside them).
"""

from __future__ import annotations

import sys
from pathlib import Path

from plies.engine import Engine
from plies.engine.bench import load_core, solve_suite
from plies.formats.suite import bundled_suite_path, parse_ids, read_suite, select
from plies.game import PliesError

DEFAULT_FILE = bundled_suite_path("ffo")


def main() -> None:
    ids = sys.argv[1] if len(sys.argv) > 1 else "40-59"
    path = Path(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT_FILE
    try:
        positions = select(read_suite(path), parse_ids(ids))
    except PliesError as exc:  # a bad id range or file: one line, no traceback
        raise SystemExit(f"engine_endgame.py: {exc}") from None
    print(f"compiled core loaded in {load_core():.3f} s (not counted in the rates)")
    print(f"{'id':>3} {'emp':>3} {'expected':>9} {'got':>8} {'ok':>3} {'nodes':>14} {'cpu s':>8} {'wall s':>8} "
          f"{'M nodes/s':>9}")

    def row(r) -> None:  # type: ignore[no-untyped-def]
        ok = r.score_ok and r.move_ok
        print(f"{r.position.id:>3} {r.position.empties:>3} {r.position.score:>+9d} "
              f"{r.score:>+5d} {r.position.state.move_str(r.move):>2} {'yes' if ok else 'NO':>3} {r.nodes:>14,} "
              f"{r.cpu:>8.2f} {r.wall:>8.2f} {r.nps / 1e6:>9.1f}", flush=True)

    rows = solve_suite(positions, Engine(hash_mb=256), on_row=row)
    nodes = sum(r.nodes for r in rows)
    cpu = sum(r.cpu for r in rows)
    wall = sum(r.wall for r in rows)
    good = sum(r.score_ok and r.move_ok for r in rows)
    print(f"total: {good}/{len(rows)} correct, {nodes:,} nodes, {cpu:.1f} s CPU ({wall:.1f} s wall), "
          f"{nodes / cpu / 1e6:.1f} M nodes/s")


if __name__ == "__main__":
    main()
