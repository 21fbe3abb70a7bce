"""The last empty square: flips counted by four line look-ups (``last_flip_count`` in ``csrc/bitboard.h``, the
solver's last move) against the general flips of a move (``flips`` + popcount), ns per call and the ratio, on
random full boards.  Both loops run in C (``end_last_flip_counts``, ``end_flip_counts`` of the compiled core).

    .venv/bin/python benchmarks/engine_lastflip.py [N]      (default 2,000,000 boards)

Times are CPU seconds of this process (the machine may be shared).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from plies.core import lib


def main() -> None:
    parser = argparse.ArgumentParser(description="The last empty square's flip count against general flips.")
    parser.add_argument("boards", nargs="?", default=2_000_000, type=int, help="random full boards")
    n = parser.parse_args().boards
    rng = np.random.default_rng(2)
    sqs = rng.integers(0, 64, n, dtype=np.int64)
    bit = np.left_shift(np.uint64(1), sqs.astype(np.uint64))
    Ps = rng.integers(0, 2**64, n, dtype=np.uint64, endpoint=False) & ~bit  # noqa: N806
    Os = ~Ps & ~bit  # noqa: N806
    print(f"core: {lib.__name__}")
    for _ in range(3):
        t0 = time.process_time()
        a = lib.end_last_flip_counts(Ps, sqs)
        t1 = time.process_time()
        b = lib.end_flip_counts(Ps, Os, sqs)
        t2 = time.process_time()
        lines, rays = 1e9 * (t1 - t0) / n, 1e9 * (t2 - t1) / n
        print(f"line look-ups {lines:.1f} ns, general flips {rays:.1f} ns: {rays / lines:.1f}x "
              f"({'same counts' if a == b else 'COUNTS DIFFER'})")


if __name__ == "__main__":
    main()
