import triton
import triton.language as tl

from helpers import *
from more import *


@triton.jit
def k_star(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, scale(x) + W + clamp01(x), mask=offs < n)
#@file helpers.py
import triton

W = 4
_HIDDEN = 5


@triton.jit
def scale(x):
    return x * W
#@file more.py
import triton
import triton.language as tl

from helpers import *


@triton.jit
def clamp01(x):
    return tl.minimum(tl.maximum(scale(x), 0.0), 1.0)
