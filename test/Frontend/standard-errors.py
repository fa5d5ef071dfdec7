import triton
import triton.language as tl


@triton.jit
def k_cat(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.cat(x, x)


@triton.jit
def k_flip(p):
    x = tl.load(p + tl.arange(0, 16)[:, None] + tl.arange(0, 16)[None, :])
    y = tl.flip(x, 2)
