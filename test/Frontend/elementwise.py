import triton
import triton.language as tl


@triton.jit
def k_elem(out_ptr, x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=-1.0)
    y = tl.where(x > 0, x, 0.0)
    a = tl.maximum(y, 1.0)
    b = tl.minimum(x, 2.0)
    c = tl.maximum(x, y, propagate_nan=True)
    d = tl.minimum(x, y, propagate_nan=True)
    e = tl.exp(a) + tl.log(b) + tl.sqrt(c) + tl.exp2(d) + tl.abs(x)
    f = tl.full((BLOCK,), 3, tl.float32) + tl.zeros((BLOCK,), dtype=tl.float32)
    nblocks = tl.cdiv(1000, BLOCK)
    rt = tl.cdiv(n, BLOCK)
    tl.store(out_ptr + offs, e + f + nblocks + rt, mask=mask)


@triton.jit
def k_int_minmax(out_ptr, x_ptr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.maximum(x, 0) + tl.minimum(x, 7))


@triton.jit
def k_load_no_other(out_ptr, x_ptr, n):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x)


@triton.jit
def k_where_ptrs(out_ptr, x_ptr, n):
    # A pointer tile chosen per element (and a scalar pointer broadcast).
    offs = tl.arange(0, 16)
    src = tl.where(offs < n, x_ptr + offs, x_ptr)
    tl.store(out_ptr + offs, tl.load(src))
