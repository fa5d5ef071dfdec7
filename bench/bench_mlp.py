#!/usr/bin/env python3
"""The transformer MLP block, Linear -> GELU -> Linear: tilec vs torch eager,
torch.compile and Triton (the same tile program), on one GPU.

    y = F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2)

x [M, D] (M = batch * sequence tokens), w1 [Hd, D], b1 [Hd], w2 [D, Hd], b2 [D]
in bf16 or fp16 (nn.Linear's layouts; the biases of the input's type), the
exact (erf) GELU. The implementations:

  tilec        two launches of test/GPU/kernels/py/mlp.py's linear_kernel
               (ACTIVATION="gelu", then "none"): the intermediate [M, Hd] is
               written once in the input's type. tilec compiled them at
               build time with the signature Triton's JIT picks for these
               tensors (sizes and leading dimensions i32:16):
               bench_mlp_linear_<dtype>_{gelu,none}.ptx, 128x256x64 tiles,
               GROUP_M 8, 3 stages, 8 warps (wgmma, the operands copied with
               TMA: --tma-pointer-loads, tilec's default on sm_90a);
  triton       Triton running the same linear_kernel with the same config
               and grid;
  torch        eager F.linear + F.gelu + F.linear (cuBLAS GEMMs, the bias in
               cuBLASLt's epilogue or a separate kernel, GELU a separate
               elementwise kernel: one more round trip of the intermediate);
  compile      torch.compile of the same function (Inductor: its own fused
               GELU epilogue or Triton templates, as it chooses).

With --fused, small-width shapes (D <= 256) where the whole MLP can keep the
intermediate on chip: tilec's fused_mlp_kernel (bench_mlp_fused_<dtype>.ptx,
128x128 output blocks, BLOCK_H 64, BLOCK_K 64, 3 stages, 8 warps) against the
same four, plus Triton running fused_mlp_kernel.

Shapes: the default is M = 8192 tokens, 4096 -> 16384 -> 4096 (a 7B-class
model's MLP at batch x sequence 8192); --untuned: 8000, 4096 -> 11008 -> 4096
(LLaMA-7B's hidden width; 8000 and 11008 are multiples of 16, so Triton's JIT
specializes them as it does the default shape). Each output is checked first
against an fp32 reference that rounds the intermediate to the input type as
the kernels do: normwise relative error below 2e-3 (fp16) or 1e-2 (bf16).
Timing: triton.testing.do_bench medians over --rounds interleaved rounds in
rotated order; ratios are medians of per-round ratios (bench/gemm_common.py,
shared/PERFORMANCE.md). TFLOP/s count the two GEMMs: 4 M D Hd / t.
--cuda-kernels DIR also checks and times tilec's kernel files from DIR
(tilec's CUDA C++ back end) in the same rounds, "tilec cuda" (with --fused,
"tilec_fused_cuda"; the two-launch one in the row's "backend_rows"), with
cuda/ptx = PTX time / CUDA time (> 1: CUDA C++ faster); --tilec-only leaves
Triton, torch and torch.compile out.

    TILEC_RUNTIME_LIB=lib/libtilec_runtime.so bench/bench_mlp.py \\
        --kernels kernels --sources examples --json mlp.json
    TILEC_RUNTIME_LIB=lib/libtilec_runtime.so bench/bench_mlp.py \\
        --kernels kernels --sources examples --untuned
    TILEC_RUNTIME_LIB=lib/libtilec_runtime.so bench/bench_mlp.py \\
        --kernels kernels --sources examples --fused
"""

import argparse
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

