"""Compiled HexThello kernels (numba, ``cache=True``): move generation, make/unmake, evaluations, searches.

A position is an ``int8`` array of 17 x 17 = 289 cells: the course's 15x15 array with a one-cell wall around
it, so a step in any of the six directions from a board cell stays inside the array and stops at a wall.
Cell values: 0 empty, 1 black, 2 white, 3 wall/off the hexagon.  Padded index ``p = (i+1)*17 + (j+1)``.
Directions (-1,0) (-1,+1) (0,-1) (0,+1) (+1,-1) (+1,0) are the offsets -17, -16, -1, +1, +16, +17.
"""

from __future__ import annotations

import numpy as np
from numba import njit

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


def to_padded(black: int, white: int) -> np.ndarray:
    """The kernel board of two 225-cell bitboards (``plies.games.hexthello`` numbering)."""
    board = np.full(N, WALL, dtype=np.int8)
    for i, j in ON_BOARD:
        k = i * SIZE + j
        board[(i + 1) * W + j + 1] = BLACK if black >> k & 1 else WHITE if white >> k & 1 else EMPTY
    return board


def to_move_index(p: int) -> int:
    """Padded index -> ``i * 15 + j``."""
    i, j = divmod(p, W)
    return (i - 1) * SIZE + (j - 1)


def from_move_index(m: int) -> int:
    i, j = divmod(m, SIZE)
    return (i + 1) * W + j + 1


# --- rules ------------------------------------------------------------------------------------------------


@njit(cache=True)
def is_legal(board, p, me):  # type: ignore[no-untyped-def]
    if board[p] != EMPTY:
        return False
    op = 3 - me
    for d in range(6):
        off = OFFSETS[d]
        q = p + off
        if board[q] != op:
            continue
        q += off
        while board[q] == op:
            q += off
        if board[q] == me:
            return True
    return False


@njit(cache=True)
def gen_moves(board, me, out):  # type: ignore[no-untyped-def]
    """Write the legal cells of ``me`` (row-major) into ``out``; return how many."""
    n = 0
    for k in range(CELLS.shape[0]):
        p = CELLS[k]
        if is_legal(board, p, me):
            out[n] = p
            n += 1
    return n


@njit(cache=True)
def count_moves(board, me):  # type: ignore[no-untyped-def]
    n = 0
    for k in range(CELLS.shape[0]):
        if is_legal(board, CELLS[k], me):
            n += 1
    return n


@njit(cache=True)
def do_move(board, p, me, stack, sp):  # type: ignore[no-untyped-def]
    """Place ``me`` on ``p`` and flip; the flipped cells go on ``stack`` from ``sp``; return the new ``sp``."""
    op = 3 - me
    board[p] = me
    for d in range(6):
        off = OFFSETS[d]
        q = p + off
        while board[q] == op:
            q += off
        if board[q] == me:
            q -= off
            while q != p:
                board[q] = me
                stack[sp] = q
                sp += 1
                q -= off
    return sp


@njit(cache=True)
def undo_move(board, p, me, stack, sp_before, sp_after):  # type: ignore[no-untyped-def]
    op = 3 - me
    board[p] = EMPTY
    for k in range(sp_before, sp_after):
        board[stack[k]] = op


@njit(cache=True)
def disc_diff(board, me):  # type: ignore[no-untyped-def]
    op = 3 - me
    d = 0
    for k in range(CELLS.shape[0]):
        v = board[CELLS[k]]
        if v == me:
            d += 1
        elif v == op:
            d -= 1
    return d


@njit(cache=True)
def empties(board):  # type: ignore[no-untyped-def]
    n = 0
    for k in range(CELLS.shape[0]):
        if board[CELLS[k]] == EMPTY:
            n += 1
    return n


@njit(cache=True)
def perft(board, me, depth, passed, stack, sp):  # type: ignore[no-untyped-def]
    """Leaves ``depth`` plies below (a forced pass is a ply, a finished game one leaf)."""
    if depth == 0:
        return 1
    moves = np.empty(128, dtype=np.int64)
    n = gen_moves(board, me, moves)
    if n == 0:
        if passed or count_moves(board, 3 - me) == 0:
            return 1
        return perft(board, 3 - me, depth - 1, depth > 0, stack, sp)
    if depth == 1:
        return n
    total = 0
    for k in range(n):
        p = moves[k]
        sp2 = do_move(board, p, me, stack, sp)
        total += perft(board, 3 - me, depth - 1, depth < 0, stack, sp2)
        undo_move(board, p, me, stack, sp, sp2)
    return total


