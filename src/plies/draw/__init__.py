"""plies' own pictures: a small scene of shapes written out as SVG (hand-built strings), or as PNG/PDF by
matplotlib.  Nothing here needs a system program: game trees, boards and plots are laid out and drawn by
plies itself (``plies.draw.tree``, ``plies.draw.boards``, ``plies.draw.chart``).

A ``Scene`` is a width, a height (units are SVG pixels = points in PNG/PDF) and a list of items: ``Line``,
``Rect``, ``Poly``, ``Circle``, ``Text`` and ``Group`` (an ``id``/``class`` for pages and tests to read, an
optional offset and scale, a tooltip).  ``to_svg(scene)`` gives the SVG text, ``render(scene, "png")`` bytes,
``save(scene, path)`` a file in the format its suffix names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeAlias, TypeVar

from plies.game import PliesError

FONT = "DejaVu Sans"
FONT_STACK = "DejaVu Sans, Verdana, Arial, sans-serif"
FORMATS = ("svg", "png", "pdf")


@dataclass
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000000"
    width: float = 1.0
    dash: tuple[float, float] | None = None


@dataclass
class Polyline:
    points: list[tuple[float, float]]
    stroke: str = "#000000"
    width: float = 1.0
    dash: tuple[float, float] | None = None


@dataclass
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str = "none"
    stroke: str = "none"
    width: float = 1.0
    dash: tuple[float, float] | None = None
    rx: float = 0.0
    cls: str = ""


@dataclass
class Poly:
    points: list[tuple[float, float]]
    fill: str = "none"
    stroke: str = "#000000"
    width: float = 1.0
    dash: tuple[float, float] | None = None
    cls: str = ""


@dataclass
class Circle:
    cx: float
    cy: float
    r: float
    fill: str = "#000000"
    stroke: str = "none"
    width: float = 1.0
    cls: str = ""


@dataclass
class Text:
    """Text centred vertically on ``y``; ``anchor`` is start, middle or end; ``halo`` draws a white outline
    behind the letters so lines under them do not hide them."""

    x: float
    y: float
    text: str
    size: float = 12.0
    fill: str = "#000000"
    anchor: str = "middle"
    bold: bool = False
    italic: bool = False
    cls: str = ""
    halo: bool = False


@dataclass
class Group:
    items: list[Item] = field(default_factory=list)
    id: str = ""
    cls: str = ""
    title: str = ""
    dx: float = 0.0
    dy: float = 0.0
    scale: float = 1.0


Item: TypeAlias = Line | Polyline | Rect | Poly | Circle | Text | Group
"""Anything a scene or a group holds."""
It = TypeVar("It", bound=Item)


@dataclass
class Scene:
    width: float
    height: float
    items: list[Item] = field(default_factory=list)
    background: str | None = "#ffffff"
    label: str = ""                  # the picture's accessible name (SVG aria-label)

    def add(self, item: It) -> It:
        self.items.append(item)
        return item

    def to_svg(self, xml_declaration: bool = False) -> str:
        return to_svg(self, xml_declaration)

    def _repr_svg_(self) -> str:
        return to_svg(self)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of ``text`` in DejaVu Sans at ``size``, from the font's own advance widths
    (``plies.draw.metrics``) for the characters pictures use; other characters count as a wide letter."""
    from plies.draw.metrics import BOLD_WIDTHS, WIDTHS

    table = BOLD_WIDTHS if bold else WIDTHS
    fallback = 1000 if bold else 950
    return sum(table.get(ch, fallback) for ch in text) * size / 1000


# -- SVG ------------------------------------------------------------------------------------------------------

