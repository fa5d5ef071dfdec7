"""tl.dot kernels for tilec's GPU tests (test/GPU/DotTests.cpp) and the GEMM
benchmark (bench/bench_gemm.py): one general GEMM specialized per input type,
input precision, pipeline depth and stride facts, and smaller kernels for what
the general one does not exercise (transposed tiles through tl.trans, a chain
of two dots, a loaded accumulator, memory operations in a pipelined loop that
do not feed the dot). Triton 3.6 syntax; the benchmark runs these same
functions through Triton. tilec reads only the @triton.jit functions."""
import torch

import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr, NUM_STAGES: tl.constexpr,
                  ACC_INT32: tl.constexpr, UPCAST_FP16: tl.constexpr,
                  INPUT_PRECISION: tl.constexpr, ACTIVATION: tl.constexpr = ""):
    """C[M, N] = A[M, K] @ B[K, N] for any strides (row- or column-major A and
    B are the same kernel). ACC_INT32 accumulates in int32 (int8 inputs),
    else in fp32; UPCAST_FP16 converts the loaded tiles to fp16 before the
    dot (fp8 inputs the way pre-fp8 hardware needs them); INPUT_PRECISION is
    tl.dot's for fp32 inputs. ACTIVATION="gelu" applies the exact GELU,
    x / 2 * (1 + erf(x / sqrt(2))) (torch.nn.functional.gelu's default), to
    the fp32 accumulator: GEMM + GELU in one kernel. The result is cast to
    C's element type."""
    # Grouped ordering: GROUP_M rows of tiles share their B columns in L2.
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    if ACC_INT32:
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    else:
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    # Ragged M, N and K: every element outside A or B reads as 0, so the
    # padding of a partial tile adds nothing. `other` is cast to the element
    # type: an int for int8, a float for the float types (Triton cannot cast
    # an int to fp8).
    zero = 0 if ACC_INT32 else 0.0
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), num_stages=NUM_STAGES):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=zero)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=zero)
        if UPCAST_FP16:
            a = a.to(tl.float16)
            b = b.to(tl.float16)
        acc += tl.dot(a, b, input_precision=INPUT_PRECISION)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    if ACTIVATION == "gelu":
        acc = 0.5 * acc * (1.0 + tl.erf(acc * 0.7071067811865476))
    c = acc.to(c_ptr.dtype.element_ty)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def matmul_epilogue_kernel(a_ptr, b_ptr, c_ptr, bias_ptr, res_ptr, scale_a_ptr, scale_b_ptr,
                           M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                           stride_cm, stride_cn,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                           GROUP_M: tl.constexpr, NUM_STAGES: tl.constexpr,
                           ACTIVATION: tl.constexpr):
    """C = act(scale_a * scale_b * (A @ B) + bias) + R, fused after the
    accumulator: per-tensor scales (one fp32 each, torch._scaled_mm's
    scale_a and scale_b), a bias per column (fp32 [N]), ACTIVATION one of
    "relu", "gelu" (exact, erf), "gelu_tanh" (tanh approximation, written
    with sigmoid: 0.5 x (1 + tanh(y)) = x sigmoid(2 y)), "silu" (x
    sigmoid(x)) or "" (none), and a residual R [M, N] of C's type and
    strides; cast to C's type. fp32 accumulation, any strides, ragged
    M, N and K (zero-filled loads, masked stores)."""
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), num_stages=NUM_STAGES):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    acc = acc * (tl.load(scale_a_ptr) * tl.load(scale_b_ptr))
    acc += tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0)[None, :]
    if ACTIVATION == "relu":
        acc = tl.maximum(acc, 0.0)
    elif ACTIVATION == "gelu":
        acc = 0.5 * acc * (1.0 + tl.erf(acc * 0.7071067811865476))
    elif ACTIVATION == "gelu_tanh":
        acc = acc * tl.sigmoid(1.5957691216057308 * (acc + 0.044715 * acc * acc * acc))
    elif ACTIVATION == "silu":
        acc = acc * tl.sigmoid(acc)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    offs_c = offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    acc += tl.load(res_ptr + offs_c, mask=mask, other=0.0).to(tl.float32)
    tl.store(c_ptr + offs_c, acc.to(c_ptr.dtype.element_ty), mask=mask)