LINEAR = dict(BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8)
FUSED = dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, BLOCK_H=64)
NUM_STAGES = 3
NUM_WARPS = 8
TUNED = ((8192, 4096, 16384),)
UNTUNED = ((8000, 4096, 11008),)
FUSED_SHAPES = ((65536, 128, 512), (65536, 256, 1024), (16384, 256, 1024))
RTOL = {"fp16": 2e-3, "bf16": 1e-2}


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kernels", default=os.path.join(HERE, "..", "kernels"),
                   help="directory with bench_mlp_*.ptx")
    p.add_argument("--sources", default=os.path.join(HERE, "..", "examples"),
                   help="directory with mlp.py")
    p.add_argument("--json", default=os.environ.get("TILEC_MLP_JSON"),
                   help="also write the table as JSON to this path (default: "
                        "$TILEC_MLP_JSON when set)")
    p.add_argument("--warmup", type=int, default=25, help="do_bench warmup, ms")
    p.add_argument("--rep", type=int, default=100, help="do_bench repetition time, ms")
    p.add_argument("--rounds", type=int, default=5, help="interleaved timing rounds")
    p.add_argument("--dtypes", default="bf16,fp16", help="comma-separated: bf16, fp16")
    p.add_argument("--shapes", help="comma-separated MxDxHd (multiples of 16) instead of "
                                    "the defaults")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--untuned", action="store_true",
                       help="the untuned shape(s) instead: " +
                            ", ".join(f"{m}x{d}x{h}" for m, d, h in UNTUNED))
    group.add_argument("--fused", action="store_true",
                       help="small-width shapes with fused_mlp_kernel: " +
                            ", ".join(f"{m}x{d}x{h}" for m, d, h in FUSED_SHAPES))
    p.add_argument("--no-compile", action="store_true", help="leave torch.compile out")
    import tilec_rt
    tilec_rt.add_backend_arguments(p)
    args = p.parse_args(argv)
    if args.shapes:
        try:
            args.shape_list = [tuple(int(v) for v in s.split("x"))
                               for s in args.shapes.split(",") if s]
        except ValueError:
            p.error(f"--shapes: expected MxDxHd,..., found '{args.shapes}'")
        if any(len(s) != 3 for s in args.shape_list):
            p.error(f"--shapes: expected MxDxHd,..., found '{args.shapes}'")
    else:
        args.shape_list = list(FUSED_SHAPES if args.fused else
                               UNTUNED if args.untuned else TUNED)
    if any(v <= 0 or v % 16 for s in args.shape_list for v in s):
        p.error("every size must be a positive multiple of 16 (the kernels' sizes and "
                "leading dimensions are i32:16)")
    args.dtypes = [d for d in args.dtypes.split(",") if d]
    if not args.dtypes or any(d not in RTOL for d in args.dtypes):
        p.error(f"--dtypes: expected bf16 and/or fp16, found '{','.join(args.dtypes)}'")
    if args.rounds <= 0:
        p.error("--rounds must be positive")
    return args


def ptx_names(dt, fused):
    names = [f"bench_mlp_linear_{dt}_gelu.ptx", f"bench_mlp_linear_{dt}_none.ptx"]
    return names + [f"bench_mlp_fused_{dt}.ptx"] if fused else names


def check_inputs(args):
    """Every PTX file and the kernel source exist, before torch starts."""
    missing = [os.path.join(args.kernels, n) for dt in args.dtypes
               for n in ptx_names(dt, args.fused)
               if not os.path.exists(os.path.join(args.kernels, n))]
    if missing:
        raise SystemExit("bench_mlp.py: missing tilec kernel(s): " + ", ".join(missing) +
                         " (the MLP kernels are built with the tl.dot kernels: "
                         "-DTILEC_GPU_DOT_TESTS=ON, target tilec-gpu-kernels or gpu-bundle)")
    if args.cuda_kernels:
        import tilec_rt
        missing = tilec_rt.missing_kernels(args.cuda_kernels, [
            n for dt in args.dtypes for n in ptx_names(dt, args.fused)])
        if missing:
            raise SystemExit("bench_mlp.py: missing CUDA C++ back end kernel(s): " +
                             ", ".join(missing))
    source = os.path.join(args.sources, "mlp.py")
    if not os.path.exists(source):
        raise SystemExit(f"bench_mlp.py: {source} not found: --sources must name the folder "
                         "holding test/GPU/kernels/py/mlp.py (the bundle's examples/)")
    return source


