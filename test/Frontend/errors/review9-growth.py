# A compile-time tuple doubled 40 times: stops at the 2^20-element limit (review9.test).
import triton
import triton.language as tl
@triton.jit
def k(x_ptr):
    t = (1, 2)
    for i in tl.static_range(40):
        t = t + t
    tl.store(x_ptr, len(t))
