"""Line charts as scenes, with a logarithmic y axis where asked (the node-count study's b^d vs b^(d/2)).

``line_chart(series, ...)`` takes ``Series`` (a name, x and y values, a colour, a dash, a marker) and draws
axes, ticks at powers of ten on a log axis, a grid, the lines with their markers and a legend.  Each series
is ``<g class="series" id="series-NAME">`` with one ``<circle|rect|polygon class="point">`` per value.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from plies.draw import Circle, Group, Line, Poly, Polyline, Rect, Scene, Text, text_width

COLOURS = ("#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f")


@dataclass
class Series:
    name: str
    xs: list[float]
    ys: list[float]
    colour: str = "#1565c0"
    dash: tuple[float, float] | None = None
    marker: str = "circle"          # circle, square, triangle, diamond or none


def _nice_number(v: float) -> str:
    if v >= 1e6:
        return f"{v / 1e6:g}M"
    if v >= 1e3:
        return f"{v / 1e3:g}k"
    return f"{v:g}"


def _linear_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    span = hi - lo or 1.0
    step = 10 ** math.floor(math.log10(span / count))
    for m in (1, 2, 5, 10):
        if span / (step * m) <= count:
            step *= m
            break
    first = math.floor(lo / step) * step
    out, v = [], first
    while v <= hi + 1e-9:
        out.append(round(v, 10))
        v += step
    return out


def _marker(kind: str, x: float, y: float, colour: str) -> Rect | Poly | Circle:
    s = 4.0
    if kind == "square":
        return Rect(x - s, y - s, 2 * s, 2 * s, fill=colour, cls="point")
    if kind == "triangle":
        return Poly([(x, y - s - 1), (x + s + 1, y + s), (x - s - 1, y + s)], fill=colour, stroke="none", cls="point")
    if kind == "diamond":
        return Poly([(x, y - s - 1), (x + s + 1, y), (x, y + s + 1), (x - s - 1, y)], fill=colour, stroke="none",
                    cls="point")
    return Circle(x, y, s, fill=colour, cls="point")


def line_chart(series: list[Series], title: str = "", xlabel: str = "", ylabel: str = "", log_y: bool = False,
               width: float = 640, height: float = 400, integer_x: bool = True) -> Scene:
    """A line chart of ``series``; with ``log_y`` the y axis is logarithmic (values <= 0 are left out)."""
    legend_w = max((text_width(s.name, 11) for s in series), default=0) + 40
    left, right, top, bottom = 64.0, 16.0 + legend_w, 44.0 if title else 24.0, 40.0
    pw, ph = width - left - right, height - top - bottom
    xs = [x for s in series for x in s.xs]
    ys = [y for s in series for y in s.ys if (y > 0 or not log_y)]
    if not xs or not ys:
        raise ValueError("nothing to plot")
    x0, x1 = min(xs), max(xs)
    if x0 == x1:
        x0, x1 = x0 - 1, x1 + 1
    pad = (x1 - x0) * 0.05                                 # the first and last points off the frame
    x0, x1 = x0 - pad, x1 + pad
    if log_y:
        y0 = 10 ** math.floor(math.log10(min(ys)))
        y1 = 10 ** math.ceil(math.log10(max(ys)))
        if y0 == y1:
            y1 *= 10

        def fy(v: float) -> float:
            return top + ph * (1 - (math.log10(v) - math.log10(y0)) / (math.log10(y1) - math.log10(y0)))
        yticks = [10 ** k for k in range(round(math.log10(y0)), round(math.log10(y1)) + 1)]
    else:
        yticks = _linear_ticks(min(0.0, min(ys)), max(ys))
        y0, y1 = yticks[0], yticks[-1] if yticks[-1] > yticks[0] else yticks[0] + 1

        def fy(v: float) -> float:
            return top + ph * (1 - (v - y0) / (y1 - y0))

    def fx(v: float) -> float:
        return left + pw * (v - x0) / (x1 - x0)

    scene = Scene(width, height, label=title or "chart")
    axes = Group(cls="axes")
    axes.items.append(Rect(left, top, pw, ph, fill="#ffffff", stroke="#90a4ae", width=1))
    for t in yticks:
        y = fy(t)
        axes.items.append(Line(left, y, left + pw, y, stroke="#e0e0e0", width=1))
        axes.items.append(Text(left - 6, y, _nice_number(t), size=11, anchor="end", fill="#37474f", cls="ytick"))
        if log_y:
            for m in range(2, 10):
                if t * m < y1:
                    yy = fy(t * m)
                    axes.items.append(Line(left, yy, left + 4, yy, stroke="#b0bec5", width=0.8))
    xticks = sorted(set(xs)) if integer_x and len(set(xs)) <= 20 else _linear_ticks(min(xs), max(xs))
    for t in xticks:
        x = fx(t)
        axes.items.append(Line(x, top + ph, x, top + ph + 4, stroke="#90a4ae", width=1))
        axes.items.append(Text(x, top + ph + 14, f"{t:g}", size=11, fill="#37474f", cls="xtick"))
    if xlabel:
        axes.items.append(Text(left + pw / 2, height - 12, xlabel, size=12, fill="#263238"))
    if ylabel:                                             # written above the axis (no rotated text)
        axes.items.append(Text(left, top - 8, ylabel, size=11, fill="#263238", anchor="start", cls="ylabel"))
    if title:
        scene.add(Text(left, 12, title, size=13, bold=True, anchor="start", fill="#263238", cls="title"))
    scene.add(axes)
    for k, s in enumerate(series):
        g = Group(id="series-" + re.sub(r"[^A-Za-z0-9_.-]+", "-", s.name).strip("-"), cls="series",
                  title=s.name)
        pts = [(fx(x), fy(y)) for x, y in zip(s.xs, s.ys, strict=True) if y > 0 or not log_y]
        if len(pts) > 1:
            g.items.append(Polyline(pts, stroke=s.colour, width=2, dash=s.dash))
        if s.marker != "none":
            g.items += [_marker(s.marker, x, y, s.colour) for x, y in pts]
        scene.add(g)
        ly = top + 8 + 18 * k
        lx = left + pw + 12
        scene.add(Group([Line(lx, ly, lx + 22, ly, stroke=s.colour, width=2, dash=s.dash),
                         *([_marker(s.marker, lx + 11, ly, s.colour)] if s.marker != "none" else []),
                         Text(lx + 28, ly, s.name, size=11, anchor="start", fill="#263238")], cls="legend-entry"))
    return scene


__all__ = ["COLOURS", "Series", "line_chart"]
