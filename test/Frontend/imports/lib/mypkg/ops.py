import triton
import triton.language as tl

from .sub.math import add_one as inc

BLOCK_DEFAULT = 128


@triton.jit
def twice(x):
    return inc(x + x) - 1
