import triton
import triton.language as tl


@triton.jit
def k_npow2(p):
    tl.store(p, triton.next_power_of_2(2**62 + 1))


@triton.jit
def k_int_inf(p):
    tl.store(p, int(float('inf')))


@triton.jit
def k_int_big(p):
    tl.store(p, int(1e300))


@triton.jit
def k_arange_neg(p):
    tl.store(p + tl.arange(-4, 4), 1)


@triton.jit
def k_npow2_small(p):
    tl.store(p, triton.next_power_of_2(0) + triton.next_power_of_2(5))


@triton.jit
def k_block(p, BLOCK: tl.constexpr):
    tl.store(p + tl.arange(0, BLOCK), 1)


@triton.jit
def k_arange_top(p):
    tl.store(p + tl.arange(2147483640, 2147483648), 1)


@triton.jit
def k_pow_zero(p):
    tl.store(p, 0 ** -1)


@triton.jit
def k_pow_complex(p):
    tl.store(p, (-8) ** 0.5)


@triton.jit
def k_pow_overflow(p):
    tl.store(p, 10.0 ** 400)


@triton.jit
def k_cdiv_max(p):
    tl.store(p, triton.cdiv(9223372036854775807, 2) + tl.cdiv(7, -2))


@triton.jit
def k_min_one(p):
    tl.store(p, min(1))


@triton.jit
def k_max_empty(p):
    tl.store(p, max(()))
