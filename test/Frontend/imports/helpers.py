"""A helper module next to the kernel file (found first on the import path)."""
import triton
import triton.language as tl

SCALE: tl.constexpr = 3


@triton.jit
def pid64(axis: tl.constexpr):
    return tl.program_id(axis).to(tl.int64)


@triton.jit
def scaled(x):
    # A name of this module (SCALE), not the caller's.
    return x * SCALE
