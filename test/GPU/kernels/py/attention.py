"""Fused attention forward (FlashAttention-2's online softmax) for tilec's GPU
tests (test/GPU/AttentionTests.cpp) and the attention benchmark
(bench/bench_attention.py), in the style of Triton's tutorial 06: an inner
helper returning a tuple, block pointers, exp2 with log2(e) folded into the
scale, a STAGE-like split of the key loop. Triton 3.6 syntax; the benchmark
runs these same functions through Triton. tilec reads only the @triton.jit
functions.

Semantics (what the tests check, against a float64 reference):
  O[z, h] = softmax(Q[z, h] K[z, h]^T * sm_scale, masked) V[z, h]
for Q of N_Q rows and K, V of N_KV rows, HEAD_DIM columns each, any strides
but a unit stride along HEAD_DIM. CAUSAL masks key j for query i when j > i
(top-left aligned, as torch's is_causal). A query row that sees no key (with
top-left alignment only when N_KV = 0) gets O = 0 and M = 0, never NaN. M[z * H + h, i] is the row's log-sum-exp in
base 2 of the scaled scores: M = log2(sum_j exp2(s_ij * sm_scale * log2(e))),
the value the backward pass recomputes P from (P = exp2(s * scale2 - M))."""
import triton
import triton.language as tl


