import triton
import triton.language as tl


@triton.jit
def k_static(p, N: tl.constexpr):
    for i in tl.static_range(N):
        tl.store(p + i, i)


@triton.jit
def rec(p, N: tl.constexpr):
    if N > 0:
        rec(p, N - 1)
        rec(p, N - 1)
    else:
        tl.store(p, 1)


@triton.jit
def k_rec(p, N: tl.constexpr):
    rec(p, N)


@triton.jit
def k_while(p):
    i = 0
    while i < 10:
        i = i + 0
    tl.store(p, i)


@triton.jit
def k_big_tile(p, N: tl.constexpr, R: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(p + offs)
    for i in tl.static_range(R):
        a = tl.exp(a) * a + i
    tl.store(p + offs, a)
