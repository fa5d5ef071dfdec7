import triton
import triton.language as tl


@triton.jit
def k_float_index(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.gather(x, x, 0)


@triton.jit
def k_bool_index(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.gather(x, x > 0, 0)


@triton.jit
def k_rank(p):
    x = tl.load(p + tl.arange(0, 16)[:, None] + tl.arange(0, 16)[None, :])
    y = tl.gather(x, tl.arange(0, 16), 0)


@triton.jit
def k_axis(p):
    x = tl.load(p + tl.arange(0, 16)[:, None] + tl.arange(0, 16)[None, :])
    i = tl.zeros((16, 16), tl.int32)
    y = tl.gather(x, i, 2)


@triton.jit
def k_runtime_axis(p, a):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.gather(x, tl.arange(0, 16), a)


@triton.jit
def k_other_dim(p):
    x = tl.load(p + tl.arange(0, 16)[:, None] + tl.arange(0, 16)[None, :])
    i = tl.zeros((8, 32), tl.int32)
    y = x.gather(i, 1)


@triton.jit
def k_scalar(p):
    x = tl.load(p)
    y = tl.gather(x, tl.arange(0, 16), 0)


@triton.jit
def k_missing_axis(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.gather(x, tl.arange(0, 16))
