"""Boards as scenes: Othello (any n x n), tic-tac-toe, HexThello, and any other game's square board from its
``BoardView`` (Connect Four); full size with coordinates, or thumbnails.

``board_scene(state)`` reads any plies state by its fields (``black``/``white``/``n`` for Othello, ``x``/``o``
for tic-tac-toe, ``black``/``white``/``holes`` for the hexagon), so the rules can draw themselves in a notebook
(``state._repr_svg_()``) without this module knowing the games by name or class.  Every cell is a ``<g>`` with
``class="cell"`` and ``id`` = its name (``d3``, ``b2``, ``7 3``), discs carry ``class="disc black|white"``,
marks ``class="x|o"``, so tests and pages can read the position back from the picture.  A game drawn from its
view (``view=``, what ``plies.games.game_type(state).view(state)`` gives) needs no code here.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Protocol

from plies.draw import Circle, Group, Item, Line, Poly, Rect, Scene, Text
from plies.game import BoardView, State

if TYPE_CHECKING:
    from typing_extensions import TypeIs

FELT = "#2e7d4f"
GRID = "#184d2e"
BLACK = "#141414"
WHITE = "#f4f4f0"
LAST = "#e0533d"
LEGAL = "#9fd3b0"
HEX_SIZE, HEX_RADIUS = 15, 7
PIECE_COLOURS: dict[str, tuple[str, str]] = {
    "black": (BLACK, "none"), "white": (WHITE, "#000000"), "red": ("#d63a2f", "#8c1d14"),
    "yellow": ("#f5c518", "#9a7400")}
"""A disc's fill and outline by the piece a ``BoardView`` names."""
SURFACES: dict[str, tuple[str, str]] = {"felt": (FELT, GRID), "paper": ("#ffffff", "#444444"),
                                        "rack": ("#1f5fbf", "#123d80")}
"""A board's colour and its lines by the surface a ``BoardView`` names."""


def _name(sq: int, n: int) -> str:
    r, c = divmod(sq, n)
    return f"{chr(97 + c)}{r + 1}"


def _legal(state: State) -> int:
    """The squares the side to move may play, as a mask (0 when the game is over or has no masks)."""
    move_mask = getattr(state, "move_mask", None)
    if move_mask is None or state.is_over():
        return 0
    return int(move_mask())


def _disc(cx: float, cy: float, radius: float, dot: float, width: float, black: int, white: int, legal: int,
          bit: int, last: bool) -> tuple[list[Item], str]:
    """What a cell ``bit`` of a disc board shows, and the class it adds: its disc (dotted when it is the ``last``
    move), else a dot where a move is legal (`` legal``), else nothing."""
    if (black | white) & bit:
        is_black = bool(black & bit)
        disc = Circle(cx, cy, radius, fill=BLACK if is_black else WHITE, stroke="none" if is_black else "#000000",
                      width=width, cls="disc black" if is_black else "disc white")
        return [disc, Circle(cx, cy, max(1.5, dot), fill=LAST, cls="last")] if last else [disc], ""
    if legal & bit:
        return [Circle(cx, cy, max(1.5, dot), fill=LEGAL, cls="legal")], " legal"
    return [], ""


def othello_scene(black: int, white: int, n: int = 8, cell: float = 36, last: int | None = None, legal: int = 0,
                  coords: bool = True, caption: str = "") -> Scene:
    """An n x n Othello board: green felt, black and white discs, the last move dotted, legal moves hinted."""
    m = 20.0 if coords else 2.0
    side = n * cell
    foot = 22.0 if caption else 0.0
    scene = Scene(side + m + 2, side + m + 2 + foot, label=f"Othello board {n}x{n}")
    board = Group(cls="board othello", dx=m, dy=m)
    board.items.append(Rect(0, 0, side, side, fill=FELT, stroke=GRID, width=2))
    for k in range(1, n):
        board.items.append(Line(k * cell, 0, k * cell, side, stroke=GRID, width=1))
        board.items.append(Line(0, k * cell, side, k * cell, stroke=GRID, width=1))
    if n == 8 and cell >= 20:
        for r, c in ((2, 2), (2, 6), (6, 2), (6, 6)):
            board.items.append(Circle(c * cell, r * cell, max(2.0, cell / 14), fill=GRID))
    for sq in range(n * n):
        r, c = divmod(sq, n)
        items, legal_cls = _disc((c + 0.5) * cell, (r + 0.5) * cell, cell * 0.41, cell * 0.1, 0.8, black, white,
                                 legal, 1 << sq, sq == last)
        if items:
            board.items.append(Group(items, id=_name(sq, n), cls="cell" + legal_cls))
    scene.add(board)
    if coords:
        for k in range(n):
            scene.add(Text(m + (k + 0.5) * cell, m / 2, chr(97 + k), size=11, fill="#555555"))
            scene.add(Text(m / 2, m + (k + 0.5) * cell, str(k + 1), size=11, fill="#555555"))
    if caption:
        scene.add(Text(m, side + m + 2 + foot / 2 + 2, caption, size=12, anchor="start", fill="#333333"))
    return scene


