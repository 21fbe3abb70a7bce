"""A deliberately naive Othello written for the tests: a 2-D list board and explicit direction walks.

It shares no code with ``plies.games.othello`` (no bitboards, no shifts), so agreement between the two is
real evidence that both are right.  Cells hold 0 (empty), 1 (black, player 0) or 2 (white, player 1).
"""

from __future__ import annotations

import random

EMPTY, BLACK, WHITE = 0, 1, 2
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]

Board = list[list[int]]


def start_board(n: int) -> Board:
    """Standard start: White on d4 and e5 (the two central squares of the main diagonal), Black on the others."""
    b = [[EMPTY] * n for _ in range(n)]
    h = n // 2
    b[h - 1][h - 1] = WHITE
    b[h][h] = WHITE
    b[h - 1][h] = BLACK
    b[h][h - 1] = BLACK
    return b


def colour(player: int) -> int:
    return BLACK if player == 0 else WHITE


def flipped(board: Board, player: int, r: int, c: int) -> list[tuple[int, int]]:
    """Cells that a disc of ``player`` placed on (r, c) would turn over; [] if the cell is taken or none flip."""
    n = len(board)
    if board[r][c] != EMPTY:
        return []
    me = colour(player)
    them = colour(1 - player)
    out: list[tuple[int, int]] = []
    for dr, dc in DIRECTIONS:
        line = []
        rr, cc = r + dr, c + dc
        while 0 <= rr < n and 0 <= cc < n and board[rr][cc] == them:
            line.append((rr, cc))
            rr += dr
            cc += dc
        if line and 0 <= rr < n and 0 <= cc < n and board[rr][cc] == me:
            out.extend(line)
    return out


def moves(board: Board, player: int) -> list[tuple[int, int]]:
    """Legal cells of ``player``, row by row."""
    n = len(board)
    return [(r, c) for r in range(n) for c in range(n) if flipped(board, player, r, c)]


def apply(board: Board, player: int, r: int, c: int) -> Board:
    """A new board with the move played (the move must be legal)."""
    f = flipped(board, player, r, c)
    assert f, "naive apply of an illegal move"
    nb = [row[:] for row in board]
    nb[r][c] = colour(player)
    for rr, cc in f:
        nb[rr][cc] = colour(player)
    return nb


def count(board: Board) -> tuple[int, int]:
    flat = [x for row in board for x in row]
    return flat.count(BLACK), flat.count(WHITE)


def final_score(board: Board) -> int:
    """Black's disc difference with the empty cells given to the winner."""
    b, w = count(board)
    empties = len(board) ** 2 - b - w
    if b > w:
        return b - w + empties
    if w > b:
        return b - w - empties
    return 0


def perft(board: Board, player: int, depth: int) -> int:
    """Leaves ``depth`` plies below; a forced pass is a ply, a finished game one leaf."""
    if depth == 0:
        return 1
    ms = moves(board, player)
    if not ms:
        if not moves(board, 1 - player):
            return 1
        return perft(board, 1 - player, depth - 1)
    return sum(perft(apply(board, player, r, c), 1 - player, depth - 1) for r, c in ms)


def perft_memo(board: Board, player: int, depth: int) -> int:
    """``perft`` with transpositions shared (same answer, much faster on small boards)."""
    memo: dict[tuple[tuple[tuple[int, ...], ...], int, int], int] = {}

    def walk(b: Board, p: int, d: int) -> int:
        if d == 0:
            return 1
        key = (tuple(map(tuple, b)), p, d)
        if key in memo:
            return memo[key]
        ms = moves(b, p)
        if not ms:
            total = 1 if not moves(b, 1 - p) else walk(b, 1 - p, d - 1)
        else:
            total = sum(walk(apply(b, p, r, c), 1 - p, d - 1) for r, c in ms)
        memo[key] = total
        return total

    return walk(board, player, depth)


def to_bitboards(board: Board) -> tuple[int, int]:
    """(black, white) bitboards with index = row * n + col."""
    n = len(board)
    black = white = 0
    for r in range(n):
        for c in range(n):
            if board[r][c] == BLACK:
                black |= 1 << (r * n + c)
            elif board[r][c] == WHITE:
                white |= 1 << (r * n + c)
    return black, white


def from_bitboards(black: int, white: int, n: int) -> Board:
    return [
        [BLACK if black >> (r * n + c) & 1 else WHITE if white >> (r * n + c) & 1 else EMPTY for c in range(n)]
        for r in range(n)
    ]


def random_playout(n: int, plies: int, rng: random.Random) -> tuple[Board, int, list[tuple[int, int] | None]]:
    """Play ``plies`` random plies (passes included, None = pass) from the start; stops early at game end."""
    board = start_board(n)
    player = 0
    history: list[tuple[int, int] | None] = []
    for _ in range(plies):
        ms = moves(board, player)
        if not ms:
            if not moves(board, 1 - player):
                break
            history.append(None)
            player = 1 - player
            continue
        r, c = rng.choice(ms)
        board = apply(board, player, r, c)
        history.append((r, c))
        player = 1 - player
    return board, player, history


def random_board(n: int, rng: random.Random, fill: float) -> Board:
    """An arbitrary (usually unreachable) board: each cell black, white or empty at random."""
    b = [[EMPTY] * n for _ in range(n)]
    for r in range(n):
        for c in range(n):
            x = rng.random()
            if x < fill / 2:
                b[r][c] = BLACK
            elif x < fill:
                b[r][c] = WHITE
    return b
