import triton
import triton.language as tl


@triton.jit
def k_dup(x, x):
    tl.store(x, 1)
