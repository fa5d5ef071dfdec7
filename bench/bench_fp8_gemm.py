#!/usr/bin/env python3
"""GEMM fp8 e4m3 -> fp16: tilec vs Triton vs torch._scaled_mm (cuBLASLt) on one
GPU, the same tile program on both compilers.

The kernel is matmul_kernel of test/GPU/kernels/py/matmul.py with BLOCK_M=128,
BLOCK_N=128, BLOCK_K=128, GROUP_M=8, num_stages=4, num_warps=8 (its
`acc += tl.dot(a, b)` keeps a second 128x128 fp32 tile per dot: fp8 dots are
not folded into the accumulator, as in Triton; 128x256 tiles spill): A [M, K]
row-major and B [K, N] column-major (K contiguous in both, the layout
torch._scaled_mm requires and the one fp8 wgmma reads), fp32 accumulation, C
fp16. tilec compiled it at build time (test/CMakeLists.txt, with
-DTILEC_GPU_DOT_TESTS=ON) into bench_wgmma_fp8e4nv_tn.ptx with the signature
Triton's JIT picks for these tensors (sizes and leading dimensions divisible
by 16, stride_ak = stride_bk = stride_cn = 1). Triton compiles the same
function from the same file with the same constexprs, num_warps and
num_stages. torch._scaled_mm gets per-tensor scales of 1.0 (the tile program
has no scale multiply; with unit scales the three compute the same product).

Shapes: M = N = K = 4096, 8192 and 4000. Inputs are torch.randn rounded to
e4m3, the same tensors for every implementation. Each output is first checked
against an fp32 reference (torch.mm of the fp32 copies of the fp8 values):
normwise relative error below 2e-3 (Hopper's fp8 wgmma adds the products of
one tl.dot with less than fp32 precision; fp16 rounding of C); the errors of
all three are recorded.

Timing: triton.testing.do_bench medians, interleaved over --rounds rounds in a
rotated order; ratios are medians of per-round ratios (> 1: tilec faster).
TFLOP/s = 2 M N K / time. --cuda-kernels DIR also checks and times the same
kernel files from DIR (tilec's CUDA C++ back end) in the same rounds, "tilec
cuda", with cuda/ptx = PTX time / CUDA time (> 1: CUDA C++ faster);
--tilec-only leaves Triton and torch._scaled_mm out.

    TILEC_RUNTIME_LIB=lib/libtilec_runtime.so bench/bench_fp8_gemm.py \\
        --kernels kernels --sources examples --json fp8.json
"""

import argparse
import json
import os
import statistics
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tilec_rt  # noqa: E402
from gemm_common import (add_common_args, cell, interleaved_times, load_module,  # noqa: E402
                         speedup)

CONFIG = dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=128, GROUP_M=8)
NUM_STAGES = 4
NUM_WARPS = 8
SHAPES = ((4096, 4096, 4096), (8192, 8192, 8192), (4000, 4000, 4000),
          # Untuned: few rows, and sizes not divisible by 16 (tilec's
          # bench_wgmma_fp8e4nv_tn_i32: only the unit strides specialized, as
          # Triton's JIT does; torch._scaled_mm needs multiples of 16).
          (64, 8192, 8192), (16, 8192, 8192), (4099, 4099, 4099), (1000, 1000, 1000))