def tictactoe_scene(x: int, o: int, cell: float = 48, last: int | None = None, coords: bool = True,
                    caption: str = "") -> Scene:
    """A 3x3 board: X as a cross, O as a ring (drawn as lines, no font needed); the last move tinted."""
    m = 20.0 if coords else 2.0
    side = 3 * cell
    foot = 22.0 if caption else 0.0
    scene = Scene(side + m + 2, side + m + 2 + foot, label="tic-tac-toe board")
    board = Group(cls="board tictactoe", dx=m, dy=m)
    board.items.append(Rect(0, 0, side, side, fill="#ffffff", stroke="#444444", width=1.5))
    for k in (1, 2):
        board.items.append(Line(k * cell, 0, k * cell, side, stroke="#444444", width=1.5))
        board.items.append(Line(0, k * cell, side, k * cell, stroke="#444444", width=1.5))
    for sq in range(9):
        r, c = divmod(sq, 3)
        x0, y0 = c * cell, r * cell
        items: list[Item] = []
        if sq == last:
            items.append(Rect(x0 + 1, y0 + 1, cell - 2, cell - 2, fill="#ffe082"))
        if (x | o) >> sq & 1:
            items.append(_mark("x" if x >> sq & 1 else "o", x0 + cell / 2, y0 + cell / 2, cell))
        if items:
            board.items.append(Group(items, id=_name(sq, 3), cls="cell"))
    scene.add(board)
    if coords:
        for k in range(3):
            scene.add(Text(m + (k + 0.5) * cell, m / 2, "abc"[k], size=11, fill="#555555"))
            scene.add(Text(m / 2, m + (k + 0.5) * cell, str(k + 1), size=11, fill="#555555"))
    if caption:
        scene.add(Text(m, side + m + 2 + foot / 2 + 2, caption, size=12, anchor="start", fill="#333333"))
    return scene


