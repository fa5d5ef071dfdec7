"""fp_downcast_rounding="rtz" for tilec's GPU tests: fp32 -> fp16 and
fp32 -> bf16, each rounded toward zero."""
import triton
import triton.language as tl


@triton.jit
def rtz_kernel(X, H, B, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask)
    tl.store(H + offs, x.to(tl.float16, fp_downcast_rounding="rtz"), mask=mask)
    tl.store(B + offs, x.to(tl.bfloat16, fp_downcast_rounding="rtz"), mask=mask)
