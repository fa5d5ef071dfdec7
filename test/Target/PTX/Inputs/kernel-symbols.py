import triton
import triton.language as tl


@triton.jit
def ядро(p):
    tl.store(p, 1.0)


@triton.jit
def _(p):
    tl.store(p, 1.0)


@triton.jit
def _k1(p):
    tl.store(p, 1.0)
