#@file pkg/kern.py
"""The kernel inside its package: the first file named is the kernel when
nothing comes before it."""
import triton
import triton.language as tl

from .helpers import shift, OFFSET
from . import consts
from .. import sibling
import ns.sub.m as nm
from ns.sub import m as nm2


@triton.jit
def k_in_package(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    y = shift(x) + OFFSET + consts.K + nm.inc(x) + nm2.inc(x) + nm.STEP
    tl.store(x_ptr + offs, y, mask=offs < n)
#@file pkg/__init__.py
#@file pkg/helpers.py
import triton

from .consts import K as OFFSET


@triton.jit
def shift(x):
    return x + OFFSET
#@file pkg/consts.py
import triton.language as tl

K: tl.constexpr = 4
#@file ns/sub/m.py
import triton

STEP = 2


@triton.jit
def inc(x):
    return x + STEP
