"""Write src/plies/csrc/patterns_gen.h (the compiled pattern sum) from the pattern tables of
plies.engine.patterns; run it after changing PATTERNS, then rebuild (pip install -e .)."""

from pathlib import Path

from plies.engine.patterns import kernel_source

path = Path(__file__).resolve().parents[1] / "src" / "plies" / "csrc" / "patterns_gen.h"
path.write_text(kernel_source(), encoding="utf-8")
print(f"wrote {path}")