@triton.jit
def grouped_matmul_kernel(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_sizes, group_lds,
                          group_count, NUM_PROGRAMS: tl.constexpr, BLOCK_M: tl.constexpr,
                          BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                          NUM_STAGES: tl.constexpr):
    """Tutorial 08's grouped GEMM: C_g = A_g @ B_g (fp16, row-major) for
    g < group_count, the matrices' addresses loaded from int64 arrays and
    cast with .to(tl.pointer_type(tl.float16)), their sizes (M, N, K) and
    leading dimensions (lda, ldb, ldc) from int32 arrays. NUM_PROGRAMS
    programs walk the tiles of all groups in order, each taking every
    NUM_PROGRAMS-th. Unlike the tutorial, partial tiles are masked; as in
    it, tl.multiple_of promises 16-byte aligned rows."""
    tile = tl.program_id(0)
    first = 0
    for g in range(group_count):
        gm = tl.load(group_sizes + g * 3)
        gn = tl.load(group_sizes + g * 3 + 1)
        gk = tl.load(group_sizes + g * 3 + 2)
        tiles_n = tl.cdiv(gn, BLOCK_N)
        tiles = tl.cdiv(gm, BLOCK_M) * tiles_n
        while tile >= first and tile < first + tiles:
            lda = tl.load(group_lds + g * 3)
            ldb = tl.load(group_lds + g * 3 + 1)
            ldc = tl.load(group_lds + g * 3 + 2)
            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(tl.float16))
            t = tile - first
            offs_m = (t // tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
            offs_n = (t % tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
            offs_k = tl.arange(0, BLOCK_K)
            a_ptrs = a_ptr + offs_m[:, None] * lda + offs_k[None, :]
            b_ptrs = b_ptr + offs_k[:, None] * ldb + offs_n[None, :]
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for kk in tl.range(0, tl.cdiv(gk, BLOCK_K), num_stages=NUM_STAGES):
                tl.multiple_of(a_ptrs, [16, 16])
                tl.multiple_of(b_ptrs, [16, 16])
                k_left = gk - kk * BLOCK_K
                a = tl.load(a_ptrs, mask=(offs_m[:, None] < gm) & (offs_k[None, :] < k_left),
                            other=0.0)
                b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < gn),
                            other=0.0)
                acc += tl.dot(a, b)
                a_ptrs += BLOCK_K
                b_ptrs += BLOCK_K * ldb
            c_ptrs = c_ptr + offs_m[:, None] * ldc + offs_n[None, :]
            tl.store(c_ptrs, acc.to(tl.float16),
                     mask=(offs_m[:, None] < gm) & (offs_n[None, :] < gn))
            tile += NUM_PROGRAMS
        first += tiles


