"""fp8 round trips for tilec's GPU tests: fp32 -> fp8 (round to nearest
even, saturating) -> memory -> fp32."""
import triton
import triton.language as tl


@triton.jit
def fp8_roundtrip_kernel(X, Q, Y, n, BLOCK: tl.constexpr, E5: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask)
    q = x.to(tl.float8e5) if E5 else x.to(tl.float8e4nv)
    tl.store(Q + offs, q, mask=mask)
    back = tl.load(Q + offs, mask=mask)
    tl.store(Y + offs, back.to(tl.float32), mask=mask)
