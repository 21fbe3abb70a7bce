"""Write the inputs of ``scaling.c``: the learned weights (``weights.bin``: rows and columns as two int64, then
the float32 weights) and the positions as ``P O`` in hex, one a line (``ffo.txt``: FFO suite positions;
``openings.txt``: the midgame benchmark's openings).  Run it where plies is installed; the C program then runs
on any machine with a C compiler, numpy or not.

    python benchmarks/scaling/export.py [--ids 40-49] [--out DIR]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from plies.engine import Engine
from plies.engine.bench import opening_positions
from plies.engine.bitboard import position
from plies.formats.suite import bundled_suite_path, parse_ids, read_suite, select


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ids", default="40-49", help="FFO positions to write (default 40-49)")
    ap.add_argument("--openings", type=int, default=8, help="midgame openings to write (default 8)")
    ap.add_argument("--out", default=str(Path(__file__).parent), help="folder to write into")
    args = ap.parse_args()
    out = Path(args.out)
    w = np.ascontiguousarray(Engine(evaluation="learned").order_weights, dtype=np.float32)
    with open(out / "weights.bin", "wb") as f:
        f.write(np.array(w.shape, dtype=np.int64).tobytes())
        f.write(w.tobytes())
    ffo = select(read_suite(bundled_suite_path("ffo")), parse_ids(args.ids))
    (out / "ffo.txt").write_text("".join("{:x} {:x}\n".format(*position(p.state)) for p in ffo))
    opens = opening_positions(args.openings)
    (out / "openings.txt").write_text("".join("{:x} {:x}\n".format(*position(s)) for s in opens))
    print(f"wrote {out / 'weights.bin'} ({w.shape[0]} x {w.shape[1]}), {len(ffo)} FFO positions, "
          f"{len(opens)} openings")


if __name__ == "__main__":
    main()
