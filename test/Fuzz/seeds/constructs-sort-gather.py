import triton
import triton.language as tl

import ops


@triton.jit
def k_sort_gather(x_ptr, y_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r[:, None] * BLOCK + r[None, :])
    i = r[:, None] * 3 + r[None, :]
    y = ops.sorted_rows(x) + ops.pick(x, i) + ops.top(x)
    tl.store(y_ptr + r[:, None] * BLOCK + r[None, :], y)
#@file ops.py
import triton
import triton.language as tl


@triton.jit
def sorted_rows(x):
    return tl.sort(x, descending=True) + x.sort()


@triton.jit
def pick(x, i):
    return tl.gather(x, i % x.shape[1], 1) + x.gather(i % x.shape[0], axis=0)


@triton.jit
def top(x):
    return tl.sum(tl.topk(x, 4), axis=1)[:, None]
