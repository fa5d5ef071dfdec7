import triton
import triton.language as tl


@triton.jit
def k_cmp(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, (x < 3000000000).to(tl.int32))


@triton.jit
def k_i8(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) + 200)


@triton.jit
def k_iv(out, n):
    for i in range(n):
        tl.store(out + i, (i - 1) // 2)


@triton.jit
def k_cumprod(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.cumprod(x, 0))


@triton.jit
def k_sum16(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr, tl.sum(tl.load(x_ptr + offs), 0))


@triton.jit
def k_hist8(x_ptr, out_ptr):
    h = tl.histogram(tl.load(x_ptr + tl.arange(0, 128)), 1024)
    tl.store(out_ptr + tl.arange(0, 1024), h)


@triton.jit
def k_sum_pn(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr, tl.sum(tl.load(x_ptr + offs), 0, propagate_nan=tl.PropagateNan.ALL))


@triton.jit
def k_tb(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr, tl.argmax(x, 0, tie_break_left=x))


@triton.jit
def k_fmask(x_ptr, m_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1, mask=tl.load(m_ptr + offs))


@triton.jit
def k_max16(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr, tl.max(tl.load(x_ptr + offs), 0) * 3.0)