def view_scene(view: BoardView, cell: float = 36, coords: bool = True, caption: str = "", hints: bool = True,
               label: str = "board") -> Scene:
    """A square board from its game's ``BoardView``: its surface (a rack shows its empty slots), every piece (a disc
    of its colour, or an X or O mark), the legal moves' cells dotted (``hints``) and a winning line ringed; each
    cell a ``<g class="cell">`` named by its file and rank, as the boards above."""
    m = 20.0 if coords else 2.0
    w, h = view.cols * cell, view.rows * cell
    foot = 22.0 if caption else 0.0
    scene = Scene(w + m + 2, h + m + 2 + foot, label=f"{label} {view.cols}x{view.rows}")
    fill, ink = SURFACES.get(view.surface, SURFACES["felt"])
    board = Group(cls=f"board {view.surface}", dx=m, dy=m)
    board.items.append(Rect(0, 0, w, h, fill=fill, stroke=ink, width=2))
    if view.surface != "rack":
        for k in range(1, view.cols):
            board.items.append(Line(k * cell, 0, k * cell, h, stroke=ink, width=1))
        for k in range(1, view.rows):
            board.items.append(Line(0, k * cell, w, k * cell, stroke=ink, width=1))
    for r, c in view.stars:
        board.items.append(Circle(c * cell, r * cell, max(2.0, cell / 14), fill=ink))
    legal = set(view.clicks) if hints else set()
    line = set(view.highlight)
    on = set(view.on_board) if view.on_board is not None else None
    for i, who in enumerate(view.cells):
        if (on is not None and i not in on) or who == BoardView.HOLE:
            continue
        r, c = divmod(i, view.cols)
        cx, cy = (c + 0.5) * cell, (r + 0.5) * cell
        items: list[Item] = []
        cls = "cell"
        if view.surface == "rack":
            items.append(Circle(cx, cy, cell * 0.41, fill="#ffffff", stroke=ink, width=0.8, cls="slot"))
        if who in (0, 1):
            piece = view.pieces[who]
            if piece in ("x", "o"):
                items.append(_mark(piece, cx, cy, cell))
            else:
                colour, edge = PIECE_COLOURS.get(piece, PIECE_COLOURS["black" if who == 0 else "white"])
                items.append(Circle(cx, cy, cell * 0.41, fill=colour, stroke=edge, width=0.8, cls=f"disc {piece}"))
            if i in line:
                items.append(Circle(cx, cy, cell * 0.46, fill="none", stroke=LAST, width=max(1.5, cell / 16),
                                    cls="line"))
        elif i in legal:
            items.append(Circle(cx, cy, max(1.5, cell * 0.1), fill=LEGAL, cls="legal"))
            cls += " legal"
        if items:
            board.items.append(Group(items, id=f"{view.files[c]}{view.ranks[r]}", cls=cls))
    scene.add(board)
    if coords:
        for k in range(view.cols):
            scene.add(Text(m + (k + 0.5) * cell, m / 2, view.files[k], size=11, fill="#555555"))
        for k in range(view.rows):
            scene.add(Text(m / 2, m + (k + 0.5) * cell, view.ranks[k], size=11, fill="#555555"))
    if caption:
        scene.add(Text(m, h + m + 2 + foot / 2 + 2, caption, size=12, anchor="start", fill="#333333"))
    return scene


def _mark(piece: str, cx: float, cy: float, cell: float) -> Group | Circle:
    """An X (two strokes) or an O (a ring), as tic-tac-toe's board draws them."""
    h, w = cell * 0.28, max(1.5, cell / 12)
    if piece == "x":
        return Group([Line(cx - h, cy - h, cx + h, cy + h, stroke="#1f4e99", width=w),
                      Line(cx - h, cy + h, cx + h, cy - h, stroke="#1f4e99", width=w)], cls="x")
    return Circle(cx, cy, h, fill="none", stroke="#b3261e", width=w, cls="o")


def _hex_centre(i: int, j: int, r: float) -> tuple[float, float]:
    return math.sqrt(3) * r * (j + i / 2 - HEX_RADIUS / 2), 1.5 * r * i


def hexthello_scene(black: int, white: int, r: float = 12, last: int | None = None, legal: int = 0,
                    coords: bool = True, caption: str = "", holes: int = 0) -> Scene:
    """The HexThello hexagon of radius 7 (169 cells, row ``i`` and column ``j`` of the course's 15x15 array);
    ``holes`` are cells taken off the board (drawn dark, class ``cell hole``)."""
    cells = [(i, j) for i in range(HEX_SIZE) for j in range(HEX_SIZE) if HEX_RADIUS <= i + j <= 3 * HEX_RADIUS]
    xs = [_hex_centre(i, j, r)[0] for i, j in cells]
    left = min(xs) - r * 0.9 - (18 if coords else 0)
    top = -r - 2
    width = max(xs) - min(xs) + 2 * r * 0.9 + 4 + (18 if coords else 0)
    height = 1.5 * r * (HEX_SIZE - 1) + 2 * r + 4
    foot = 22.0 if caption else 0.0
    scene = Scene(width, height + foot, label="HexThello board")
    board = Group(cls="board hexthello", dx=-left, dy=-top)
    for i, j in cells:
        cx, cy = _hex_centre(i, j, r)
        sq = i * HEX_SIZE + j
        bit = 1 << sq
        pts = [(cx + r * math.cos(math.radians(30 + 60 * k)), cy + r * math.sin(math.radians(30 + 60 * k)))
               for k in range(6)]
        hole = bool(holes & bit)
        items, legal_cls = _disc(cx, cy, r * 0.68, r * 0.18, 0.6, black, white, legal, bit, sq == last)
        board.items.append(Group([Poly(pts, fill="#5d4037" if hole else FELT, stroke=GRID, width=1), *items],
                                 id=f"{i} {j}", cls=("cell hole" if hole else "cell") + legal_cls))
    if coords:
        for i in range(HEX_SIZE):
            j0 = max(0, HEX_RADIUS - i)
            cx, cy = _hex_centre(i, j0, r)
            board.items.append(Text(cx - r * 1.5, cy, str(i), size=max(7.0, r * 0.7), fill="#555555"))
    scene.add(board)
    if caption:
        scene.add(Text(4, height + foot / 2 + 2, caption, size=12, anchor="start", fill="#333333"))
    return scene


