# A column scan over rows of fp16 whose aligned variant (16-byte rows) the
# scan lowering cannot compile with 1 warp: tilec falls back to the kernel
# without a variant (test/CLI/version-alignment-fallback.test).
import triton
import triton.language as tl

@triton.jit
def colscan(X, Y, stride, n, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BN)
    m = cols[None, :] < n
    x = tl.load(X + rows[:, None] * stride + cols[None, :], mask=m, other=0)
    tl.store(Y + rows[:, None] * stride + cols[None, :], tl.cumsum(x, axis=0), mask=m)
