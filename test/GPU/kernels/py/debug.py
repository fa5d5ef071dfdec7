"""Kernels for tilec's debugging GPU tests (test/GPU/DebugTests.cpp):
tl.device_print / print and tl.device_assert / assert. Triton 3.6 syntax."""
import triton
import triton.language as tl


@triton.jit
def print_kernel(x_ptr, f_ptr, n, BLOCK: tl.constexpr):
    """Prints, per program, its BLOCK int32s (-1 past n), the bits of its
    fp32s (0.0 past n) and the scalar n."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=-1)
    tl.device_print("x", x)
    f = tl.load(f_ptr + offs, mask=mask, other=0.0)
    tl.device_print("f", f, hex=True)
    print("n", n)


@triton.jit
def assert_kernel(x_ptr, n, BLOCK: tl.constexpr):
    """x += 1 where x > 0 holds; under --debug, a non-positive x stops the
    kernel with the message."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1)
    tl.device_assert(x > 0, "x must be positive")
    assert n > 0, "n must be positive"
    tl.store(x_ptr + offs, x + 1, mask=mask)
