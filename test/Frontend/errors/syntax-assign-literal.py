import triton
import triton.language as tl


@triton.jit
def k(p):
    y = 3 = 4
