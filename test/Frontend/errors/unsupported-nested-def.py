import triton
import triton.language as tl


@triton.jit
def k(p):
    def f():
        return 1
