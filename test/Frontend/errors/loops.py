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


@triton.jit
def k_python_range_keyword(p, n):
    for i in range(n, num_stages=2):
        pass


@triton.jit
def k_runtime_stages(p, n):
    for i in tl.range(n, num_stages=n):
        pass


@triton.jit
def k_unroll_zero(p, n):
    for i in tl.range(n, loop_unroll_factor=0):
        pass


@triton.jit
def k_runtime_flag(p, n):
    for i in tl.range(n, flatten=n > 2):
        pass


@triton.jit
def k_hint_twice(p, n):
    for i in tl.range(0, n, 1, 2, num_stages=3):
        pass


@triton.jit
def k_static_range_keyword(p, n):
    for i in tl.static_range(4, num_stages=2):
        pass
