"""Kernels for random.test: Triton 3.6's random-number functions
(Philox-4x32-10 and its conversions)."""
import triton
import triton.language as tl
from triton.language.random import randint as randint_from_module


@triton.jit
def k_randint4x(OUT, seed, BLOCK: tl.constexpr, ROUNDS: tl.constexpr):
    o = tl.arange(0, BLOCK)
    a, b, c, d = tl.randint4x(seed, o, n_rounds=ROUNDS)
    tl.store(OUT + o, a)
    tl.store(OUT + BLOCK + o, b)
    tl.store(OUT + 2 * BLOCK + o, c)
    tl.store(OUT + 3 * BLOCK + o, d)


@triton.jit
def k_randint(OUT, seed, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(OUT + o, tl.randint(seed, o))


@triton.jit
def k_offsets64(OUT, seed, base, BLOCK: tl.constexpr):
    o = base + tl.arange(0, BLOCK).to(tl.int64)
    tl.store(OUT + tl.arange(0, BLOCK), tl.random.randint(seed, o, 1))


@triton.jit
def k_rand(OUT, seed, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(OUT + o, tl.rand(seed, o))


@triton.jit
def k_randn(OUT, seed, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(OUT + o, tl.randn(seed, o))


@triton.jit
def k_randn4x(OUT, seed, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    a, b, c, d = tl.randn4x(seed, o)
    tl.store(OUT + o, a + b + c + d)


@triton.jit
def k_scalar(OUT, base):
    pid = tl.program_id(0)
    tl.store(OUT + pid, randint_from_module(42, pid + base, n_rounds=3))


@triton.jit
def k_philox64(OUT, U, seed, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    c = o.to(tl.uint64)
    a, b, c2, d = tl.philox(seed, c, c, c, c, n_rounds=2)
    tl.store(OUT + o, a ^ b ^ c2 ^ d)
    tl.store(U + o, tl.uint_to_uniform_float(a))


@triton.jit
def k_parts(OUT, seed, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    z = o * 0
    a, b, c, d = tl.philox_impl(o.to(tl.uint32), z.to(tl.uint32), z.to(tl.uint32), z.to(tl.uint32),
                                seed.to(tl.uint32), seed.to(tl.uint32), 3)
    n1, n2 = tl.pair_uniform_to_normal(tl.uint_to_uniform_float(a), tl.uint_to_uniform_float(b))
    tl.store(OUT + o, n1 + n2)
