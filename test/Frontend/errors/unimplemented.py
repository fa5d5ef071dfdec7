import triton
import triton.language as tl


@triton.jit
def k_device_print(p):
    x = tl.load(p)
    tl.device_print("x", x)


@triton.jit
def k_boundary_check(p):
    x = tl.load(p, boundary_check=(0,))


@triton.jit
def k_runtime_assert(p, n):
    assert n > 0


@triton.jit
def k_rounding(p):
    y = tl.load(p).to(tl.float8e4nv, fp_downcast_rounding="rtz")


@triton.jit
def k_rounding_mode(p):
    y = tl.load(p).to(tl.float16, fp_downcast_rounding="rd")


@triton.jit
def k_return_in_if(p, n):
    if n > 0:
        return n
