"""Kernels for tilec's semantics-parity GPU tests (test/GPU/SemanticsTests.cpp):
cases where the answer depends on Triton's documented semantics rather than
on arithmetic alone. Triton 3.6 syntax."""
import triton
import triton.language as tl


@triton.jit
def replicated_atomics_kernel(CNT, XCHG, CAS, HMAX, BX, TICKETS, XOLD, COLD, HOLD, BOLD, EW, NPROG,
                              R: tl.constexpr, C: tl.constexpr):
    """R atomics per program on an R-element tile, smaller than the CTA, so
    several threads hold each element; each old value is then used broadcast
    over C columns (an [R, C] store), where every holder must see the value
    the one issued atomic returned; the int results are also stored
    element-wise (EW[(pid * 3 + j) * R + r], one more than the value)."""
    pid = tl.program_id(0)
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    zeros = tl.zeros([R], dtype=tl.int32)
    # Tickets: each program draws one per counter; row `ticket` names it.
    t = tl.atomic_add(CNT + r, 1)
    tl.store(TICKETS + (r[:, None] * NPROG + t[:, None]) * C + c[None, :], pid + 0 * t[:, None])
    rows = (r[:, None] * NPROG + pid) * C + c[None, :]
    x = tl.atomic_xchg(XCHG + r, zeros + pid + 1)
    tl.store(XOLD + rows, x[:, None] * 1)
    o = tl.atomic_cas(CAS + r, zeros, zeros + pid + 1)
    tl.store(COLD + rows, o[:, None] + 0 * c[None, :])
    tl.store(EW + (pid * 3 + 0) * R + r, t + 1)
    tl.store(EW + (pid * 3 + 1) * R + r, x + 1)
    tl.store(EW + (pid * 3 + 2) * R + r, o + 1)
    # 16-bit compare-and-swap loops: fp16 max, bf16 exchange.
    v = (1.0 + (pid + r).to(tl.float32) / 64.0).to(tl.float16)
    h = tl.atomic_max(HMAX + r, v)
    tl.store(HOLD + rows, tl.broadcast_to(h[:, None], (R, C)))
    bv = (2.0 + (pid + r).to(tl.float32) / 32.0).to(tl.bfloat16)
    b = tl.atomic_xchg(BX + r, bv)
    tl.store(BOLD + rows, tl.broadcast_to(b[:, None], (R, C)))


@triton.jit
def nan_reductions_kernel(X, VAL, IDX, N, NROWS, BLOCK: tl.constexpr, ROWS: tl.constexpr):
    """Float reductions under NaN, +-0.0 and +-inf, per row of X [NROWS, N], ROWS rows per program
    (N <= BLOCK; the BLOCK-wide tiles read masked elements as -inf for the
    max kind and +inf for the min kind). Row r of output k (VAL[k * NROWS + r],
    IDX[k * NROWS + r]): k = 0 tl.max, 1 tl.max(return_indices=True), 2
    tl.argmax, 3..5 the same for min, 6..11 all of them with
    propagate_nan=tl.PropagateNan.ALL, 12 / 13 tl.maximum / tl.minimum over
    16-column chunks in a loop, then reduced (NONE), 14 / 15 the same with ALL."""
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    c = tl.arange(0, BLOCK)
    offs = r[:, None] * N + c[None, :]
    m = c[None, :] < N
    lo = tl.load(X + offs, mask=m, other=float('-inf'))
    hi = tl.load(X + offs, mask=m, other=float('inf'))
    ALL: tl.constexpr = tl.PropagateNan.ALL
    tl.store(VAL + 0 * NROWS + r, tl.max(lo, axis=1))
    v, i = tl.max(lo, axis=1, return_indices=True)
    tl.store(VAL + 1 * NROWS + r, v)
    tl.store(IDX + 1 * NROWS + r, i)
    tl.store(IDX + 2 * NROWS + r, tl.argmax(lo, axis=1))
    tl.store(VAL + 3 * NROWS + r, tl.min(hi, axis=1))
    v, i = tl.min(hi, axis=1, return_indices=True)
    tl.store(VAL + 4 * NROWS + r, v)
    tl.store(IDX + 4 * NROWS + r, i)
    tl.store(IDX + 5 * NROWS + r, tl.argmin(hi, axis=1))
    tl.store(VAL + 6 * NROWS + r, tl.max(lo, axis=1, propagate_nan=ALL))
    v, i = tl.max(lo, axis=1, return_indices=True, propagate_nan=ALL)
    tl.store(VAL + 7 * NROWS + r, v)
    tl.store(IDX + 7 * NROWS + r, i)
    tl.store(IDX + 8 * NROWS + r, tl.argmax(lo, axis=1, propagate_nan=ALL))
    tl.store(VAL + 9 * NROWS + r, tl.min(hi, axis=1, propagate_nan=ALL))
    v, i = tl.min(hi, axis=1, return_indices=True, propagate_nan=ALL)
    tl.store(VAL + 10 * NROWS + r, v)
    tl.store(IDX + 10 * NROWS + r, i)
    tl.store(IDX + 11 * NROWS + r, tl.argmin(hi, axis=1, propagate_nan=ALL))
    amax = tl.full([ROWS, 16], float('-inf'), tl.float32)
    amin = tl.full([ROWS, 16], float('inf'), tl.float32)
    pmax = amax
    pmin = amin
    for k in range(0, BLOCK, 16):
        cc = k + tl.arange(0, 16)
        cm = cc[None, :] < N
        a = tl.load(X + r[:, None] * N + cc[None, :], mask=cm, other=float('-inf'))
        b = tl.load(X + r[:, None] * N + cc[None, :], mask=cm, other=float('inf'))
        amax = tl.maximum(amax, a)
        amin = tl.minimum(amin, b)
        pmax = tl.maximum(pmax, a, propagate_nan=ALL)
        pmin = tl.minimum(pmin, b, propagate_nan=ALL)
    tl.store(VAL + 12 * NROWS + r, tl.max(amax, axis=1))
    tl.store(VAL + 13 * NROWS + r, tl.min(amin, axis=1))
    tl.store(VAL + 14 * NROWS + r, tl.max(pmax, axis=1, propagate_nan=ALL))
    tl.store(VAL + 15 * NROWS + r, tl.min(pmin, axis=1, propagate_nan=ALL))


