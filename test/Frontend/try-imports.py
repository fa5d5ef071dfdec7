import triton
import triton.language as tl
try:
    from triton.language.extra.libdevice import tanh
except ModuleNotFoundError:
    from triton.language.extra.cuda.libdevice import tanh
else:
    pass
finally:
    x = 1

try:
    import torch
    HAS_TORCH = True
    def host():
        return 1
except ImportError:
    HAS_TORCH = False


@triton.jit
def k(x, y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y + offs, tanh(tl.load(x + offs)))


# FlagGems' random_utils: an attribute Triton 3.6 lacks raises
# AttributeError, so the handler's jit function is the name.
try:
    uniform = tl.no_such_uniform
except AttributeError:
    @triton.jit
    def uniform(x):
        return x * 0.5

# Present in Triton 3.6: the body's binding stands.
try:
    from triton.language.extra.libdevice import rsqrt as fast
except ImportError:
    @triton.jit
    def fast(x):
        return x


@triton.jit
def k_fallback(x, y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    tl.store(y + offs, uniform(v) + fast(v))
