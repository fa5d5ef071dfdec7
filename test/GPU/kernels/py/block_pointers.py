# Block pointers (tl.make_block_ptr / tl.advance, Triton 3.6 semantics):
# GPU cases of test/GPU/SemanticsTests.cpp.
import triton
import triton.language as tl


@triton.jit
def block_ptr_load_kernel(x_ptr, y_ptr, z_ptr, M, N, stride_xm,
                          SHIFT_M: tl.constexpr, SHIFT_N: tl.constexpr,
                          BM: tl.constexpr, BN: tl.constexpr):
    # Program (i, j) reads the block of x [M, N] at (i*BM - SHIFT_M,
    # j*BN - SHIFT_N), partly outside at every edge, and writes it whole to
    # block (i, j) of y (zero padding) and z (NaN padding), both dense
    # [grid_m*BM, grid_n*BN].
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x = tl.make_block_ptr(x_ptr, (M, N), (stride_xm, 1),
                          (pid_m * BM - SHIFT_M, pid_n * BN - SHIFT_N),
                          (BM, BN), (1, 0))
    a = tl.load(x, boundary_check=(0, 1), padding_option="zero")
    b = tl.load(x, boundary_check=(1, 0), padding_option="nan")
    width = tl.num_programs(1) * BN
    height = tl.num_programs(0) * BM
    y = tl.make_block_ptr(base=y_ptr, shape=(height, width),
                          strides=(width, 1), offsets=(pid_m * BM, pid_n * BN),
                          block_shape=(BM, BN), order=(1, 0))
    tl.store(y, a)
    z = tl.make_block_ptr(z_ptr, (height, width), (width, 1),
                          (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(z, b)


@triton.jit
def block_ptr_store_kernel(x_ptr, out_ptr, M, N, stride_om,
                           BM: tl.constexpr, BN: tl.constexpr):
    # out [M, N] (rows stride_om apart) = x + 1, x dense [grid_m*BM,
    # grid_n*BN]: the stores outside [M, N] are dropped (boundary_check), the
    # padding columns of out stay untouched.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    width = tl.num_programs(1) * BN
    x = tl.make_block_ptr(x_ptr, (tl.num_programs(0) * BM, width), (width, 1),
                          (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    o = tl.make_block_ptr(out_ptr, (M, N), (stride_om, 1),
                          (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(o, tl.load(x) + 1, boundary_check=(0, 1))


@triton.jit
def block_ptr_rowsum_kernel(x_ptr, sum_ptr, colsum_ptr, M, N, stride_m,
                            BM: tl.constexpr, BN: tl.constexpr):
    # Row sums of x [M, N] with a block pointer advanced along the rows in a
    # for loop (sum_ptr[0:M]) and the same in a while loop walking the
    # columns from the right through the transposed view, order (0, 1)
    # (colsum_ptr[0:M]).
    pid = tl.program_id(0)
    p = tl.make_block_ptr(x_ptr, (M, N), (stride_m, 1), (pid * BM, 0),
                          (BM, BN), (1, 0))
    acc = tl.zeros((BM,), tl.float32)
    for k in range(0, N, BN):
        acc += tl.sum(tl.load(p, boundary_check=(0, 1)), axis=1)
        p = tl.advance(p, (0, BN))
    out = tl.make_block_ptr(sum_ptr, (M,), (1,), (pid * BM,), (BM,), (0,))
    tl.store(out, acc, boundary_check=(0,))

    last = tl.cdiv(N, BN) * BN - BN
    t = tl.make_block_ptr(x_ptr, (N, M), (1, stride_m), (last, pid * BM),
                          (BN, BM), (0, 1))
    acc2 = tl.zeros((BM,), tl.float32)
    k = last
    while k >= 0:
        acc2 += tl.sum(tl.load(t, boundary_check=(0, 1), padding_option="zero"),
                       axis=0)
        t = tl.advance(t, (-BN, 0))
        k -= BN
    out2 = tl.make_block_ptr(colsum_ptr, (M,), (1,), (pid * BM,), (BM,), (0,))
    tl.store(out2, acc2, boundary_check=(0,))
