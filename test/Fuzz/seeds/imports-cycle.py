import triton
import triton.language as tl

from a import f
import b


@triton.jit
def k_cycle(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, f(x) + b.g(x) + b.LIMIT)
#@file a.py
"""a and b import each other: fine while no name leads back to itself."""
import triton

from b import g, LIMIT


@triton.jit
def f(x):
    return g(x) + LIMIT
#@file b.py
import triton

import a

LIMIT = 7


@triton.jit
def g(x):
    return x * 2


@triton.jit
def h(x):
    return a.f(x)
