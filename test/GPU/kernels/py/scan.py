"""Scans (tl.cumsum, tl.associative_scan) for tilec's GPU tests."""
import triton
import triton.language as tl


@triton.jit
def cumsum_kernel(X, Y, n, BLOCK: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n, other=0)
    y = tl.cumsum(x, 0, reverse=REVERSE)
    tl.store(Y + offs, y, mask=offs < n)


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def max_scan_2d_kernel(X, Y, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # A running maximum along each row, with a user combine function.
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None] * stride + cols[None, :]
    x = tl.load(X + offs, mask=mask, other=-2147483647)
    y = tl.associative_scan(x, 1, _max_combine)
    tl.store(Y + offs, y, mask=mask)
