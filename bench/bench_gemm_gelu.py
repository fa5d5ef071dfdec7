#!/usr/bin/env python3
"""GEMM + GELU in one kernel: tilec vs Triton (same tile program) vs torch's
matmul followed by GELU (cuBLAS, then an elementwise kernel), on one GPU.

Five forms of the kernel (--form, default all: every one), each of
test/GPU/kernels/py/matmul.py with ACTIVATION="gelu": the exact GELU,
x / 2 (1 + erf(x / sqrt 2)), applied to the fp32 accumulator before the cast
to C's type, with tutorial 03's first CUDA config (128x256x64, GROUP_M=8, 3
stages, 8 warps) on wgmma (descpp: its own config, below):

  pointer  matmul_kernel, tutorial 03's form (masked pointer loads, one
           program per tile): bench_wgmma_<dtype>_gelu_i32_16.ptx;
  tmaptr   matmul_kernel compiled with --tma-pointer-loads (the masked
           operand loads copied with TMA through launch maps):
           bench_wgmma_tmaptr_<dtype>_gelu_i32_16.ptx (Triton's peer: the
           pointer row's);
  desc     matmul_desc_kernel, tutorial 09's persistent form on device-side
           tensor descriptors (TMA loads and stores; grid = min(#SMs, tiles)):
           bench_desc_<dtype>_gelu_i32_16.ptx;
  descflat the same with FLATTEN=True (tl.range(..., flatten=True): the next
           tile's copies overlap this tile's epilogue):
           bench_desc_<dtype>_gelu_flat_i32_16.ptx;
  descpp   the same with FLATTEN=True and WARP_SPECIALIZE=True, compiled with
           --num-consumer-groups 2 (ping-pong: a producer issues the TMA
           copies, two consumer groups of 4 warps each compute a whole
           128x128 tile, taking turns over the tiles, one group's epilogue
           under the other's main loop): 128x128x64, GROUP_M=8, 4 stages,
           grid = min(#SMs, 128x128 tiles):
           bench_desc_<dtype>_gelu_pp_i32_16.ptx (Triton's peer: the desc
           row's, at Triton's tuned 128x256x64 config above, not a 128x128
           one).

tilec compiled them at build time with the signature Triton's JIT picks for
these tensors; Triton runs the same function on the same grid (descpp's peer:
the desc form's config and grid). The torch peer is
torch.nn.functional.gelu(torch.mm(a, b)) (what a model without a fused kernel
runs: two kernels and a round trip of C through memory); cuBLAS alone
(torch.mm) is shown for scale.

Shapes (M, N, K): 4096^3, 8192^3 and an MLP up-projection 16384 x 8192 x 2048
(where the epilogue's memory traffic weighs most). Each output is checked
against an fp32 reference (GELU of torch.mm of the fp32 copies): normwise
relative error below 1e-3 (fp16 C) or 8e-3 (bf16 C). Timing: do_bench medians
over --rounds interleaved rounds in rotated order; ratios are medians of
per-round ratios (bench/gemm_common.py). TFLOP/s count the GEMM only.
--cuda-kernels DIR also checks and times each form's kernel file from DIR
(tilec's CUDA C++ back end) in the same rounds, "tilec cuda", with cuda/ptx =
PTX time / CUDA time (> 1: CUDA C++ faster); --tilec-only leaves Triton and
torch out.

    TILEC_RUNTIME_LIB=lib/libtilec_runtime.so bench/bench_gemm_gelu.py \\
        --kernels kernels --sources examples --json gemm_gelu.json
    TILEC_RUNTIME_LIB=lib/libtilec_runtime.so bench/bench_gemm_gelu.py \\
        --kernels kernels --sources examples --form descpp --json gemm_gelu_pp.json
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
from gemm_common import (add_common_args, cell, interleaved_times, load_module,  # noqa: E402
                         speedup)

CONFIG = dict(BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8)
NUM_STAGES = 3
NUM_WARPS = 8
SHAPES = ((4096, 4096, 4096), (8192, 8192, 8192), (16384, 8192, 2048))
DTYPES = (("fp16", torch.float16, 1e-3), ("bf16", torch.bfloat16, 8e-3))
PTX = {"pointer": "bench_wgmma_{dt}_gelu_i32_16.ptx",
       "tmaptr": "bench_wgmma_tmaptr_{dt}_gelu_i32_16.ptx",
       "desc": "bench_desc_{dt}_gelu_i32_16.ptx",
       "descflat": "bench_desc_{dt}_gelu_flat_i32_16.ptx",
       "descpp": "bench_desc_{dt}_gelu_pp_i32_16.ptx"}
KERNEL = {"pointer": "matmul_kernel", "tmaptr": "matmul_kernel", "desc": "matmul_desc_kernel",
          "descflat": "matmul_desc_kernel", "descpp": "matmul_desc_kernel"}
# Triton runs the .py function itself: tmaptr's peer is the pointer form's,
# descpp's the desc form's (Triton's tuned config and grid, not descpp's).
PEER = {"pointer": "pointer", "tmaptr": "pointer", "desc": "desc", "descflat": "descflat",
        "descpp": "desc"}
FORMS = ("pointer", "tmaptr", "desc", "descflat", "descpp")
# descpp: tilec's ping-pong kernel, two consumer groups of PP_NUM_WARPS warps,
# one 128x128 tile each (compiled in; the block shape sets its grid).
PP_CONFIG = dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP_M=8)
PP_NUM_STAGES = 4
PP_NUM_WARPS = 4
PP_CONSUMER_GROUPS = 2


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p, here, "directory with bench_{wgmma,desc}_*_gelu*_i32_16.ptx")
    p.add_argument("--form", choices=FORMS + ("all",),
                   default="all", help="the kernel form(s) to run (default: all)")
    p.add_argument("--pp-tile", default="128x128",
                   help="descpp's tile, BLOCK_MxBLOCK_N: 128x128 "
                        "(bench_desc_<dtype>_gelu_pp_i32_16.ptx, the default) or 64x256 "
                        "(bench_desc_<dtype>_gelu_pp_64x256_i32_16.ptx)")
    tilec_rt.add_backend_arguments(p)
    args = p.parse_args()
    cuda, peers = args.cuda_kernels, not args.tilec_only
    if args.pp_tile not in ("128x128", "64x256"):
        raise SystemExit(f"--pp-tile: expected 128x128 or 64x256, found {args.pp_tile}")
    PP_CONFIG["BLOCK_M"], PP_CONFIG["BLOCK_N"] = (int(x) for x in args.pp_tile.split("x"))
    if args.pp_tile != "128x128":
        PTX["descpp"] = f"bench_desc_{{dt}}_gelu_pp_{args.pp_tile}_i32_16.ptx"
    forms = FORMS if args.form == "all" else (args.form,)
    for dt, _, _ in DTYPES:
        for form in forms:
            path = os.path.join(args.kernels, PTX[form].format(dt=dt))
            if not os.path.exists(path):
                raise SystemExit(f"{path} not found: the GEMM kernels are built only with "
                                 "-DTILEC_GPU_DOT_TESTS=ON")

    torch.cuda.init()
    dev = torch.device("cuda", torch.cuda.current_device())
    torch.backends.cuda.matmul.allow_tf32 = False  # the fp32 reference
    ctx = tilec_rt.Context(dev.index)
    mm = load_module(os.path.join(args.sources, "matmul.py"), "tilec_bench_gelu")

    sms = torch.cuda.get_device_properties(dev).multi_processor_count
    # Scratch for the device-side descriptors Triton builds (tutorial 09).
    triton.set_allocator(lambda size, align, stream:
                         torch.empty(size, dtype=torch.int8, device=dev))
    rows = []
    for dt, dtype, tol in DTYPES:
        kernels = {form: ctx.load_file(os.path.join(args.kernels, PTX[form].format(dt=dt)))
                   .kernel(KERNEL[form]) for form in forms}
        kernels_c = {form: tilec_rt.load_kernel(ctx, cuda, PTX[form].format(dt=dt), KERNEL[form])
                     for form in forms} if cuda else {}
        for M, N, K in SHAPES:
            gen = torch.Generator(device=dev).manual_seed(M + N + K)
            a = torch.randn((M, K), device=dev, dtype=dtype, generator=gen)
            b = torch.randn((K, N), device=dev, dtype=dtype, generator=gen)
            c = torch.empty((M, N), device=dev, dtype=dtype)
            ref = F.gelu(torch.mm(a.float(), b.float()))
            tiles = triton.cdiv(M, CONFIG["BLOCK_M"]) * triton.cdiv(N, CONFIG["BLOCK_N"])
            ints = (M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                    c.stride(0), c.stride(1))
            impls, checks = {}, {}
            for form in forms:
                # tilec's grid (descpp's kernel tiles C 128x128) ...
                block = PP_CONFIG if form == "descpp" else CONFIG
                form_tiles = (triton.cdiv(M, block["BLOCK_M"]) *
                              triton.cdiv(N, block["BLOCK_N"]))
                grid = (min(sms, form_tiles),) if form.startswith("desc") else (form_tiles,)
                kernel = kernels[form]
                # ... and Triton's: the peer form's, at CONFIG.
                peer = PEER[form]
                persistent = peer.startswith("desc")
                peer_grid = (min(sms, tiles),) if persistent else (tiles,)
                fn = getattr(mm, KERNEL[peer])
                extra = ({"ACC_INT32": False, "UPCAST_FP16": False, "INPUT_PRECISION": "tf32"}
                         if not persistent else {"FLATTEN": peer == "descflat"})

                def run_tilec(kernel=kernel, grid=grid):
                    kernel.launch(grid, a, b, c, *ints)

                def run_triton(fn=fn, grid=peer_grid, extra=extra):
                    fn[grid](a, b, c, *ints, **CONFIG, NUM_STAGES=NUM_STAGES, **extra,
                             ACTIVATION="gelu", num_stages=NUM_STAGES, num_warps=NUM_WARPS)

                impls[f"tilec {form}"] = checks[f"tilec {form}"] = run_tilec
                if cuda:
                    impls[f"tilec cuda {form}"] = checks[f"tilec cuda {form}"] = (
                        lambda k=kernels_c[form], g=grid, run=run_tilec: run(k, g))
                if peers:
                    impls[f"triton {peer}"] = checks[f"triton {peer}"] = run_triton

            def run_torch():
                torch.mm(a, b, out=c)
                c.copy_(F.gelu(c))

            def run_torch_unfused():
                # What a model runs: the GEMM's output, then GELU into a new tensor.
                return F.gelu(torch.mm(a, b))

            def run_cublas():
                torch.mm(a, b, out=c)

            if peers:
                checks["torch"] = run_torch
            errors = {}
            for name, fn in list(checks.items()):
                c.fill_(float("nan"))
                try:
                    fn()
                    torch.cuda.synchronize()
                except Exception as e:  # a peer that does not compile this form
                    if name.startswith("tilec"):
                        raise
                    print(f"warning: {name} failed ({type(e).__name__}: {e}); not timed")
                    impls.pop(name, None)
                    errors[name] = None
                    continue
                err = ((c.float() - ref).norm() / ref.norm()).item()
                errors[name] = err
                if not err <= tol:
                    msg = (f"GEMM+GELU {dt} {M}x{N}x{K}: {name} differs from the fp32 "
                           f"reference: normwise relative error {err:.3g} > {tol}")
                    if name.startswith("tilec"):
                        raise SystemExit(msg)
                    print("warning: " + msg)
            del ref
            if peers:
                impls["torch mm+gelu"] = run_torch_unfused
                impls["cublas mm"] = run_cublas
            times = interleaved_times(impls, args.rounds, args.warmup, args.rep)
            flops = 2.0 * M * N * K
            med = {n: statistics.median(ts) for n, ts in times.items()}
            for form in forms:
                rows.append({
                    "form": form, "dtype": dt, "M": M, "N": N, "K": K,
                    "peer": f"triton {PEER[form]}",
                    "ms": med, "tflops": {n: flops / (ms * 1e-3) / 1e12 for n, ms in med.items()},
                    "tilec_over_torch": speedup(times, f"tilec {form}", "torch mm+gelu"),
                    "tilec_over_triton": (speedup(times, f"tilec {form}", f"triton {PEER[form]}")
                                          if f"triton {PEER[form]}" in times or not peers
                                          else float("nan")),
                    "tilec_over_cublas_mm": speedup(times, f"tilec {form}", "cublas mm"),
                    "rel_error": errors,
                })
                if cuda:
                    rows[-1].update(tilec_rt.backend_fields(
                        kernels[form], kernels_c[form], med[f"tilec {form}"],
                        med[f"tilec cuda {form}"],
                        speedup(times, f"tilec cuda {form}", f"tilec {form}"),
                        shape=f"{M}x{N}x{K}", work=flops, unit="TFLOP/s"))
            del a, b, c
            torch.cuda.empty_cache()

    device = torch.cuda.get_device_name(dev)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "warmup_ms": args.warmup, "rep_ms": args.rep,
                       "rounds": args.rounds, "config": {**CONFIG, "num_stages": NUM_STAGES,
                                                          "num_warps": NUM_WARPS},
                       **({"descpp_config": {**PP_CONFIG, "num_stages": PP_NUM_STAGES,
                                             "num_warps": PP_NUM_WARPS,
                                             "consumer_groups": PP_CONSUMER_GROUPS}}
                          if "descpp" in forms else {}),
                       "rows": rows}, f, indent=2)
        print(f"wrote {args.json}")
    # With --cuda-kernels, "tilec cuda" after "tilec" and "cuda/ptx" last; with
    # --tilec-only, "-" for the peers.
    header = ("form", "dtype", "MxNxK", "tilec", *(("tilec cuda",) if cuda else ()), "triton",
              "torch mm+gelu", "cuBLAS mm", "tilec/torch", "tilec/triton", "tilec/cuBLAS mm",
              *(("cuda/ptx",) if cuda else ()))
    lines = [header] + [(r["form"], r["dtype"], f"{r['M']}x{r['N']}x{r['K']}",
                         *(cell(r["tflops"].get(n, float("nan") if peers else None), ".1f")
                           for n in (f"tilec {r['form']}",
                                     *((f"tilec cuda {r['form']}",) if cuda else ()),
                                     f"triton {PEER[r['form']]}", "torch mm+gelu",
                                     "cublas mm")),
                         cell(r["tilec_over_torch"], ".3f"), cell(r["tilec_over_triton"], ".3f"),
                         cell(r["tilec_over_cublas_mm"], ".3f"),
                         *((f"{r['cuda_over_ptx']:.3f}",) if cuda else ())) for r in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    print(f"device: {device}; do_bench medians over {args.rounds} interleaved rounds; "
          f"TFLOP/s of the GEMM; ACTIVATION=gelu {CONFIG['BLOCK_M']}x"
          f"{CONFIG['BLOCK_N']}x{CONFIG['BLOCK_K']}, {NUM_STAGES} stages, {NUM_WARPS} warps"
          + (f"; tilec descpp {PP_CONFIG['BLOCK_M']}x{PP_CONFIG['BLOCK_N']}x"
             f"{PP_CONFIG['BLOCK_K']}, {PP_NUM_STAGES} stages, {PP_CONSUMER_GROUPS} consumer "
             f"groups of {PP_NUM_WARPS} warps (Triton: desc's)" if "descpp" in forms else "")
          + ("; cuda/ptx = PTX time / CUDA C++ time (> 1: CUDA C++ faster)" if cuda else ""))
    for k, line in enumerate(lines):
        print("  ".join(cell.ljust(w) if i < 3 else cell.rjust(w)
                        for i, (cell, w) in enumerate(zip(line, widths))))
        if k == 0:
            print("  ".join("-" * w for w in widths))


if __name__ == "__main__":
    main()
