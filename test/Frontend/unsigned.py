import triton
import triton.language as tl


@triton.jit
def k_ops(x_ptr, y_ptr, out_ptr, cmp_ptr, f_ptr, n, BLOCK: tl.constexpr):
    # Unsigned arithmetic on uint32 tiles: >>, //, %, <, max/min, to float.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    y = tl.load(y_ptr + offs, mask=mask, other=1)
    r = (x >> 3) + x // y + x % y + tl.maximum(x, y) + tl.minimum(x, y)
    tl.store(out_ptr + offs, r, mask=mask)
    tl.store(cmp_ptr + offs, (x < y).to(tl.int8) + (x >= y).to(tl.int8) * 2, mask=mask)
    tl.store(f_ptr + offs, x.to(tl.float32), mask=mask)


@triton.jit
def k_widen(x_ptr, out_ptr, f_ptr, BLOCK: tl.constexpr):
    # uint8 -> uint64 / int64 widens with zero extension; float -> uint32
    # converts as unsigned.
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x.to(tl.uint64) + x.to(tl.int64))
    f = tl.load(f_ptr + offs)
    tl.store(x_ptr + offs, f.to(tl.uint32).to(tl.uint8))


@triton.jit
def k_promote(a_ptr, b_ptr, c_ptr, out_ptr, BLOCK: tl.constexpr):
    # Triton's integer_promote_impl: u32 with i32 -> u32 (unsigned wins at
    # equal width); u8 with i32 -> i32 (the wider signed wins); u8 with
    # u16 -> u16; Python ints take the tile's type.
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)  # uint32
    b = tl.load(b_ptr + offs)  # int32
    c = tl.load(c_ptr + offs)  # uint8
    t1 = a < b
    t2 = c < b
    t3 = c < c.to(tl.uint16)
    t4 = a > 7
    tl.store(out_ptr + offs, t1.to(tl.int32) + t2 + t3 + t4)


@triton.jit
def k_scalar(out_ptr, n, m):
    # u32 scalar parameters: unsigned comparison and division.
    q = n // m
    if n > m:
        q = q + 1
    tl.store(out_ptr, q)


@triton.jit
def k_reduce(x_ptr, out_ptr, idx_ptr, BLOCK: tl.constexpr):
    # Reductions over unsigned values: max/min unsigned, sum widened
    # unsigned to uint32, argmax with unsigned compares.
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)  # uint8
    tl.store(out_ptr, tl.max(x, 0).to(tl.uint32) + tl.min(x, 0) + tl.sum(x, 0))
    tl.store(idx_ptr, tl.argmax(x, 0))


@triton.jit
def k_atomic(p_ptr, v_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(v_ptr + offs)
    tl.atomic_max(p_ptr, v)
    tl.atomic_min(p_ptr + 1, v)


@triton.jit
def k_loop(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # A loop-carried uint32 keeps its signedness.
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.uint32)
    for i in range(n):
        acc = tl.maximum(acc, tl.load(x_ptr + i * BLOCK + offs))
    tl.store(out_ptr + offs, acc >> 1)


@triton.jit
def k_fold(out_ptr):
    # Constant folding agrees with run time: 248 >> 3 on uint8 is 31 (an
    # arithmetic shift would give -1 = 255), 200 // 7 is 28, 250 > 5.
    x = tl.full((4,), 248, tl.uint8)
    y = tl.full((4,), 200, tl.uint8)
    offs = tl.arange(0, 4)
    tl.store(out_ptr + offs, x >> 3)
    tl.store(out_ptr + 4 + offs, y // 7)
    tl.store(out_ptr + 8 + offs, (tl.full((4,), 250, tl.uint8) > 5).to(tl.uint8))
    tl.store(out_ptr + 12 + offs, tl.maximum(x, 5) % 10)


@triton.jit
def k_mixed_div(a_ptr, b_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(a_ptr + offs, a // b)


@triton.jit
def k_negative(a_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    tl.store(a_ptr + offs, a + -1)


@triton.jit
def k_loop_type(a_ptr, n):
    acc = tl.load(a_ptr)
    for i in range(n):
        acc = acc.to(tl.int32)
    tl.store(a_ptr, acc)


@triton.jit
def k_ptx(x_ptr, y_ptr, z_ptr, out_ptr, f_ptr, w_ptr, cmp_ptr, m_ptr, n):
    # One unsigned op per output, so that each keeps its PTX instruction.
    offs = tl.program_id(0) * 128 + tl.arange(0, 128)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    z = tl.load(z_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x >> 7, mask=mask)
    tl.store(out_ptr + n + offs, x // y, mask=mask)
    tl.store(out_ptr + 2 * n + offs, z % y, mask=mask)
    tl.store(out_ptr + 3 * n + offs, tl.maximum(x, z), mask=mask)
    tl.store(out_ptr + 4 * n + offs, tl.minimum(y, z), mask=mask)
    tl.store(f_ptr + offs, y.to(tl.float32), mask=mask)
    tl.store(w_ptr + offs, z.to(tl.uint64), mask=mask)
    tl.store(cmp_ptr + offs, x < z, mask=mask)
    tl.store(cmp_ptr + n + offs, y >= x, mask=mask)
    tl.atomic_max(m_ptr, x, mask=mask)
    tl.atomic_min(m_ptr + 1, y, mask=mask)


@triton.jit
def k_bool(x_ptr, out_ptr, BLOCK: tl.constexpr):
    # int1 is unsigned in Triton (tl.dtype.UINT_TYPES): False < True in
    # compares, tl.maximum and argmax (MLIR's signed i1 order is reversed).
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    a = x > 3
    b = x < 9
    tl.store(out_ptr + offs, (a > b).to(tl.int32) + tl.maximum(a, b).to(tl.int32))
    tl.store(out_ptr + BLOCK, tl.argmax(a, axis=0))


@triton.jit
def k_bool_sum(x_ptr, out_ptr, BLOCK: tl.constexpr):
    # The sum of an int1 tile is uint32 (Triton's _pick_sum_dtype): the count
    # minus a larger constant wraps, and converts to float unsigned;
    # tl.cumsum's likewise.
    offs = tl.arange(0, BLOCK)
    m = tl.load(x_ptr + offs) > 3
    n = tl.sum(m, axis=0)
    tl.store(out_ptr, n - 10)
    tl.store(out_ptr + 1, (n // 2).to(tl.float32).to(tl.int32))
    tl.store(out_ptr + 2 + offs, tl.cumsum(m, axis=0) // 3)
