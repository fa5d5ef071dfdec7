import triton
import triton.language as tl

FACTOR = 5


@triton.jit
def _scale(x, k: tl.constexpr):
    return x * k


@triton.jit
def _pair(x, y, scale=FACTOR, SHIFT: tl.constexpr = 1):
    # nested helper; a tuple return
    s = _scale(x + y, scale)
    return s, x << SHIFT


@triton.jit
def _store(ptr, offs, v):
    tl.store(ptr + offs, v)


@triton.jit
def k_helpers(out_ptr, a_ptr):
    offs = tl.arange(0, 64)
    a = tl.load(a_ptr + offs)
    s, t = _pair(a, offs)
    u, v = _pair(y=offs, x=a, SHIFT=3, scale=7)
    _store(out_ptr, offs, s + t + u + v)