def esc(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;"))


def _n(v: float) -> str:
    r = round(v, 2)
    return str(int(r)) if r == int(r) else f"{r:g}"


def _stroke(stroke: str, width: float, dash: tuple[float, float] | None) -> str:
    if stroke == "none":
        return ' stroke="none"'
    out = f' stroke="{stroke}" stroke-width="{_n(width)}"'
    if dash:
        out += f' stroke-dasharray="{_n(dash[0])} {_n(dash[1])}"'
    return out


def _cls(cls: str) -> str:
    return f' class="{esc(cls)}"' if cls else ""


def _svg_item(item: Item, out: list[str]) -> None:
    if isinstance(item, Group):
        attrs = ""
        if item.id:
            attrs += f' id="{esc(item.id)}"'
        attrs += _cls(item.cls)
        if item.dx or item.dy or item.scale != 1:
            t = f"translate({_n(item.dx)},{_n(item.dy)})"
            if item.scale != 1:
                t += f" scale({item.scale:g})"
            attrs += f' transform="{t}"'
        out.append(f"<g{attrs}>")
        if item.title:
            out.append(f"<title>{esc(item.title)}</title>")
        for sub in item.items:
            _svg_item(sub, out)
        out.append("</g>")
    elif isinstance(item, Line):
        out.append(f'<line x1="{_n(item.x1)}" y1="{_n(item.y1)}" x2="{_n(item.x2)}" y2="{_n(item.y2)}"'
                   f'{_stroke(item.stroke, item.width, item.dash)}/>')
    elif isinstance(item, Polyline):
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in item.points)
        out.append(f'<polyline points="{pts}" fill="none"{_stroke(item.stroke, item.width, item.dash)}/>')
    elif isinstance(item, Rect):
        rx = f' rx="{_n(item.rx)}"' if item.rx else ""
        out.append(f'<rect{_cls(item.cls)} x="{_n(item.x)}" y="{_n(item.y)}" width="{_n(item.w)}" '
                   f'height="{_n(item.h)}"{rx} fill="{item.fill}"{_stroke(item.stroke, item.width, item.dash)}/>')
    elif isinstance(item, Poly):
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in item.points)
        out.append(f'<polygon{_cls(item.cls)} points="{pts}" fill="{item.fill}"'
                   f'{_stroke(item.stroke, item.width, item.dash)}/>')
    elif isinstance(item, Circle):
        out.append(f'<circle{_cls(item.cls)} cx="{_n(item.cx)}" cy="{_n(item.cy)}" r="{_n(item.r)}" '
                   f'fill="{item.fill}"{_stroke(item.stroke, item.width, None)}/>')
    elif isinstance(item, Text):
        attrs = f' x="{_n(item.x)}" y="{_n(item.y)}" font-size="{_n(item.size)}"'
        if item.anchor != "start":
            attrs += f' text-anchor="{item.anchor}"'
        if item.bold:
            attrs += ' font-weight="bold"'
        if item.italic:
            attrs += ' font-style="italic"'
        if item.halo:
            attrs += ' stroke="#ffffff" stroke-width="3" paint-order="stroke" stroke-linejoin="round"'
        out.append(f'<text{_cls(item.cls)}{attrs} fill="{item.fill}" dominant-baseline="central">'
                   f"{esc(item.text)}</text>")
    else:  # pragma: no cover - a programming error
        raise TypeError(f"cannot draw {item!r}")


def to_svg(scene: Scene, xml_declaration: bool = False) -> str:
    """The scene as an SVG document (UTF-8 text)."""
    w, h = _n(scene.width), _n(scene.height)
    out = ['<?xml version="1.0" encoding="UTF-8"?>'] if xml_declaration else []
    label = f' role="img" aria-label="{esc(scene.label)}"' if scene.label else ""
    out.append(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
               f'font-family="{FONT_STACK}"{label}>')
    if scene.background:
        out.append(f'<rect width="{w}" height="{h}" fill="{scene.background}"/>')
    for item in scene.items:
        _svg_item(item, out)
    out.append("</svg>")
    return "\n".join(out) + "\n"


# -- files ----------------------------------------------------------------------------------------------------

def render(scene: Scene, fmt: str = "svg", scale: float = 2.0) -> bytes:
    """The scene as bytes: ``svg`` (plies' own text), ``png`` or ``pdf`` (drawn by matplotlib)."""
    fmt = fmt.lower()
    if fmt == "svg":
        return to_svg(scene, xml_declaration=True).encode("utf-8")
    if fmt in ("png", "pdf"):
        from plies.draw.raster import rasterize

        return rasterize(scene, fmt, scale)
    raise PliesError(f"cannot draw {fmt!r}; choose from: {', '.join(FORMATS)}")


def save(scene: Scene, path: str | Path, scale: float = 2.0) -> str:
    """Write the scene to ``path`` in the format its suffix names (.svg, .png, .pdf); returns the path."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise PliesError(f"cannot draw {suffix or 'a file without a suffix'!r}; choose from: {', '.join(FORMATS)}")
    data = render(scene, suffix, scale)
    try:
        Path(path).write_bytes(data)
    except OSError as e:
        raise PliesError(f"cannot write {path}: {e.strerror}") from None
    return str(path)


__all__ = ["FORMATS", "Circle", "Group", "Item", "Line", "Poly", "Polyline", "Rect", "Scene", "Text", "esc", "render",
           "save", "text_width", "to_svg"]
