"""Write src/plies/draw/metrics.py: the advance widths of DejaVu Sans and DejaVu Sans Bold (the fonts plies'
pictures name, which matplotlib ships) for the characters the pictures use, so that layouts measure text as the
PNG/PDF renderer and most browsers draw it.  Run with matplotlib installed: python tools/font_metrics.py"""

from __future__ import annotations

from pathlib import Path

from matplotlib import font_manager
from matplotlib.ft2font import FT2Font

CHARS = ("".join(chr(c) for c in range(32, 127)) + "".join(chr(c) for c in range(0x391, 0x3CA) if c != 0x3A2)
         + "ςάέήίόύώΆΈΉΊΌΎΏ∞≤≥−±×·…→←↑↓√½⅓¼°✗✓▲▼■□●○★☆♛–—‘’“”«»€")
OUT = Path(__file__).resolve().parents[1] / "src" / "plies" / "draw" / "metrics.py"


def widths(weight: str) -> list[int]:
    path = font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans", weight=weight),
                                 fallback_to_default=False)
    font = FT2Font(path)
    font.set_size(1000, 72)
    out = []
    for ch in CHARS:
        glyph = font.load_char(ord(ch))
        out.append(round(glyph.horiAdvance / 64))
    return out


def main() -> None:
    regular, bold = widths("normal"), widths("bold")
    lines = [
        '"""Advance widths of DejaVu Sans (regular and bold) in thousandths of the font size, for the characters',
        "plies' pictures use; written by tools/font_metrics.py from the fonts matplotlib ships.\"\"\"",
        "",
        "from __future__ import annotations",
        "",
        "CHARS = (",
        *[f"    {CHARS[i:i + 60]!r}" for i in range(0, len(CHARS), 60)],
        ")",
        "",
    ]
    for name, ws in (("REGULAR", regular), ("BOLD", bold)):
        lines.append(f"{name} = (")
        for i in range(0, len(ws), 20):
            lines.append("    " + ", ".join(map(str, ws[i:i + 20])) + ",")
        lines.append(")")
        lines.append("")
    lines += ["WIDTHS = dict(zip(CHARS, REGULAR, strict=True))", "BOLD_WIDTHS = dict(zip(CHARS, BOLD, strict=True))",
              ""]
    OUT.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {OUT} ({len(CHARS)} characters)")


if __name__ == "__main__":
    main()
