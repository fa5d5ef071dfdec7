"""Tile atomics for tilec's GPU tests: integer add and float max/min into
BINS bins from every program."""
import triton
import triton.language as tl


@triton.jit
def atomics_kernel(X, F, SUM, FMAX, FMIN, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0)
    f = tl.load(F + offs, mask=mask, other=0.)
    b = offs % BINS
    tl.atomic_add(SUM + b, x, mask=mask)
    tl.atomic_max(FMAX + b, f, mask=mask)
    tl.atomic_min(FMIN + b, f, mask=mask)
