"""Kernels for tilec's random-number GPU tests (test/GPU/RandomTests.cpp):
Triton 3.6's tl.randint, randint4x, rand, rand4x, randn, randn4x and
tl.philox on 32-bit, 64-bit and scalar offsets, checked against a CPU
Philox. Triton 3.6 syntax."""
import triton
import triton.language as tl


@triton.jit
def _all_outputs(seed, o, i, m, N, OUT_I, OUT_F, OUT_N):
    """Every function at offsets `o`, element i of output k at k * N + i:
    OUT_I 0 randint, 1..4 randint4x, 5 randint with n_rounds=7; OUT_F 0
    rand, 1..4 rand4x; OUT_N 0 randn, 1..4 randn4x."""
    tl.store(OUT_I + i, tl.randint(seed, o), mask=m)
    a, b, c, d = tl.randint4x(seed, o)
    tl.store(OUT_I + 1 * N + i, a, mask=m)
    tl.store(OUT_I + 2 * N + i, b, mask=m)
    tl.store(OUT_I + 3 * N + i, c, mask=m)
    tl.store(OUT_I + 4 * N + i, d, mask=m)
    tl.store(OUT_I + 5 * N + i, tl.randint(seed, o, n_rounds=7), mask=m)
    tl.store(OUT_F + i, tl.rand(seed, o), mask=m)
    u1, u2, u3, u4 = tl.rand4x(seed, o)
    tl.store(OUT_F + 1 * N + i, u1, mask=m)
    tl.store(OUT_F + 2 * N + i, u2, mask=m)
    tl.store(OUT_F + 3 * N + i, u3, mask=m)
    tl.store(OUT_F + 4 * N + i, u4, mask=m)
    tl.store(OUT_N + i, tl.randn(seed, o), mask=m)
    n1, n2, n3, n4 = tl.randn4x(seed, o)
    tl.store(OUT_N + 1 * N + i, n1, mask=m)
    tl.store(OUT_N + 2 * N + i, n2, mask=m)
    tl.store(OUT_N + 3 * N + i, n3, mask=m)
    tl.store(OUT_N + 4 * N + i, n4, mask=m)


@triton.jit
def random_kernel(OUT_I, OUT_F, OUT_N, seed, base, N, BLOCK: tl.constexpr):
    """int32 offsets base + i (i < N, ragged), int32 seed."""
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    _all_outputs(seed, base + i, i, i < N, N, OUT_I, OUT_F, OUT_N)


@triton.jit
def random64_kernel(OUT_I, OUT_F, OUT_N, seed, base, N, BLOCK: tl.constexpr):
    """int64 offsets base + i (both halves of the counter), int64 seed."""
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    _all_outputs(seed, base + i.to(tl.int64), i, i < N, N, OUT_I, OUT_F, OUT_N)


@triton.jit
def random_scalar_kernel(OUT_I, OUT_F, seed, base, G):
    """Scalar offsets base + pid, one program each: OUT_I[pid] randint with
    the constant seed 42, OUT_I[G + pid] randint4x's fourth word with
    `seed`; OUT_F[pid] rand, OUT_F[G + pid] randn."""
    pid = tl.program_id(0)
    o = base + pid
    tl.store(OUT_I + pid, tl.randint(42, o))
    _, _, _, d = tl.randint4x(seed, o)
    tl.store(OUT_I + G + pid, d)
    tl.store(OUT_F + pid, tl.rand(seed, o))
    tl.store(OUT_F + G + pid, tl.randn(seed, o))


@triton.jit
def philox64_kernel(OUT, U, seed, base, N, BLOCK: tl.constexpr):
    """tl.philox on uint64 counters (Philox-4x64-10, key (seed, 0)):
    counter (c, c + 1, c + 2, c + 3) for c = base + i; OUT[k * N + i] word
    k, U[i] uint_to_uniform_float of word 0."""
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < N
    c = (base + i.to(tl.int64)).to(tl.uint64)
    a, b, c2, d = tl.philox(seed, c, c + 1, c + 2, c + 3)
    tl.store(OUT + i, a, mask=m)
    tl.store(OUT + 1 * N + i, b, mask=m)
    tl.store(OUT + 2 * N + i, c2, mask=m)
    tl.store(OUT + 3 * N + i, d, mask=m)
    tl.store(U + i, tl.uint_to_uniform_float(a), mask=m)
