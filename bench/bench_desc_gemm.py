#!/usr/bin/env python3
"""Persistent GEMM on device-side tensor descriptors (Triton's tutorial 09 form):
tilec vs Triton vs cuBLAS on one GPU, the same tile program on both compilers.

The kernel is matmul_desc_kernel of test/GPU/kernels/py/matmul.py: each program
makes descriptors for A, B and C (tl.make_tensor_descriptor) and loops over the
output tiles in grouped order, stepping by the number of programs; the grid is
min(#SMs, #tiles). Config: BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8,
num_stages=3, num_warps=8 (tutorial 03's first CUDA config). tilec compiled it
at build time into bench_desc_fp16_i32_16.ptx / bench_desc_bf16_i32_16.ptx
with the signature Triton's JIT picks for these tensors (sizes and leading
dimensions divisible by 16, unit strides equal to 1). tilec lowers the
descriptor accesses to masked loads and stores (cp.async into wgmma operands);
Triton lowers them to TMA with mbarriers (its global scratch for the
descriptors comes from triton.set_allocator). cuBLAS is torch.mm(a, b, out=c).

Shapes: M = N = K = 4096, 8192 and 4000 (--untuned: see UNTUNED). Each output is first checked
against an fp32 reference (normwise relative error below 1e-3 fp16, 8e-3 bf16).
Timing: do_bench medians, --rounds interleaved rounds in rotated order, ratios
as medians of per-round ratios (bench/gemm_common.py). TFLOP/s = 2 M N K / time.

    TILEC_RUNTIME_LIB=lib/libtilec_runtime.so bench/bench_desc_gemm.py \\
        --kernels kernels --sources examples --json desc_gemm.json

With --host, the kernel is instead matmul_tma_persistent_kernel of
test/GPU/kernels/py/host_descriptors.py (tutorial 09's TMA matmul): host-side
descriptors (triton.tools.tensor_descriptor.TensorDescriptor, the same objects
passed to both compilers) of A [M, K], B given as [N, K] and C, the block
shapes in the descriptors, same config; tilec's PTX is bench_host_desc_*.ptx
(signature tensordesc<T[128,64]>, tensordesc<T[256,64]>, tensordesc<T[128,256]>,
i32:16 x 3). cuBLAS computes the same A @ B^T (torch.mm(a, b.T)).

With --host --tma --ws, tilec's kernel is the warp-specialized one
(bench_host_desc_ws_*.ptx: WARP_SPECIALIZE=True, the producer warp issuing the
TMA copies), and the peers are Triton with WARP_SPECIALIZE=False and =True
(the same .py; a variant Triton rejects is reported and left out), tilec's
kernel without warp specialization, and cuBLAS; tilec/triton is against the
faster Triton variant of each round.
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
from gemm_common import (add_common_args, interleaved_times, load_module,  # noqa: E402
                         speedup)

CONFIG = dict(BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8)
NUM_STAGES = 3
NUM_WARPS = 8
SHAPES = ((4096, 4096, 4096), (8192, 8192, 8192), (4000, 4000, 4000))
DTYPES = (("fp16", torch.float16, 1e-3), ("bf16", torch.bfloat16, 8e-3))


# Untuned shapes (--untuned): odd sizes everywhere, sizes divisible by 8 but
# not 16, few rows, one K step.
UNTUNED = ((4097, 4097, 4097), (1000, 1000, 1000), (64, 8192, 8192),
           (16, 8192, 8192), (8192, 8192, 64))


def ptx_for(pattern, dt, M, N, K):
    """tilec's PTX for a shape: the i32:16 kernel, or (host TMA kernels) the
    plain-i32 one when a size is not divisible by 16."""
    name = pattern.format(dt)
    if any(x % 16 for x in (M, N, K)):
        if "bench_host_desc_tma_" not in name and "bench_host_desc_ws_" not in name:
            raise SystemExit(f"no plain-i32 variant of {name} for {M}x{N}x{K}")
        name = name[:-len(".ptx")] + "_i32.ptx"
    return name


def padded(shape, dtype, dev, gen):
    """A [rows, cols] tensor whose rows are padded to 16 bytes, as a view;
    random if `gen` is given."""
    rows, cols = shape
    per = 16 // torch.tensor([], dtype=dtype).element_size()
    storage = torch.empty((rows, (cols + per - 1) // per * per), device=dev, dtype=dtype)
    view = storage[:, :cols]
    if gen is not None:
        view.copy_(torch.randn(shape, device=dev, dtype=dtype, generator=gen))
    return view


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p, here, "directory with bench_desc_*.ptx")
    p.add_argument("--host", action="store_true",
                   help="host-side descriptors: matmul_tma_persistent_kernel")
    p.add_argument("--tma", action="store_true",
                   help="with --host: tilec's kernel compiled with --tma "
                        "(bench_host_desc_tma_*.ptx)")
    p.add_argument("--untuned", action="store_true",
                   help="with --host --tma: untuned shapes (odd sizes in padded storage, "
                        "few rows, one K step) instead of the square ones; sizes not "
                        "divisible by 16 use bench_host_desc_tma_*_i32.ptx (plain i32 "
                        "M, N, K, as Triton's JIT specializes them)")
    p.add_argument("--ws", action="store_true",
                   help="with --host --tma: tilec's warp-specialized kernel "
                        "(bench_host_desc_ws_*.ptx) against Triton with and without "
                        "warp_specialize, and tilec's kernel without")
    args = p.parse_args()
    if args.ws and not args.tma:
        raise SystemExit("--ws needs --host --tma")
    if args.tma and not args.host:
        raise SystemExit("--tma needs --host")
    if args.untuned and not args.tma:
        raise SystemExit("--untuned needs --host --tma")
    ptx = ("bench_host_desc_tma_{}.ptx" if args.tma else "bench_host_desc_{}.ptx") \
        if args.host else "bench_desc_{}_i32_16.ptx"
    if args.ws:
        ptx, plain_ptx = "bench_host_desc_ws_{}.ptx", ptx
    shapes = UNTUNED if args.untuned else SHAPES
    for dt, _, _ in DTYPES:
        names = {ptx_for(ptx, dt, *shape) for shape in shapes}
        if args.ws:
            names |= {ptx_for(plain_ptx, dt, *shape) for shape in shapes}
        for name in names:
            path = os.path.join(args.kernels, name)
            if not os.path.exists(path):
                raise SystemExit(f"{path} not found: the GEMM kernels are built only with "
                                 "-DTILEC_GPU_DOT_TESTS=ON")

    torch.cuda.init()
    dev = torch.device("cuda", torch.cuda.current_device())
    torch.backends.cuda.matmul.allow_tf32 = False  # the fp32 reference
    sms = torch.cuda.get_device_properties(dev).multi_processor_count
    # Triton's device-side descriptors live in global scratch memory.
    triton.set_allocator(lambda size, align, stream:
                         torch.empty(size, dtype=torch.int8, device=dev))
    ctx = tilec_rt.Context(dev.index)
    if args.host:
        from triton.tools.tensor_descriptor import TensorDescriptor
        mm = load_module(os.path.join(args.sources, "host_descriptors.py"),
                         "tilec_bench_host_desc")
        kernel_name = "matmul_tma_persistent_kernel"
    else:
        mm = load_module(os.path.join(args.sources, "matmul.py"), "tilec_bench_desc")
        kernel_name = "matmul_desc_kernel"

    rows = []
    kernels = {}
    for dt, dtype, tol in DTYPES:
        for M, N, K in shapes:
            def load(name):
                if name not in kernels:
                    kernels[name] = ctx.load_file(os.path.join(args.kernels, name)) \
                        .kernel(kernel_name)
                return kernels[name]
            name = ptx_for(ptx, dt, M, N, K)
            kernel = load(name)
            plain = load(ptx_for(plain_ptx, dt, M, N, K)) if args.ws else None
            gen = torch.Generator(device=dev).manual_seed(M + N + K)
            # Rows padded to 16 bytes (TMA's stride rule), the tensors views.
            a = padded((M, K), dtype, dev, gen)
            b = torch.randn((K, N), device=dev, dtype=dtype, generator=gen)
            c = padded((M, N), dtype, dev, None)
            ref = torch.mm(a.float(), b.float())
            tiles = triton.cdiv(M, CONFIG["BLOCK_M"]) * triton.cdiv(N, CONFIG["BLOCK_N"])
            grid = (min(sms, tiles),)
            if args.host:
                # B as N x K (tutorial 09's layout); the reference is A @ B.
                b_nk = padded((N, K), dtype, dev, None)
                b_nk.copy_(b.t())
                bm, bn, bk = CONFIG["BLOCK_M"], CONFIG["BLOCK_N"], CONFIG["BLOCK_K"]
                descs = (TensorDescriptor.from_tensor(a, [bm, bk]),
                         TensorDescriptor.from_tensor(b_nk, [bn, bk]),
                         TensorDescriptor.from_tensor(c, [bm, bn]))

                def run_tilec():
                    kernel.launch(grid, *descs, M, N, K)

                def run_triton(ws=False):
                    mm.matmul_tma_persistent_kernel[grid](
                        *descs, M, N, K, GROUP_M=CONFIG["GROUP_M"], NUM_STAGES=NUM_STAGES,
                        EPILOGUE_SUBTILE=False, WARP_SPECIALIZE=ws,
                        num_stages=NUM_STAGES, num_warps=NUM_WARPS)

                def run_cublas():
                    torch.mm(a, b_nk.t(), out=c)

                def run_tilec_plain():
                    plain.launch(grid, *descs, M, N, K)

                def run_triton_ws():
                    run_triton(ws=True)
            else:
                ints = (M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1))

                def run_tilec():
                    kernel.launch(grid, a, b, c, *ints)

                def run_triton():
                    mm.matmul_desc_kernel[grid](a, b, c, *ints, **CONFIG,
                                                NUM_STAGES=NUM_STAGES,
                                                num_stages=NUM_STAGES, num_warps=NUM_WARPS)

                def run_cublas():
                    torch.mm(a, b, out=c)

            impls = {"tilec": run_tilec, "triton": run_triton, "cublas": run_cublas}
            if args.ws:
                impls = {"tilec": run_tilec, "tilec_no_ws": run_tilec_plain,
                         "triton": run_triton, "triton_ws": run_triton_ws,
                         "cublas": run_cublas}
            errors = {}
            for name, fn in list(impls.items()):
                c.fill_(float("nan"))
                try:
                    fn()
                except Exception as e:  # a Triton variant it cannot compile
                    if name != "triton_ws":
                        raise
                    print(f"warning: Triton WARP_SPECIALIZE=True failed on {dt} "
                          f"{M}x{N}x{K}: {type(e).__name__}: {str(e)[:200]}")
                    del impls[name]
                    continue
                torch.cuda.synchronize()
                err = ((c.float() - ref).norm() / ref.norm()).item()
                errors[name] = err
                if not err <= tol:
                    msg = (f"GEMM {dt} {M}x{N}x{K}: {name} differs from the fp32 reference: "
                           f"normwise relative error {err:.3g} > {tol}")
                    if name == "tilec":
                        raise SystemExit(msg)
                    print("warning: " + msg)
            del ref
            times = interleaved_times(impls, args.rounds, args.warmup, args.rep)
            triton_times = times["triton"]
            if "triton_ws" in times:
                # The faster Triton variant of each round.
                times["triton_best"] = [min(x, y) for x, y in
                                        zip(times["triton"], times["triton_ws"])]
                triton_times = times["triton_best"]
            flops = 2.0 * M * N * K
            med = {name: statistics.median(ts) for name, ts in times.items()}
            tflops = {name: flops / (ms * 1e-3) / 1e12 for name, ms in med.items()}
            rows.append({
                "dtype": dt, "M": M, "N": N, "K": K, "grid": grid[0], "ptx": name,
                **{f"{n}_ms": med[n] for n in impls},
                **{f"{n}_tflops": tflops[n] for n in impls},
                "tilec_over_triton": speedup(times, "tilec",
                                             "triton_best" if "triton_best" in times
                                             else "triton"),
                "tilec_over_cublas": speedup(times, "tilec", "cublas"),
                "rel_error": errors,
            })
            if "triton_ws" not in tflops:
                rows[-1]["triton_ws_tflops"] = float("nan")
            del a, b, c, run_tilec, run_triton, run_cublas, impls, triton_times
            if args.host:
                del b_nk, descs
            torch.cuda.empty_cache()

    device = torch.cuda.get_device_name(dev)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "warmup_ms": args.warmup, "rep_ms": args.rep,
                       "rounds": args.rounds, "config": {**CONFIG, "num_stages": NUM_STAGES,
                                                          "num_warps": NUM_WARPS},
                       "rows": rows}, f, indent=2)
        print(f"wrote {args.json}")
    header = ("dtype", "MxNxK", "grid", "tilec", "triton", "cuBLAS", "tilec/triton",
              "tilec/cuBLAS")
    if args.ws:
        header = header[:4] + ("tilec no-ws", "triton", "triton ws") + header[5:]
    lines = [header]
    for r in rows:
        peers = [f"{r['triton_tflops']:.1f}"]
        if args.ws:
            peers = [f"{r['tilec_no_ws_tflops']:.1f}", peers[0],
                     f"{r['triton_ws_tflops']:.1f}"]
        lines.append((r["dtype"], f"{r['M']}x{r['N']}x{r['K']}", str(r["grid"]),
                      f"{r['tilec_tflops']:.1f}", *peers, f"{r['cublas_tflops']:.1f}",
                      f"{r['tilec_over_triton']:.3f}", f"{r['tilec_over_cublas']:.3f}"))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    print(f"device: {device}; do_bench medians over {args.rounds} interleaved rounds; "
          f"TFLOP/s; {kernel_name} {CONFIG['BLOCK_M']}x{CONFIG['BLOCK_N']}x"
          f"{CONFIG['BLOCK_K']}, {NUM_STAGES} stages, {NUM_WARPS} warps, persistent grid")
    for k, line in enumerate(lines):
        print("  ".join(cell.ljust(w) if i < 3 else cell.rjust(w)
                        for i, (cell, w) in enumerate(zip(line, widths))))
        if k == 0:
            print("  ".join("-" * w for w in widths))


if __name__ == "__main__":
    main()
