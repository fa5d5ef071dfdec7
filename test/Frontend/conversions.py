import triton
import triton.language as tl


@triton.jit
def k_to(h_ptr, f_ptr, i_ptr, d_ptr, b_ptr):
    offs = tl.arange(0, 16)
    h = tl.load(h_ptr + offs)
    f = tl.load(f_ptr + offs)
    i = tl.load(i_ptr + offs)
    tl.store(f_ptr + offs, h.to(tl.float32))
    tl.store(h_ptr + offs, f.to(tl.float16))
    tl.store(f_ptr + offs, i.to(tl.float32))
    tl.store(i_ptr + offs, f.to(tl.int32))
    tl.store(d_ptr + offs, i.to(tl.int64))
    tl.store(b_ptr + offs, i.to(tl.int8))
    tl.store(i_ptr + offs, f.to(tl.int32, bitcast=True))
    tl.store(f_ptr + offs, (i > 0).to(tl.float32))
    tl.store(f_ptr + offs, tl.cast(h, tl.float32))


@triton.jit
def k_dtype_shape(out_ptr, x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.static_assert(x.dtype == tl.float16)
    tl.static_assert(x.shape[0] == BLOCK)
    tl.static_assert(len(x.shape) == 1)
    y = tl.zeros(x.shape, dtype=x.dtype)
    if x.dtype == tl.float32:
        y = tl.undefined_here(x)
    if x.dtype.is_floating():
        y = y + 1
    tl.store(out_ptr + offs, (x + y).to(tl.float32))
