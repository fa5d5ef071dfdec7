import triton
import triton.language as tl


@triton.jit
def k_bcast(out_ptr, stride, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    offs = rm[:, None] * stride + rn[None, :]
    tl.store(out_ptr + offs, offs)
