"""A scene drawn by matplotlib into PNG or PDF bytes (1 scene unit = 1 point; PNG at ``scale`` x 72 dpi).

matplotlib brings its own DejaVu Sans, so Greek labels, ▲ ▼ ✗ ∞ and α β come out with no system font."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from plies.draw import FONT, Circle, Group, Item, Line, Poly, Polyline, Rect, Scene, Text
from plies.extras import require

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def _dashes(dash: tuple[float, float] | None, width: float) -> str | tuple[float, tuple[float, float]]:
    if not dash:
        return "solid"
    w = max(width, 0.1)
    return (0, (dash[0] / w, dash[1] / w))       # matplotlib scales dash lengths by the line width


def _colour(c: str) -> str:
    return "none" if c in ("none", "") else c


def _draw(ax: Axes, item: Item, dx: float, dy: float, k: float, z: list[int]) -> None:
    from matplotlib import patches
    from matplotlib.patheffects import withStroke

    def tx(x: float) -> float:
        return dx + k * x

    def ty(y: float) -> float:
        return dy + k * y

    z[0] += 1
    zo = z[0]
    if isinstance(item, Group):
        for sub in item.items:
            _draw(ax, sub, tx(item.dx), ty(item.dy), k * item.scale, z)
    elif isinstance(item, Line):
        if item.stroke != "none":
            ax.plot([tx(item.x1), tx(item.x2)], [ty(item.y1), ty(item.y2)], color=item.stroke,
                    linewidth=item.width * k, linestyle=_dashes(item.dash, item.width), solid_capstyle="butt",
                    zorder=zo)
    elif isinstance(item, Polyline):
        ax.plot([tx(x) for x, _ in item.points], [ty(y) for _, y in item.points], color=item.stroke,
                linewidth=item.width * k, linestyle=_dashes(item.dash, item.width), zorder=zo)
    elif isinstance(item, Rect):
        common: dict[str, Any] = dict(facecolor=_colour(item.fill), edgecolor=_colour(item.stroke),
                      linewidth=item.width * k if item.stroke != "none" else 0,
                      linestyle=_dashes(item.dash, item.width), zorder=zo)
        if item.rx:
            r = item.rx * k
            ax.add_patch(patches.FancyBboxPatch((tx(item.x) + r, ty(item.y) + r), item.w * k - 2 * r,
                                                item.h * k - 2 * r, boxstyle=f"round,pad={r}", **common))
        else:
            ax.add_patch(patches.Rectangle((tx(item.x), ty(item.y)), item.w * k, item.h * k, **common))
    elif isinstance(item, Poly):
        ax.add_patch(patches.Polygon([(tx(x), ty(y)) for x, y in item.points], closed=True,
                                     facecolor=_colour(item.fill), edgecolor=_colour(item.stroke),
                                     linewidth=item.width * k if item.stroke != "none" else 0,
                                     linestyle=_dashes(item.dash, item.width), joinstyle="miter", zorder=zo))
    elif isinstance(item, Circle):
        ax.add_patch(patches.Circle((tx(item.cx), ty(item.cy)), item.r * k, facecolor=_colour(item.fill),
                                    edgecolor=_colour(item.stroke),
                                    linewidth=item.width * k if item.stroke != "none" else 0, zorder=zo))
    elif isinstance(item, Text):
        effects = [withStroke(linewidth=3 * k, foreground="white")] if item.halo else None
        ax.text(tx(item.x), ty(item.y), item.text, fontsize=item.size * k, color=item.fill,
                ha={"start": "left", "middle": "center", "end": "right"}[item.anchor], va="center_baseline",
                fontweight="bold" if item.bold else "normal", fontstyle="italic" if item.italic else "normal",
                family=FONT, path_effects=effects, zorder=zo)


def _figure(scene: Scene, dpi: float) -> Figure:
    """A matplotlib figure of the scene's size (1 unit = 1 point) with the scene drawn on it."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(scene.width / 72, scene.height / 72), dpi=dpi)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, scene.width)
    ax.set_ylim(scene.height, 0)
    ax.set_axis_off()
    if scene.background:
        fig.patch.set_facecolor(scene.background)
    z = [0]
    for item in scene.items:
        _draw(ax, item, 0.0, 0.0, 1.0, z)
    return fig


def rasterize(scene: Scene, fmt: str = "png", scale: float = 2.0) -> bytes:
    """PNG or PDF bytes of ``scene`` (matplotlib's Agg / PDF backends; no pyplot, no display).  Needs the
    ``plots`` extra: MissingExtraError (one line) without it."""
    require("plots", f"drawing {fmt.upper()}", "or draw SVG, which needs nothing more")
    buf = io.BytesIO()
    _figure(scene, 72 * scale).savefig(buf, format=fmt, dpi=72 * scale, facecolor=scene.background or "none")
    return buf.getvalue()


def pdf_pages(scenes: list[Scene]) -> bytes:
    """One PDF with a page per scene, each page the scene's size (a worksheet, a page per exercise)."""
    require("plots", "drawing PDF", "or draw SVG, which needs nothing more")
    from matplotlib.backends.backend_pdf import PdfPages

    buf = io.BytesIO()
    with PdfPages(buf) as pdf:
        for scene in scenes:
            pdf.savefig(_figure(scene, 72), facecolor=scene.background or "none")
    return buf.getvalue()