class _Hexagon(Protocol):
    black: int
    white: int
    holes: int


def _hexagon(state: object) -> TypeIs[_Hexagon]:
    """A position on the hexagon: black and white discs and the cells taken off the board (``holes``)."""
    return hasattr(state, "black") and hasattr(state, "white") and hasattr(state, "holes")


def _caption(state: State) -> str:
    names = getattr(state, "player_names", ("", ""))
    if state.is_over():
        o = state.outcome()
        return "Game over: " + (o.describe(names) if o is not None else "")
    who = names[state.to_move]
    counts = getattr(state, "counts", None)
    if counts is not None:
        b, w = counts()
        return f"{who} to move · Black {b}, White {w}"
    return f"{who} to move"


def board_scene(state: State, size: float | None = None, last: int | None = None, coords: bool = True,
                hints: bool = True, caption: bool = True, view: BoardView | None = None) -> Scene | None:
    """The picture of a plies state (Othello, tic-tac-toe, HexThello; another game from its square ``view``), or
    None for a state plies cannot draw.

    ``size`` is the cell size (Othello, tic-tac-toe) or the hexagon radius; ``last`` a square to mark;
    ``hints`` marks the legal moves; ``caption`` writes whose move it is and the disc count under it."""
    def text() -> str:
        return _caption(state) if caption else ""

    if _hexagon(state):
        return hexthello_scene(state.black, state.white, size or 12, last, _legal(state) if hints else 0, coords,
                               text(), state.holes or 0)
    if hasattr(state, "x") and hasattr(state, "o"):
        return tictactoe_scene(state.x, state.o, size or 48, last, coords, text())
    if hasattr(state, "black") and hasattr(state, "white") and hasattr(state, "n") and state.n:
        return othello_scene(state.black, state.white, state.n, size or 36, last, _legal(state) if hints else 0,
                             coords, text())
    if view is not None and view.shape == "square":
        return view_scene(view, size or 36, coords, text(), hints and not state.is_over())
    return None


def board_svg(state: State, **options: Any) -> str | None:
    """The state's board as SVG text (what ``_repr_svg_`` of the game states returns)."""
    scene = board_scene(state, **options)
    return None if scene is None else scene.to_svg()


def thumbnail(state: State, last: int | None = None, width: float = 60, view: BoardView | None = None) -> Scene | None:
    """A small board of about ``width`` points, no coordinates or caption (for search-tree nodes); a game plies
    has no picture of its own is drawn from its square ``view``."""
    if _hexagon(state):
        return hexthello_scene(state.black, state.white, width / 26, last, coords=False, holes=state.holes or 0)
    if hasattr(state, "x") and hasattr(state, "o"):
        return tictactoe_scene(state.x, state.o, width / 3, last, coords=False)
    n = getattr(state, "n", None)
    if hasattr(state, "black") and hasattr(state, "white") and n:
        return othello_scene(state.black, state.white, n, width / n, last, coords=False)
    if view is not None and view.shape == "square":
        return view_scene(view, width / max(view.rows, view.cols), coords=False, hints=False)
    return None


__all__ = ["board_scene", "board_svg", "hexthello_scene", "othello_scene", "thumbnail", "tictactoe_scene",
           "view_scene"]
