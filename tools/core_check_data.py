"""Write the inputs of the core's C test driver (``tools/core_check.c``): the learned weights in their expanded
form (raw little-endian float32) and a list of cases with the values plies' Python side gives.

    python tools/core_check_data.py OUTDIR [FFO_IDS]      (default FFO ids: 40-44)

``OUTDIR/weights.f32`` and ``OUTDIR/cases.txt``, whose lines are
``weights PHASES ROW``, ``perft P O DEPTH LEAVES`` (counts of the textbook ``plies.search.perft``),
``eval P O VALUE`` (the plain-Python reference evaluation ``evaluate_python``) and ``solve ID P O SCORE`` (the FFO
suite's exact scores); P and O are the side to move's and the opponent's discs, in hexadecimal.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np

from plies.engine.patterns import evaluate_python, expand_weights
from plies.engine.weights import load_weights
from plies.formats.suite import bundled_suite_path, parse_ids, read_suite, select
from plies.games.othello import OthelloState
from plies.search import perft

PERFT = {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396, 6: 8200, 7: 55092, 8: 390216, 9: 3005288}
"""Leaves of 8x8 Othello from the start (passes count as a ply; a finished game is a leaf): checked below against
the textbook perft up to depth 6, above that the published counts."""


def sides(s: OthelloState) -> tuple[int, int]:
    return (s.black, s.white) if s.to_move == 0 else (s.white, s.black)


def main() -> None:
    out = Path(sys.argv[1])
    ids = sys.argv[2] if len(sys.argv) > 2 else "40-44"
    out.mkdir(parents=True, exist_ok=True)
    weights = load_weights()
    expanded = expand_weights(weights)
    expanded.astype("<f4").tofile(out / "weights.f32")
    lines = [f"weights {expanded.shape[0]} {expanded.shape[1]}"]
    start = OthelloState.start()
    own, opp = sides(start)
    for depth, leaves in PERFT.items():
        if depth <= 6:
            assert perft(start, depth) == leaves
        lines.append(f"perft {own:x} {opp:x} {depth} {leaves}")
    rng = random.Random(2026)
    for _ in range(200):
        s = OthelloState.start()
        for _ in range(rng.randint(0, 58)):
            moves = s.legal_moves()
            if not moves:
                break
            s = s.play(rng.choice(moves))
        if s.is_over():
            continue
        own, opp = sides(s)
        lines.append(f"eval {own:x} {opp:x} {evaluate_python(own, opp, weights)!r}")
    for p in select(read_suite(bundled_suite_path("ffo")), parse_ids(ids)):
        own, opp = sides(p.state)
        lines.append(f"solve {p.id} {own:x} {opp:x} {p.score}")
    (out / "cases.txt").write_text("\n".join(lines) + "\n")
    print(f"{out / 'cases.txt'}: {len(lines) - 1} cases; {out / 'weights.f32'}: {np.prod(expanded.shape):,} floats")


if __name__ == "__main__":
    main()
