import triton
from other import X
X = 3


@triton.jit
def f():
    return 1


f = 9
