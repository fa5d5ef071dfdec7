import triton
import triton.language as tl


@triton.jit
def k_carry_type(p, n):
    x = tl.zeros((16,), dtype=tl.float32)
    for i in range(n):
        x = x.to(tl.float16)
    tl.store(p + tl.arange(0, 16), x)


@triton.jit
def k_carry_constexpr_init(p, n):
    acc = 0
    for i in range(n):
        acc += tl.arange(0, 16)
    tl.store(p + tl.arange(0, 16), acc)


@triton.jit
def k_for_tuple(p):
    for i in (1, 2, 3):
        pass


@triton.jit
def k_static_range_runtime(p, n):
    for i in tl.static_range(n):
        pass


@triton.jit
def k_range_keyword(p, n):
    for i in tl.range(n, unroll=2):
        pass


@triton.jit
def k_while_tile(p):
    x = tl.arange(0, 16)
    while x < 3:
        pass


@triton.jit
def k_return_in_loop(p, n):
    for i in range(n):
        return
