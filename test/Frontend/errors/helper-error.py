import triton
import triton.language as tl


@triton.jit
def _bad(x):
    return x & 1.5


@triton.jit
def _outer(x):
    return _bad(x) + 1


@triton.jit
def _padded(p):
    x = tl.full((48,), 1.0, tl.float32)
    tl.store(p + tl.zeros((48,), tl.int32), x)


@triton.jit
def k_helper(p):
    x = tl.load(p + tl.arange(0, 16))
    tl.store(p + tl.arange(0, 16), _bad(x))


@triton.jit
def k_nested(p):
    x = tl.load(p + tl.arange(0, 16))
    tl.store(p + tl.arange(0, 16), _outer(x))


@triton.jit
def k_pass_error(p):
    x = tl.full((48,), 1.0, tl.float32)
    tl.store(p + tl.zeros((48,), tl.int32), x)


@triton.jit
def k_pass_error_in_helper(p):
    _padded(p)
