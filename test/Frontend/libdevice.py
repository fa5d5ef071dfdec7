import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.extra.cuda import libdevice as ld2


@triton.jit
def gelu_tanh(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    y = 0.5 * x * (1.0 + libdevice.tanh(inner))
    tl.store(y_ptr + offs, y, mask=m)
    z = ld2.pow(tl.abs(x), 1.5) + libdevice.atan2(x, 2.0) + tl.extra.cuda.libdevice.fma(x, x, 1.0)
    tl.store(z_ptr + offs, z + libdevice.log1p(tl.abs(x)) + libdevice.fmod(x, 0.75) + libdevice.erfc(x), mask=m)


@triton.jit
def bad_type(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), libdevice.tanh(x))


@triton.jit
def bad_name(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), libdevice.frexp(x))


@triton.jit
def bad_arity(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), libdevice.pow(x))
