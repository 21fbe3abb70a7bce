"""Write src/plies/train/pattern_kernel.py from the pattern tables (run after changing PATTERNS)."""

from pathlib import Path

from plies.train.patterns import kernel_source

path = Path(__file__).resolve().parents[1] / "src" / "plies" / "train" / "pattern_kernel.py"
path.write_text(kernel_source(), encoding="utf-8")
print(f"wrote {path}")
