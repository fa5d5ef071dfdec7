import triton
import triton.language as tl
import triton.language.standard as std
from triton.language.standard import _log2, sum, zeros_like


@triton.jit
def k(p, N: tl.constexpr):
    # flash-linear-attention writes tl.standard._log2(n) for a bitonic sort.
    n_dims: tl.constexpr = tl.standard._log2(N)
    tl.static_assert(std._is_power_of_two(N))
    tl.static_assert(not std._is_power_of_two(N + 1))
    x = tl.load(p + tl.arange(0, N))
    y = sum(x, 0) + n_dims * 1000 + _log2(N - 1) * 100 + zeros_like(x)
    tl.store(p + tl.arange(0, N), std.sort(y))
