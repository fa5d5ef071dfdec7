# Host code for @triton.autotune that doubles its calls (2^40): stops at the host-call budget (review9.test).
import triton
import triton.language as tl

def f(n):
    if n > 0:
        return f(n - 1) + f(n - 1)
    return [triton.Config({'BLOCK': 16})]

def g(n, l):
    if n > 0:
        return g(n - 1, l + l)
    return l

@triton.autotune(configs=f(40), key=[])
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    tl.store(x_ptr, 1.0)