# --- evaluations --------------------------------------------------------------------------------------------


@njit(cache=True)
def eval_doc004(board, me):  # type: ignore[no-untyped-def]
    """Document 004: 10 * discs + 5 * mobility + 3 * stability table, from ``me``'s view."""
    op = 3 - me
    d = 0
    s = 0
    for k in range(CELLS.shape[0]):
        p = CELLS[k]
        v = board[p]
        if v == me:
            d += 1
            s += DOC004_TABLE[p]
        elif v == op:
            d -= 1
            s -= DOC004_TABLE[p]
    mob = count_moves(board, me) - count_moves(board, op)
    return 10 * d + 5 * mob + 3 * s


@njit(cache=True)
def eval_engine(board, me):  # type: ignore[no-untyped-def]
    """The engine's evaluation, in one pass over the board: square weights, mobility of both sides,
    potential mobility (empty cells beside the opponent's discs), a guard against being wiped out, and in the
    late game more and more the disc count."""
    op = 3 - me
    d = 0
    s = 0
    mine = 0
    theirs = 0
    mob_me = 0
    mob_op = 0
    pot_me = 0
    pot_op = 0
    n_empty = 0
    for k in range(CELLS.shape[0]):
        p = CELLS[k]
        v = board[p]
        if v == me:
            mine += 1
            s += ENGINE_TABLE[p]
            continue
        if v == op:
            theirs += 1
            s -= ENGINE_TABLE[p]
            continue
        n_empty += 1
        legal_me = False
        legal_op = False
        for dd in range(6):
            off = OFFSETS[dd]
            q = p + off
            c = board[q]
            if c != me and c != op:
                continue
            if c == op:
                pot_me += 1
            else:
                pot_op += 1
            if (c == op and legal_me) or (c == me and legal_op):
                continue
            q += off
            while board[q] == c:
                q += off
            if board[q] == 3 - c:
                if c == op:
                    legal_me = True
                else:
                    legal_op = True
        if legal_me:
            mob_me += 1
        if legal_op:
            mob_op += 1
    d = mine - theirs
    if mob_me == 0 and mob_op == 0:  # the game is over: the exact result
        return WIN + d if d > 0 else (-WIN + d if d < 0 else 0)
    late = 0 if n_empty > 40 else (40 - n_empty)
    value = 4 * s + 12 * (mob_me - mob_op) + 2 * (pot_me - pot_op) + 2 * d + (late * d) // 4
    if mine < 10:  # few discs keep the opponent's mobility low, but on the hexagon a wipe-out comes fast
        value -= 40 * (10 - mine) * (10 - mine)
    if theirs < 10:
        value += 40 * (10 - theirs) * (10 - theirs)
    return value


@njit(cache=True)
def _few_discs(board):  # type: ignore[no-untyped-def]
    """True when either side has three discs or fewer."""
    b = 0
    w = 0
    for k in range(CELLS.shape[0]):
        v = board[CELLS[k]]
        if v == BLACK:
            b += 1
        elif v == WHITE:
            w += 1
    return b <= 3 or w <= 3


# --- searches -----------------------------------------------------------------------------------------------


@njit(cache=True)
def doc004_search(board, me, depth, alpha, beta, root, prune, stack, sp, counter):  # type: ignore[no-untyped-def]
    """Document 004's minimax with alpha-beta (``prune`` off = plain minimax), value from ``root``'s view.

    Moves in the course's row-major scan order; a finished game or depth 0 is scored by ``eval_doc004``; a
    side without a move passes (one ply).
    """
    counter[0] += 1
    op = 3 - me
    if depth == 0:
        return eval_doc004(board, root)
    moves = np.empty(128, dtype=np.int64)
    n = gen_moves(board, me, moves)
    if n == 0:
        if count_moves(board, op) == 0:
            return eval_doc004(board, root)
        return doc004_search(board, op, depth - 1, alpha, beta, root, prune, stack, sp, counter)
    if me == root:
        best = -INF
        for k in range(n):
            p = moves[k]
            sp2 = do_move(board, p, me, stack, sp)
            v = doc004_search(board, op, depth - 1, alpha, beta, root, prune, stack, sp2, counter)
            undo_move(board, p, me, stack, sp, sp2)
            if v > best:
                best = v
            if best > alpha:
                alpha = best
            if prune and beta <= alpha:
                break
        return best
    best = INF
    for k in range(n):
        p = moves[k]
        sp2 = do_move(board, p, me, stack, sp)
        v = doc004_search(board, op, depth - 1, alpha, beta, root, prune, stack, sp2, counter)
        undo_move(board, p, me, stack, sp, sp2)
        if v < best:
            best = v
        if best < beta:
            beta = best
        if prune and beta <= alpha:
            break
    return best


