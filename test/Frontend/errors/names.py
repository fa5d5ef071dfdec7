import numpy as np
import triton
import triton.language as tl

LOOP = LOOP + 1


@triton.jit
def k_undefined(p):
    tl.store(p, y)


@triton.jit
def k_selfref(p):
    tl.store(p, LOOP)


@triton.jit
def k_tl_unknown(p):
    tl.foo(p)


@triton.jit
def k_numpy(p):
    x = np.sum(p)


@triton.jit
def k_call_int(p):
    x = 3
    x(1)


@triton.jit
def k_bigint(p):
    tl.store(p, 123456789012345678901234567890)


@triton.jit
def helper(x):
    return x
