import triton


@triton.jit
def base():
    return 2


from selfimp import base as alias
