import triton
import triton.language as tl


@triton.jit
def k_static_assert(p, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK % 32 == 0, "BLOCK must be a multiple of 32")


@triton.jit
def k_assert(p, BLOCK: tl.constexpr):
    assert BLOCK <= 64, "BLOCK too large"


@triton.jit
def k_div_zero(p, BLOCK: tl.constexpr):
    tl.store(p, BLOCK // (BLOCK - 16))


@triton.jit
def k_mod_zero(p, BLOCK: tl.constexpr):
    tl.store(p, 1.5 % (BLOCK - 16))