@njit(cache=True)
def doc004_root(board, me, depth, prune):  # type: ignore[no-untyped-def]
    """Document 004's playMinmax: every root move searched with a full window, the last best one kept
    (``>=``).  Returns (padded cell or -1 for a pass, value, nodes)."""
    stack = np.empty(4096, dtype=np.int64)
    counter = np.zeros(1, dtype=np.int64)
    moves = np.empty(128, dtype=np.int64)
    n = gen_moves(board, me, moves)
    if n == 0:
        return -1, 0, 1
    best_v = np.int64(-INF)
    lo = np.int64(-INF)
    hi = np.int64(INF)
    best_p = moves[0]
    for k in range(n):
        p = moves[k]
        sp2 = do_move(board, p, me, stack, 0)
        v = doc004_search(board, 3 - me, depth - 1, lo, hi, me, prune, stack, sp2, counter)
        undo_move(board, p, me, stack, 0, sp2)
        if v >= best_v:
            best_v = v
            best_p = p
    return best_p, best_v, counter[0]


@njit(cache=True)
def board_hash(board, me):  # type: ignore[no-untyped-def]
    h = np.int64(0)
    for k in range(CELLS.shape[0]):
        p = CELLS[k]
        h ^= ZOBRIST[p, board[p]]
    if me == WHITE:
        h ^= ZOBRIST_SIDE
    return h


TT_BITS = 20
TT_SIZE = 1 << TT_BITS
EXACT, LOWER, UPPER = 0, 1, 2


def new_tables() -> tuple[np.ndarray, ...]:
    """Transposition table (key, value, depth, flag, move) and history table."""
    return (np.zeros(TT_SIZE, dtype=np.int64), np.zeros(TT_SIZE, dtype=np.int32), np.full(TT_SIZE, -1, np.int16),
            np.zeros(TT_SIZE, dtype=np.int8), np.full(TT_SIZE, -1, np.int16), np.zeros((3, N), dtype=np.int64))


@njit(cache=True)
def _order(board, me, moves, n, tt_move, history):  # type: ignore[no-untyped-def]
    """Sort moves: the table move first, then by square weight plus history (insertion sort, small n)."""
    keys = np.empty(n, dtype=np.int64)
    for k in range(n):
        p = moves[k]
        keys[k] = ENGINE_TABLE[p] * 1000 + history[me, p]
        if p == tt_move:
            keys[k] = 1 << 60
    for a in range(1, n):
        kp = keys[a]
        mp = moves[a]
        b = a - 1
        while b >= 0 and keys[b] < kp:
            keys[b + 1] = keys[b]
            moves[b + 1] = moves[b]
            b -= 1
        keys[b + 1] = kp
        moves[b + 1] = mp


