"""A transformer MLP block, Linear -> GELU -> Linear, for tilec's GPU tests
(test/GPU/MlpTests.cpp) and the MLP benchmark (bench/bench_mlp.py). Triton
3.6 syntax; the benchmark runs these same functions through Triton. tilec
reads only the @triton.jit functions.

Semantics (what the tests check, against a float64 reference):
  linear_kernel:    Y = act(X W^T + b)
  fused_mlp_kernel: Y = gelu(X W1^T + b1) W2^T + b2
with X [M, K] and Y [M, N] in fp16 or bf16, the weights as torch's
nn.Linear holds them: W [N, K] (out_features x in_features), so no transposed
copy of the weights is needed; the bias b [N] of the input's type (nn.Linear's)
or fp32: either is converted to fp32 and added to the fp32 accumulator before
the activation. gelu is the exact form, x / 2 (1 + erf(x / sqrt(2))),
torch.nn.functional.gelu's default, on the fp32 value; the result is cast to
Y's element type (round to nearest even). In the fused kernel the intermediate
gelu(X W1^T + b1) is rounded to X's type before it meets W2 -- exactly what
two linear_kernel launches compute, the intermediate written once in that type
-- and never leaves the chip. Any strides (the unit ones are what make the
copies fast); ragged M, N, K and H (zero-filled loads, masked stores)."""
import torch

import triton
import triton.language as tl


@triton.jit
def _gelu(x):
    """The exact (erf) GELU of an fp32 tile."""
    return 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))


