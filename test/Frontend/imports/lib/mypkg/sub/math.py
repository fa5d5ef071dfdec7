import triton
import triton.language as tl
from ..ops import BLOCK_DEFAULT as B


@triton.jit
def add_one(x):
    return x + 1


@triton.jit
def block():
    return B


@triton.jit
def broken(x):
    return x + undefined_name
