import triton
import triton.language as tl


@triton.jit
def k_while(out_ptr, n):
    i = 0
    s = 1
    while i < n:
        s = s * 2
        i += 1
    tl.store(out_ptr, s)
