"""Bit tricks on int64 masks, as numba intrinsics (LLVM ctpop/cttz/ctlz).

Masks are int64 rather than uint64 so that numba never unifies a mask with a
signed index into float64; bit 63 is simply the sign bit.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

import csp._numba_cache  # noqa: F401  (compiled into the kernels: part of their cache stamp)

_FALSE = ir.Constant(ir.IntType(1), 0)


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of an int64."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lowest(typingctx, x):
    """The index of the lowest set bit (64 for 0)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], _FALSE)

    return sig, codegen


@intrinsic
def highest(typingctx, x):
    """The index of the highest set bit (-1 for 0)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        zeros = builder.ctlz(args[0], _FALSE)
        return builder.sub(ir.Constant(ir.IntType(64), 63), zeros)

    return sig, codegen