@triton.jit
def matmul_trans_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                        stride_a0, stride_a1, stride_b0, stride_b1, stride_cm, stride_cn,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                        TRANS_A: tl.constexpr, TRANS_B: tl.constexpr,
                        NUM_STAGES: tl.constexpr):
    """C = op(A) @ op(B) where op transposes a tile in registers: with
    TRANS_A, A is stored as A^T [K, M] (strides stride_a0 along K, stride_a1
    along M) and each [BLOCK_K, BLOCK_M] tile is transposed by `.T`; with
    TRANS_B, B is stored as B^T [N, K] and each [BLOCK_N, BLOCK_K] tile is
    transposed by tl.trans. Without them the stored matrices are [M, K] and
    [K, N] as in matmul_kernel. fp32 accumulation, fp32 C."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in tl.range(0, K, BLOCK_K, num_stages=NUM_STAGES):
        ks = k0 + offs_k
        if TRANS_A:
            at = tl.load(a_ptr + ks[:, None] * stride_a0 + offs_m[None, :] * stride_a1,
                         mask=(ks[:, None] < K) & (offs_m[None, :] < M), other=0.0)
            a = at.T
        else:
            a = tl.load(a_ptr + offs_m[:, None] * stride_a0 + ks[None, :] * stride_a1,
                        mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        if TRANS_B:
            bt = tl.load(b_ptr + offs_n[:, None] * stride_b0 + ks[None, :] * stride_b1,
                         mask=(offs_n[:, None] < N) & (ks[None, :] < K), other=0.0)
            b = tl.trans(bt)
        else:
            b = tl.load(b_ptr + ks[:, None] * stride_b0 + offs_n[None, :] * stride_b1,
                        mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def matmul_acc_kernel(a_ptr, b_ptr, c_ptr, d_ptr, M, N, K,
                      stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                      stride_dm, stride_dn,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                      NUM_STAGES: tl.constexpr):
    """D = C + A @ B with the dot's third operand: the accumulator starts as
    the loaded C tile (fp32) and every step is acc = tl.dot(a, b, acc). With
    K = 0 the loop runs zero times and D = C."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    mn_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    acc = tl.load(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn,
                  mask=mn_mask, other=0.0)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), num_stages=NUM_STAGES):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    tl.store(d_ptr + offs_m[:, None] * stride_dm + offs_n[None, :] * stride_dn, acc,
             mask=mn_mask)


