import triton
import triton.language as tl


# Parameters named as C++ keywords (`new`) and as the locals the CUDA C++
# backend generates (`v3`, `i`): the backend prefixes them.
@triton.jit
def names_kernel(new, v3, i, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < v3
    x = tl.load(new + offs, mask=mask)
    tl.store(new + offs, x * i, mask=mask)


# A parameter named as the printed code's local `r` (f16 arithmetic is a
# lambda around inline PTX that returns its `r`): prefixed as well.
@triton.jit
def half_r_kernel(x, r, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs) * r)
