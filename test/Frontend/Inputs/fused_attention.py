"""Fused multi-head attention (FlashAttention-2 style forward).

Each program computes one BLOCK_M slice of queries for one (batch, head)
against all keys with an online softmax; causal masking splits the key loop
into an off-diagonal part without masks and a diagonal part with one.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Tuple

import torch
import triton
import triton.language as tl

LOG2E: tl.constexpr = 1.4426950408889634
HAS_TMA = hasattr(tl, "make_tensor_descriptor") and \
    torch.cuda.is_available()
STAGE_OFF_BAND, STAGE_ON_BAND = 1, 2


@dataclass(frozen=True)
class AttnShape:
    batch: int
    heads: int
    seq: int
    head_dim: int = 64

    @property
    def flops(self) -> float:
        return 4.0 * self.batch * self.heads * self.seq * self.seq * self.head_dim


@triton.jit
def _attn_inner(acc, l_i, m_i, q,  #
                K_block_ptr, V_block_ptr,  #
                start_m, qk_scale,  #
                BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr,  #
                STAGE: tl.constexpr, offs_m: tl.constexpr, offs_n: tl.constexpr,  #
                N_CTX: tl.constexpr, fp8_v: tl.constexpr):
    # The key range: below the diagonal, on it, or everything.
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
    else:
        lo, hi = 0, N_CTX
    K_block_ptr = tl.advance(K_block_ptr, (0, lo))
    V_block_ptr = tl.advance(V_block_ptr, (lo, 0))
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = tl.load(K_block_ptr)
        qk = tl.dot(q, k)
        if STAGE == 2:
            mask = offs_m[:, None] >= (start_n + offs_n[None, :])
            qk = qk * qk_scale + tl.where(mask, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(V_block_ptr)
        if fp8_v:
            p = p.to(tl.float8e5)
        else:
            p = p.to(tl.float16)
        acc = tl.dot(p, v, acc)
        m_i = m_ij
        V_block_ptr = tl.advance(V_block_ptr, (BLOCK_N, 0))
        K_block_ptr = tl.advance(K_block_ptr, (0, BLOCK_N))
    return acc, l_i, m_i


def keep(conf):
    BLOCK_M = conf.kwargs["BLOCK_M"]
    BLOCK_N = conf.kwargs["BLOCK_N"]
    return not (torch.cuda.get_device_capability()[0] == 9 and BLOCK_M * BLOCK_N < 128 * 128 and conf.num_warps == 8)


configs = [
    triton.Config({'BLOCK_M': BM, 'BLOCK_N': BN}, num_stages=s, num_warps=w) \
    for BM in [64, 128]\
    for BN in [32, 64]\
    for s in ([1] if False else [3, 4, 7])\
    for w in [4, 8]\
]


@triton.autotune(configs=[triton.Config({'BLOCK_M': bm, 'BLOCK_N': bn}, num_stages=s, num_warps=w)
                          for bm in [64, 128] for bn in [32, 64] for s in [3, 4] for w in [4, 8]
                          if not (bm == 128 and bn == 32)], key=["N_CTX", "HEAD_DIM"],
                 prune_configs_by={'early_config_prune': None}, warmup=25, rep=100)
@triton.jit
def _attn_fwd(Q, K, V, sm_scale, M, Out,  #
              stride_qz, stride_qh, stride_qm, stride_qk,  #
              stride_kz, stride_kh, stride_kn, stride_kk,  #
              stride_vz, stride_vh, stride_vk, stride_vn,  #
              stride_oz, stride_oh, stride_om, stride_on,  #
              Z, H, N_CTX,  #
              HEAD_DIM: tl.constexpr,  #
              BLOCK_M: tl.constexpr,  #
              BLOCK_N: tl.constexpr,  #
              STAGE: tl.constexpr  #
              ) -> None:
    tl.static_assert(BLOCK_N <= HEAD_DIM, "BLOCK_N must not exceed HEAD_DIM")
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    qvk_offset = off_z.to(tl.int64) * stride_qz + off_h.to(tl.int64) * stride_qh

    Q_block_ptr = tl.make_block_ptr(
        base=Q + qvk_offset,
        shape=(N_CTX, HEAD_DIM),
        strides=(stride_qm, stride_qk),
        offsets=(start_m * BLOCK_M, 0),
        block_shape=(BLOCK_M, HEAD_DIM),
        order=(1, 0),
    )
    v_order: tl.constexpr = (0, 1) if V.dtype.element_ty == tl.float8e5 else (1, 0)
    V_block_ptr = tl.make_block_ptr(base=V + qvk_offset, shape=(N_CTX, HEAD_DIM), strides=(stride_vk, stride_vn),
                                    offsets=(0, 0), block_shape=(BLOCK_N, HEAD_DIM), order=v_order)
    K_block_ptr = tl.make_block_ptr(base=K + qvk_offset, shape=(HEAD_DIM, N_CTX), strides=(stride_kk, stride_kn),
                                    offsets=(0, 0), block_shape=(HEAD_DIM, BLOCK_N), order=(0, 1))
    O_block_ptr = tl.make_block_ptr(base=Out + qvk_offset, shape=(N_CTX, HEAD_DIM), strides=(stride_om, stride_on),
                                    offsets=(start_m * BLOCK_M, 0), block_shape=(BLOCK_M, HEAD_DIM), order=(1, 0))
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale
    qk_scale *= 1.44269504  # 1/log(2)
    q = tl.load(Q_block_ptr)
    if STAGE & 1:
        acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, K_block_ptr, V_block_ptr,  #
                                    start_m, qk_scale,  #
                                    BLOCK_M, HEAD_DIM, BLOCK_N,  #
                                    4 - STAGE, offs_m, offs_n, N_CTX, V.dtype.element_ty == tl.float8e5  #
                                    )
    if STAGE & 2:
        acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, K_block_ptr, V_block_ptr,  #
                                    start_m, qk_scale,  #
                                    BLOCK_M, HEAD_DIM, BLOCK_N,  #
                                    2, offs_m, offs_n, N_CTX, V.dtype.element_ty == tl.float8e5  #
                                    )
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    m_ptrs = M + off_hz * N_CTX + offs_m
    tl.store(m_ptrs, m_i)
    tl.store(O_block_ptr, acc.to(Out.type.element_ty))


@tl.jit
def _attn_bwd_preprocess(O, DO, Delta, Z, H, N_CTX, BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr):
    off_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    off_hz = tl.program_id(1)
    off_n = tl.arange(0, HEAD_DIM)
    o = tl.load(O + off_hz * HEAD_DIM * N_CTX + off_m[:, None] * HEAD_DIM + off_n[None, :])
    do = tl.load(DO + off_hz * HEAD_DIM * N_CTX + off_m[:, None] * HEAD_DIM + off_n[None, :]).to(tl.float32)
    delta = tl.sum(o * do, axis=1)
    tl.store(Delta + off_hz * N_CTX + off_m, delta)


@triton.jit
def _causal_mask_value(offs_m, offs_n, causal: tl.constexpr):
    return tl.where(offs_m[:, None] >= offs_n[None, :], 0.0, float("-inf")) if causal else 0.0


class _attention(torch.autograd.Function):

    @staticmethod
    def forward(ctx, q, k, v, causal, sm_scale):
        HEAD_DIM_Q, HEAD_DIM_K = q.shape[-1], k.shape[-1]
        HEAD_DIM_V = v.shape[-1]
        assert HEAD_DIM_Q == HEAD_DIM_K and HEAD_DIM_K == HEAD_DIM_V
        assert HEAD_DIM_K in {16, 32, 64, 128, 256}
        o = torch.empty_like(q)
        stage = 3 if causal else 1
        extra_kern_args = {}
        M = torch.empty((q.shape[0], q.shape[1], q.shape[2]), device=q.device, dtype=torch.float32)
        grid = lambda args: (triton.cdiv(q.shape[2], args["BLOCK_M"]), q.shape[0] * q.shape[1], 1)
        _attn_fwd[grid](
            q, k, v, sm_scale, M, o,  #
            *q.stride(), *k.stride(), *v.stride(), *o.stride(),  #
            q.shape[0], q.shape[1],  #
            N_CTX=q.shape[2],  #
            HEAD_DIM=HEAD_DIM_K,  #
            STAGE=stage,  #
            **extra_kern_args)
        ctx.save_for_backward(q, k, v, o, M)
        ctx.sm_scale, ctx.HEAD_DIM, ctx.causal = sm_scale, HEAD_DIM_K, causal
        return o

    @staticmethod
    def backward(ctx, do):
        raise NotImplementedError("backward is not part of this sample")


attention = _attention.apply


def reference(q, k, v, causal: bool, sm_scale: float) -> torch.Tensor:
    n = q.shape[2]
    mask = torch.tril(torch.ones((n, n), device=q.device)) if causal else None
    p = torch.matmul(q, k.transpose(2, 3)) * sm_scale
    if mask is not None:
        p[:, :, mask == 0] = float("-inf")
    return torch.matmul(torch.softmax(p.float(), dim=-1).half(), v)


BATCH, N_HEADS = 4, 32
bench_configs = [
    triton.testing.Benchmark(
        x_names=["N_CTX"],
        x_vals=[2**i for i in range(10, 15)],
        line_arg="provider",
        line_vals=["triton-fp16"] + (["triton-fp8"] if hasattr(torch, "float8_e5m2") else []),
        line_names=["Triton [FP16]"] + (["Triton [FP8]"] if hasattr(torch, "float8_e5m2") else []),
        styles=[("red", "-"), ("blue", "-")],
        ylabel="TFLOPS",
        plot_name=f"fused-attention-batch{BATCH}-head{N_HEADS}-d{HEAD_DIM}-{mode}-causal={causal}",
        args={"H": N_HEADS, "BATCH": BATCH, "HEAD_DIM": HEAD_DIM, "mode": mode, "causal": causal},
    ) for HEAD_DIM in [64, 128] for mode in ["fwd"] for causal in [True, False]
]


@triton.testing.perf_report(bench_configs)
def bench_flash_attention(BATCH, H, N_CTX, HEAD_DIM, causal, mode, provider, device="cuda"):
    assert mode in ["fwd", "bwd"]
    dtype = torch.float16
    q, k, v = (torch.randn((BATCH, H, N_CTX, HEAD_DIM), dtype=dtype, device=device, requires_grad=True)
               for _ in range(3))
    sm_scale: float = 1.3
    fn = lambda: attention(q, k, v, causal, sm_scale)
    ms = triton.testing.do_bench(fn)
    shape = AttnShape(BATCH, H, N_CTX, HEAD_DIM)
    total_flops = shape.flops * (0.5 if causal else 1.0)
    return total_flops * 1e-12 / (ms * 1e-3)


async def _unused_async_helper(x: Optional[torch.Tensor] = None) -> Tuple[int, ...]:
    async with some_lock:
        await x
    return (*range(3), )


if __name__ == "__main__":
    torch.manual_seed(20)
    for Z, H, N_CTX, HEAD_DIM in [(1, 2, 1024, 64), (4, 48, 128, 128)]:
        q = (torch.empty((Z, H, N_CTX, HEAD_DIM), dtype=torch.float16, device="cuda").normal_(mean=0.0, std=0.5))
        k, v = q.clone(), q.clone() * 0.5
        sm_scale = 1 / math.sqrt(HEAD_DIM)
        for causal in (False, True):
            out, ref = attention(q, k, v, causal, sm_scale), reference(q, k, v, causal, sm_scale)
            torch.testing.assert_close(out, ref, atol=1e-2, rtol=0)
            print(f"{Z=} {H=} {N_CTX=:>6} {HEAD_DIM=} {causal=!s:>5}: ok")
    bench_flash_attention.run(save_path=".", print_data=True)
