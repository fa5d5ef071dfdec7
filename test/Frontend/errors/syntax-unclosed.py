import triton
import triton.language as tl


@triton.jit
def k(p):
    x = (1 + 2
    tl.store(p, x)
