import triton
import triton.language as tl


@triton.autotune(configs=[
    triton.Config({'BLOCK': 128, 'SPLIT': 2}, num_warps=8, num_stages=2),
    triton.Config({'BLOCK': 256, 'SPLIT': 1}, num_warps=4),
], key=['n'])
@triton.jit
def k_tuned(out_ptr, n, BLOCK: tl.constexpr, SPLIT: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, offs * SPLIT, mask=offs < n)
