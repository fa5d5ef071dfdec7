import triton
import triton.language as tl
from triton.language import core
from triton.language.extra import libdevice
from triton.language.extra.cuda import libdevice as ld2
from triton.language.extra.cuda.libdevice import tanh as cuda_tanh
from triton.language.extra.libdevice import pow as ld_pow
from triton.language import program_id


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
    tl.store(x_ptr + tl.arange(0, 16), libdevice.nextafter(x, x))


@triton.jit
def bad_arity(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), libdevice.pow(x))


@core.extern
def my_tanh(arg0, _semantic=None):
    return core.extern_elementwise("libdevice", "", [arg0], {
        (core.dtype("fp32"),): ("__nv_tanhf", core.dtype("fp32")),
        (core.dtype("fp64"),): ("__nv_tanh", core.dtype("fp64")),
    }, is_pure=True, _semantic=_semantic)


@core.extern
def my_pow(arg0, arg1, _semantic=None):
    return core.extern_elementwise("", "", [arg0, arg1], {(tl.float32, tl.float32): ("__nv_powf", tl.float32)},
                                   True, _semantic=_semantic)


@core.extern
def only_fp32_tanh(arg0, _semantic=None):
    return core.extern_elementwise("libdevice", "", [arg0], {(tl.float32,): ("__nv_tanhf", tl.float32)}, is_pure=True)


@core.extern
def my_func(arg0, _semantic=None):
    return core.extern_elementwise("mylib", "/opt/mylib.bc", [arg0], {(tl.float32,): ("my_func", tl.float32)}, is_pure=True)


@triton.jit
def extern(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, my_tanh(x) + my_pow(x, 2.0), mask=m)


@triton.jit
def extern_nomatch(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    t = only_fp32_tanh(x)


@triton.jit
def extern_symbol(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    t = my_func(x)


@triton.jit
def promote(x_ptr, h_ptr, o_ptr):
    offs = tl.arange(0, 64)
    x = tl.load(x_ptr + offs)
    h = tl.load(h_ptr + offs)
    y = libdevice.fma(x, 2, 3) + libdevice.fma(2, 3, x) + libdevice.fma(x, offs, offs) + libdevice.fma(x, h, 1.0)
    tl.store(o_ptr + offs, y + libdevice.pow(x, arg1=2.0))


@triton.jit
def from_import(x_ptr, o_ptr):
    offs = tl.arange(0, 64) + program_id(0) * 64
    x = tl.load(x_ptr + offs)
    tl.store(o_ptr + offs, cuda_tanh(x) + ld_pow(x, 2.0))


@triton.jit
def atan2_zeros(y):
    # Folded by tilec with IEEE semantics (upstream's folder says NaN).
    tl.store(y, libdevice.atan2(0.0, -0.0))
    tl.store(y + 1, libdevice.atan2(0.0, 0.0))


@core.extern
def dup_key(arg0, _semantic=None):
    # As in Python, the later of two equal keys wins.
    return core.extern_elementwise("", "", [arg0], {(tl.float32,): ("__nv_tanhf", tl.float32),
                                                    (tl.float32,): ("__nv_sinhf", tl.float32)}, is_pure=True)


@core.extern
def bare_key(arg0, _semantic=None):
    return core.extern_elementwise("", "", [arg0], {tl.float32: ("__nv_tanhf", tl.float32)}, is_pure=True)


@triton.jit
def extern_keys(x):
    v = tl.load(x + tl.arange(0, 16))
    tl.store(x + tl.arange(0, 16), dup_key(v))


@triton.jit
def extern_bare_key(x):
    v = tl.load(x + tl.arange(0, 16))
    tl.store(x + tl.arange(0, 16), bare_key(v))


@triton.jit
def fast_ops(x_ptr, y_ptr):
    # Triton's fast_* (flash-linear-attention's FLA_USE_FAST_OPS): fp32 only.
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    y = libdevice.fast_expf(x) + libdevice.fast_logf(x) + libdevice.fast_tanhf(x)
    y += libdevice.fast_powf(x, 2.0) + libdevice.fast_sinf(x)
    tl.store(y_ptr + offs, y)


@triton.jit
def fast_fp16(x_ptr):
    offs = tl.arange(0, 128)
    tl.store(x_ptr + offs, libdevice.fast_expf(tl.load(x_ptr + offs)))


@triton.jit
def not_triton_name(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), libdevice.frexp(x))
