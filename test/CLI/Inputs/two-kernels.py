import triton
import triton.language as tl


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(out + o, tl.load(x + o, mask=m) + tl.load(y + o, mask=m), mask=m)


@triton.jit
def scale_kernel(x, out, s, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(out + o, tl.load(x + o, mask=m) * s, mask=m)