@triton.jit
def fdiv_kernel(X, Y, APPROX, IEEE, n, BLOCK: tl.constexpr):
    """tl.fdiv: the default may be approximate (div.full.f32, as `/`);
    ieee_rounding=True is the IEEE-rounded quotient (div.rn.f32)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(X + offs, mask=m)
    y = tl.load(Y + offs, mask=m)
    tl.store(APPROX + offs, tl.fdiv(x, y), mask=m)
    tl.store(IEEE + offs, tl.fdiv(x, y, ieee_rounding=True), mask=m)


@triton.jit
def histogram_kernel(X, HIST, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    """tl.histogram of each program's BLOCK values (masked past n: not
    counted), summed into HIST by atomics with an integer mask (nonzero is
    true, as for loads and stores)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(X + offs, mask=m, other=0)
    h = tl.histogram(x, BINS, mask=m)
    bins = tl.arange(0, BINS)
    tl.atomic_add(HIST + bins, h, mask=h)


@triton.jit
def split_join_kernel(X, Y, J, I, A, B, n, BLOCK: tl.constexpr):
    """tl.join, tl.interleave and tl.split, exact: J[i, 0] = X[i],
    J[i, 1] = Y[i] (J is [n, 2]); I = interleave(X, Y) (I[2i] = X[i],
    I[2i + 1] = Y[i]); (A, B) = split(join(Y, X)) = (Y, X); elements past n
    are masked off."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(X + offs, mask=m)
    y = tl.load(Y + offs, mask=m)
    pair = tl.arange(0, 2)
    jm = m[:, None] & (pair[None, :] < 2)
    tl.store(J + offs[:, None] * 2 + pair[None, :], tl.join(x, y), mask=jm)
    offs2 = tl.program_id(0) * 2 * BLOCK + tl.arange(0, 2 * BLOCK)
    tl.store(I + offs2, tl.interleave(x, y), mask=offs2 < 2 * n)
    a, b = tl.join(y, x).split()
    tl.store(A + offs, a, mask=m)
    tl.store(B + offs, b, mask=m)


@triton.jit
def bool_order_kernel(X, OUT, n, BLOCK: tl.constexpr):
    """int1 orders as unsigned (Triton's UINT_TYPES: False < True): OUT[i]
    packs a > b, a >= b, a < b, a <= b, tl.maximum(a, b), tl.minimum(a, b)
    as bits 0-5 for a, b = bits 0, 1 of X[i]; OUT[n + 3 pid] is the argmax
    of c = (X & 0x3FF0) == 0 over the program's block (its first True; 0 if
    none), OUT[n + 3 pid + 1] the argmin of not-c (the same index), lanes
    past n false in c; OUT[n + 3 pid + 2] is (tl.sum(c) - 3) // 2, in
    uint32 as Triton's sum of a mask (it wraps below 3 Trues)."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(X + offs, mask=m, other=0)
    a = (x & 1) != 0
    b = (x & 2) != 0
    r = ((a > b).to(tl.int32) + (a >= b).to(tl.int32) * 2 + (a < b).to(tl.int32) * 4
         + (a <= b).to(tl.int32) * 8 + tl.maximum(a, b).to(tl.int32) * 16
         + tl.minimum(a, b).to(tl.int32) * 32)
    tl.store(OUT + offs, r, mask=m)
    c = ((x & 0x3FF0) == 0) & m
    tl.store(OUT + n + pid * 3, tl.argmax(c, axis=0))
    tl.store(OUT + n + pid * 3 + 1, tl.argmin(~c, axis=0))
    tl.store(OUT + n + pid * 3 + 2, (tl.sum(c, axis=0) - 3) // 2)


@triton.jit
def int_half_kernel(X, H, OH, OB, I, n, BLOCK: tl.constexpr):
    """Integers to and from f16/bf16 (Triton's .to: round to nearest even
    from integers, toward zero back): OH[i] = f16(X[i]), OB[i] = bf16(X[i]),
    I[i] = int32(H[i]) (H finite f16), I[n + i] = f16(int8(X[i])) back to
    int32 (the 8-bit path, exact)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(X + offs, mask=m, other=0)
    h = tl.load(H + offs, mask=m, other=0.0)
    tl.store(OH + offs, x.to(tl.float16), mask=m)
    tl.store(OB + offs, x.to(tl.bfloat16), mask=m)
    tl.store(I + offs, h.to(tl.int32), mask=m)
    tl.store(I + n + offs, x.to(tl.int8).to(tl.float16).to(tl.int32), mask=m)
