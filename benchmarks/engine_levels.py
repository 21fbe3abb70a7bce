"""Time a move at each engine level: the figures of the level table (``plies.engine.levels.LEVELS``).

    .venv/bin/python benchmarks/engine_levels.py [--levels 1-11] [--games 4] [--seed 21]

Each level plays itself from ``--games`` random 8-ply openings (``plies.match.openings.random_openings``, the
ladder's openings), as ``plies play`` and the browser do: one ``engine:level=N`` player per side, its hash table
kept for the whole game, the opening book on for the full-strength levels.  Every move's wall time is recorded
(the time the player takes to answer, book moves included); the script prints the mean, the median and the 95th
percentile per level, and the ``seconds=`` / ``p95=`` values to put into ``LEVELS``.  The weights and the book
are read before the clock starts (a server or a game in progress has them already).  Levels 10 and 11 play
half as many games (their moves take seconds).  Nothing here asserts a time.

``--cpu`` records each move's CPU seconds of this process instead of its wall time: on a shared machine (other
work running) that is what the move takes on a quiet one, as long as the engine searches on one thread
(``PLIES_ENGINE_THREADS=1``, which the script sets unless told otherwise).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

from plies.game import PASS
from plies.match.openings import random_openings
from plies.players import parse_player


def parse_levels(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def play_level(level: int, games: int, seed: int, clock: Callable[[], float] = time.perf_counter) -> list[float]:
    times: list[float] = []
    for opening in random_openings("othello", 8, games, seed):
        state = opening.state("othello")
        players = [parse_player(f"engine:level={level},seed={seed + k}", "othello") for k in (0, 1)]
        while not state.is_over():
            if state.legal_moves() == [PASS]:
                state = state.play(PASS)
                continue
            t0 = clock()
            move = players[state.to_move].choose(state)
            times.append(clock() - t0)
            state = state.play(move)
        for p in players:
            p.close()
    return times


def text(seconds: float) -> str:
    return f"{seconds * 1000:.2g} ms" if seconds < 0.1 else f"{seconds:.2g} s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", default="1-12")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--cpu", action="store_true", help="CPU seconds a move (one search thread), not wall seconds")
    args = ap.parse_args()
    if args.cpu:
        os.environ.setdefault("PLIES_ENGINE_THREADS", "1")
    clock = time.process_time if args.cpu else time.perf_counter
    from plies.engine.book import load_book
    from plies.engine.eval import LEARNED, weights_for

    weights_for(LEARNED)
    load_book()
    print(f"{'level':>5} {'moves':>6} {'mean':>9} {'median':>9} {'p95':>9} {'max':>9}   table values")
    for level in parse_levels(args.levels):
        games = args.games if level < 10 else max(1, args.games // 2)
        times = sorted(play_level(level, games, args.seed, clock))
        mean = statistics.fmean(times)
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"{level:>5} {len(times):>6} {text(mean):>9} {text(statistics.median(times)):>9} {text(p95):>9} "
              f"{text(times[-1]):>9}   seconds={mean:.4f}, p95={p95:.4f}", flush=True)


if __name__ == "__main__":
    main()
