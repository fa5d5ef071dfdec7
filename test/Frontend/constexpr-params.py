import triton
import triton.language as tl


@triton.jit
def k_cex(out_ptr, n, A: tl.constexpr, B: tl.constexpr = 8, C: tl.constexpr = 2.5):
    offs = tl.arange(0, A) * B
    tl.store(out_ptr + offs, offs * C, mask=offs < n)
