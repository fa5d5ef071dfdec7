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

With --host --tma --pp, tilec's kernel is the ping-pong one
(bench_host_desc_pp_*.ptx, compiled with --num-consumer-groups 2: the
warp-specialized kernel with two consumer groups of 4 warps, each computing a
whole 128x128 output tile, taking turns over the tiles, so one group's
epilogue runs under the other's main loop). Its config is its own: descriptor
blocks A [128, 64], B [128, 64] (N x K), C [128, 128] (its own
TensorDescriptor objects over the same tensors), GROUP_M=8, 4 stages, and a
grid of min(#SMs, #128x128 tiles). The peers, in the same interleaved rounds,
keep the 128x256x64 config above: Triton with WARP_SPECIALIZE=False and =True
(the faster of each round is the ratio's peer), tilec's kernel without warp
specialization (bench_host_desc_tma_*.ptx) and its warp-specialized one
(bench_host_desc_ws_*.ptx), and cuBLAS. The ratios: tilec pp / Triton,
tilec pp / cuBLAS and tilec pp / tilec without warp specialization (the JSON
also has tilec pp / tilec ws). The grid column reads "pp grid/peers' grid".

    TILEC_RUNTIME_LIB=lib/libtilec_runtime.so bench/bench_desc_gemm.py \\
        --kernels kernels --sources examples --host --tma --pp --json host_desc_pp_gemm.json

(--untuned works with --ws and --pp too: sizes not divisible by 16 use the
*_i32.ptx variants of every tilec kernel timed.)

--cuda-kernels DIR also checks and times the row's tilec kernel ("tilec": the
--ws or --pp one in those modes) from the same file name in DIR (tilec's CUDA
C++ back end) in the same rounds, "tilec cuda", with cuda/ptx = PTX time /
CUDA time (> 1: CUDA C++ faster); --tilec-only leaves Triton and cuBLAS out.
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
# --pp: tilec's ping-pong kernel (bench_host_desc_pp_*.ptx): two consumer
# groups of PP_NUM_WARPS warps, one 128x128 tile each (GROUP_M, stages and
# warps are compiled in; the block shapes set its descriptors and grid).
PP_CONFIG = dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP_M=8)
PP_NUM_STAGES = 4
# --pp-tile: the configs built (test/CMakeLists.txt), tile -> stages.
PP_TILES = {"128x128": 4, "64x256": 3, "128x128x128": 2}
PP_NUM_WARPS = 4
PP_CONSUMER_GROUPS = 2
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
        if not any(f"bench_host_desc_{kind}_" in name for kind in ("tma", "ws", "pp")):
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
                        "divisible by 16 use bench_host_desc_{tma,ws,pp}_*_i32.ptx "
                        "(plain i32 M, N, K, as Triton's JIT specializes them)")
    p.add_argument("--ws", action="store_true",
                   help="with --host --tma: tilec's warp-specialized kernel "
                        "(bench_host_desc_ws_*.ptx) against Triton with and without "
                        "warp_specialize, and tilec's kernel without")
    p.add_argument("--pp", action="store_true",
                   help="with --host --tma: tilec's ping-pong kernel "
                        "(bench_host_desc_pp_*.ptx: two consumer groups of 4 warps, "
                        "128x128x64 tiles, 4 stages) against Triton with and without "
                        "warp_specialize (128x256x64), tilec's kernels without and with "
                        "warp specialization (bench_host_desc_{tma,ws}_*.ptx), and cuBLAS")
    p.add_argument("--pp-tile", default="128x128", choices=tuple(PP_TILES),
                   help="with --pp: the ping-pong kernel's tile, BLOCK_MxBLOCK_N[xBLOCK_K]: "
                        "128x128 (bench_host_desc_pp_*.ptx, the default), or "
                        "bench_host_desc_pp_<tile>_*.ptx")
    tilec_rt.add_backend_arguments(p)
    args = p.parse_args()
    cuda, peers = args.cuda_kernels, not args.tilec_only
    global PP_NUM_STAGES
    tile = [int(x) for x in args.pp_tile.split("x")]
    PP_CONFIG["BLOCK_M"], PP_CONFIG["BLOCK_N"] = tile[:2]
    PP_CONFIG["BLOCK_K"] = tile[2] if len(tile) > 2 else 64
    PP_NUM_STAGES = PP_TILES[args.pp_tile]
    pp_name = "pp" if args.pp_tile == "128x128" else f"pp_{args.pp_tile}"
    if args.ws and args.pp:
        raise SystemExit("--ws and --pp are exclusive (--pp also times the --ws kernel)")
    if args.ws and not args.tma:
        raise SystemExit("--ws needs --host --tma")
    if args.pp and not args.tma:
        raise SystemExit("--pp needs --host --tma")
    if args.tma and not args.host:
        raise SystemExit("--tma needs --host")
    if args.untuned and not args.tma:
        raise SystemExit("--untuned needs --host --tma")
    ptx = ("bench_host_desc_tma_{}.ptx" if args.tma else "bench_host_desc_{}.ptx") \
        if args.host else "bench_desc_{}_i32_16.ptx"
    ws_ptx = None
    if args.ws:
        ptx, plain_ptx = "bench_host_desc_ws_{}.ptx", ptx
    elif args.pp:
        ptx, plain_ptx, ws_ptx = (f"bench_host_desc_{pp_name}_{{}}.ptx", ptx,
                                  "bench_host_desc_ws_{}.ptx")
    baselines = (plain_ptx,) if args.ws else (plain_ptx, ws_ptx) if args.pp else ()
    shapes = UNTUNED if args.untuned else SHAPES
    for dt, _, _ in DTYPES:
        names = {ptx_for(pattern, dt, *shape) for pattern in (ptx, *baselines)
                 for shape in shapes}
        for name in names:
            path = os.path.join(args.kernels, name)
            if not os.path.exists(path):
                raise SystemExit(f"{path} not found: the GEMM kernels are built only with "
                                 "-DTILEC_GPU_DOT_TESTS=ON")
        missing = tilec_rt.missing_kernels(cuda, {ptx_for(ptx, dt, *shape) for shape in shapes}) \
            if cuda else []
        if missing:
            raise SystemExit("missing CUDA C++ back end kernel(s): " + ", ".join(missing))

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
    kernels, kernels_c = {}, {}
    for dt, dtype, tol in DTYPES:
        for M, N, K in shapes:
            def load(name):
                if name not in kernels:
                    kernels[name] = ctx.load_file(os.path.join(args.kernels, name)) \
                        .kernel(kernel_name)
                return kernels[name]
            ptx_name = ptx_for(ptx, dt, M, N, K)
            kernel = load(ptx_name)
            if cuda and ptx_name not in kernels_c:
                kernels_c[ptx_name] = tilec_rt.load_kernel(ctx, cuda, ptx_name, kernel_name)
            kernel_c = kernels_c.get(ptx_name)
            plain = load(ptx_for(plain_ptx, dt, M, N, K)) if args.ws or args.pp else None
            ws_kernel = load(ptx_for(ws_ptx, dt, M, N, K)) if args.pp else None
            gen = torch.Generator(device=dev).manual_seed(M + N + K)
            # Rows padded to 16 bytes (TMA's stride rule), the tensors views.
            a = padded((M, K), dtype, dev, gen)
            b = torch.randn((K, N), device=dev, dtype=dtype, generator=gen)
            c = padded((M, N), dtype, dev, None)
            ref = torch.mm(a.float(), b.float())
            tiles = triton.cdiv(M, CONFIG["BLOCK_M"]) * triton.cdiv(N, CONFIG["BLOCK_N"])
            grid = (min(sms, tiles),)
            if args.pp:
                # The ping-pong kernel's own grid: one program per SM over 128x128 tiles.
                pp_tiles = (triton.cdiv(M, PP_CONFIG["BLOCK_M"]) *
                            triton.cdiv(N, PP_CONFIG["BLOCK_N"]))
                pp_grid = (min(sms, pp_tiles),)
            if args.host:
                # B as N x K (tutorial 09's layout); the reference is A @ B.
                b_nk = padded((N, K), dtype, dev, None)
                b_nk.copy_(b.t())
                bm, bn, bk = CONFIG["BLOCK_M"], CONFIG["BLOCK_N"], CONFIG["BLOCK_K"]
                descs = (TensorDescriptor.from_tensor(a, [bm, bk]),
                         TensorDescriptor.from_tensor(b_nk, [bn, bk]),
                         TensorDescriptor.from_tensor(c, [bm, bn]))
                if args.pp:
                    # The ping-pong kernel's blocks: A [128, 64], B [128, 64], C [128, 128].
                    pm, pn, pk = PP_CONFIG["BLOCK_M"], PP_CONFIG["BLOCK_N"], PP_CONFIG["BLOCK_K"]
                    pp_descs = (TensorDescriptor.from_tensor(a, [pm, pk]),
                                TensorDescriptor.from_tensor(b_nk, [pn, pk]),
                                TensorDescriptor.from_tensor(c, [pm, pn]))

                    def run_tilec(kernel=kernel):
                        kernel.launch(pp_grid, *pp_descs, M, N, K)
                else:
                    def run_tilec(kernel=kernel):
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

                def run_tilec_ws():
                    ws_kernel.launch(grid, *descs, M, N, K)

                def run_triton_ws():
                    run_triton(ws=True)
            else:
                ints = (M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1))

                def run_tilec(kernel=kernel):
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
            elif args.pp:
                # "tilec" is the ping-pong kernel; "tilec_ws" is --ws's kernel.
                impls = {"tilec": run_tilec, "tilec_no_ws": run_tilec_plain,
                         "tilec_ws": run_tilec_ws, "triton": run_triton,
                         "triton_ws": run_triton_ws, "cublas": run_cublas}
            if cuda:  # "tilec"'s kernel from the CUDA C++ back end, after it
                impls = dict((("tilec", run_tilec), ("tilec_cuda", lambda: run_tilec(kernel_c)),
                              *impls.items()))
            if not peers:
                impls = {n: fn for n, fn in impls.items() if n.startswith("tilec")}
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
                    if name.startswith("tilec"):
                        raise SystemExit(msg)
                    print("warning: " + msg)
            del ref
            times = interleaved_times(impls, args.rounds, args.warmup, args.rep)
            triton_times = times.get("triton")
            if "triton_ws" in times:
                # The faster Triton variant of each round.
                times["triton_best"] = [min(x, y) for x, y in
                                        zip(times["triton"], times["triton_ws"])]
                triton_times = times["triton_best"]
            flops = 2.0 * M * N * K
            med = {name: statistics.median(ts) for name, ts in times.items()}
            tflops = {name: flops / (ms * 1e-3) / 1e12 for name, ms in med.items()}
            rows.append({
                "dtype": dt, "M": M, "N": N, "K": K,
                "grid": pp_grid[0] if args.pp else grid[0], "ptx": ptx_name,
                **{f"{n}_ms": med[n] for n in impls},
                **{f"{n}_tflops": tflops[n] for n in impls},
                "tilec_over_triton": speedup(times, "tilec",
                                             "triton_best" if "triton_best" in times
                                             else "triton"),
                "tilec_over_cublas": speedup(times, "tilec", "cublas"),
                "rel_error": errors,
            })
            if args.pp:
                rows[-1].update({
                    "peer_grid": grid[0],
                    "tilec_over_tilec_no_ws": speedup(times, "tilec", "tilec_no_ws"),
                    "tilec_over_tilec_ws": speedup(times, "tilec", "tilec_ws"),
                })
            if "triton_ws" not in tflops and peers:
                rows[-1]["triton_ws_tflops"] = float("nan")
            if cuda:
                rows[-1].update(tilec_rt.backend_fields(
                    kernel, kernel_c, med["tilec"], med["tilec_cuda"],
                    speedup(times, "tilec_cuda", "tilec"), shape=f"{M}x{N}x{K}", work=flops,
                    unit="TFLOP/s"))
            del a, b, c, run_tilec, run_triton, run_cublas, impls, triton_times
            if args.host:
                del b_nk, descs
            if args.pp:
                del pp_descs
            torch.cuda.empty_cache()

    device = torch.cuda.get_device_name(dev)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "warmup_ms": args.warmup, "rep_ms": args.rep,
                       "rounds": args.rounds, "config": {**CONFIG, "num_stages": NUM_STAGES,
                                                          "num_warps": NUM_WARPS},
                       **({"pp_config": {**PP_CONFIG, "num_stages": PP_NUM_STAGES,
                                         "num_warps": PP_NUM_WARPS,
                                         "consumer_groups": PP_CONSUMER_GROUPS}}
                          if args.pp else {}),
                       "rows": rows}, f, indent=2)
        print(f"wrote {args.json}")
    header = ("dtype", "MxNxK", "grid", "tilec", "triton", "cuBLAS", "tilec/triton",
              "tilec/cuBLAS")
    if args.ws:
        header = header[:4] + ("tilec no-ws", "triton", "triton ws") + header[5:]
    elif args.pp:
        header = (header[:2] + ("grid pp/peers", "tilec pp", "tilec no-ws", "tilec ws",
                                "triton", "triton ws", "cuBLAS", "pp/triton", "pp/cuBLAS",
                                "pp/no-ws"))
    if cuda:  # "tilec cuda" after tilec's column, "cuda/ptx" last
        header = header[:4] + ("tilec cuda",) + header[4:] + ("cuda/ptx",)
    lines = [header]
    for r in rows:
        # (--tilec-only: "-" for the peers.)
        peer_cells = [cell(r.get("triton_tflops"), ".1f")]
        if args.ws:
            peer_cells = [f"{r['tilec_no_ws_tflops']:.1f}", peer_cells[0],
                          cell(r.get("triton_ws_tflops"), ".1f")]
        elif args.pp:
            peer_cells = [f"{r['tilec_no_ws_tflops']:.1f}", f"{r['tilec_ws_tflops']:.1f}",
                          peer_cells[0], cell(r.get("triton_ws_tflops"), ".1f")]
        grid_cell = f"{r['grid']}/{r['peer_grid']}" if args.pp else str(r["grid"])
        ratios = [cell(r["tilec_over_triton"], ".3f"), cell(r["tilec_over_cublas"], ".3f")]
        if args.pp:
            ratios.append(f"{r['tilec_over_tilec_no_ws']:.3f}")
        lines.append((r["dtype"], f"{r['M']}x{r['N']}x{r['K']}", grid_cell,
                      f"{r['tilec_tflops']:.1f}",
                      *((f"{r['tilec_cuda_tflops']:.1f}",) if cuda else ()), *peer_cells,
                      cell(r.get("cublas_tflops"), ".1f"), *ratios,
                      *((f"{r['cuda_over_ptx']:.3f}",) if cuda else ())))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    print(f"device: {device}; do_bench medians over {args.rounds} interleaved rounds; "
          f"TFLOP/s; {kernel_name} {CONFIG['BLOCK_M']}x{CONFIG['BLOCK_N']}x"
          f"{CONFIG['BLOCK_K']}, {NUM_STAGES} stages, {NUM_WARPS} warps, persistent grid"
          + (f"; tilec pp {PP_CONFIG['BLOCK_M']}x{PP_CONFIG['BLOCK_N']}x"
             f"{PP_CONFIG['BLOCK_K']}, {PP_NUM_STAGES} stages, {PP_CONSUMER_GROUPS} consumer "
             f"groups of {PP_NUM_WARPS} warps" if args.pp else "")
          + ("; tilec cuda: the CUDA C++ back end's kernel, cuda/ptx = PTX time / CUDA time "
             "(> 1: CUDA C++ faster)" if cuda else ""))
    for k, line in enumerate(lines):
        print("  ".join(cell.ljust(w) if i < 3 else cell.rjust(w)
                        for i, (cell, w) in enumerate(zip(line, widths))))
        if k == 0:
            print("  ".join("-" * w for w in widths))


if __name__ == "__main__":
    main()