@njit(cache=True)
def negamax(board, me, depth, alpha, beta, h, passed, stack, sp, tt_key, tt_val, tt_depth, tt_flag, tt_move,
            history, counter, limit):  # type: ignore[no-untyped-def]
    """Principal-variation alpha-beta (negamax form) with a transposition table, from ``me``'s view.

    ``counter[0]`` counts nodes; past ``limit`` nodes ``counter[1]`` is set and the search unwinds (the
    caller then ignores the result)."""
    counter[0] += 1
    if counter[0] > limit:
        counter[1] = 1
        return 0
    op = 3 - me
    slot = h & (TT_SIZE - 1)
    best_move = -1
    if tt_key[slot] == h:
        best_move = tt_move[slot]
        if tt_depth[slot] >= depth:
            v = tt_val[slot]
            f = tt_flag[slot]
            if f == EXACT:
                return v
            if f == LOWER and v >= beta:
                return v
            if f == UPPER and v <= alpha:
                return v
    if depth <= 0 and (depth <= -4 or not _few_discs(board)):
        return eval_engine(board, me)  # (exact when the game is over)
    moves = np.empty(128, dtype=np.int64)
    n = gen_moves(board, me, moves)
    if n == 0:
        if passed or count_moves(board, op) == 0:
            dd = disc_diff(board, me)
            return WIN + dd if dd > 0 else (-WIN + dd if dd < 0 else 0)
        return -negamax(board, op, depth, -beta, -alpha, h ^ ZOBRIST_SIDE, counter[0] > 0, stack, sp, tt_key, tt_val,
                        tt_depth, tt_flag, tt_move, history, counter, limit)
    # at depth <= 0 here a side has three discs or fewer: it may be wiped out just past the horizon, so the
    # search looks a little further (down to depth -4)
    _order(board, me, moves, n, best_move, history)
    alpha0 = alpha
    no = counter[0] < 0
    best = np.int64(-INF)
    best_move = moves[0]
    for k in range(n):
        p = moves[k]
        sp2 = do_move(board, p, me, stack, sp)
        h2 = h ^ ZOBRIST_SIDE ^ ZOBRIST[p, EMPTY] ^ ZOBRIST[p, me]
        for q in range(sp, sp2):
            c = stack[q]
            h2 ^= ZOBRIST[c, op] ^ ZOBRIST[c, me]
        if k == 0:
            v = -negamax(board, op, depth - 1, -beta, -alpha, h2, no, stack, sp2, tt_key, tt_val, tt_depth,
                         tt_flag, tt_move, history, counter, limit)
        else:
            v = -negamax(board, op, depth - 1, -alpha - 1, -alpha, h2, no, stack, sp2, tt_key, tt_val,
                         tt_depth, tt_flag, tt_move, history, counter, limit)
            if alpha < v < beta:
                v = -negamax(board, op, depth - 1, -beta, -v, h2, no, stack, sp2, tt_key, tt_val, tt_depth,
                             tt_flag, tt_move, history, counter, limit)
        undo_move(board, p, me, stack, sp, sp2)
        if counter[1]:
            return 0
        if v > best:
            best = v
            best_move = p
        if v > alpha:
            alpha = v
        if alpha >= beta:
            history[me, p] += depth * depth
            break
    flag = EXACT
    if best <= alpha0:
        flag = UPPER
    elif best >= beta:
        flag = LOWER
    if depth >= tt_depth[slot] or tt_key[slot] != h:
        tt_key[slot] = h
        tt_val[slot] = best
        tt_depth[slot] = depth
        tt_flag[slot] = flag
        tt_move[slot] = best_move
    return best


@njit(cache=True)
def root_search(board, me, depth, tt_key, tt_val, tt_depth, tt_flag, tt_move, history, limit, first):  # type: ignore[no-untyped-def]
    """One iteration at ``depth``: returns (best padded cell or -1 to pass, value, nodes, aborted).

    ``first`` (a cell or -1) is searched first: the previous iteration's best move."""
    stack = np.empty(8192, dtype=np.int64)
    counter = np.zeros(2, dtype=np.int64)
    moves = np.empty(128, dtype=np.int64)
    n = gen_moves(board, me, moves)
    if n == 0:
        return -1, 0, 1, False
    op = 3 - me
    h = board_hash(board, me)
    _order(board, me, moves, n, first, history)
    no = n < 0
    alpha = np.int64(-INF)
    beta = np.int64(INF)
    best = np.int64(-INF)
    best_p = moves[0]
    for k in range(n):
        p = moves[k]
        sp2 = do_move(board, p, me, stack, 0)
        h2 = h ^ ZOBRIST_SIDE ^ ZOBRIST[p, EMPTY] ^ ZOBRIST[p, me]
        for q in range(0, sp2):
            c = stack[q]
            h2 ^= ZOBRIST[c, op] ^ ZOBRIST[c, me]
        if k == 0:
            v = -negamax(board, op, depth - 1, -beta, -alpha, h2, no, stack, sp2, tt_key, tt_val, tt_depth,
                         tt_flag, tt_move, history, counter, limit)
        else:
            v = -negamax(board, op, depth - 1, -alpha - 1, -alpha, h2, no, stack, sp2, tt_key, tt_val,
                         tt_depth, tt_flag, tt_move, history, counter, limit)
            if v > alpha:
                v = -negamax(board, op, depth - 1, -beta, -alpha, h2, no, stack, sp2, tt_key, tt_val,
                             tt_depth, tt_flag, tt_move, history, counter, limit)
        undo_move(board, p, me, stack, 0, sp2)
        if counter[1]:
            return best_p, best, counter[0], True
        if v > best:
            best = v
            best_p = p
        if v > alpha:
            alpha = v
    return best_p, best, counter[0], False
