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


# Order counts, as in Python: a try that runs after a definition rebinds
# the name (the fallback first, then the override when the import works).
@triton.jit
def fast_tanh(x):
    return x


try:
    from triton.language.extra.libdevice import tanh as fast_tanh
except ImportError:
    pass

X_FALLBACK = 1
try:
    X_FALLBACK = tl.no_such_attr
except AttributeError:
    X_FALLBACK = 2

# `import a` and `from a import b` of a module neither Triton nor on the
# import path: both raise ImportError.
try:
    import nope_mod_a
    A_FOUND = 1
except ImportError:
    A_FOUND = 0
try:
    from nope_pkg_b import thing_b
    B_FOUND = 1
except ImportError:
    B_FOUND = 0


@triton.jit
def k_order(x):
    v = tl.load(x)
    tl.store(x, fast_tanh(v) + X_FALLBACK + A_FOUND * 10 + B_FOUND * 100)
