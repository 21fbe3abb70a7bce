"""int64 slots read and written through an address (``array.ctypes.data``), for the hottest recursions.

numba pays an atomic reference-count pair for every call that passes an array (about a tenth of a leaf's time
in the endgame solver), none for a plain integer: so the node counter and the move lists of the solver's
lower layers travel as addresses.  The caller keeps the array alive for the whole search.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

_I64 = ir.IntType(64)


def _slot(builder, address, index):  # type: ignore[no-untyped-def]
    return builder.gep(builder.inttoptr(address, ir.PointerType(_I64)), [index])


@intrinsic
def load_at(typingctx, address, index):  # type: ignore[no-untyped-def]
    """``((int64 *) address)[index]``."""
    if not (isinstance(address, types.Integer) and isinstance(index, types.Integer)):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.load(_slot(builder, *args))

    return types.int64(types.intp, types.intp), codegen


@intrinsic
def store_at(typingctx, address, index, value):  # type: ignore[no-untyped-def]
    """``((int64 *) address)[index] = value`` (a uint64 is stored as its bits)."""
    if not all(isinstance(t, types.Integer) for t in (address, index, value)):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        address, index, value = args
        builder.store(value, _slot(builder, address, index))
        return context.get_dummy_value()

    return types.void(types.intp, types.intp, types.int64), codegen


@intrinsic
def add_at(typingctx, address, index, amount):  # type: ignore[no-untyped-def]
    """``((int64 *) address)[index] += amount`` (a counter)."""
    if not all(isinstance(t, types.Integer) for t in (address, index, amount)):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        address, index, amount = args
        slot = _slot(builder, address, index)
        builder.store(builder.add(builder.load(slot), amount), slot)
        return context.get_dummy_value()

    return types.void(types.intp, types.intp, types.int64), codegen
