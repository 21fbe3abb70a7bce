"""Write src/plies/csrc/patterns_gen.h (the compiled pattern sum) from the pattern tables of
plies.engine.patterns; run it after changing PATTERNS, then rebuild (pip install -e .)."""

import argparse
from pathlib import Path

from plies.engine.patterns import kernel_source

PATH = Path(__file__).resolve().parents[1] / "src" / "plies" / "csrc" / "patterns_gen.h"

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--check", action="store_true", help="only say whether the file is up to date (exit 1 if not)")
    args = ap.parse_args()
    text = kernel_source()
    if args.check:
        fresh = PATH.read_text(encoding="utf-8") == text
        print(f"{PATH} is {'up to date' if fresh else 'out of date: run this script without --check'}")
        raise SystemExit(0 if fresh else 1)
    PATH.write_text(text, encoding="utf-8")
    print(f"wrote {PATH}")
