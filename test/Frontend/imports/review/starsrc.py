import triton

W = 4
_HIDDEN = 5


@triton.jit
def sf():
    return W
