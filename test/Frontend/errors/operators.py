import triton
import triton.language as tl


@triton.jit
def k_ptr_mul(p):
    tl.store(p * 2, 1.0)


@triton.jit
def k_ptr_float(p):
    tl.store(p + 1.5, 1.0)


@triton.jit
def k_bitwise_float(p):
    x = tl.load(p + tl.arange(0, 16))
    tl.store(p + tl.arange(0, 16), x ^ x)


@triton.jit
def k_pow(p):
    x = tl.arange(0, 16)
    y = x ** 2


@triton.jit
def k_matmul_op(p):
    x = tl.arange(0, 16)
    y = x @ x


@triton.jit
def k_floordiv_float(p):
    x = tl.load(p)
    tl.store(p, x // x)


@triton.jit
def k_fp8(p, q):
    tl.store(p, tl.load(p) + tl.load(q))


@triton.jit
def k_ptr_compare(p):
    tl.store(p, p < p)


@triton.jit
def k_and_int(p, n):
    y = (n > 0) and n


@triton.jit
def k_not_tile(p):
    y = not tl.arange(0, 16)


@triton.jit
def k_exp_int(p):
    tl.store(p + tl.arange(0, 16), tl.exp(tl.arange(0, 16)))


@triton.jit
def k_bitcast_width(p):
    y = tl.load(p).to(tl.int16, bitcast=True)


@triton.jit
def k_where_ptrs(p, q):
    offs = tl.arange(0, 16)
    tl.store(tl.where(offs < 8, p + offs, q + offs), 1.0)


@triton.jit
def k_where_ptr_int(p):
    offs = tl.arange(0, 16)
    tl.store(tl.where(offs < 8, p + offs, offs), 1.0)
