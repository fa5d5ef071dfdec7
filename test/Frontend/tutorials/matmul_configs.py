# A grouped-ordering fp16 matmul laid out as Triton 3.6's matmul tutorial
# is (written for tilec's tests): autotune configs returned by host helpers
# that branch on the backend, the fused activation defined after the
# kernel, masked K loads, wrapped row/column offsets, host code around it.
import torch

import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def is_cuda():
    return triton.runtime.driver.active.get_current_target().backend == "cuda"


def get_cuda_autotune_config():
    return [
        triton.Config({'BM': 128, 'BN': 256, 'BK': 64, 'GROUP': 8}, num_stages=3, num_warps=8),
        triton.Config({'BM': 64, 'BN': 256, 'BK': 32, 'GROUP': 8}, num_stages=4, num_warps=4),
        triton.Config({'BM': 128, 'BN': 128, 'BK': 32, 'GROUP': 8}, num_stages=4, num_warps=4),
        triton.Config({'BM': 32, 'BN': 64, 'BK': 32, 'GROUP': 4}, num_stages=5, num_warps=2),
    ]


def get_hip_autotune_config():
    shapes = [{'BM': 32, 'BN': 32, 'BK': 64, 'GROUP': 6}, {'BM': 256, 'BN': 256, 'BK': 64, 'GROUP': 6}]
    return [triton.Config(s | {'matrix_instr_nonkdim': 16}, num_warps=8, num_stages=2) for s in shapes]


def get_autotune_config():
    if is_cuda():
        return get_cuda_autotune_config()
    else:
        return get_hip_autotune_config()


@triton.autotune(configs=get_autotune_config(), key=['M', 'N', 'K'])
@triton.jit
def matmul_kernel(A, B, C, M, N, K,  #
                  s_am, s_ak, s_bk, s_bn, s_cm, s_cn,  #
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr,  #
                  ACTIVATION: tl.constexpr):
    """C = act(A @ B) for A (M, K) and B (K, N), one BM x BN block per program."""
    pid = tl.program_id(axis=0)
    blocks_m = tl.cdiv(M, BM)
    blocks_n = tl.cdiv(N, BN)
    per_group = GROUP * blocks_n
    group = pid // per_group
    row0 = group * GROUP
    rows_in_group = min(blocks_m - row0, GROUP)
    pid_m = row0 + ((pid % per_group) % rows_in_group)
    pid_n = (pid % per_group) // rows_in_group
    tl.assume(pid_m >= 0)
    tl.assume(s_am > 0)

    rm = (pid_m * BM + tl.arange(0, BM)) % M
    rn = (pid_n * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    a_ptrs = A + (rm[:, None] * s_am + rk[None, :] * s_ak)
    b_ptrs = B + (rk[:, None] * s_bk + rn[None, :] * s_bn)

    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        left = K - k * BK
        a = tl.load(a_ptrs, mask=rk[None, :] < left, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * s_ak
        b_ptrs += BK * s_bk
    if ACTIVATION == "leaky_relu":
        acc = leaky_relu(acc)
    c = acc.to(tl.float16)

    cm = pid_m * BM + tl.arange(0, BM)
    cn = pid_n * BN + tl.arange(0, BN)
    tl.store(C + s_cm * cm[:, None] + s_cn * cn[None, :], c, mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def leaky_relu(x):
    return tl.where(x >= 0, x, 0.01 * x)


def matmul(a, b, activation=""):
    M, K = a.shape
    K, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = lambda META: (triton.cdiv(M, META['BM']) * triton.cdiv(N, META['BN']), )
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                        c.stride(1), ACTIVATION=activation)
    return c


benchmarks = []
for fp8 in [False, True]:
    benchmarks.append(triton.testing.Benchmark(x_names=["M", "N", "K"], x_vals=[256 * i for i in range(1, 9)],
                                               line_arg="provider", line_vals=["triton"], line_names=["Triton"],
                                               ylabel="TFLOPS", plot_name=f"matmul-{fp8}", args={"fp8": fp8}))


@triton.testing.perf_report(benchmarks)
def benchmark(M, N, K, provider, fp8):
    a = torch.randn((M, K), device=DEVICE, dtype=torch.float16)
    b = torch.randn((K, N), device=DEVICE, dtype=torch.float16)
    ms = triton.testing.do_bench(lambda: matmul(a, b))
    return 2 * M * N * K * 1e-12 / (ms * 1e-3)


if __name__ == "__main__":
    benchmark.run(print_data=True)