@triton.jit
def _softmax_step(qk, m_i, qk_scale, start_n, N_KV, offs_m, offs_n, MASKED: tl.constexpr,
                  CAUSAL: tl.constexpr):
    """One key block of the online softmax: the weights p = exp2(scaled
    scores - running max), the factor alpha rescaling what came before, and
    the new running max. MASKED blocks set the scores of keys >= N_KV (and,
    CAUSAL, of keys after the query) to -inf."""
    if MASKED:
        cols = start_n + offs_n[None, :]
        mask = cols < N_KV
        if CAUSAL:
            mask = mask & (offs_m[:, None] >= cols)
        qk = tl.where(mask, qk * qk_scale, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        # A row with every score so far masked keeps m = -inf; subtract 0
        # instead so exp2 gives 0, not exp2(-inf + inf) = NaN.
        m_use = tl.where(m_ij == float("-inf"), 0.0, m_ij)
        p = tl.math.exp2(qk - m_use[:, None])
        alpha = tl.math.exp2(m_i - m_use)
    else:
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        p = tl.math.exp2(qk * qk_scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
    return p, alpha, m_ij


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, K_block_ptr, V_block_ptr, start_m, qk_scale,
                    lo, hi, N_KV, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    MASKED: tl.constexpr, CAUSAL: tl.constexpr, offs_m, offs_n):
    """Key blocks [lo, hi) of one query block. MASKED blocks apply the causal
    mask and the key bound (the scores of keys >= N_KV, zero-filled by the
    boundary checks, become -inf); the others are wholly visible."""
    K_block_ptr = tl.advance(K_block_ptr, (0, lo))
    V_block_ptr = tl.advance(V_block_ptr, (lo, 0))
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        if MASKED:
            k = tl.load(K_block_ptr, boundary_check=(1,), padding_option="zero")
        else:
            k = tl.load(K_block_ptr)
        qk = tl.dot(q, k)
        p, alpha, m_ij = _softmax_step(qk, m_i, qk_scale, start_n, N_KV, offs_m, offs_n,
                                       MASKED, CAUSAL)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        if MASKED:
            v = tl.load(V_block_ptr, boundary_check=(0,), padding_option="zero")
        else:
            v = tl.load(V_block_ptr)
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
        V_block_ptr = tl.advance(V_block_ptr, (BLOCK_N, 0))
        K_block_ptr = tl.advance(K_block_ptr, (0, BLOCK_N))
    return acc, l_i, m_i


@triton.jit
def attn_fwd_kernel(Q, K, V, sm_scale, M, Out,
                    stride_qz, stride_qh, stride_qm, stride_qk,
                    stride_kz, stride_kh, stride_kn, stride_kk,
                    stride_vz, stride_vh, stride_vn, stride_vk,
                    stride_oz, stride_oh, stride_om, stride_ok,
                    H, N_Q, N_KV,
                    HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    CAUSAL: tl.constexpr):
    """One program per BLOCK_M query rows of one (batch, head): grid
    (cdiv(N_Q, BLOCK_M), Z * H). Q, K, V, Out: [Z, H, N, HEAD_DIM] fp16 or
    bf16 through their strides; M: fp32 [Z * H, N_Q]; sm_scale: fp32.
    Requires BLOCK_M % BLOCK_N == 0."""
    tl.static_assert(BLOCK_M % BLOCK_N == 0)
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    q_offset = off_z.to(tl.int64) * stride_qz + off_h.to(tl.int64) * stride_qh
    k_offset = off_z.to(tl.int64) * stride_kz + off_h.to(tl.int64) * stride_kh
    v_offset = off_z.to(tl.int64) * stride_vz + off_h.to(tl.int64) * stride_vh
    o_offset = off_z.to(tl.int64) * stride_oz + off_h.to(tl.int64) * stride_oh
    Q_block_ptr = tl.make_block_ptr(base=Q + q_offset, shape=(N_Q, HEAD_DIM),
                                    strides=(stride_qm, stride_qk),
                                    offsets=(start_m * BLOCK_M, 0),
                                    block_shape=(BLOCK_M, HEAD_DIM), order=(1, 0))
    K_block_ptr = tl.make_block_ptr(base=K + k_offset, shape=(HEAD_DIM, N_KV),
                                    strides=(stride_kk, stride_kn), offsets=(0, 0),
                                    block_shape=(HEAD_DIM, BLOCK_N), order=(0, 1))
    V_block_ptr = tl.make_block_ptr(base=V + v_offset, shape=(N_KV, HEAD_DIM),
                                    strides=(stride_vn, stride_vk), offsets=(0, 0),
                                    block_shape=(BLOCK_N, HEAD_DIM), order=(1, 0))
    O_block_ptr = tl.make_block_ptr(base=Out + o_offset, shape=(N_Q, HEAD_DIM),
                                    strides=(stride_om, stride_ok),
                                    offsets=(start_m * BLOCK_M, 0),
                                    block_shape=(BLOCK_M, HEAD_DIM), order=(1, 0))
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # 1/ln(2): exp(x) = exp2(x * log2(e))
    q = tl.load(Q_block_ptr, boundary_check=(0,), padding_option="zero")
    # Keys every row of the block sees: whole blocks below the diagonal
    # (causal) or below N_KV; the rest (the diagonal blocks, the ragged last
    # block) is masked.
    full = (N_KV // BLOCK_N) * BLOCK_N
    if CAUSAL:
        full = tl.minimum(full, start_m * BLOCK_M)
        hi = tl.minimum(N_KV, (start_m + 1) * BLOCK_M)
    else:
        hi = N_KV
    acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K_block_ptr, V_block_ptr, start_m,
                                    qk_scale, 0, full, N_KV, BLOCK_M, BLOCK_N,
                                    False, CAUSAL, offs_m, offs_n)
    acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K_block_ptr, V_block_ptr, start_m,
                                    qk_scale, full, hi, N_KV, BLOCK_M, BLOCK_N,
                                    True, CAUSAL, offs_m, offs_n)
    # Rows that saw no key: l = 0, m = -inf; give O = 0 and M = 0.
    l_safe = tl.where(l_i == 0.0, 1.0, l_i)
    m_safe = tl.where(m_i == float("-inf"), 0.0, m_i)
    tl.store(M + off_hz.to(tl.int64) * N_Q + offs_m, m_safe + tl.math.log2(l_safe),
             mask=offs_m < N_Q)
    acc = acc / l_safe[:, None]
    tl.store(O_block_ptr, acc.to(Out.type.element_ty), boundary_check=(0,))