TOL = 2e-3


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p, here, "directory with bench_wgmma_fp8e4nv_tn.ptx")
    p.add_argument("--tmaptr", action="store_true",
                   help="for the aligned shapes, the kernel compiled with --tma-pointer-loads "
                        "(bench_wgmma_tmaptr_fp8e4nv_tn.ptx: operand loads on TMA)")
    tilec_rt.add_backend_arguments(p)
    args = p.parse_args()
    cuda, peers = args.cuda_kernels, not args.tilec_only

    name16 = "bench_wgmma_tmaptr_fp8e4nv_tn.ptx" if args.tmaptr else "bench_wgmma_fp8e4nv_tn.ptx"
    name_plain = "bench_wgmma_fp8e4nv_tn_i32.ptx"
    path = os.path.join(args.kernels, name16)
    if not os.path.exists(path):
        raise SystemExit(f"{path} not found: the GEMM kernels are built only with "
                         "-DTILEC_GPU_DOT_TESTS=ON")
    missing = tilec_rt.missing_kernels(cuda, (name16, name_plain)) if cuda else []
    if missing:
        raise SystemExit("missing CUDA C++ back end kernel(s): " + ", ".join(missing))
    torch.cuda.init()
    dev = torch.device("cuda", torch.cuda.current_device())
    torch.backends.cuda.matmul.allow_tf32 = False  # the fp32 reference
    ctx = tilec_rt.Context(dev.index)
    kernel16 = ctx.load_file(path).kernel("matmul_kernel")
    kernel_plain = ctx.load_file(
        os.path.join(args.kernels, name_plain)).kernel("matmul_kernel")
    if cuda:
        kernel16_c, kernel_plain_c = (tilec_rt.load_kernel(ctx, cuda, n, "matmul_kernel")
                                      for n in (name16, name_plain))
    mm = load_module(os.path.join(args.sources, "matmul.py"), "tilec_bench_matmul")
    f8 = torch.float8_e4m3fn

    rows = []
    for M, N, K in SHAPES:
        gen = torch.Generator(device=dev).manual_seed(M + N + K)
        a = torch.randn((M, K), device=dev, generator=gen).to(f8)
        b = torch.randn((N, K), device=dev, generator=gen).to(f8).t()  # [K, N], K contiguous
        c = torch.empty((M, N), device=dev, dtype=torch.float16)
        one = torch.ones((), device=dev, dtype=torch.float32)
        ref = torch.mm(a.float(), b.float())
        grid = (triton.cdiv(M, CONFIG["BLOCK_M"]) * triton.cdiv(N, CONFIG["BLOCK_N"]),)
        ints = (M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                c.stride(0), c.stride(1))

        aligned = all(x % 16 == 0 for x in (M, N, K))
        kernel = kernel16 if aligned else kernel_plain

        def run_tilec(kernel=kernel):
            kernel.launch(grid, a, b, c, *ints)

        def run_triton():
            mm.matmul_kernel[grid](a, b, c, *ints, **CONFIG, NUM_STAGES=NUM_STAGES,
                                   ACC_INT32=False, UPCAST_FP16=False,
                                   INPUT_PRECISION="tf32", num_stages=NUM_STAGES,
                                   num_warps=NUM_WARPS)

        def run_scaled_mm():
            torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.float16,
                             out=c)

        impls = {"tilec": run_tilec}
        if cuda:
            kernel_c = kernel16_c if aligned else kernel_plain_c
            impls["tilec_cuda"] = lambda: run_tilec(kernel_c)
        if peers:
            impls["triton"] = run_triton
        if aligned and peers:
            impls["scaled_mm"] = run_scaled_mm
        errors = {}
        for name, fn in impls.items():
            c.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            err = ((c.float() - ref).norm() / ref.norm()).item()
            errors[name] = err
            if not err <= TOL:
                msg = (f"fp8 GEMM {M}x{N}x{K}: {name} differs from the fp32 reference: "
                       f"normwise relative error {err:.3g} > {TOL}")
                if name.startswith("tilec"):
                    raise SystemExit(msg)
                print("warning: " + msg)
        del ref
        names = list(impls)
        times = interleaved_times(impls, args.rounds, args.warmup, args.rep)
        flops = 2.0 * M * N * K
        med = {name: statistics.median(ts) for name, ts in times.items()}
        rows.append({
            "M": M, "N": N, "K": K,
            **{f"{n}_ms": med[n] for n in names},
            **{f"{n}_tflops": flops / (med[n] * 1e-3) / 1e12 for n in names},
            "tilec_over_triton": speedup(times, "tilec", "triton"),
            "tilec_over_scaled_mm": speedup(times, "tilec", "scaled_mm") if aligned else None,
            "rel_error": errors,
        })
        if cuda:
            rows[-1].update(tilec_rt.backend_fields(
                kernel, kernel_c, med["tilec"], med["tilec_cuda"],
                speedup(times, "tilec_cuda", "tilec"), shape=f"{M}x{N}x{K}", work=flops,
                unit="TFLOP/s"))
        del a, b, c
        torch.cuda.empty_cache()

    print(f"fp8 e4m3 GEMM, C fp16 ({torch.cuda.get_device_name(dev)}; TFLOP/s; "
          "ratios > 1: tilec faster" +
          ("; tilec cuda: the CUDA C++ back end's kernel, cuda/ptx = PTX time / CUDA time "
           "(> 1: CUDA C++ faster)" if cuda else "") + ")")
    # With --cuda-kernels, "tilec cuda" after "tilec" and "cuda/ptx" last;
    # with --tilec-only, "-" for the peers.
    print(f"{'shape':>16} {'tilec':>8} " + (f"{'tilec cuda':>10} " if cuda else "") +
          f"{'triton':>8} {'scaled_mm':>10} {'vs triton':>10} {'vs scaled_mm':>13}" +
          (f" {'cuda/ptx':>8}" if cuda else ""))
    for r in rows:
        sm = r.get("scaled_mm_tflops")
        vs = r["tilec_over_scaled_mm"]
        vt = r["tilec_over_triton"]
        print(f"{r['M']:>5}x{r['N']}x{r['K']:<5} {r['tilec_tflops']:8.1f} " +
              (f"{r['tilec_cuda_tflops']:10.1f} " if cuda else "") +
              f"{cell(r.get('triton_tflops'), '8.1f'):>8} "
              f"{(f'{sm:10.1f}' if sm else '       n/a')} "
              f"{(f'{vt:9.2f}x' if vt is not None else '         -')} "
              f"{(f'{vs:12.2f}x' if vs else '          n/a')}" +
              (f" {r['cuda_over_ptx']:8.3f}" if cuda else ""))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