@triton.jit
def attention_chain_kernel(q_ptr, k_ptr, v_ptr, s_ptr, o_ptr, L, D,
                           BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    """Two dots in a chain, as attention has them, one program per batch
    entry b: S = Q K^T ([L, L], fp32, stored), then O = S.to(fp16) @ V
    ([L, D], fp32). Q, K, V are [B, L, D] fp16, contiguous; S is [B, L, L]
    and O [B, L, D]. L <= BLOCK_L and D <= BLOCK_D (masked)."""
    b = tl.program_id(0)
    offs_l = tl.arange(0, BLOCK_L)
    offs_d = tl.arange(0, BLOCK_D)
    ld_mask = (offs_l[:, None] < L) & (offs_d[None, :] < D)
    base = b * L * D
    tile = offs_l[:, None] * D + offs_d[None, :]
    q = tl.load(q_ptr + base + tile, mask=ld_mask, other=0.0)
    k = tl.load(k_ptr + base + tile, mask=ld_mask, other=0.0)
    v = tl.load(v_ptr + base + tile, mask=ld_mask, other=0.0)
    s = tl.dot(q, tl.trans(k))
    ll_mask = (offs_l[:, None] < L) & (offs_l[None, :] < L)
    tl.store(s_ptr + b * L * L + offs_l[:, None] * L + offs_l[None, :], s, mask=ll_mask)
    o = tl.dot(s.to(tl.float16), v)
    tl.store(o_ptr + base + tile, o, mask=ld_mask)


@triton.jit
def matmul_aux_kernel(a_ptr, b_ptr, c_ptr, idx_ptr, aux_ptr, M, N, K,
                      stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                      AUX_LEN,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                      AUX_VEC: tl.constexpr, NUM_STAGES: tl.constexpr):
    """A pipelined GEMM (fp32 accumulation, fp32 C) whose K loop also runs
    memory operations that do not feed the dot: in iteration k, program p
    reads i = idx[k] and updates the AUX_VEC int32s of slot i of its aux row,
    aux[p][i][:] = aux[p][i][:] * 3 + k + 1 (wrapping). idx repeats slots, so
    a load of aux moved above an earlier iteration's store (prefetched by a
    pipeliner) reads a stale value and the result differs from the
    sequential one. The load and the store of a slot use the same pointer
    tile, so each element is read back by the thread that wrote it: with
    AUX_VEC = 32 * num_warps no other thread is involved.
    Triton 3.6 itself does not keep this order at num_stages > 1 (it
    prefetches the aux load); tilec's tests require program order."""
    pid = tl.program_id(0)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    aux_row = aux_ptr + pid * AUX_LEN * AUX_VEC
    offs_aux = tl.arange(0, AUX_VEC)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), num_stages=NUM_STAGES):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        i = tl.load(idx_ptr + k)
        slot = aux_row + i * AUX_VEC + offs_aux
        old = tl.load(slot)
        tl.store(slot, old * 3 + k + 1)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def matmul_desc_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                       stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                       GROUP_M: tl.constexpr, NUM_STAGES: tl.constexpr,
                       ACTIVATION: tl.constexpr = "", FLATTEN: tl.constexpr = False,
                       WARP_SPECIALIZE: tl.constexpr = False):
    """C = A @ B as Triton's tutorial 09 writes it with device-side tensor
    descriptors (row-major A, B and C: stride_ak, stride_bn and stride_cn
    must be 1), persistent: each program loops over output tiles in grouped
    order, stepping by the number of programs, so any grid is correct.
    Partial tiles need no masks: the descriptors zero-fill and clip.
    ACTIVATION="gelu" applies the exact GELU to the fp32 accumulator, as
    matmul_kernel does. FLATTEN is tl.range's flatten= for the loop over
    tiles (the next tile's loads overlap this tile's epilogue), WARP_SPECIALIZE
    its warp_specialize= (a producer warp issues the loads)."""
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[stride_am, stride_ak],
                                       block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[stride_bk, stride_bn],
                                       block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[stride_cm, stride_cn],
                                       block_shape=[BLOCK_M, BLOCK_N])
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    num_tiles = num_pid_m * num_pid_n
    num_pid_in_group = GROUP_M * num_pid_n
    for tile_id in tl.range(tl.program_id(0), num_tiles, tl.num_programs(0), flatten=FLATTEN,
                            warp_specialize=WARP_SPECIALIZE):
        group_id = tile_id // num_pid_in_group
        first_pid_m = group_id * GROUP_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
        pid_m = first_pid_m + (tile_id % group_size_m)
        pid_n = (tile_id % num_pid_in_group) // group_size_m
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in tl.range(0, k_tiles, num_stages=NUM_STAGES):
            a = a_desc.load([pid_m * BLOCK_M, ki * BLOCK_K])
            b = b_desc.load([ki * BLOCK_K, pid_n * BLOCK_N])
            acc = tl.dot(a, b, acc)
        if ACTIVATION == "gelu":
            acc = 0.5 * acc * (1.0 + tl.erf(acc * 0.7071067811865476))
        c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_ptr.dtype.element_ty))


def matmul(a, b, out_dtype=None, BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8,
           num_stages=3, num_warps=8):
    """C = A @ B through matmul_kernel with Triton (fp16/bf16 inputs)."""
    M, K = a.shape
    K2, N = b.shape
    assert K == K2, "incompatible dimensions"
    c = torch.empty((M, N), device=a.device, dtype=out_dtype or a.dtype)
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N), )
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                        BLOCK_K=BLOCK_K, GROUP_M=GROUP_M, NUM_STAGES=num_stages,
                        ACC_INT32=False, UPCAST_FP16=False, INPUT_PRECISION="tf32",
                        num_stages=num_stages, num_warps=num_warps)
    return c


if __name__ == "__main__":
    a = torch.randn(517, 333, device="cuda", dtype=torch.float16)
    b = torch.randn(333, 271, device="cuda", dtype=torch.float16)
    ref = a.float() @ b.float()
    print(f"max error: {(matmul(a, b, torch.float32) - ref).abs().max().item()}")
