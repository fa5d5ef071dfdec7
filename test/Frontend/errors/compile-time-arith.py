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
