import triton
import triton.language as tl


@triton.jit
def _add(x, y, SCALE: tl.constexpr = 1):
    return (x + y) * SCALE


@triton.jit
def k_too_many(p):
    tl.store(p, _add(1, 2, 3, 4))


@triton.jit
def k_unknown_keyword(p):
    tl.store(p, _add(1, 2, SCAL=3))


@triton.jit
def k_missing(p):
    tl.store(p, _add(1))


@triton.jit
def k_twice(p):
    tl.store(p, _add(1, 2, x=3))


@triton.jit
def k_runtime_constexpr(p, n):
    tl.store(p, _add(1, 2, n))


@triton.jit
def k_load_keyword(p):
    x = tl.load(p, mask_=None)


@triton.jit
def k_load_int(p, n):
    x = tl.load(n)


@triton.jit
def k_to_not_dtype(p):
    x = tl.load(p)
    tl.store(p, x.to(3))


@triton.jit
def k_range_value(p):
    r = range(4)


@triton.jit
def k_py_max_tile(p):
    y = max(tl.arange(0, 16), "a")


@triton.jit
def k_recursive(p):
    k_recursive(p)
