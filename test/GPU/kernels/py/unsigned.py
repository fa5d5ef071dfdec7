"""Unsigned integers with Triton's semantics for tilec's GPU tests: logical
shifts, unsigned comparisons, // and %, maximum/minimum, zero extension,
unsigned <-> float conversions, mixed-signedness promotion, uint64, unsigned
atomic max/min and reductions, and a u32 scalar parameter."""
import triton
import triton.language as tl


@triton.jit
def unsigned_kernel(A, B, C8, D, FIN, OUT, FOUT, OUT64, AMAX, AMIN, RED, n, s,
                    BLOCK: tl.constexpr, BINS: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(A + offs, mask=mask, other=0)    # uint32
    b = tl.load(B + offs, mask=mask, other=1)    # uint32, never 0
    c = tl.load(C8 + offs, mask=mask, other=0)   # uint8
    d = tl.load(D + offs, mask=mask, other=0)    # uint64
    fin = tl.load(FIN + offs, mask=mask, other=0.)
    tl.store(OUT + 0 * n + offs, a >> 5, mask=mask)
    tl.store(OUT + 1 * n + offs, a // b, mask=mask)
    tl.store(OUT + 2 * n + offs, a % b, mask=mask)
    tl.store(OUT + 3 * n + offs, tl.maximum(a, b), mask=mask)
    tl.store(OUT + 4 * n + offs, tl.minimum(a, b), mask=mask)
    cmp = (a < b).to(tl.uint32) + (a > b).to(tl.uint32) * 2 \
        + (a <= b).to(tl.uint32) * 4 + (a >= b).to(tl.uint32) * 8
    tl.store(OUT + 5 * n + offs, cmp, mask=mask)
    # uint8: logical shift, then zero extension to int32.
    tl.store(OUT + 6 * n + offs, (c >> 3).to(tl.uint32), mask=mask)
    tl.store(OUT + 7 * n + offs, c.to(tl.int32) + (c // 7).to(tl.int32) * 1000, mask=mask)
    # Promotion: uint32 with int32 compares unsigned; uint8 with int32
    # compares signed (the wider signed type wins).
    signed = offs - 1000
    mixed = (a < signed).to(tl.uint32) + (c < signed).to(tl.uint32) * 2
    tl.store(OUT + 8 * n + offs, mixed, mask=mask)
    # A u32 scalar parameter at or above 2^31.
    tl.store(OUT + 9 * n + offs, (a > s).to(tl.uint32) + a // s * 2, mask=mask)
    # Conversions: uint32 -> float (uitofp), float -> uint32 (fptoui).
    tl.store(FOUT + offs, a.to(tl.float32), mask=mask)
    tl.store(OUT + 10 * n + offs, fin.to(tl.uint32), mask=mask)
    # uint64: logical shift, unsigned division and comparison.
    tl.store(OUT64 + offs, (d >> 7) + d // 3 + (d > 9223372036854775807), mask=mask)
    # Unsigned atomics and reductions.
    bins = offs % BINS
    tl.atomic_max(AMAX + bins, a, mask=mask)
    tl.atomic_min(AMIN + bins, a, mask=mask)
    am = tl.where(mask, a, 0)
    ai = tl.where(mask, a, 4294967295)
    tl.store(RED + pid * 3 + 0, tl.max(am, 0))
    tl.store(RED + pid * 3 + 1, tl.min(ai, 0))
    tl.store(RED + pid * 3 + 2, tl.max(tl.where(mask, c, 0), 0).to(tl.uint32))
