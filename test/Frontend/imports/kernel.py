import triton
import triton.language as tl

import helpers as hx
import mypkg
import mypkg.sub.math
from mypkg import twice
from mypkg.sub import math as m
from helpers import SCALE


@triton.jit
def k_imports(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = hx.pid64(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = twice(x) + hx.scaled(x) + m.add_one(x) + mypkg.sub.math.add_one(x)
    y = y + SCALE + mypkg.BLOCK_DEFAULT + m.block()
    tl.store(y_ptr + offs, y, mask=mask)


@triton.jit
def k_missing_module(x_ptr):
    import_me = 1
    tl.store(x_ptr, mypkg.nothing(1.0))


@triton.jit
def k_error_inside(x_ptr):
    tl.store(x_ptr, m.broken(1.0))
