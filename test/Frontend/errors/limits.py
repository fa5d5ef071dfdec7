import triton
import triton.language as tl

X = -9223372036854775807 - 1


@triton.jit
def k_div(y):
    tl.store(y, X // -1)


@triton.jit
def k_shl(y):
    tl.store(y, 1 << 100)


@triton.jit
def k_neg_shift(y):
    tl.store(y, 1 << -1)


@triton.jit
def k_huge(x, y):
    o = tl.arange(0, 1 << 21)
    tl.store(y + o, tl.load(x + o))


@triton.jit
def k_tile_through_scalar(x, y):
    tl.store(y, tl.load(x + tl.arange(0, 16)))


@triton.jit
def k_rank0(y):
    z = tl.zeros((), tl.float32)
    tl.store(y, z)


@triton.jit
def k_scalar(y, n):
    tl.store(y, n)
