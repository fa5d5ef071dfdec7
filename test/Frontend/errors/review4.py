import triton
import triton.language as tl


@triton.jit
def k_bitcast_ptr_to_int(x_ptr, y_ptr):
    v = x_ptr.to(tl.int64, bitcast=True)
    tl.store(y_ptr, v.to(tl.float32))


@triton.jit
def k_bitcast_int_to_ptr(x_ptr, n):
    p = n.to(x_ptr.dtype, bitcast=True)
    tl.store(p, 1.0)


@triton.jit
def k_cast_bitcast_tile(x_ptr, y_ptr):
    offs = tl.arange(0, 4)
    v = tl.cast(x_ptr + offs, tl.float64, bitcast=True)
    tl.store(y_ptr + offs, v.to(tl.float32))


@triton.jit
def k_bitcast_not_bool(x_ptr):
    v = tl.load(x_ptr)
    tl.store(x_ptr, v.to(tl.int32, bitcast="yes"))


@triton.jit
def k_f64_fp8(x_ptr, y_ptr, n, S: tl.constexpr):
    offs = tl.arange(0, S)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, x.to(y_ptr.dtype.element_ty), mask=offs < n)
