"""The board + side-to-move form: 64 characters a1..h8 row by row (``X``/``*`` black, ``O``/``0`` white,
``-``/``.`` empty), then the side to move (``X``/``O``/``*``/``Black``/``White``).  Spaces and line breaks
between squares are allowed, so an 8-line drawing reads too; other board sizes (36, 100 squares) work alike."""

from __future__ import annotations

from plies.games.othello import BLACK_CHARS, EMPTY_CHARS, WHITE_CHARS, OthelloState

from .errors import FormatError, error_at

SIDE_WORDS = {"x": 0, "*": 0, "b": 0, "black": 0, "o": 1, "0": 1, "w": 1, "white": 1}
SIZES = {16: 4, 36: 6, 64: 8, 100: 10}


def read_board(text: str, source: str | None = None) -> OthelloState:
    """Parse a board and side to move; FormatError names the line and column of a bad character."""
    cells: list[tuple[str, int]] = []
    i = 0
    squares = BLACK_CHARS + WHITE_CHARS + EMPTY_CHARS
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch not in squares:
            break
        cells.append((ch, i))
        i += 1
    # the side to move is the last square-like character or the word after the squares
    rest = text[i:].strip()
    if rest:
        side_index = text.index(rest[0], i)
        side_word = rest.rstrip(";").strip()
        if side_word.lower() not in SIDE_WORDS:
            if len(cells) not in SIZES:
                raise error_at(text, side_index, f"bad board character {rest[0]!r} after {len(cells)} squares "
                               "(use X or * for black, O for white, - or . for empty)", source)
            raise error_at(text, side_index, f"bad side to move {side_word!r} (use X or O)", source)
        to_move = SIDE_WORDS[side_word.lower()]
    else:
        if not cells:
            raise error_at(text, 0, "empty board", source)
        ch, side_index = cells.pop()
        if ch.lower() not in SIDE_WORDS:
            raise error_at(text, side_index, f"bad side to move {ch!r} (use X or O after the board)", source)
        to_move = SIDE_WORDS[ch.lower()]
    if len(cells) not in SIZES:
        at = cells[-1][1] + 1 if cells else 0
        raise error_at(text, at, f"a board has 64 squares (or 16, 36, 100), got {len(cells)}", source)
    n = SIZES[len(cells)]
    black = white = 0
    for k, (ch, _) in enumerate(cells):
        if ch in BLACK_CHARS:
            black |= 1 << k
        elif ch in WHITE_CHARS:
            white |= 1 << k
    return OthelloState(black, white, to_move, n)


def write_board(state: OthelloState, black: str = "X", white: str = "O", empty: str = "-", rows: bool = False) -> str:
    """The board and side to move, e.g. ``---...--- X``; ``rows`` puts each rank on its own line."""
    n = state.n
    cells = []
    for k in range(n * n):
        bit = 1 << k
        cells.append(black if state.black & bit else white if state.white & bit else empty)
    side = black if state.to_move == 0 else white
    if rows:
        return "\n".join("".join(cells[r * n : (r + 1) * n]) for r in range(n)) + f"\n{side}"
    return "".join(cells) + f" {side}"


def looks_like_board(text: str) -> bool:
    try:
        read_board(text)
        return True
    except FormatError:
        return False


__all__ = ["looks_like_board", "read_board", "write_board"]
