import triton
import triton.language as tl


@triton.jit
def k_join(x_ptr, o_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    j = tl.join(x, 2.0 * x)
    tl.store(o_ptr + offs[:, None] * 2 + tl.arange(0, 2)[None, :], j)


@triton.jit
def k_split(x_ptr, o_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, 2 * BLOCK)
    x = tl.reshape(tl.load(x_ptr + offs), (BLOCK, 2))
    a, b = tl.split(x)
    tl.store(o_ptr + tl.arange(0, BLOCK), a - b)


@triton.jit
def k_interleave(x_ptr, o_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(o_ptr + tl.arange(0, 2 * BLOCK), tl.interleave(x, x + 1))


@triton.jit
def k_split_odd(x_ptr, o_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    a, b = tl.split(x)
    tl.store(o_ptr, a)


@triton.jit
def k_join_dtypes(x_ptr, o_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    j = tl.join(x, x.to(tl.float16))
    tl.store(o_ptr, j)
