#!/usr/bin/env python3
"""GEMM + GELU in one kernel: tilec vs Triton (same tile program) vs torch's
matmul followed by GELU (cuBLAS, then an elementwise kernel), on one GPU.

The kernel is matmul_kernel of test/GPU/kernels/py/matmul.py with
ACTIVATION="gelu": the exact GELU, x / 2 (1 + erf(x / sqrt 2)), applied to the
fp32 accumulator before the cast to C's type, with tutorial 03's first CUDA
config (128x256x64, GROUP_M=8, 3 stages, 8 warps) on wgmma. tilec compiled it
at build time into bench_wgmma_<dtype>_gelu_i32_16.ptx with the signature
Triton's JIT picks for these tensors. The torch peer is
torch.nn.functional.gelu(torch.mm(a, b)) (what a model without a fused kernel
runs: two kernels and a round trip of C through memory); cuBLAS alone
(torch.mm) is shown for scale.

Shapes (M, N, K): 4096^3, 8192^3 and an MLP up-projection 16384 x 8192 x 2048
(where the epilogue's memory traffic weighs most). Each output is checked
against an fp32 reference (GELU of torch.mm of the fp32 copies): normwise
relative error below 1e-3 (fp16 C) or 8e-3 (bf16 C). Timing: do_bench medians
over --rounds interleaved rounds in rotated order; ratios are medians of
per-round ratios (bench/gemm_common.py). TFLOP/s count the GEMM only.

    TILEC_RUNTIME_LIB=lib/libtilec_runtime.so bench/bench_gemm_gelu.py \\
        --kernels kernels --sources examples --json gemm_gelu.json
"""

import argparse
import json
import os
import statistics
import sys

import torch
import torch.nn.functional as F
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tilec_rt  # noqa: E402
from gemm_common import (add_common_args, interleaved_times, load_module,  # noqa: E402
                         speedup)

