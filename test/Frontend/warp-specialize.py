"""Kernels for warp-specialize.test: warp_specialize=True where the
producer's copy of the kernel must drop values without a zero (a pointer
chosen by an if around the loop, a pointer carried by an earlier loop), and
two hinted loops whose buffers, warp-specialized, would not fit."""
import triton
import triton.language as tl


@triton.jit
def pointer_if(a_desc, b_desc, c_desc, out_ptr, M, N, K, NUM_STAGES: tl.constexpr):
    BM: tl.constexpr = a_desc.block_shape[0]
    BK: tl.constexpr = a_desc.block_shape[1]
    BN: tl.constexpr = b_desc.block_shape[0]
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    p = out_ptr
    if pid_m < M:
        for k in tl.range(tl.cdiv(K, BK), num_stages=NUM_STAGES, warp_specialize=True):
            a = a_desc.load([pid_m * BM, k * BK])
            b = b_desc.load([pid_n * BN, k * BK])
            acc = tl.dot(a, b.T, acc)
        p = out_ptr + pid_m
    else:
        p = out_ptr + 1
    tl.store(p, tl.sum(acc))
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(c_desc.dtype))


@triton.jit
def pointer_loop(a_desc, b_desc, c_desc, out_ptr, M, N, K, NUM_STAGES: tl.constexpr):
    BM: tl.constexpr = a_desc.block_shape[0]
    BK: tl.constexpr = a_desc.block_shape[1]
    BN: tl.constexpr = b_desc.block_shape[0]
    p = out_ptr
    off = 0
    for j in range(M):
        p = p + 1
        off = off + 1
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(tl.cdiv(K, BK), num_stages=NUM_STAGES, warp_specialize=True):
        a = a_desc.load([tl.program_id(0) * BM + off, k * BK])
        b = b_desc.load([tl.program_id(1) * BN, k * BK])
        acc = tl.dot(a, b.T, acc)
    tl.store(p, tl.sum(acc))


@triton.jit
def two_loops(a_desc, b_desc, c_desc, M, N, K, NUM_STAGES: tl.constexpr):
    BM: tl.constexpr = a_desc.block_shape[0]
    BK: tl.constexpr = a_desc.block_shape[1]
    BN: tl.constexpr = b_desc.block_shape[0]
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(tl.cdiv(K, BK), num_stages=NUM_STAGES, warp_specialize=True):
        a = a_desc.load([pid_m * BM, k * BK])
        b = b_desc.load([pid_n * BN, k * BK])
        acc = tl.dot(a, b.T, acc)
    for k in tl.range(tl.cdiv(K, BK), num_stages=NUM_STAGES, warp_specialize=True):
        a = a_desc.load([pid_m * BM, k * BK])
        b = b_desc.load([pid_n * BN, k * BK])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(c_desc.dtype))
