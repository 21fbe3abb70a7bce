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


def _cube(i: int, j: int) -> tuple[int, int, int]:
    """Cube coordinates of array cell (i, j), centred on (7, 7)."""
    x, z = j - 7, i - 7
    return x, -x - z, z


def _cell(x: int, y: int, z: int) -> int:
    return (z + 7 + 1) * W + x + 7 + 1


def _symmetries(c: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """The 12 images of cube coordinates c under the hexagon's rotations and reflections."""
    out = []
    x, y, z = c
    for _ in range(6):
        x, y, z = -z, -x, -y
        out += [(x, y, z), (x, z, y)]
    return out


def _classes() -> np.ndarray:
    """The class of each padded cell for the learned evaluation: cells one symmetry of the hexagon maps onto
    each other share a class, numbered from the centre out (0 off the board)."""
    cls = np.zeros(N, dtype=np.int64)
    orbits: dict[tuple[int, int, int], int] = {}
    for i, j in sorted(ON_BOARD, key=lambda c: (max(map(abs, _cube(*c))), c)):
        key = min(_symmetries(_cube(i, j)))
        cls[(i + 1) * W + j + 1] = orbits.setdefault(key, len(orbits))
    return cls


CLASSES = _classes()
N_CLASSES = int(CLASSES.max()) + 1
CORNERS_CUBE = [(7, -7, 0), (7, 0, -7), (0, 7, -7), (-7, 7, 0), (-7, 0, 7), (0, -7, 7)]
"""The six corners in order around the hexagon."""


def _edges() -> np.ndarray:
    """The six edge lines (6 x 10 padded cells): the inner cell beside a corner, the edge's 8 cells from that
    corner to the next one, the inner cell beside that one.  Read backwards a line is the same line (a
    reflection of the hexagon)."""
    out = []
    for e in range(6):
        a, b = CORNERS_CUBE[e], CORNERS_CUBE[(e + 1) % 6]
        line = [tuple(a[t] + (b[t] - a[t]) * s // 7 for t in range(3)) for s in range(8)]
        xa = tuple(v * 6 // 7 for v in a)
        xb = tuple(v * 6 // 7 for v in b)
        out.append([_cell(*xa)] + [_cell(*c) for c in line] + [_cell(*xb)])
    return np.array(out, dtype=np.int64)


EDGES = _edges()

lib.hex_init(CELLS, DOC004_TABLE, ENGINE_TABLE, np.ascontiguousarray(ZOBRIST), int(ZOBRIST_SIDE), CLASSES,
             np.ascontiguousarray(EDGES))

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


# --- rules and evaluations ------------------------------------------------------------------------------------


def gen_moves(board: np.ndarray, me: int) -> list[int]:
    """The legal cells of ``me`` (padded indices, row-major)."""
    return lib.hex_gen_moves(board, me)


def perft(board: np.ndarray, me: int, depth: int) -> int:
    """Leaves ``depth`` plies below (a forced pass is a ply, a finished game one leaf)."""
    return lib.hex_perft(board, me, depth)


def eval_doc004(board: np.ndarray, me: int) -> int:
    """Document 004: 10 * discs + 5 * mobility + 3 * stability table, from ``me``'s view."""
    return lib.hex_evaluate(board, me, 0, None)


def eval_engine(board: np.ndarray, me: int) -> int:
    """The engine's classic evaluation: square weights, mobility of both sides, potential mobility, a guard
    against being wiped out, and in the late game more and more the disc count (a finished game: the exact
    result)."""
    return lib.hex_evaluate(board, me, 1, None)


PHASES = 12
PHASE_WIDTH = 14
"""The learned evaluation's phases: phase = empties // PHASE_WIDTH (at most PHASES - 1)."""
EVAL_SCALE = 16
"""Units of the learned evaluation per disc."""
DENSE = ("bias", "mobility", "opponent mobility", "potential mobility", "opponent potential mobility", "parity",
         "wipe-out guard", "opponent wipe-out guard")
MAX_CLASSES = 32
N_FEAT = len(DENSE) + 2 * MAX_CLASSES
"""Dense features, then my discs per cell class (MAX_CLASSES slots), then the opponent's."""
GUARD = 40
"""Units the evaluations add per unit of the opponent's wipe-out guard minus their own (fixed, not fitted; see
``wipeout_guard``)."""
GUARD_DISCS = 10
"""A side's wipe-out guard is ``max(0, GUARD_DISCS - discs)**2``."""
EDGE_LEN = 10
EDGE_CONFIGS = 3**EDGE_LEN
ROW = N_FEAT + EDGE_CONFIGS
"""One phase's int32 weights: the N_FEAT features, then the edge lines' table (3^10 configurations: digit k of
cell k of a line, 0 empty or hole, 1 mine, 2 the opponent's)."""


def eval_learned(board: np.ndarray, me: int, weights: np.ndarray) -> int:
    """The engine's learned evaluation (``weights``: int32 (PHASES, ROW), see ``plies.hexsearch.learned``), in
    1/EVAL_SCALE discs from ``me``'s view (a finished game: the exact result)."""
    return lib.hex_evaluate(board, me, 2, weights)


def features(boards: np.ndarray, mes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The learned evaluation's features of n positions (``boards`` int8 (n, 289), ``mes`` the side to move of
    each): (phase (n,), features (n, N_FEAT), edge configurations (n, 6), over (n,): 0 while the game is on,
    else 201 + the side to move's disc difference).  The value is ``features @ w[phase, :N_FEAT]`` plus
    ``w[phase, N_FEAT + edge]`` summed over the six lines plus ``wipeout_guard(board, me)``."""
    boards = np.ascontiguousarray(boards, dtype=np.int8)
    mes = np.ascontiguousarray(mes, dtype=np.int8)
    n = len(mes)
    phase = np.zeros(n, dtype=np.int32)
    feat = np.zeros((n, N_FEAT), dtype=np.int32)
    edge = np.zeros((n, 6), dtype=np.int32)
    over = np.zeros(n, dtype=np.int64)
    lib.hex_features(boards, mes, phase, feat, edge, over)
    return phase, feat, edge, over


def wipeout_guard(board: np.ndarray, me: int) -> int:
    """The fixed wipe-out guard both evaluations add, from ``me``'s view (``me`` to move): ``GUARD`` units per
    unit of the opponent's ``max(0, GUARD_DISCS - discs)**2`` minus ``me``'s own, the opponent's discs counted
    after ``me``'s greediest move (the most discs one move flips), ``me``'s as they are.

    Counted so, both guards measure a side just after the other side's capture, wherever the search's horizon
    falls: against a greedy opponent a side that keeps only a handful of discs after each capture is wiped out
    within a few plies, while the fitted evaluation (self-play games, which hardly hold a wipe-out) rates its
    mobility highly."""
    return lib.hex_guard(board, me)


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
CLASSIC, LEARNED = 0, 1
"""The engine's evaluations (``eval_id``)."""
STOP = 1
"""The index of the stop flag in a search's control words."""


def new_tables(bits: int = TT_BITS) -> tuple[np.ndarray, ...]:
    """Transposition table (key, value, depth, flag, move) of ``2**bits`` entries and history table."""
    size = 1 << bits
    return (np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int32), np.full(size, -1, np.int16),
            np.zeros(size, dtype=np.int8), np.full(size, -1, np.int16), np.zeros((3, N), dtype=np.int64))


def root_search(board: np.ndarray, me: int, depth: int, tt_key: np.ndarray, tt_val: np.ndarray,
                tt_depth: np.ndarray, tt_flag: np.ndarray, tt_move: np.ndarray, history: np.ndarray, limit: int,
                first: int, ctl: np.ndarray | None = None, eval_id: int = CLASSIC, weights: np.ndarray | None = None,
                threads: int = 1) -> tuple[int, int, int, bool]:
    """One iteration of the PVS engine at ``depth``: (best padded cell or -1 to pass, value, nodes, aborted).

    Past ``limit`` nodes (of the calling thread) or once ``ctl[STOP]`` is set (``ctl``: int64 control words,
    settable from another thread) the search stops (``aborted``; the caller then ignores the result).
    ``first`` (a cell or -1) is searched first: the previous iteration's best move.  ``eval_id`` is
    ``CLASSIC`` or ``LEARNED`` (then ``weights``, int32 (PHASES, ROW)).  ``threads`` > 1 searches in parallel
    (the same value; the nodes of all threads).  The tables are updated in place."""
    if ctl is None:
        ctl = np.zeros(4, dtype=np.int64)
    return lib.hex_root_search(board, me, depth, tt_key, tt_val, tt_depth, tt_flag, tt_move, history, limit, first,
                               ctl, eval_id, weights, threads)