CONFIG = dict(BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8)
NUM_STAGES = 3
NUM_WARPS = 8
SHAPES = ((4096, 4096, 4096), (8192, 8192, 8192), (16384, 8192, 2048))
DTYPES = (("fp16", torch.float16, 1e-3), ("bf16", torch.bfloat16, 8e-3))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p, here, "directory with bench_wgmma_*_gelu_i32_16.ptx")
    args = p.parse_args()
    for dt, _, _ in DTYPES:
        path = os.path.join(args.kernels, f"bench_wgmma_{dt}_gelu_i32_16.ptx")
        if not os.path.exists(path):
            raise SystemExit(f"{path} not found: the GEMM kernels are built only with "
                             "-DTILEC_GPU_DOT_TESTS=ON")

    torch.cuda.init()
    dev = torch.device("cuda", torch.cuda.current_device())
    torch.backends.cuda.matmul.allow_tf32 = False  # the fp32 reference
    ctx = tilec_rt.Context(dev.index)
    mm = load_module(os.path.join(args.sources, "matmul.py"), "tilec_bench_gelu")

    rows = []
    for dt, dtype, tol in DTYPES:
        kernel = ctx.load_file(os.path.join(args.kernels, f"bench_wgmma_{dt}_gelu_i32_16.ptx")) \
            .kernel("matmul_kernel")
        for M, N, K in SHAPES:
            gen = torch.Generator(device=dev).manual_seed(M + N + K)
            a = torch.randn((M, K), device=dev, dtype=dtype, generator=gen)
            b = torch.randn((K, N), device=dev, dtype=dtype, generator=gen)
            c = torch.empty((M, N), device=dev, dtype=dtype)
            ref = F.gelu(torch.mm(a.float(), b.float()))
            grid = (triton.cdiv(M, CONFIG["BLOCK_M"]) * triton.cdiv(N, CONFIG["BLOCK_N"]),)
            ints = (M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                    c.stride(0), c.stride(1))

            def run_tilec():
                kernel.launch(grid, a, b, c, *ints)

            def run_triton():
                mm.matmul_kernel[grid](a, b, c, *ints, **CONFIG, NUM_STAGES=NUM_STAGES,
                                       ACC_INT32=False, UPCAST_FP16=False,
                                       INPUT_PRECISION="tf32", ACTIVATION="gelu",
                                       num_stages=NUM_STAGES, num_warps=NUM_WARPS)

            def run_torch():
                torch.mm(a, b, out=c)
                c.copy_(F.gelu(c))

            def run_torch_unfused():
                # What a model runs: the GEMM's output, then GELU into a new tensor.
                return F.gelu(torch.mm(a, b))

            def run_cublas():
                torch.mm(a, b, out=c)

            checks = {"tilec": run_tilec, "triton": run_triton, "torch": run_torch}
            errors = {}
            for name, fn in checks.items():
                c.fill_(float("nan"))
                fn()
                torch.cuda.synchronize()
                err = ((c.float() - ref).norm() / ref.norm()).item()
                errors[name] = err
                if not err <= tol:
                    msg = (f"GEMM+GELU {dt} {M}x{N}x{K}: {name} differs from the fp32 "
                           f"reference: normwise relative error {err:.3g} > {tol}")
                    if name == "tilec":
                        raise SystemExit(msg)
                    print("warning: " + msg)
            del ref
            impls = {"tilec": run_tilec, "triton": run_triton,
                     "torch mm+gelu": run_torch_unfused, "cublas mm": run_cublas}
            times = interleaved_times(impls, args.rounds, args.warmup, args.rep)
            flops = 2.0 * M * N * K
            med = {n: statistics.median(ts) for n, ts in times.items()}
            rows.append({
                "dtype": dt, "M": M, "N": N, "K": K,
                "ms": med, "tflops": {n: flops / (ms * 1e-3) / 1e12 for n, ms in med.items()},
                "tilec_over_torch": speedup(times, "tilec", "torch mm+gelu"),
                "tilec_over_triton": speedup(times, "tilec", "triton"),
                "tilec_over_cublas_mm": speedup(times, "tilec", "cublas mm"),
                "rel_error": errors,
            })
            del a, b, c
            torch.cuda.empty_cache()

    device = torch.cuda.get_device_name(dev)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "warmup_ms": args.warmup, "rep_ms": args.rep,
                       "rounds": args.rounds, "config": {**CONFIG, "num_stages": NUM_STAGES,
                                                          "num_warps": NUM_WARPS},
                       "rows": rows}, f, indent=2)
        print(f"wrote {args.json}")
    header = ("dtype", "MxNxK", "tilec", "triton", "torch mm+gelu", "cuBLAS mm",
              "tilec/torch", "tilec/triton", "tilec/cuBLAS mm")
    lines = [header] + [(r["dtype"], f"{r['M']}x{r['N']}x{r['K']}",
                         *(f"{r['tflops'][n]:.1f}" for n in
                           ("tilec", "triton", "torch mm+gelu", "cublas mm")),
                         f"{r['tilec_over_torch']:.3f}", f"{r['tilec_over_triton']:.3f}",
                         f"{r['tilec_over_cublas_mm']:.3f}") for r in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    print(f"device: {device}; do_bench medians over {args.rounds} interleaved rounds; "
          f"TFLOP/s of the GEMM; matmul_kernel ACTIVATION=gelu {CONFIG['BLOCK_M']}x"
          f"{CONFIG['BLOCK_N']}x{CONFIG['BLOCK_K']}, {NUM_STAGES} stages, {NUM_WARPS} warps")
    for k, line in enumerate(lines):
        print("  ".join(cell.ljust(w) if i < 2 else cell.rjust(w)
                        for i, (cell, w) in enumerate(zip(line, widths))))
        if k == 0:
            print("  ".join("-" * w for w in widths))


if __name__ == "__main__":
    main()
