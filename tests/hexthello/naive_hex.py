"""A deliberately plain HexThello rule book on a 15x15 list of lists, written from PROTOCOLS.md only, to check
the bitboard rules against.  Cells: 'B', 'W', '.', or None off the board."""

from __future__ import annotations

DIRS = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))


def start() -> list[list[str | None]]:
    grid: list[list[str | None]] = [[("." if 7 <= i + j <= 21 else None) for j in range(15)] for i in range(15)]
    for i, j in ((7, 7), (6, 7), (7, 8), (8, 6)):
        grid[i][j] = "W"
    for i, j in ((7, 6), (6, 8), (8, 7)):
        grid[i][j] = "B"
    return grid


def cell(grid: list[list[str | None]], i: int, j: int) -> str | None:
    if 0 <= i < 15 and 0 <= j < 15:
        return grid[i][j]
    return None


def flipped(grid: list[list[str | None]], i: int, j: int, me: str) -> list[tuple[int, int]]:
    if grid[i][j] != ".":
        return []
    op = "W" if me == "B" else "B"
    out: list[tuple[int, int]] = []
    for di, dj in DIRS:
        line = []
        a, b = i + di, j + dj
        while cell(grid, a, b) == op:
            line.append((a, b))
            a, b = a + di, b + dj
        if line and cell(grid, a, b) == me:
            out.extend(line)
    return out


def moves(grid: list[list[str | None]], me: str) -> list[tuple[int, int]]:
    return [(i, j) for i in range(15) for j in range(15) if grid[i][j] == "." and flipped(grid, i, j, me)]


def play(grid: list[list[str | None]], i: int, j: int, me: str) -> list[list[str | None]]:
    new = [row[:] for row in grid]
    for a, b in flipped(grid, i, j, me):
        new[a][b] = me
    new[i][j] = me
    return new


def perft(grid: list[list[str | None]], me: str, depth: int, passed: bool = False) -> int:
    if depth == 0:
        return 1
    op = "W" if me == "B" else "B"
    ms = moves(grid, me)
    if not ms:
        if passed or not moves(grid, op):
            return 1
        return perft(grid, op, depth - 1, True)
    return sum(perft(play(grid, i, j, me), op, depth - 1) for i, j in ms)