@triton.jit
def _attn_fwd_desc_inner(acc, l_i, m_i, q, desc_k, desc_v, k_row0, qk_scale, lo, hi, N_KV,
                         BLOCK_N: tl.constexpr, MASKED: tl.constexpr, CAUSAL: tl.constexpr,
                         offs_m, offs_n, WARP_SPECIALIZE: tl.constexpr):
    """_attn_fwd_inner over tensor descriptors: key block [start_n,
    start_n + BLOCK_N) of this head is rows k_row0 + start_n of the
    flattened [Z * H * N_KV, HEAD_DIM] K and V (rows past N_KV belong to the
    next head, or are zero past the tensor: masked either way)."""
    for start_n in tl.range(lo, hi, BLOCK_N, warp_specialize=WARP_SPECIALIZE):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = desc_k.load([k_row0 + start_n, 0]).T
        qk = tl.dot(q, k)
        p, alpha, m_ij = _softmax_step(qk, m_i, qk_scale, start_n, N_KV, offs_m, offs_n,
                                       MASKED, CAUSAL)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = desc_v.load([k_row0 + start_n, 0])
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
    return acc, l_i, m_i


@triton.jit
def attn_fwd_desc_kernel(Q, K, V, sm_scale, M, Out, Z, H, N_Q, N_KV,
                         HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                         BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr,
                         WARP_SPECIALIZE: tl.constexpr):
    """attn_fwd_kernel on tensor descriptors, as Triton's tutorial 06 has
    them: Q, K, V contiguous [Z, H, N, HEAD_DIM] (BHSD) seen as 2-D [Z * H *
    N, HEAD_DIM] tensors, so the blocks can be copied with TMA; Out is
    stored with a masked store (a descriptor store of a ragged last block
    would write the next head's rows). Same semantics, grid and M as
    attn_fwd_kernel."""
    tl.static_assert(BLOCK_M % BLOCK_N == 0)
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    desc_q = tl.make_tensor_descriptor(Q, shape=[Z * H * N_Q, HEAD_DIM],
                                       strides=[HEAD_DIM, 1], block_shape=[BLOCK_M, HEAD_DIM])
    desc_k = tl.make_tensor_descriptor(K, shape=[Z * H * N_KV, HEAD_DIM],
                                       strides=[HEAD_DIM, 1], block_shape=[BLOCK_N, HEAD_DIM])
    desc_v = tl.make_tensor_descriptor(V, shape=[Z * H * N_KV, HEAD_DIM],
                                       strides=[HEAD_DIM, 1], block_shape=[BLOCK_N, HEAD_DIM])
    q_row0 = off_hz * N_Q
    k_row0 = off_hz * N_KV
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    q = desc_q.load([q_row0 + start_m * BLOCK_M, 0])
    full = (N_KV // BLOCK_N) * BLOCK_N
    if CAUSAL:
        full = tl.minimum(full, start_m * BLOCK_M)
        hi = tl.minimum(N_KV, (start_m + 1) * BLOCK_M)
    else:
        hi = N_KV
    acc, l_i, m_i = _attn_fwd_desc_inner(acc, l_i, m_i, q, desc_k, desc_v, k_row0, qk_scale,
                                         0, full, N_KV, BLOCK_N, False, CAUSAL, offs_m,
                                         offs_n, WARP_SPECIALIZE)
    acc, l_i, m_i = _attn_fwd_desc_inner(acc, l_i, m_i, q, desc_k, desc_v, k_row0, qk_scale,
                                         full, hi, N_KV, BLOCK_N, True, CAUSAL, offs_m,
                                         offs_n, WARP_SPECIALIZE)
    l_safe = tl.where(l_i == 0.0, 1.0, l_i)
    m_safe = tl.where(m_i == float("-inf"), 0.0, m_i)
    tl.store(M + off_hz.to(tl.int64) * N_Q + offs_m, m_safe + tl.math.log2(l_safe),
             mask=offs_m < N_Q)
    acc = acc / l_safe[:, None]
    o_rows = (off_hz.to(tl.int64) * N_Q + offs_m)[:, None]
    o_cols = tl.arange(0, HEAD_DIM)[None, :]
    tl.store(Out + o_rows * HEAD_DIM + o_cols, acc.to(Out.type.element_ty),
             mask=(offs_m < N_Q)[:, None])


# ----------------------------------------------------------------------------
# Backward: FlashAttention-2's recomputation (tutorial 06's _attn_bwd).
#
# With P = exp2(S * sm_scale * log2(e) - M) recomputed from the forward's M,
# Delta_i = sum_d O_id dO_id (attn_bwd_preprocess_kernel) and
#   dV = P^T dO,  dP = dO V^T,  dS = P * (dP - Delta),
#   dQ = sm_scale dS K,  dK = sm_scale dS^T Q,
# attn_bwd_kernel's program pid computes dK and dV for keys
# [pid BLOCK_N1, (pid + 1) BLOCK_N1) (a loop over query blocks of BLOCK_M1)
# and dQ for queries [pid BLOCK_M2, (pid + 1) BLOCK_M2) (a loop over key
# blocks of BLOCK_N2): no atomics, every gradient element written once.
# Q, dO and dQ share one set of strides ([Z, H, N_Q, HEAD_DIM]), K, V, dK
# and dV another ([Z, H, N_KV, HEAD_DIM]); unit stride along HEAD_DIM. Keys
# no query sees (causal, j >= N_Q) get dK = dV = 0; queries that see no key
# (N_KV = 0) get dQ = 0.
# ----------------------------------------------------------------------------


@triton.jit
def attn_bwd_preprocess_kernel(O, DO, Delta,
                               stride_oz, stride_oh, stride_om,
                               stride_dz, stride_dh, stride_dm,
                               H, N_Q, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr):
    """Delta[z * H + h, i] = sum_d O[z, h, i, d] * dO[z, h, i, d] in fp32 for
    O and dO fp16 or bf16 [Z, H, N_Q, HEAD_DIM] through their strides (unit
    stride along HEAD_DIM); Delta fp32 [Z * H, N_Q]. Grid (cdiv(N_Q,
    BLOCK_M), Z * H)."""
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    rows = offs_m < N_Q
    o_base = O + off_z.to(tl.int64) * stride_oz + off_h.to(tl.int64) * stride_oh
    do_base = DO + off_z.to(tl.int64) * stride_dz + off_h.to(tl.int64) * stride_dh
    o = tl.load(o_base + offs_m[:, None] * stride_om + offs_d[None, :], mask=rows[:, None],
                other=0.0).to(tl.float32)
    do = tl.load(do_base + offs_m[:, None] * stride_dm + offs_d[None, :], mask=rows[:, None],
                 other=0.0).to(tl.float32)
    delta = tl.sum(o * do, axis=1)
    tl.store(Delta + off_hz.to(tl.int64) * N_Q + offs_m, delta, mask=rows)


@triton.jit
def _attn_bwd_dkdv(dk, dv, Q, DO, M, Delta, k, v, qk_scale, stride_qm, start_n, lo, hi, N_Q,
                   BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr, HEAD_DIM: tl.constexpr,
                   MASKED: tl.constexpr, CAUSAL: tl.constexpr):
    """dK and dV of keys [start_n, start_n + BLOCK_N1) over the query blocks
    [lo, hi): Q, DO, M and Delta point at this head's rows. MASKED blocks
    drop queries >= N_Q and (CAUSAL) the pairs with key > query."""
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    offs_d = tl.arange(0, HEAD_DIM)
    for start_m in range(lo, hi, BLOCK_M1):
        start_m = tl.multiple_of(start_m, BLOCK_M1)
        offs_m = start_m + tl.arange(0, BLOCK_M1)
        qT_ptrs = Q + offs_m[None, :] * stride_qm + offs_d[:, None]
        do_ptrs = DO + offs_m[:, None] * stride_qm + offs_d[None, :]
        if MASKED:
            rows = offs_m < N_Q
            qT = tl.load(qT_ptrs, mask=rows[None, :], other=0.0)
            m = tl.load(M + offs_m, mask=rows, other=0.0)
        else:
            qT = tl.load(qT_ptrs)
            m = tl.load(M + offs_m)
        # P^T for this block: keys along rows, queries along columns.
        qkT = tl.dot(k, qT)
        pT = tl.math.exp2(qkT * qk_scale - m[None, :])
        if MASKED:
            mask = rows[None, :]
            if CAUSAL:
                mask = mask & (offs_m[None, :] >= offs_n[:, None])
            pT = tl.where(mask, pT, 0.0)
            do = tl.load(do_ptrs, mask=rows[:, None], other=0.0)
            di = tl.load(Delta + offs_m, mask=rows, other=0.0)
        else:
            do = tl.load(do_ptrs)
            di = tl.load(Delta + offs_m)
        dv += tl.dot(pT.to(do.dtype), do)
        dpT = tl.dot(v, tl.trans(do))
        dsT = pT * (dpT - di[None, :])
        dk += tl.dot(dsT.to(qT.dtype), tl.trans(qT))
    return dk, dv


@triton.jit
def _attn_bwd_dq(dq, q, do, m, di, K, V, qk_scale, stride_kn, start_m, lo, hi, N_KV,
                 BLOCK_M2: tl.constexpr, BLOCK_N2: tl.constexpr, HEAD_DIM: tl.constexpr,
                 MASKED: tl.constexpr, CAUSAL: tl.constexpr):
    """dQ (before the sm_scale factor) of queries [start_m, start_m +
    BLOCK_M2) over the key blocks [lo, hi): K and V point at this head's
    rows. MASKED blocks drop keys >= N_KV and (CAUSAL) keys after the
    query."""
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    offs_d = tl.arange(0, HEAD_DIM)
    for start_n in range(lo, hi, BLOCK_N2):
        start_n = tl.multiple_of(start_n, BLOCK_N2)
        offs_n = start_n + tl.arange(0, BLOCK_N2)
        kT_ptrs = K + offs_n[None, :] * stride_kn + offs_d[:, None]
        vT_ptrs = V + offs_n[None, :] * stride_kn + offs_d[:, None]
        if MASKED:
            cols = offs_n < N_KV
            kT = tl.load(kT_ptrs, mask=cols[None, :], other=0.0)
            vT = tl.load(vT_ptrs, mask=cols[None, :], other=0.0)
        else:
            kT = tl.load(kT_ptrs)
            vT = tl.load(vT_ptrs)
        qk = tl.dot(q, kT)
        p = tl.math.exp2(qk * qk_scale - m[:, None])
        if MASKED:
            mask = cols[None, :]
            if CAUSAL:
                mask = mask & (offs_m[:, None] >= offs_n[None, :])
            p = tl.where(mask, p, 0.0)
        dp = tl.dot(do, vT)
        ds = p * (dp - di[:, None])
        dq += tl.dot(ds.to(kT.dtype), tl.trans(kT))
    return dq


@triton.jit
def attn_bwd_kernel(Q, K, V, sm_scale, DO, DQ, DK, DV, M, Delta,
                    stride_qz, stride_qh, stride_qm,
                    stride_kz, stride_kh, stride_kn,
                    H, N_Q, N_KV,
                    HEAD_DIM: tl.constexpr, BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr,
                    BLOCK_M2: tl.constexpr, BLOCK_N2: tl.constexpr, CAUSAL: tl.constexpr):
    """dQ, dK, dV (the inputs' type) of attn_fwd_kernel's O for the upstream
    gradient dO, from the forward's M and attn_bwd_preprocess_kernel's
    Delta (fp32 [Z * H, N_Q]). Q, dO, dQ: [Z, H, N_Q, HEAD_DIM] through
    (stride_qz, stride_qh, stride_qm); K, V, dK, dV: [Z, H, N_KV, HEAD_DIM]
    through (stride_kz, stride_kh, stride_kn). Grid (max(cdiv(N_KV,
    BLOCK_N1), cdiv(N_Q, BLOCK_M2)), Z * H). Requires BLOCK_N1 % BLOCK_M1
    == 0 and BLOCK_M2 % BLOCK_N2 == 0."""
    tl.static_assert(BLOCK_N1 % BLOCK_M1 == 0)
    tl.static_assert(BLOCK_M2 % BLOCK_N2 == 0)
    pid = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    q_off = off_z.to(tl.int64) * stride_qz + off_h.to(tl.int64) * stride_qh
    k_off = off_z.to(tl.int64) * stride_kz + off_h.to(tl.int64) * stride_kh
    Q += q_off
    DO += q_off
    DQ += q_off
    K += k_off
    V += k_off
    DK += k_off
    DV += k_off
    M += off_hz.to(tl.int64) * N_Q
    Delta += off_hz.to(tl.int64) * N_Q
    qk_scale = sm_scale * 1.44269504
    offs_d = tl.arange(0, HEAD_DIM)

    # dK and dV of this program's key block.
    start_n = pid * BLOCK_N1
    if start_n < N_KV:
        offs_n = start_n + tl.arange(0, BLOCK_N1)
        keys = offs_n < N_KV
        kv_offs = offs_n[:, None] * stride_kn + offs_d[None, :]
        k = tl.load(K + kv_offs, mask=keys[:, None], other=0.0)
        v = tl.load(V + kv_offs, mask=keys[:, None], other=0.0)
        dk = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
        dv = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
        # Causal: queries before start_n see none of these keys; the
        # diagonal block is masked. Then whole query blocks, then the ragged
        # last one.
        if CAUSAL:
            lo = start_n
            mid = tl.minimum(start_n + BLOCK_N1, N_Q)
        else:
            lo = 0
            mid = 0
        full = tl.maximum(mid, (N_Q // BLOCK_M1) * BLOCK_M1)
        dk, dv = _attn_bwd_dkdv(dk, dv, Q, DO, M, Delta, k, v, qk_scale, stride_qm, start_n,
                                lo, mid, N_Q, BLOCK_M1, BLOCK_N1, HEAD_DIM, True, CAUSAL)
        dk, dv = _attn_bwd_dkdv(dk, dv, Q, DO, M, Delta, k, v, qk_scale, stride_qm, start_n,
                                mid, full, N_Q, BLOCK_M1, BLOCK_N1, HEAD_DIM, False, CAUSAL)
        dk, dv = _attn_bwd_dkdv(dk, dv, Q, DO, M, Delta, k, v, qk_scale, stride_qm, start_n,
                                full, N_Q, N_Q, BLOCK_M1, BLOCK_N1, HEAD_DIM, True, CAUSAL)
        tl.store(DV + kv_offs, dv.to(DV.type.element_ty), mask=keys[:, None])
        dk *= sm_scale
        tl.store(DK + kv_offs, dk.to(DK.type.element_ty), mask=keys[:, None])

    # dQ of this program's query block.
    start_m = pid * BLOCK_M2
    if start_m < N_Q:
        offs_m = start_m + tl.arange(0, BLOCK_M2)
        queries = offs_m < N_Q
        q_offs = offs_m[:, None] * stride_qm + offs_d[None, :]
        q = tl.load(Q + q_offs, mask=queries[:, None], other=0.0)
        do = tl.load(DO + q_offs, mask=queries[:, None], other=0.0)
        m = tl.load(M + offs_m, mask=queries, other=0.0)
        di = tl.load(Delta + offs_m, mask=queries, other=0.0)
        dq = tl.zeros([BLOCK_M2, HEAD_DIM], dtype=tl.float32)
        full = (N_KV // BLOCK_N2) * BLOCK_N2
        if CAUSAL:
            full = tl.minimum(full, start_m)
            hi = tl.minimum(N_KV, start_m + BLOCK_M2)
        else:
            hi = N_KV
        dq = _attn_bwd_dq(dq, q, do, m, di, K, V, qk_scale, stride_kn, start_m, 0, full, N_KV,
                          BLOCK_M2, BLOCK_N2, HEAD_DIM, False, CAUSAL)
        dq = _attn_bwd_dq(dq, q, do, m, di, K, V, qk_scale, stride_kn, start_m, full, hi, N_KV,
                          BLOCK_M2, BLOCK_N2, HEAD_DIM, True, CAUSAL)
        dq *= sm_scale
        tl.store(DQ + q_offs, dq.to(DQ.type.element_ty), mask=queries[:, None])
