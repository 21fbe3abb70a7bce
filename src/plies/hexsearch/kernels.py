"""HexThello kernels, compiled in C (``src/plies/csrc/hexthello.c``, called through ``plies.core.lib``): move
generation, make/unmake, evaluations, searches.  This module builds the kernels' tables and hands them over
once, at import, and wraps the compiled functions.

A position is an ``int8`` array of 17 x 17 = 289 cells: the course's 15x15 array with a one-cell wall around
it, so a step in any of the six directions from a board cell stays inside the array and stops at a wall.
Cell values: 0 empty, 1 black, 2 white, 3 wall/off the hexagon.  Padded index ``p = (i+1)*17 + (j+1)``.
Directions (-1,0) (-1,+1) (0,-1) (0,+1) (+1,-1) (+1,0) are the offsets -17, -16, -1, +1, +16, +17.
"""

from __future__ import annotations

import numpy as np

from plies.core import lib
from plies.games.hexthello import ON_BOARD, SIZE
from plies.heuristics.hexthello import stability_table

W = SIZE + 2
N = W * W
EMPTY, BLACK, WHITE, WALL = 0, 1, 2, 3
OFFSETS = np.array([-W, -W + 1, -1, 1, W - 1, W], dtype=np.int64)
CELLS = np.array([(i + 1) * W + j + 1 for i, j in ON_BOARD], dtype=np.int64)
"""The 169 board cells in row-major order (the order the course's clients scan them)."""

WIN = 1_000_000
INF = 2_000_000_000

_table = stability_table()
DOC004_TABLE = np.zeros(N, dtype=np.int64)
for _i, _j in ON_BOARD:
    DOC004_TABLE[(_i + 1) * W + _j + 1] = _table[_i * SIZE + _j]

CORNER_CELLS = np.array([(i + 1) * W + j + 1 for i, j in ((0, 7), (0, 14), (7, 0), (7, 14), (14, 0), (14, 7))],
                        dtype=np.int64)

# The engine's own square weights: document 004's table, with the corners raised (they can never flip).
ENGINE_TABLE = DOC004_TABLE.copy()
ENGINE_TABLE[CORNER_CELLS] = 30

_rng = np.random.default_rng(20240208)
ZOBRIST = _rng.integers(1, 2**63 - 1, size=(N, 3), dtype=np.int64)
ZOBRIST_SIDE = np.int64(_rng.integers(1, 2**63 - 1))

lib.hex_init(CELLS, DOC004_TABLE, ENGINE_TABLE, np.ascontiguousarray(ZOBRIST), int(ZOBRIST_SIDE))

_PADDED = np.array([(i + 1) * W + j + 1 for i in range(SIZE) for j in range(SIZE)], dtype=np.int64)
_ON = np.zeros(SIZE * SIZE, dtype=bool)
for _i, _j in ON_BOARD:
    _ON[_i * SIZE + _j] = True
_BIT_BYTES = (SIZE * SIZE + 7) // 8


def _bits(x: int) -> np.ndarray:
    """The 225 bits of ``x`` (bit k at index k)."""
    return np.unpackbits(np.frombuffer(x.to_bytes(_BIT_BYTES, "little"), dtype=np.uint8),
                         bitorder="little")[:SIZE * SIZE].astype(bool)


def to_padded(black: int, white: int, holes: int = 0) -> np.ndarray:
    """The kernel board of two 225-cell bitboards (``plies.games.hexthello`` numbering); ``holes`` (cells taken
    off the board, the course's ILLEGAL) are walls, like the cells off the hexagon."""
    cells = np.full(SIZE * SIZE, WALL, dtype=np.int8)
    cells[_ON] = EMPTY
    cells[_bits(holes) & _ON] = WALL
    cells[_bits(black) & _ON] = BLACK
    cells[_bits(white) & _ON] = WHITE
    board = np.full(N, WALL, dtype=np.int8)
    board[_PADDED] = cells
    return board


def to_move_index(p: int) -> int:
    """Padded index -> ``i * 15 + j``."""
    i, j = divmod(p, W)
    return (i - 1) * SIZE + (j - 1)


def from_move_index(m: int) -> int:
    i, j = divmod(m, SIZE)
    return (i + 1) * W + j + 1


# --- rules and evaluations ------------------------------------------------------------------------------------


def gen_moves(board: np.ndarray, me: int) -> list[int]:
    """The legal cells of ``me`` (padded indices, row-major)."""
    return lib.hex_gen_moves(board, me)


def perft(board: np.ndarray, me: int, depth: int) -> int:
    """Leaves ``depth`` plies below (a forced pass is a ply, a finished game one leaf)."""
    return lib.hex_perft(board, me, depth)


def eval_doc004(board: np.ndarray, me: int) -> int:
    """Document 004: 10 * discs + 5 * mobility + 3 * stability table, from ``me``'s view."""
    return lib.hex_evaluate(board, me, 0)


def eval_engine(board: np.ndarray, me: int) -> int:
    """The engine's evaluation: square weights, mobility of both sides, potential mobility, a guard against
    being wiped out, and in the late game more and more the disc count (a finished game: the exact result)."""
    return lib.hex_evaluate(board, me, 1)


def board_hash(board: np.ndarray, me: int) -> int:
    """The Zobrist key of the engine's transposition table (a signed 64-bit int)."""
    return lib.hex_board_hash(board, me)


# --- searches -----------------------------------------------------------------------------------------------


def doc004_search(board: np.ndarray, me: int, depth: int, alpha: int, beta: int, root: int,
                  prune: bool) -> tuple[int, int]:
    """Document 004's minimax with alpha-beta (``prune`` off = plain minimax): (value from ``root``'s view,
    nodes).  Moves in the course's row-major scan order; a finished game or depth 0 is scored by
    ``eval_doc004``; a side without a move passes (one ply)."""
    return lib.hex_doc004_search(board, me, depth, alpha, beta, root, prune)


def doc004_root(board: np.ndarray, me: int, depth: int, prune: bool) -> tuple[int, int, int]:
    """Document 004's playMinmax: every root move searched with a full window, the last best one kept
    (``>=``).  Returns (padded cell or -1 for a pass, value, nodes)."""
    return lib.hex_doc004_root(board, me, depth, prune)


TT_BITS = 20
TT_SIZE = 1 << TT_BITS
EXACT, LOWER, UPPER = 0, 1, 2


def new_tables(bits: int = TT_BITS) -> tuple[np.ndarray, ...]:
    """Transposition table (key, value, depth, flag, move) of ``2**bits`` entries and history table."""
    size = 1 << bits
    return (np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int32), np.full(size, -1, np.int16),
            np.zeros(size, dtype=np.int8), np.full(size, -1, np.int16), np.zeros((3, N), dtype=np.int64))


def root_search(board: np.ndarray, me: int, depth: int, tt_key: np.ndarray, tt_val: np.ndarray,
                tt_depth: np.ndarray, tt_flag: np.ndarray, tt_move: np.ndarray, history: np.ndarray, limit: int,
                first: int) -> tuple[int, int, int, bool]:
    """One iteration of the PVS engine at ``depth``: (best padded cell or -1 to pass, value, nodes, aborted).

    Past ``limit`` nodes the search stops (``aborted``; the caller then ignores the result).  ``first`` (a
    cell or -1) is searched first: the previous iteration's best move.  The tables are updated in place."""
    return lib.hex_root_search(board, me, depth, tt_key, tt_val, tt_depth, tt_flag, tt_move, history, limit, first)
