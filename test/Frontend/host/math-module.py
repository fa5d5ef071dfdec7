# Python's math module on compile-time numbers, at module level, in host code
# and in a kernel (python3 prints the same values).
import math
import triton
import triton.language as tl
from math import log2, ceil

LOG2E = 1 / math.log(2)
A = (math.log2(64), ceil(7 / 2), math.floor(-2.5), math.isqrt(17), math.gcd(12, 18), math.lcm(4, 6), math.log(8, 2), math.sqrt(2), math.pi, math.inf > 1e308, math.isnan(math.nan), log2(1024), math.pow(2, 10), math.trunc(-3.7), math.copysign(1, -0.0))
def host(n):
    return int(math.log2(n)) + math.ceil(n / 3)
H = host(64)

@triton.jit
def k(o):
    tl.static_print(LOG2E, A, H)
    tl.static_print(math.pi * 2)


@triton.jit
def k_domain(o):
    tl.static_print(math.log(0))
