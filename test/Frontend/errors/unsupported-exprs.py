import triton
import triton.language as tl


@triton.jit
def k_lambda(p):
    f = lambda x: x + 1


@triton.jit
def k_fstring(p):
    s = f"{p}"


@triton.jit
def k_break(p, n):
    for i in range(n):
        break


@triton.jit
def k_continue(p, n):
    for i in range(n):
        continue


@triton.jit
def k_subscript_assign(p):
    x = tl.arange(0, 4)
    x[0] = 1


@triton.jit
def k_attribute_assign(p):
    p.x = 1


@triton.jit
def k_dict(p):
    d = {1: 2}


@triton.jit
def k_comprehension(p):
    xs = [i for i in range(3)]


@triton.jit
def k_complex(p):
    tl.store(p, 2j)


@triton.jit
def star_helper(a, **kwargs):
    return a


@triton.jit
def k_kwargs_helper(p):
    tl.store(p, star_helper(1.0))


TABLE = {1: 2}


@triton.jit
def k_module_dict(p):
    tl.store(p, TABLE[1])
