"""How long the first selective endgame search of timed play takes, by empties: the figure behind the clock's
``SELECTIVE_YIELD`` (a first selective search still running at that share of the budget is given up).

Positions come from seeded self-play (``accuracy.self_play_positions``).  Each is searched the way timed play
searches it, with ``--midgame`` seconds of midgame iterations first and no clock pressure after them; the time
is from the end of the midgame iterations to the end of the first selective search (t = 1.0).

    python benchmarks/selective_time.py                       # 25-29 empties, 12 positions each, seed 7
    python benchmarks/selective_time.py --empties 27 --count 30 --seed 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))

from accuracy import parse_empties, self_play_positions  # noqa: E402

from plies.engine import Engine, api  # noqa: E402
from plies.games.othello import OthelloState  # noqa: E402
from plies.search.result import SearchResult  # noqa: E402

BUDGET = 60.0  # seconds: far more than any first selective search takes, so none is cut


def first_selective(state: OthelloState, midgame: float) -> tuple[int, float]:
    """(midgame depth reached, seconds of the first selective search) for one position."""
    engine = Engine(threads=1)
    marks: list[tuple[float, SearchResult]] = []
    t0 = time.perf_counter()

    def progress(results: list[SearchResult]) -> None:
        marks.append((time.perf_counter() - t0, results[0]))
        if results[0].algorithm != "engine":
            engine.stop()

    engine.search(state, time=BUDGET, on_progress=progress)
    mid = [(t, r) for t, r in marks if r.algorithm == "engine"]
    sel = [t for t, r in marks if r.algorithm != "engine"]
    return mid[-1][1].stats.depth, sel[0] - mid[-1][0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--empties", default="25-29", help="numbers of empties, e.g. 25-29 or 27")
    ap.add_argument("--count", type=int, default=12, help="positions at each number of empties")
    ap.add_argument("--seed", type=int, default=7, help="self-play seed")
    ap.add_argument("--midgame", type=float, default=0.1, help="seconds of midgame iterations first")
    args = ap.parse_args()
    if args.count < 1 or not 0 < args.midgame < BUDGET:
        raise SystemExit(f"error: --count must be at least 1 and --midgame between 0 and {BUDGET:g} seconds")
    empties = parse_empties(args.empties)
    exact = api.time_exact_empties(1.0)  # the range of 1 s a move, whatever the long budget would make of it
    for e in empties:
        if not exact < e <= api.SELECTIVE_PLAY_EMPTIES:
            raise SystemExit(f"error: {e} empties is outside timed play's selective range ({exact + 1}-"
                             f"{api.SELECTIVE_PLAY_EMPTIES})")
    api.time_exact_empties = lambda seconds: exact
    api.time_selective_empties = lambda seconds: api.SELECTIVE_PLAY_EMPTIES
    api.MIDGAME_SHARE = args.midgame / BUDGET
    api.SELECTIVE_YIELD = 1.0  # measure the whole search
    console = Console()
    table = Table(title=f"first selective search after {args.midgame:g} s of midgame iterations (seed {args.seed})")
    for col in ("empties", "positions", "midgame depth", "median s", "over 0.4 s", "over 2 s", "slowest s"):
        table.add_column(col, justify="right")
    times_all: list[float] = []
    with console.status("searching") as status:
        for e, states in sorted(self_play_positions(empties, args.count, args.seed).items()):
            rows = []
            for i, s in enumerate(states):
                status.update(f"{e} empties: position {i + 1} of {len(states)}")
                rows.append(first_selective(s, args.midgame))
            secs = [t for _, t in rows]
            times_all += secs
            table.add_row(str(e), str(len(rows)), f"{min(d for d, _ in rows)}-{max(d for d, _ in rows)}",
                          f"{statistics.median(secs):.2f}", str(sum(t > 0.4 for t in secs)),
                          str(sum(t > 2 for t in secs)), f"{max(secs):.2f}")
    console.print(table)
    console.print(f"all {len(times_all)}: median {statistics.median(times_all):.2f} s, "
                  f"{sum(t > 0.4 for t in times_all)} over 0.4 s, {sum(t > 2 for t in times_all)} over 2 s")


if __name__ == "__main__":
    main()
