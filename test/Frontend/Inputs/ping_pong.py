"""Kernels around ping-pong consumer groups (--num-consumer-groups 2):
tutorial 09-style persistent TMA matmuls on host descriptors, each with one
thing that changes what the option may do (test/Frontend/ping-pong.test)."""
import triton
import triton.language as tl


@triton.jit
def seq_accumulate(a_desc, b_desc, c_ptr, M, N, K, stride_cm, NUM_STAGES: tl.constexpr):
    """Each program adds two K halves of its block into C, one after the
    other, with a load and a store: right only in the loop's order, so the
    tiles may not run in two groups."""
    BLOCK_M: tl.constexpr = a_desc.block_shape[0]
    BLOCK_K: tl.constexpr = a_desc.block_shape[1]
    BLOCK_N: tl.constexpr = b_desc.block_shape[0]
    num_pid_n = tl.cdiv(N, BLOCK_N)
    half = tl.cdiv(tl.cdiv(K, BLOCK_K), 2)
    for item in tl.range(tl.program_id(0) * 2, tl.program_id(0) * 2 + 2, 1,
                         flatten=True, warp_specialize=True):
        blk = item // 2
        offs_m = (blk // num_pid_n) * BLOCK_M
        offs_n = (blk % num_pid_n) * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in tl.range(half, num_stages=NUM_STAGES):
            kk = ((item % 2) * half + k) * BLOCK_K
            acc = tl.dot(a_desc.load([offs_m, kk]), b_desc.load([offs_n, kk]).T, acc)
        rm = offs_m + tl.arange(0, BLOCK_M)
        rn = offs_n + tl.arange(0, BLOCK_N)
        ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :]
        mask = (rm[:, None] < M) & (rn[None, :] < N)
        tl.store(ptrs, tl.load(ptrs, mask=mask, other=0.0) + acc, mask=mask)


@triton.jit
def column_bias(a_desc, b_desc, c_desc, M, N, K, NUM_STAGES: tl.constexpr, R: tl.constexpr):
    """A bias computed before the tile loop through a transposition whose
    scratch (R x BLOCK_N fp32) each consumer group would need again."""
    BLOCK_M: tl.constexpr = a_desc.block_shape[0]
    BLOCK_K: tl.constexpr = a_desc.block_shape[1]
    BLOCK_N: tl.constexpr = b_desc.block_shape[0]
    num_pid_n = tl.cdiv(N, BLOCK_N)
    t = (tl.arange(0, R)[:, None] * 3 + tl.arange(0, BLOCK_N)[None, :] * 7 + M).to(tl.float32)
    bias = tl.sum(tl.trans(t), axis=1)
    for tile in tl.range(tl.program_id(0), tl.cdiv(M, BLOCK_M) * num_pid_n, tl.num_programs(0),
                         flatten=True, warp_specialize=True):
        offs_m = (tile // num_pid_n) * BLOCK_M
        offs_n = (tile % num_pid_n) * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in tl.range(tl.cdiv(K, BLOCK_K), num_stages=NUM_STAGES):
            acc = tl.dot(a_desc.load([offs_m, k * BLOCK_K]), b_desc.load([offs_n, k * BLOCK_K]).T,
                         acc)
        c_desc.store([offs_m, offs_n], (acc + bias[None, :]).to(c_desc.dtype))


@triton.jit
def constant_k(a_desc, b_desc, c_desc, M, N, K_TILES: tl.constexpr, NUM_STAGES: tl.constexpr):
    """The K loop's trip count is a constant."""
    BLOCK_M: tl.constexpr = a_desc.block_shape[0]
    BLOCK_K: tl.constexpr = a_desc.block_shape[1]
    BLOCK_N: tl.constexpr = b_desc.block_shape[0]
    num_pid_n = tl.cdiv(N, BLOCK_N)
    for tile in tl.range(tl.program_id(0), tl.cdiv(M, BLOCK_M) * num_pid_n, tl.num_programs(0),
                         flatten=True, warp_specialize=True):
        offs_m = (tile // num_pid_n) * BLOCK_M
        offs_n = (tile % num_pid_n) * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in tl.range(K_TILES, num_stages=NUM_STAGES):
            acc = tl.dot(a_desc.load([offs_m, k * BLOCK_K]), b_desc.load([offs_n, k * BLOCK_K]).T,
                         acc)
        c_desc.store([offs_m, offs_n], acc.to(c_desc.dtype))


@triton.jit
def two_accumulators(a_desc, a2_desc, b_desc, c_desc, M, N, K, NUM_STAGES: tl.constexpr):
    """Two accumulator chains read by one epilogue."""
    BLOCK_M: tl.constexpr = a_desc.block_shape[0]
    BLOCK_K: tl.constexpr = a_desc.block_shape[1]
    BLOCK_N: tl.constexpr = b_desc.block_shape[0]
    num_pid_n = tl.cdiv(N, BLOCK_N)
    for tile in tl.range(tl.program_id(0), tl.cdiv(M, BLOCK_M) * num_pid_n, tl.num_programs(0),
                         flatten=True, warp_specialize=True):
        offs_m = (tile // num_pid_n) * BLOCK_M
        offs_n = (tile % num_pid_n) * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        acc2 = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in tl.range(tl.cdiv(K, BLOCK_K), num_stages=NUM_STAGES):
            b = b_desc.load([offs_n, k * BLOCK_K])
            acc = tl.dot(a_desc.load([offs_m, k * BLOCK_K]), b.T, acc)
            acc2 = tl.dot(a2_desc.load([offs_m, k * BLOCK_K]), b.T, acc2)
        c_desc.store([offs_m, offs_n], (acc * acc2).to(c_desc.dtype))
