import triton
import triton.language as tl


@triton.jit
def k_if_tile(p):
    x = tl.arange(0, 16)
    if x > 3:
        pass


@triton.jit
def k_if_types(p, n):
    x = tl.load(p)
    if n > 0:
        x = tl.arange(0, 16)
    tl.store(p, x)


@triton.jit
def k_if_constexpr_values(p, n):
    mode = "a"
    if n > 0:
        mode = "b"


@triton.jit
def k_constexpr_annotation(p, n):
    B: tl.constexpr = n