def main(argv=None):
    args = parse_args(argv)
    source = check_inputs(args)

    import torch
    import torch.nn.functional as F
    import triton

    import tilec_rt
    from gemm_common import interleaved_times, load_module, speedup
    from tilec_rt import print_table

    cuda, with_peers = args.cuda_kernels, not args.tilec_only
    torch.cuda.init()
    dev = torch.device("cuda", torch.cuda.current_device())
    torch.backends.cuda.matmul.allow_tf32 = False  # the fp32 reference
    ctx = tilec_rt.Context(dev.index)
    mlp = load_module(source, "tilec_bench_mlp")
    dtypes = {"bf16": torch.bfloat16, "fp16": torch.float16}

    def eager(x, w1, b1, w2, b2):
        return F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2)

    compiled = None if args.no_compile or not with_peers else torch.compile(eager)

    rows = []
    for dt in args.dtypes:
        dtype = dtypes[dt]
        k_gelu, k_none = (ctx.load_file(os.path.join(args.kernels, n)).kernel("linear_kernel")
                          for n in ptx_names(dt, False))
        k_fused = (ctx.load_file(os.path.join(args.kernels, f"bench_mlp_fused_{dt}.ptx"))
                   .kernel("fused_mlp_kernel") if args.fused else None)
        if cuda:
            k_gelu_c, k_none_c = (tilec_rt.load_kernel(ctx, cuda, n, "linear_kernel")
                                  for n in ptx_names(dt, False))
            k_fused_c = (tilec_rt.load_kernel(ctx, cuda, f"bench_mlp_fused_{dt}.ptx",
                                              "fused_mlp_kernel") if args.fused else None)
        for M, D, Hd in args.shape_list:
            gen = torch.Generator(device=dev).manual_seed(M * 7 + D * 3 + Hd)

            def rand(*shape, scale=1.0):
                return (torch.randn(shape, device=dev, dtype=torch.float32, generator=gen)
                        * scale).to(dtype)
            x = rand(M, D)
            w1, b1 = rand(Hd, D, scale=D ** -0.5), rand(Hd, scale=0.5)
            w2, b2 = rand(D, Hd, scale=Hd ** -0.5), rand(D, scale=0.5)
            h_tilec, y_tilec = (torch.empty((M, Hd), device=dev, dtype=dtype),
                                torch.empty((M, D), device=dev, dtype=dtype))
            h_triton, y_triton = torch.empty_like(h_tilec), torch.empty_like(y_tilec)
            y_fused, y_triton_fused = torch.empty_like(y_tilec), torch.empty_like(y_tilec)
            # The CUDA C++ builds' outputs (--cuda-kernels).
            h_cuda, y_cuda, y_fused_cuda = ((torch.empty_like(h_tilec), torch.empty_like(y_tilec),
                                             torch.empty_like(y_tilec)) if cuda
                                            else (None, None, None))

            def lin_grid(m, n):
                return (triton.cdiv(m, LINEAR["BLOCK_M"]) * triton.cdiv(n, LINEAR["BLOCK_N"]),)

            def linear_args(a, w, b, out):
                m, k = a.shape
                n = w.shape[0]
                return (a, w, b, out, m, n, k, a.stride(0), a.stride(1), w.stride(0),
                        w.stride(1), out.stride(0), out.stride(1))

            up_args = linear_args(x, w1, b1, h_tilec)
            down_args = linear_args(h_tilec, w2, b2, y_tilec)

            def run_tilec():
                k_gelu.launch(lin_grid(M, Hd), *up_args)
                k_none.launch(lin_grid(M, D), *down_args)

            if cuda:
                up_args_c = linear_args(x, w1, b1, h_cuda)
                down_args_c = linear_args(h_cuda, w2, b2, y_cuda)

            def run_tilec_cuda():
                k_gelu_c.launch(lin_grid(M, Hd), *up_args_c)
                k_none_c.launch(lin_grid(M, D), *down_args_c)

            def run_triton():
                for args_, act in ((linear_args(x, w1, b1, h_triton), "gelu"),
                                   (linear_args(h_triton, w2, b2, y_triton), "none")):
                    mlp.linear_kernel[lin_grid(args_[4], args_[5])](
                        *args_, **LINEAR, NUM_STAGES=NUM_STAGES, ACTIVATION=act,
                        num_stages=NUM_STAGES, num_warps=NUM_WARPS)

            fused_args = (x, w1, b1, w2, b2, None, M, D, Hd, D, x.stride(0), x.stride(1),
                          w1.stride(0), w1.stride(1), w2.stride(0), w2.stride(1),
                          D, 1)
            fused_grid = (triton.cdiv(M, FUSED["BLOCK_M"]), triton.cdiv(D, FUSED["BLOCK_N"]))

            def run_tilec_fused(kernel=k_fused, y=y_fused):
                a = list(fused_args)
                a[5] = y
                kernel.launch(fused_grid, *a)

            def run_triton_fused():
                a = list(fused_args)
                a[5] = y_triton_fused
                mlp.fused_mlp_kernel[fused_grid](*a, **FUSED, NUM_STAGES=NUM_STAGES,
                                                 num_stages=NUM_STAGES, num_warps=NUM_WARPS)

            impls = {"tilec": run_tilec, "triton": run_triton,
                     "torch": lambda: eager(x, w1, b1, w2, b2)}
            if compiled is not None:
                impls["compile"] = lambda: compiled(x, w1, b1, w2, b2)
            if args.fused:
                impls["tilec_fused"] = run_tilec_fused
                impls["triton_fused"] = run_triton_fused
            if cuda:
                impls["tilec_cuda"] = run_tilec_cuda
                if args.fused:
                    impls["tilec_fused_cuda"] = lambda: run_tilec_fused(k_fused_c, y_fused_cuda)
            if not with_peers:
                impls = {n: fn for n, fn in impls.items() if n.startswith("tilec")}
            what = f"{dt} M={M} {D}->{Hd}->{D}"

            # Correctness first: the fp32 reference, intermediate rounded.
            h_ref = F.gelu(F.linear(x.float(), w1.float(), b1.float())).to(dtype).float()
            ref = F.linear(h_ref, w2.float(), b2.float())
            del h_ref
            outputs = {}
            for name, fn in impls.items():
                for t in (y_tilec, y_triton, y_fused, y_triton_fused, y_cuda, y_fused_cuda):
                    if t is not None:
                        t.fill_(float("nan"))
                out = fn()
                torch.cuda.synchronize()
                outputs[name] = {"tilec": y_tilec, "triton": y_triton,
                                 "tilec_fused": y_fused,
                                 "triton_fused": y_triton_fused,
                                 "tilec_cuda": y_cuda,
                                 "tilec_fused_cuda": y_fused_cuda}.get(name, out)
                err = ((outputs[name].float() - ref).norm() / ref.norm()).item()
                outputs[name] = err
                if not err <= RTOL[dt]:
                    msg = (f"{what}: {name}'s output differs from the fp32 reference: "
                           f"normwise relative error {err:.3g} > {RTOL[dt]}")
                    if name.startswith("tilec"):
                        raise SystemExit(msg)
                    print("warning: " + msg)
            del ref
            errors = outputs
            print(f"{what}: normwise relative error: " +
                  ", ".join(f"{n} {e:.3g}" for n, e in errors.items()))

            times = interleaved_times(impls, args.rounds, args.warmup, args.rep)
            flops = 4.0 * M * D * Hd
            med = {n: statistics.median(ts) for n, ts in times.items()}
            tflops = {n: flops / (ms * 1e-3) / 1e12 for n, ms in med.items()}
            ours = "tilec_fused" if args.fused else "tilec"
            row = {"dtype": dt, "M": M, "D": D, "Hd": Hd,
                   **{f"{n}_ms": med[n] for n in med},
                   **{f"{n}_tflops": tflops[n] for n in tflops},
                   "normwise_error": errors}
            for peer in times:
                if peer != ours and not peer.endswith("_cuda"):
                    row[f"{ours}_over_{peer}"] = speedup(times, ours, peer)
            if args.fused:
                row["tilec_over_triton"] = speedup(times, "tilec", "triton")
            if cuda:
                shape = f"M={M} {D}->{Hd}->{D}"
                linear = tilec_rt.backend_fields(
                    k_gelu, k_gelu_c, med["tilec"], med["tilec_cuda"],
                    speedup(times, "tilec_cuda", "tilec"),
                    label=f"bench_mlp_linear_{dt}_gelu+none", shape=shape, work=flops,
                    unit="TFLOP/s")
                if args.fused:
                    row.update(tilec_rt.backend_fields(
                        k_fused, k_fused_c, med["tilec_fused"], med["tilec_fused_cuda"],
                        speedup(times, "tilec_fused_cuda", "tilec_fused"), shape=shape,
                        work=flops, unit="TFLOP/s"), backend_rows=[linear])
                else:
                    row.update(linear)
            rows.append(row)
            print(f"{what}: " + ", ".join(f"{n} {tflops[n]:.1f}" for n in tflops) +
                  " TFLOP/s")
            del x, w1, b1, w2, b2, h_tilec, y_tilec, h_triton, y_triton, y_fused
            del y_triton_fused, h_cuda, y_cuda, y_fused_cuda, impls, times
            torch.cuda.empty_cache()

    device = torch.cuda.get_device_name(dev)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "warmup_ms": args.warmup, "rep_ms": args.rep,
                       "rounds": args.rounds, "fused": args.fused,
                       "config": {"linear": LINEAR, "fused": FUSED, "num_stages": NUM_STAGES,
                                  "num_warps": NUM_WARPS},
                       "torch": torch.__version__, "triton": triton.__version__,
                       "rows": rows}, f, indent=2)
        print(f"wrote {args.json}")

    ours = "tilec_fused" if args.fused else "tilec"
    peers = [n for n in ("tilec", "triton", "triton_fused", "torch", "compile")
             if n != ours and any(f"{ours}_over_{n}" in r for r in rows)]
    # With --cuda-kernels, ours from the CUDA C++ back end after ours, and
    # "cuda/ptx" last.
    names = [ours] + ([ours + "_cuda"] if cuda else []) + peers
    header = ("dtype", "M", "D -> Hd -> D", *names, *(f"{ours}/{p}" for p in peers),
              *(("cuda/ptx",) if cuda else ()))
    lines = [header]
    for r in rows:
        lines.append((r["dtype"], str(r["M"]), f"{r['D']}->{r['Hd']}->{r['D']}",
                      *(f"{r[n + '_tflops']:.1f}" if n + "_tflops" in r else "-"
                        for n in names),
                      *(f"{r[f'{ours}_over_{p}']:.3f}"
                        if r.get(f"{ours}_over_{p}") is not None else "-" for p in peers),
                      *((f"{r['cuda_over_ptx']:.3f}",) if cuda else ())))
    print(f"device: {device}; do_bench medians over {args.rounds} interleaved rounds; "
          "TFLOP/s = 4 M D Hd / t; ratios: medians of per-round time ratios (> 1: "
          f"{ours} faster); linear_kernel {LINEAR['BLOCK_M']}x{LINEAR['BLOCK_N']}x"
          f"{LINEAR['BLOCK_K']}, {NUM_STAGES} stages, {NUM_WARPS} warps" +
          (f"; fused_mlp_kernel {FUSED['BLOCK_M']}x{FUSED['BLOCK_N']}, BLOCK_H "
           f"{FUSED['BLOCK_H']}" if args.fused else "") +
          (f"; {ours}_cuda: the CUDA C++ back end's kernels, cuda/ptx = PTX time / CUDA time "
           "(> 1: CUDA C++ faster)" if cuda else ""))
    print_table(lines, left=3)


if __name__ == "__main__":
    main()
