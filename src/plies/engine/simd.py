"""Flips and move generation with the four line directions in one 4-lane vector (AVX2 where the CPU has it).

The 8 directions of Othello are 4 shifts (1, 8, 9, 7 squares: row, file, diagonal, anti-diagonal), each taken
left and right.  Written as LLVM vector IR (``<4 x i64>``, one lane per shift), the run of opponent discs from
a square is filled in all four lines at once by a parallel prefix (Kogge-Stone) fill, as Edax's AVX2 code does:
about 40 vector instructions where the line-by-line version takes four table look-ups and scatters per line.
On a CPU without AVX2, LLVM lowers the same IR to scalar code: slower, still exact.
"""

# ruff: noqa: E741  (P and O, the discs of the player to move and of the opponent, as in Edax)

from __future__ import annotations

from collections.abc import Callable

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_V4 = ir.VectorType(_I64, 4)
_UNDEF = ir.Constant(_V4, ir.Undefined)
_ZERO = ir.Constant(_V4, [ir.Constant(_I64, 0)] * 4)
# per lane: the opponent discs that can be inside a run (no wrap around the board's edge), the shift, twice it
_INNER = [0x7E7E7E7E7E7E7E7E, 0x00FFFFFFFFFFFF00, 0x007E7E7E7E7E7E00, 0x007E7E7E7E7E7E00]
_SHIFT = [1, 8, 9, 7]


def _vector(values: list[int]) -> ir.Constant:
    return ir.Constant(_V4, [ir.Constant(_I64, v) for v in values])


def _lanes(indices: tuple[int, ...]) -> ir.Constant:
    return ir.Constant(ir.VectorType(_I32, 4), [ir.Constant(_I32, k) for k in indices])


def _splat(builder: ir.IRBuilder, value: ir.Value) -> ir.Value:
    v = builder.insert_element(_UNDEF, value, ir.Constant(_I32, 0))
    return builder.shuffle_vector(v, _UNDEF, _lanes((0, 0, 0, 0)))


def _or_lanes(builder: ir.IRBuilder, v: ir.Value) -> ir.Value:
    """The OR of the four lanes, as an i64."""
    v = builder.or_(v, builder.shuffle_vector(v, _UNDEF, _lanes((2, 3, 2, 3))))
    v = builder.or_(v, builder.shuffle_vector(v, _UNDEF, _lanes((1, 1, 1, 1))))
    return builder.extract_element(v, ir.Constant(_I32, 0))


def _fill(builder: ir.IRBuilder, shift: Callable, start: ir.Value, inner: ir.Value) -> ir.Value:
    """Opponent discs (``inner``) reached from ``start`` by runs of up to 6 steps, each lane in its direction:
    two single steps, then two double steps over pairs of opponent discs."""
    s1, s2 = _vector(_SHIFT), _vector([2 * s for s in _SHIFT])
    run = builder.and_(inner, shift(start, s1))
    run = builder.or_(run, builder.and_(inner, shift(run, s1)))
    pairs = builder.and_(inner, shift(inner, s1))
    run = builder.or_(run, builder.and_(pairs, shift(run, s2)))
    return builder.or_(run, builder.and_(pairs, shift(run, s2)))


@intrinsic
def flips_vec(typingctx, P, O, sq):  # type: ignore[no-untyped-def]
    """Opponent discs turned over by a disc of ``P`` on empty square ``sq`` (0: the move is illegal)."""
    if not all(isinstance(a, types.Integer) for a in (P, O, sq)):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        P, O, sq = args
        move, own = _splat(builder, builder.shl(ir.Constant(_I64, 1), sq)), _splat(builder, P)
        inner = builder.and_(_splat(builder, O), _vector(_INNER))
        s1 = _vector(_SHIFT)
        out = _ZERO
        for shift in (builder.shl, builder.lshr):
            run = _fill(builder, shift, move, inner)
            closed = builder.icmp_unsigned("!=", builder.and_(shift(run, s1), own), _ZERO)  # ends on an own disc
            out = builder.or_(out, builder.select(closed, run, _ZERO))
        return _or_lanes(builder, out)

    return types.uint64(types.uint64, types.uint64, types.int64), codegen


@intrinsic
def moves_vec(typingctx, P, O):  # type: ignore[no-untyped-def]
    """Bitmask of the legal moves of the side owning ``P``: empty squares one step past a run of opponent discs
    that starts next to an own disc."""
    if not all(isinstance(a, types.Integer) for a in (P, O)):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        P, O = args
        own = _splat(builder, P)
        inner = builder.and_(_splat(builder, O), _vector(_INNER))
        s1 = _vector(_SHIFT)
        out = _ZERO
        for shift in (builder.shl, builder.lshr):
            out = builder.or_(out, shift(_fill(builder, shift, own, inner), s1))
        empty = builder.xor(builder.or_(P, O), ir.Constant(_I64, -1))
        return builder.and_(_or_lanes(builder, out), empty)

    return types.uint64(types.uint64, types.uint64), codegen
