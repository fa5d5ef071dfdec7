import triton
import triton.language as tl


@triton.jit
def k_for_count(out_ptr, n, STEP: tl.constexpr):
    count = 0
    for k in range(0, n, STEP):
        count += 1
    tl.store(out_ptr, count)


@triton.jit
def k_trange(out_ptr, n):
    count = 0
    for k in tl.range(1, n, 2, num_stages=2):
        count += 2
    tl.store(out_ptr, count)


@triton.jit
def k_wide(out_ptr, n):
    count = 0
    for k in range(0, n):
        count += 1
    tl.store(out_ptr, count)


@triton.jit
def k_static(out_ptr):
    total = 0
    for k in tl.static_range(1, 4):
        total = total * 10 + k
    tl.store(out_ptr, total)


@triton.jit
def k_static_tiles(out_ptr, in_ptr):
    offs = tl.arange(0, 32)
    acc = tl.zeros((32,), dtype=tl.float32)
    for k in tl.static_range(3):
        acc = acc + tl.load(in_ptr + k * 32 + offs)
    tl.store(out_ptr + offs, acc)


@triton.jit
def k_while(out_ptr, n):
    i = tl.program_id(0)
    s = n * 1
    while i < n:
        s = s * 2
        i += 1
    tl.store(out_ptr, s)


@triton.jit
def k_if(out_ptr, in_ptr, flag):
    offs = tl.arange(0, 32)
    x = tl.load(in_ptr + offs)
    y = x
    if flag > 0:
        y = x * 2.0
        only_then = 1
    else:
        y = x + 1.0
    tl.store(out_ptr + offs, y)


@triton.jit
def k_if_no_else(out_ptr, flag):
    v = 5
    if flag:
        v = 7
    tl.store(out_ptr, v)


@triton.jit
def k_range_down(out_ptr, n):
    # Python's order: n, n - 3, ..., down to 1 (> 0); i is used, not counted.
    t = 0
    for i in range(n, 0, -3):
        t = t * 2 + i
    tl.store(out_ptr, t)


@triton.jit
def k_range_zero_step(out_ptr, n):
    for i in range(0, n, 0):
        tl.store(out_ptr, i)
