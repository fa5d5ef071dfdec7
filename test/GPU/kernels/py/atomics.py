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


@triton.jit
def half_atomics_kernel(F, HMAX, HMIN, BMAX, BMIN, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    # fp16 / bf16 atomic max and min (compare-and-swap loops) under contention.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    f = tl.load(F + offs, mask=mask, other=0.)
    b = offs % BINS
    h = f.to(tl.float16)
    bf = f.to(tl.bfloat16)
    tl.atomic_max(HMAX + b, h, mask=mask)
    tl.atomic_min(HMIN + b, h, mask=mask)
    tl.atomic_max(BMAX + b, bf, mask=mask)
    tl.atomic_min(BMIN + b, bf, mask=mask)


@triton.jit
def half_xchg_kernel(X, V, OLD, n, BLOCK: tl.constexpr):
    # fp16 exchange (a compare-and-swap loop: PTX has no atom.exch.b16).
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    old = tl.atomic_xchg(X + offs, tl.load(V + offs, mask=mask), mask=mask)
    tl.store(OLD + offs, old, mask=mask)