@triton.jit
def linear_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K,
                  stride_xm, stride_xk, stride_wn, stride_wk, stride_ym, stride_yn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr, NUM_STAGES: tl.constexpr,
                  ACTIVATION: tl.constexpr):
    """Y[M, N] = act(X[M, K] @ W[N, K]^T + b[N]), one program per BLOCK_M x
    BLOCK_N tile of Y, grid (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N),) in
    tutorial 03's grouped order. W is read through (stride_wk, stride_wn) as
    the [K, N] operand tl.dot wants: for a row-major nn.Linear weight
    (stride_wk = 1) each tile is K-major, the layout wgmma reads without a
    transpose. ACTIVATION is "gelu" (exact, erf) or "none"."""
    # Grouped ordering: GROUP_M rows of tiles share their W rows in L2.
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
    x_ptrs = x_ptr + offs_m[:, None] * stride_xm + offs_k[None, :] * stride_xk
    w_ptrs = w_ptr + offs_k[:, None] * stride_wk + offs_n[None, :] * stride_wn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    # Elements outside X or W read as 0: a partial tile's padding adds
    # nothing to the sums.
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), num_stages=NUM_STAGES):
        k_left = K - k * BLOCK_K
        x = tl.load(x_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        w = tl.load(w_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(x, w, acc)
        x_ptrs += BLOCK_K * stride_xk
        w_ptrs += BLOCK_K * stride_wk
    acc += tl.load(b_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)[None, :]
    if ACTIVATION == "gelu":
        acc = _gelu(acc)
    y_ptrs = y_ptr + offs_m[:, None] * stride_ym + offs_n[None, :] * stride_yn
    tl.store(y_ptrs, acc.to(y_ptr.dtype.element_ty),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def fused_mlp_kernel(x_ptr, w1_ptr, b1_ptr, w2_ptr, b2_ptr, y_ptr, M, K, H, N,
                     stride_xm, stride_xk, stride_w1h, stride_w1k, stride_w2n, stride_w2h,
                     stride_ym, stride_yn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                     BLOCK_H: tl.constexpr, NUM_STAGES: tl.constexpr):
    """Y[M, N] = gelu(X[M, K] @ W1[H, K]^T + b1[H]) @ W2[N, H]^T + b2[N] with
    the intermediate kept on chip: one program per BLOCK_M rows and BLOCK_N
    output columns, grid (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)). For each chunk
    of BLOCK_H hidden units the program computes h = gelu(X_blk W1_chunk^T +
    b1_chunk) in an fp32 [BLOCK_M, BLOCK_H] accumulator (a K loop of BLOCK_K
    steps), rounds it to X's type and adds h @ W2_chunk^T to the fp32
    [BLOCK_M, BLOCK_N] output accumulator: two chained tl.dot, the first's
    result the second's A operand, as in attention.

    Constraints: none on the sizes for correctness (ragged M, K, H and N are
    masked: hidden units past H give gelu(0 + 0) = 0 and meet zero rows of
    W2). For speed: the first GEMM is recomputed by each of the
    cdiv(N, BLOCK_N) programs of a row block, so the kernel pays off when N
    fits one or two output blocks (N <= BLOCK_N: d_model up to 128 or 256)
    and the traffic of the [M, H] intermediate is what dominates; both
    accumulators live in registers (BLOCK_M * (BLOCK_H + BLOCK_N) fp32 over
    the program's threads), so keep BLOCK_H + BLOCK_N <= 256 at BLOCK_M = 128
    and 8 warps."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    offs_h = tl.arange(0, BLOCK_H)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for h0 in range(0, H, BLOCK_H):
        hs = h0 + offs_h
        x_ptrs = x_ptr + offs_m[:, None] * stride_xm + offs_k[None, :] * stride_xk
        w1_ptrs = w1_ptr + offs_k[:, None] * stride_w1k + hs[None, :] * stride_w1h
        acc_h = tl.zeros((BLOCK_M, BLOCK_H), dtype=tl.float32)
        for k in tl.range(0, tl.cdiv(K, BLOCK_K), num_stages=NUM_STAGES):
            k_left = K - k * BLOCK_K
            x = tl.load(x_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left),
                        other=0.0)
            w1 = tl.load(w1_ptrs, mask=(offs_k[:, None] < k_left) & (hs[None, :] < H),
                         other=0.0)
            acc_h = tl.dot(x, w1, acc_h)
            x_ptrs += BLOCK_K * stride_xk
            w1_ptrs += BLOCK_K * stride_w1k
        acc_h += tl.load(b1_ptr + hs, mask=hs < H, other=0.0).to(tl.float32)[None, :]
        h = _gelu(acc_h).to(x_ptr.dtype.element_ty)
        w2 = tl.load(w2_ptr + hs[:, None] * stride_w2h + offs_n[None, :] * stride_w2n,
                     mask=(hs[:, None] < H) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(h, w2, acc)
    acc += tl.load(b2_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)[None, :]
    y_ptrs = y_ptr + offs_m[:, None] * stride_ym + offs_n[None, :] * stride_yn
    tl.store(y_ptrs, acc.to(y_ptr.dtype.element_ty),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def linear(x, w, b, activation="none", BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8,
           num_stages=3, num_warps=8):
    """act(x @ w.T + b) through linear_kernel with Triton: x [M, K], w [N, K]
    (nn.Linear's weight), b [N]."""
    M, K = x.shape
    N, K2 = w.shape
    assert K == K2, "incompatible dimensions"
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N), )
    linear_kernel[grid](x, w, b, y, M, N, K, x.stride(0), x.stride(1), w.stride(0),
                        w.stride(1), y.stride(0), y.stride(1), BLOCK_M=BLOCK_M,
                        BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=GROUP_M,
                        NUM_STAGES=num_stages, ACTIVATION=activation,
                        num_stages=num_stages, num_warps=num_warps)
    return y


def mlp(x, w1, b1, w2, b2, **kwargs):
    """The unfused MLP: two linear_kernel launches, the intermediate written
    once in x's type."""
    return linear(linear(x, w1, b1, "gelu", **kwargs), w2, b2, "none", **kwargs)


def fused_mlp(x, w1, b1, w2, b2, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, BLOCK_H=64,
              num_stages=3, num_warps=8):
    """fused_mlp_kernel with Triton: x [M, K], w1 [H, K], w2 [N, H]."""
    M, K = x.shape
    H = w1.shape[0]
    N = w2.shape[0]
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    fused_mlp_kernel[grid](x, w1, b1, w2, b2, y, M, K, H, N, x.stride(0), x.stride(1),
                           w1.stride(0), w1.stride(1), w2.stride(0), w2.stride(1),
                           y.stride(0), y.stride(1), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                           BLOCK_K=BLOCK_K, BLOCK_H=BLOCK_H, NUM_STAGES=num_stages,
                           num_stages=num_stages, num_warps=num_warps)
    return y


if __name__ == "__main__":
    import torch.nn.functional as F
    x = torch.randn(517, 333, device="cuda", dtype=torch.bfloat16)
    w1 = torch.randn(301, 333, device="cuda", dtype=torch.bfloat16) / 16
    b1 = torch.randn(301, device="cuda", dtype=torch.bfloat16)
    w2 = torch.randn(100, 301, device="cuda", dtype=torch.bfloat16) / 16
    b2 = torch.randn(100, device="cuda", dtype=torch.bfloat16)
    ref = F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2)
    for name, y in (("mlp", mlp(x, w1, b1, w2, b2)), ("fused", fused_mlp(x, w1, b1, w2, b2))):
        print(f"{name}: max error {(y.float() - ref.float()).abs().max().item()}")
