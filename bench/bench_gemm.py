#!/usr/bin/env python3
"""GEMM fp16 and bf16: tilec vs Triton vs cuBLAS (torch.mm) on one GPU, the same
tile program on both compilers.

The kernel is matmul_kernel of test/GPU/kernels/py/matmul.py with the first
CUDA config of Triton's tutorial 03: BLOCK_M=128, BLOCK_N=256, BLOCK_K=64,
GROUP_M=8, num_stages=3, num_warps=8, C in the input type. tilec compiled it
at build time (test/CMakeLists.txt, with -DTILEC_GPU_DOT_TESTS=ON) into
bench_matmul_<dtype>_i32_16.ptx, with the signature Triton's JIT picks for these
tensors (pointers and every size and leading dimension divisible by 16, unit
strides equal to 1: `*fp16:16,...,i32:16,i32:1,...`), and into
bench_matmul_<dtype>_i32.ptx with plain `i32` integers, what an AOT user might
write (a second row, see shared/PERFORMANCE.md). Triton compiles the same
function here from the same file with the same constexprs, num_warps and
num_stages; cuBLAS is torch.mm(a, b, out=c).

Shapes: M = N = K = 4096, 8192 and 4000 (a size that is not a power of two;
still divisible by 16, so the same specialization applies). Inputs are
torch.randn, the same tensors for every implementation. Each output is first
checked against an fp32 reference (torch.mm of the fp32 copies, TF32 off):
normwise relative error below 1e-3 (fp16 C) or 8e-3 (bf16 C), i.e. the
rounding of C plus a little.

Timing: triton.testing.do_bench medians (warmup 25 ms, rep 100 ms by default),
interleaved: --rounds rounds (default 5), each timing tilec i32:16, tilec i32,
Triton and cuBLAS in a rotated order; the table shows the median time of each
and the median over rounds of the per-round ratios. TFLOP/s = 2 M N K / time.

A second table sweeps the other tile configs the bundle holds
(bench_matmul_<dtype>_i32_16_<BM>x<BN>x<BK>s<stages>w<warps>.ptx, built by
test/CMakeLists.txt), each run through both compilers, and ends with each
compiler's best config per shape against cuBLAS (labelled as such: the
configs differ between the columns).

--cuda-kernels DIR also checks and times each tilec kernel from the same
file name in DIR (tilec's CUDA C++ back end), in the same interleaved rounds
(the sweep: rounds of PTX and CUDA), as "tilec cuda", with cuda/ptx = PTX
time / CUDA time (> 1: CUDA C++ faster); --tilec-only leaves Triton and
cuBLAS out (a "-" in their columns).

    TILEC_RUNTIME_LIB=lib/libtilec_runtime.so bench/bench_gemm.py \\
        --kernels kernels --sources examples --json gemm.json
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

CONFIG = dict(BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8)
NUM_STAGES = 3
NUM_WARPS = 8
SHAPES = ((4096, 4096, 4096), (8192, 8192, 8192), (4000, 4000, 4000))
DTYPES = (("fp16", torch.float16, 1e-3), ("bf16", torch.bfloat16, 8e-3))


def sweep_configs(kernel_dir, dt, family="matmul"):
    """(BM, BN, BK, stages, warps) of the sweep kernels present for `dt`."""
    out = []
    prefix = f"bench_{family}_{dt}_i32_16_"
    for name in sorted(os.listdir(kernel_dir)):
        if not (name.startswith(prefix) and name.endswith(".ptx")):
            continue
        tiles, rest = name[len(prefix):-4].split("s")
        stages, warps = rest.split("w")
        bm, bn, bk = (int(x) for x in tiles.split("x"))
        out.append((bm, bn, bk, int(stages), int(warps)))
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p, here, "directory with bench_matmul_*.ptx")
    p.add_argument("--no-sweep", action="store_true",
                   help="only the tutorial config (skip the config sweep table)")
    families = ("matmul", "wgmma", "wgmma_tmaptr", "wgmma_tmaptr_cluster2")
    p.add_argument("--family", default="matmul",
                   help="tilec's kernels: bench_matmul_* (mma.sync), bench_wgmma_* "
                        "(--mma-version 3; i32:16 signatures only), bench_wgmma_tmaptr_* "
                        "(wgmma, the operand loads on TMA: --tma-pointer-loads) or "
                        "bench_wgmma_tmaptr_cluster2_* (the same in clusters of two CTAs "
                        "that multicast shared blocks: --cluster-size 2); any other "
                        "bench_<family>_<dtype>_i32_16.ptx present works too: one of "
                        + ", ".join(families) + " or a hand-built one")
    p.add_argument("--baseline",
                   help="also time this family's i32:16 kernel in the same rounds "
                        "(row field baseline_tflops, tilec_over_baseline)")
    tilec_rt.add_backend_arguments(p)
    args = p.parse_args()
    cuda, peers = args.cuda_kernels, not args.tilec_only
    fam = args.family
    sigs = ("i32_16", "i32") if fam == "matmul" else ("i32_16",)

    for dt, _, _ in DTYPES:
        for sig in sigs:
            path = os.path.join(args.kernels, f"bench_{fam}_{dt}_{sig}.ptx")
            if not os.path.exists(path):
                raise SystemExit(f"{path} not found: the GEMM kernels are built only with "
                                 "-DTILEC_GPU_DOT_TESTS=ON (they need the tl.dot backend)")

    torch.cuda.init()
    dev = torch.device("cuda", torch.cuda.current_device())
    torch.backends.cuda.matmul.allow_tf32 = False  # the fp32 reference
    ctx = tilec_rt.Context(dev.index)
    mm = load_module(os.path.join(args.sources, "matmul.py"), "tilec_bench_matmul")

    def bench(fn):
        return triton.testing.do_bench(fn, warmup=args.warmup, rep=args.rep,
                                       return_mode="median")

    def cuda_kernel(name):
        """With --cuda-kernels, kernel matmul_kernel of file `name` there."""
        return tilec_rt.load_kernel(ctx, cuda, name, "matmul_kernel") if cuda else None

    rows = []
    for dt, dtype, tol in DTYPES:
        kernels = {sig: ctx.load_file(os.path.join(args.kernels, f"bench_{fam}_{dt}_{sig}.ptx"))
                   .kernel("matmul_kernel") for sig in sigs}
        kernels_c = {sig: cuda_kernel(f"bench_{fam}_{dt}_{sig}.ptx") for sig in sigs}
        baselines = {}
        if args.baseline:
            baselines[dt] = ctx.load_file(os.path.join(
                args.kernels, f"bench_{args.baseline}_{dt}_i32_16.ptx")).kernel("matmul_kernel")
        for M, N, K in SHAPES:
            gen = torch.Generator(device=dev).manual_seed(M + N + K)
            a = torch.randn((M, K), device=dev, dtype=dtype, generator=gen)
            b = torch.randn((K, N), device=dev, dtype=dtype, generator=gen)
            c = torch.empty((M, N), device=dev, dtype=dtype)
            ref = torch.mm(a.float(), b.float())
            grid = (triton.cdiv(M, CONFIG["BLOCK_M"]) * triton.cdiv(N, CONFIG["BLOCK_N"]),)
            ints = (M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                    c.stride(0), c.stride(1))

            def tilec_fn(kernel):
                return lambda: kernel.launch(grid, a, b, c, *ints)

            def run_triton():
                mm.matmul_kernel[grid](a, b, c, *ints, **CONFIG, NUM_STAGES=NUM_STAGES,
                                       ACC_INT32=False, UPCAST_FP16=False,
                                       INPUT_PRECISION="tf32", num_stages=NUM_STAGES,
                                       num_warps=NUM_WARPS)

            def run_cublas():
                torch.mm(a, b, out=c)

            impls = {"tilec i32:16": tilec_fn(kernels["i32_16"])}
            if "i32" in kernels:
                impls["tilec i32"] = tilec_fn(kernels["i32"])
            if cuda:
                for s in sigs:
                    impls[f"tilec cuda {s.replace('_', ':')}"] = tilec_fn(kernels_c[s])
            if args.baseline:
                impls["baseline"] = tilec_fn(baselines[dt])
            if peers:
                impls.update({"triton": run_triton, "cublas": run_cublas})
            errors = {}
            for name, fn in impls.items():
                c.fill_(float("nan"))
                fn()
                torch.cuda.synchronize()
                err = ((c.float() - ref).norm() / ref.norm()).item()
                errors[name] = err
                if not err <= tol:  # NaN (an unwritten element) fails too
                    msg = (f"GEMM {dt} {M}x{N}x{K}: {name} differs from the fp32 reference: "
                           f"normwise relative error {err:.3g} > {tol}")
                    if name == "cublas":  # the peer: reported, not ours to fail
                        print("warning: " + msg)
                    else:
                        raise SystemExit(msg)
            del ref
            times = interleaved_times(impls, args.rounds, args.warmup, args.rep)
            flops = 2.0 * M * N * K
            med = {name: statistics.median(ts) for name, ts in times.items()}
            tflops = {name: flops / (ms * 1e-3) / 1e12 for name, ms in med.items()}
            for sig in [s.replace("_", ":") for s in sigs]:
                rows.append({
                    "dtype": dt, "M": M, "N": N, "K": K, "tilec_signature": sig,
                    "tilec_ms": med[f"tilec {sig}"], "triton_ms": med.get("triton"),
                    "cublas_ms": med.get("cublas"),
                    "tilec_tflops": tflops[f"tilec {sig}"], "triton_tflops": tflops.get("triton"),
                    "cublas_tflops": tflops.get("cublas"),
                    # Throughput ratios (> 1: tilec faster), median over rounds.
                    "tilec_over_cublas": speedup(times, f"tilec {sig}", "cublas"),
                    "tilec_over_triton": speedup(times, f"tilec {sig}", "triton"),
                    "rel_error": {"tilec": errors[f"tilec {sig}"], "triton": errors.get("triton"),
                                  "cublas": errors.get("cublas")},
                })
                if cuda:
                    s = sig.replace(":", "_")
                    rows[-1].update(
                        tilec_cuda_tflops=tflops[f"tilec cuda {sig}"],
                        **tilec_rt.backend_fields(
                            kernels[s], kernels_c[s], med[f"tilec {sig}"],
                            med[f"tilec cuda {sig}"],
                            speedup(times, f"tilec cuda {sig}", f"tilec {sig}"),
                            shape=f"{M}x{N}x{K}", work=flops, unit="TFLOP/s"))
                    rows[-1]["rel_error"]["tilec_cuda"] = errors[f"tilec cuda {sig}"]
                if args.baseline:
                    rows[-1].update({
                        "baseline": args.baseline, "baseline_tflops": tflops["baseline"],
                        "tilec_over_baseline": speedup(times, f"tilec {sig}", "baseline")})
            del a, b, c
            torch.cuda.empty_cache()

    # The config sweep: both compilers on every config, then the best of each.
    sweep = []
    for dt, dtype, tol in DTYPES:
        configs = [(CONFIG["BLOCK_M"], CONFIG["BLOCK_N"], CONFIG["BLOCK_K"], NUM_STAGES,
                    NUM_WARPS)] + sweep_configs(args.kernels, dt, fam)
        if args.no_sweep:
            break
        for M, N, K in SHAPES:
            gen = torch.Generator(device=dev).manual_seed(M + N + K)
            a = torch.randn((M, K), device=dev, dtype=dtype, generator=gen)
            b = torch.randn((K, N), device=dev, dtype=dtype, generator=gen)
            c = torch.empty((M, N), device=dev, dtype=dtype)
            ref = torch.mm(a.float(), b.float())
            ints = (M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                    c.stride(0), c.stride(1))
            cublas = bench(lambda: torch.mm(a, b, out=c)) if peers else None
            for bm, bn, bk, st, w in configs:
                suffix = "" if (bm, bn, bk, st, w) == configs[0] else f"_{bm}x{bn}x{bk}s{st}w{w}"
                kernel = ctx.load_file(os.path.join(
                    args.kernels, f"bench_{fam}_{dt}_i32_16{suffix}.ptx")).kernel("matmul_kernel")
                kernel_c = cuda_kernel(f"bench_{fam}_{dt}_i32_16{suffix}.ptx")
                grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)

                def run_tilec(kernel=kernel):
                    kernel.launch(grid, a, b, c, *ints)

                def run_cuda():
                    run_tilec(kernel_c)

                def run_triton():
                    mm.matmul_kernel[grid](a, b, c, *ints, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                                           GROUP_M=8, NUM_STAGES=st, ACC_INT32=False,
                                           UPCAST_FP16=False, INPUT_PRECISION="tf32",
                                           num_stages=st, num_warps=w)
                ok = {}
                checks = ((("tilec", run_tilec),) + ((("tilec cuda", run_cuda),) if cuda else ())
                          + ((("triton", run_triton),) if peers else ()))
                for name, fn in checks:
                    c.fill_(float("nan"))
                    fn()
                    torch.cuda.synchronize()
                    err = ((c.float() - ref).norm() / ref.norm()).item()
                    ok[name] = err <= tol
                    if name.startswith("tilec") and not ok[name]:
                        raise SystemExit(f"GEMM {dt} {M}^3 config {bm}x{bn}x{bk}s{st}w{w}: "
                                         f"{name} differs from the reference ({err:.3g})")
                n_rounds = max(1, args.rounds - 1)
                if cuda:  # PTX and CUDA in rounds, rotated
                    t_both = interleaved_times({"tilec": run_tilec, "tilec_cuda": run_cuda},
                                               n_rounds, args.warmup, args.rep)
                    t_tilec, t_cuda = t_both["tilec"], t_both["tilec_cuda"]
                else:
                    t_tilec = [bench(run_tilec) for _ in range(n_rounds)]
                t_triton = [bench(run_triton) for _ in range(n_rounds)] if peers else None
                flops = 2.0 * M * N * K
                sweep.append({
                    "dtype": dt, "M": M, "N": N, "K": K,
                    "config": f"{bm}x{bn}x{bk} s{st} w{w}",
                    "tilec_tflops": flops / (statistics.median(t_tilec) * 1e-3) / 1e12,
                    "triton_tflops": (flops / (statistics.median(t_triton) * 1e-3) / 1e12
                                      if ok["triton"] else float("nan")) if peers else None,
                    "cublas_tflops": flops / (cublas * 1e-3) / 1e12 if peers else None})
                if cuda:
                    sweep[-1].update(
                        tilec_cuda_tflops=flops / (statistics.median(t_cuda) * 1e-3) / 1e12,
                        **tilec_rt.backend_fields(
                            kernel, kernel_c, statistics.median(t_tilec),
                            statistics.median(t_cuda), speedup(t_both, "tilec_cuda", "tilec"),
                            label=f"bench_{fam}_{dt}_i32_16{suffix} (sweep)",
                            shape=f"{M}x{N}x{K}", work=flops, unit="TFLOP/s"))
            del a, b, c, ref
            torch.cuda.empty_cache()

    device = torch.cuda.get_device_name(dev)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "warmup_ms": args.warmup, "rep_ms": args.rep,
                       "rounds": args.rounds, "config": {**CONFIG, "num_stages": NUM_STAGES,
                                                          "num_warps": NUM_WARPS},
                       "rows": rows, "sweep": sweep}, f, indent=2)
        print(f"wrote {args.json}")

    def table(header, lines, left):
        lines = [header] + lines
        widths = [max(len(line[c]) for line in lines) for c in range(len(header))]
        for k, line in enumerate(lines):
            print("  ".join(cell.ljust(w) if c < left else cell.rjust(w)
                            for c, (cell, w) in enumerate(zip(line, widths))))
            if k == 0:
                print("  ".join("-" * w for w in widths))

    if sweep:
        print_sweep(sweep, table, cuda, peers)
    print(f"device: {device}; do_bench medians over {args.rounds} interleaved rounds "
          f"(warmup {args.warmup} ms, rep {args.rep} ms); TFLOP/s; matmul_kernel "
          f"{CONFIG['BLOCK_M']}x{CONFIG['BLOCK_N']}x{CONFIG['BLOCK_K']}, "
          f"{NUM_STAGES} stages, {NUM_WARPS} warps on both compilers" +
          ("; tilec cuda: the CUDA C++ back end's kernel, cuda/ptx = PTX time / CUDA time "
           "(> 1: CUDA C++ faster)" if cuda else ""))
    # With --cuda-kernels, "tilec cuda" after "tilec" and "cuda/ptx" last.
    table(("dtype", "M=N=K", "tilec sig", "tilec", *(("tilec cuda",) if cuda else ()),
           "triton", "cuBLAS", "tilec/cuBLAS", "tilec/triton", *(("cuda/ptx",) if cuda else ())),
          [(r["dtype"], str(r["M"]), r["tilec_signature"], f"{r['tilec_tflops']:.1f}",
            *((f"{r['tilec_cuda_tflops']:.1f}",) if cuda else ()),
            cell(r["triton_tflops"], ".1f"), cell(r["cublas_tflops"], ".1f"),
            cell(r["tilec_over_cublas"], ".3f"), cell(r["tilec_over_triton"], ".3f"),
            *((f"{r['cuda_over_ptx']:.3f}",) if cuda else ())) for r in rows], 3)
    if args.baseline:
        table(("dtype", "M=N=K", f"tilec {fam}", f"tilec {args.baseline}", "ratio"),
              [(r["dtype"], str(r["M"]), f"{r['tilec_tflops']:.1f}",
                f"{r['baseline_tflops']:.1f}", f"{r['tilec_over_baseline']:.3f}")
               for r in rows], 2)


def print_sweep(sweep, table, cuda=None, peers=True):
    """The config sweep table and each compiler's best config per shape (the
    latter only with the peers: not with --tilec-only)."""
    print("config sweep (i32:16 signatures; TFLOP/s; each config on both compilers):")
    table(("dtype", "M=N=K", "config", "tilec", *(("tilec cuda",) if cuda else ()), "triton",
           "cuBLAS", "tilec/cuBLAS", *(("cuda/ptx",) if cuda else ())),
          [(r["dtype"], str(r["M"]), r["config"], f"{r['tilec_tflops']:.1f}",
            *((f"{r['tilec_cuda_tflops']:.1f}",) if cuda else ()),
            cell(r["triton_tflops"], ".1f"), cell(r["cublas_tflops"], ".1f"),
            cell(r["tilec_tflops"] / r["cublas_tflops"] if peers else None, ".3f"),
            *((f"{r['cuda_over_ptx']:.3f}",) if cuda else ())) for r in sweep], 3)
    if not peers:
        return
    print("best config of each compiler:")
    best = []
    for dt, _, _ in DTYPES:
        for M, N, K in SHAPES:
            rs = [r for r in sweep if r["dtype"] == dt and r["M"] == M]
            bt = max(rs, key=lambda r: r["tilec_tflops"])
            bx = max(rs, key=lambda r: r["triton_tflops"] if r["triton_tflops"] == r["triton_tflops"] else 0)
            best.append((dt, str(M), bt["config"], f"{bt['tilec_tflops']:.1f}", bx["config"],
                         f"{bx['triton_tflops']:.1f}", f"{bt['cublas_tflops']:.1f}",
                         f"{bt['tilec_tflops'] / bt['cublas_tflops']:.3f}",
                         f"{bt['tilec_tflops'] / bx['triton_tflops']:.3f}"))
    table(("dtype", "M=N=K", "tilec config", "tilec", "triton config", "triton", "cuBLAS",
           "tilec/cuBLAS", "tilec/triton"), best, 3)


if __name__ == "__main__":
    main()
