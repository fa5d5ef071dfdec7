import triton
import triton.language as tl

import helpers_for_constexpr as hc


@triton.jit
def relu(x):
    return tl.maximum(x, 0.0)


@triton.jit
def k_act(x_ptr, y_ptr, ACT: tl.constexpr, DTYPE: tl.constexpr, NAME: tl.constexpr):
    # ACT: a jit function by name (-D ACT=relu or -D ACT=hc.twice); DTYPE:
    # a dtype (-D DTYPE=tl.float16); NAME stays a string for comparisons.
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    y = ACT(x)
    if NAME == "relu":
        y = y + 1.0
    tl.store(y_ptr + offs, y.to(DTYPE))
