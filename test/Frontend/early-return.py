import triton
import triton.language as tl


@triton.jit
def k_guard(p, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid * BLOCK >= n:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(p + offs, offs, mask=offs < n)


@triton.jit
def _store_if_positive(p, v):
    if v <= 0:
        return
    tl.store(p, v)


@triton.jit
def k_nested(p, n, m):
    # Two guards, one in a helper; an else that returns; a variable the
    # rest reads after the guard changed it on the other path.
    x = n + 1
    if n > m:
        x = x * 2
    else:
        if m > 100:
            return
        x = x + m
    _store_if_positive(p, x)
    if x == 7:
        tl.store(p + 1, x)
        return
    tl.store(p + 2, x)


@triton.jit
def _value_after_return(v):
    if v < 0:
        return
    return v + 1


@triton.jit
def k_value(p, n):
    tl.store(p, _value_after_return(n))


@triton.jit
def k_loop(p, n):
    for i in range(n):
        if i == 3:
            return
        tl.store(p + i, i)


@triton.jit
def k_constexpr_guard(p, n, CHECK: tl.constexpr):
    # A run-time guard inside a compile-time if: the store after the outer
    # if is skipped too when it returns.
    pid = tl.program_id(0)
    if CHECK:
        if pid >= n:
            return
    tl.store(p + pid, 1)


@triton.jit
def k_return_none(p, n):
    if n < 0:
        return None
    tl.store(p, n)


@triton.jit
def _clamp_or_scale(x, lo):
    # Value returns under run-time ifs, nested, a Python number on one path.
    if x < lo:
        return lo
    if x > 100:
        if x > 1000:
            return 1000
        return x // 2
    return x * 2


@triton.jit
def k_value_returns(p, n, lo):
    tl.store(p, _clamp_or_scale(n, lo))


@triton.jit
def _masked_pair(ptr, n, BLOCK: tl.constexpr):
    # A tile and a tuple returned from both branches.
    offs = tl.arange(0, BLOCK)
    if n < BLOCK:
        x = tl.load(ptr + offs, mask=offs < n, other=0.0)
        return x, n
    return tl.load(ptr + offs), BLOCK


@triton.jit
def k_tile_returns(p, q, n, BLOCK: tl.constexpr):
    x, m = _masked_pair(p, n, BLOCK)
    tl.store(q + tl.arange(0, BLOCK), x * m)
