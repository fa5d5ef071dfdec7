"""triton.language.extra.libdevice functions for tilec's GPU tests: each
result goes to its own row of OUT (FUNCS rows of n)."""
import triton
import triton.language as tl
from triton.language import core
from triton.language.extra import libdevice


@core.extern
def my_sinh(arg0, _semantic=None):
    # A libdevice call spelled as Triton's own libdevice wrappers spell it.
    return core.extern_elementwise("libdevice", "", [arg0], {
        (core.dtype("fp32"),): ("__nv_sinhf", core.dtype("fp32")),
        (core.dtype("fp64"),): ("__nv_sinh", core.dtype("fp64")),
    }, is_pure=True, _semantic=_semantic)


@triton.jit
def libdevice_kernel(X, OUT, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask)
    # GELU, tanh approximation.
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tl.store(OUT + offs, 0.5 * x * (1.0 + libdevice.tanh(inner)), mask=mask)
    tl.store(OUT + n + offs, libdevice.pow(tl.abs(x), 1.5), mask=mask)
    tl.store(OUT + 2 * n + offs, libdevice.atan2(x, 0.75), mask=mask)
    tl.store(OUT + 3 * n + offs, libdevice.log1p(tl.abs(x)), mask=mask)
    tl.store(OUT + 4 * n + offs, libdevice.fmod(x, 0.75), mask=mask)
    tl.store(OUT + 5 * n + offs, libdevice.erfc(x), mask=mask)
    tl.store(OUT + 6 * n + offs, libdevice.cbrt(x), mask=mask)
    tl.store(OUT + 7 * n + offs, my_sinh(x), mask=mask)
