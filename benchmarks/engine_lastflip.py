"""The last empty square: flips counted by four line look-ups (``endgame.last_flip_count``) against the general
flips of a move (``bitboard.flips`` + popcount), ns per call and the ratio, on random full boards.

    .venv/bin/python benchmarks/engine_lastflip.py [N]      (default 2,000,000 boards)

Times are CPU seconds of this process (the machine may be shared).
"""

from __future__ import annotations

import random
import sys
import time

import numpy as np
from numba import njit

from plies.engine.bitboard import flips, popcount
from plies.engine.endgame import last_flip_count


@njit
def _by_lines(Ps, sqs):  # type: ignore[no-untyped-def]  # noqa: N803
    total = 0
    for i in range(Ps.shape[0]):
        total += last_flip_count(Ps[i], sqs[i])
    return total


@njit
def _by_flips(Ps, Os, sqs):  # type: ignore[no-untyped-def]  # noqa: N803
    total = 0
    for i in range(Ps.shape[0]):
        total += np.int64(popcount(flips(Ps[i], Os[i], sqs[i])))
    return total


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
    rng = random.Random(2)
    Ps = np.zeros(n, np.uint64)  # noqa: N806
    Os = np.zeros(n, np.uint64)  # noqa: N806
    sqs = np.zeros(n, np.int64)
    for k in range(n):
        sq = rng.randrange(64)
        p = rng.getrandbits(64) & ~(1 << sq)
        Ps[k], Os[k], sqs[k] = p, ((1 << 64) - 1) & ~p & ~(1 << sq), sq
    _by_lines(Ps[:8], sqs[:8])  # compile both first
    _by_flips(Ps[:8], Os[:8], sqs[:8])
    for _ in range(3):
        t0 = time.process_time()
        a = _by_lines(Ps, sqs)
        t1 = time.process_time()
        b = _by_flips(Ps, Os, sqs)
        t2 = time.process_time()
        lines, rays = 1e9 * (t1 - t0) / n, 1e9 * (t2 - t1) / n
        print(f"line look-ups {lines:.1f} ns, general flips {rays:.1f} ns: {rays / lines:.1f}x "
              f"({'same counts' if a == b else 'COUNTS DIFFER'})")


if __name__ == "__main__":
    main()
