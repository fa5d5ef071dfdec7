import triton
import triton.language as tl


@triton.jit
def k_assert(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.device_assert(x > 0, "x must be positive")
    assert n < 1000, "n too large"
    tl.device_assert(x)
    assert x == x
    check(x)
    assert BLOCK == 128, "compile-time"
    tl.store(x_ptr + offs, x + 1)


@triton.jit
def check(v):
    tl.device_assert(v != 7, "seven in a helper")
