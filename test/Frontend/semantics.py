import triton
import triton.language as tl


@triton.jit
def k_fdiv(x_ptr, y_ptr, out_ptr):
    i = tl.arange(0, 128)
    x = tl.load(x_ptr + i)
    y = tl.load(y_ptr + i)
    tl.store(out_ptr + i, tl.fdiv(x, y))
    tl.store(out_ptr + 128 + i, tl.fdiv(x, y, ieee_rounding=True))


@triton.jit
def k_fdiv_int(x_ptr, out_ptr):
    i = tl.arange(0, 128)
    tl.store(out_ptr + i, tl.fdiv(tl.load(x_ptr + i), 2))


@triton.jit
def k_nan(x_ptr, out_ptr, idx_ptr):
    i = tl.arange(0, 128)
    x = tl.load(x_ptr + i)
    ALL: tl.constexpr = tl.PropagateNan.ALL
    tl.store(out_ptr + i, tl.maximum(x, 1.0, propagate_nan=ALL))
    tl.store(out_ptr + 128 + i, tl.minimum(x, 1.0, propagate_nan=tl.PropagateNan.NONE))
    tl.store(out_ptr + 256, tl.max(x, 0, propagate_nan=ALL))
    tl.store(idx_ptr, tl.argmax(x, 0))


@triton.jit
def k_nan_bad(x_ptr, out_ptr):
    i = tl.arange(0, 128)
    tl.store(out_ptr + i, tl.maximum(tl.load(x_ptr + i), 1.0, propagate_nan=3))


@triton.jit
def k_atomic_int_mask(p, m_ptr):
    i = tl.arange(0, 128)
    m = tl.load(m_ptr + i)
    tl.atomic_add(p + i, 1, mask=m)


@triton.jit
def k_histogram(x_ptr, out_ptr, n):
    i = tl.arange(0, 1024)
    x = tl.load(x_ptr + i)
    h = tl.histogram(x, 64, mask=i < n)
    tl.store(out_ptr + tl.arange(0, 64), h)


@triton.jit
def k_histogram_float(x_ptr, out_ptr):
    i = tl.arange(0, 1024)
    tl.store(out_ptr + tl.arange(0, 64), tl.histogram(tl.load(x_ptr + i), 64))


@triton.jit
def k_histogram_bins(x_ptr, out_ptr):
    i = tl.arange(0, 1024)
    tl.store(out_ptr + tl.arange(0, 64), tl.histogram(tl.load(x_ptr + i), 48))


@triton.jit
def k_histogram_int_mask(x_ptr, out_ptr):
    i = tl.arange(0, 1024)
    tl.store(out_ptr + tl.arange(0, 64), tl.histogram(tl.load(x_ptr + i), 64, mask=i))
