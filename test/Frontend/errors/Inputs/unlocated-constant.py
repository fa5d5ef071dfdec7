import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n):
    r = tl.arange(0, 256)
    p = x_ptr + r[:, None] * 256 + r[None, :]
    for i in range(n):
        tl.store(p, 1.0)
        p += 256
