#!/usr/bin/env python3
"""Row-wise kernels: softmax fp32 and layer-norm forward fp16, tilec vs Triton
vs torch on one GPU, the same tile program on both compilers.

The kernels are the @triton.jit functions of test/GPU/kernels/py/softmax.py
and layer_norm.py (written the way Triton's tutorials 02 and 05 write them).
tilec compiled them at build time from those .py files (bench_softmax_<N>.ptx,
bench_layer_norm_<N>.ptx: BLOCK_SIZE and num_warps as the tutorials choose);
Triton compiles the same functions here from the same files. Shapes from
../shared/PERFORMANCE.md. Outputs are checked against torch first.

Timing: triton.testing.do_bench medians (warmup 25 ms, rep 200 ms). Bandwidth
counts bytes read and written once: softmax 2*M*N*4, layer norm 2*M*N*2.

    TILEC_RUNTIME_LIB=lib/libtilec_runtime.so bench/bench_rowwise.py \
        --kernels kernels --sources examples --json rowwise.json
"""

import argparse
import importlib.util
import json
import os
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tilec_rt  # noqa: E402


def kernel_file(folder, stem):
    """<folder>/<stem>.ptx, else <stem>.cu (CUDA C++ from tilec --emit=cuda,
    which the runtime compiles with NVRTC: the CUDA backend's timing)."""
    ptx = os.path.join(folder, stem + ".ptx")
    cu = os.path.join(folder, stem + ".cu")
    return ptx if os.path.exists(ptx) or not os.path.exists(cu) else cu


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def layer_norm_case(m, n, dev, eps=1e-5):
    """Inputs of an fp16 layer-norm forward on m rows of n and torch's
    result: (x, w, b, y, mean, rstd, eps, ref); y, mean and rstd are the
    outputs to fill (fp16, fp32, fp32)."""
    x = torch.randn(m, n, device=dev, dtype=torch.float16)
    w = torch.rand(n, device=dev, dtype=torch.float16)
    b = torch.rand(n, device=dev, dtype=torch.float16)
    y = torch.empty_like(x)
    mean = torch.empty(m, device=dev, dtype=torch.float32)
    rstd = torch.empty(m, device=dev, dtype=torch.float32)
    ref = torch.nn.functional.layer_norm(x, (n,), w, b, eps)
    return x, w, b, y, mean, rstd, eps, ref


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kernels", default=os.path.join(here, "..", "kernels"))
    p.add_argument("--sources", default=os.path.join(here, "..", "examples"),
                   help="directory with softmax.py and layer_norm.py")
    p.add_argument("--json")
    p.add_argument("--warmup", type=int, default=25)
    p.add_argument("--rep", type=int, default=200)
    args = p.parse_args()

    torch.cuda.init()
    dev = torch.device("cuda", torch.cuda.current_device())
    ctx = tilec_rt.Context(dev.index)
    sm = load(os.path.join(args.sources, "softmax.py"), "tilec_bench_softmax")
    ln = load(os.path.join(args.sources, "layer_norm.py"), "tilec_bench_layer_norm")
    rows = []

    def bench(fn):
        return triton.testing.do_bench(fn, warmup=args.warmup, rep=args.rep,
                                       return_mode="median")

    for M, N, warps in ((8192, 1024, 4), (8192, 4096, 8), (4096, 16384, 16)):
        kernel = ctx.load_file(kernel_file(args.kernels, f"bench_softmax_{N}")).kernel("softmax_kernel")
        x = torch.randn(M, N, device=dev, dtype=torch.float32)
        y = torch.empty_like(x)
        ref = torch.softmax(x, dim=1)

        def run_tilec():
            kernel.launch((M,), y, x, x.stride(0), y.stride(0), M, N)

        def run_triton():
            sm.softmax_kernel[(M,)](y, x, x.stride(0), y.stride(0), M, N,
                                    BLOCK_SIZE=N, num_warps=warps)

        def run_torch():
            torch.softmax(x, dim=1, out=y) if hasattr(torch, "softmax") else None

        for name, fn in (("tilec", run_tilec), ("triton", run_triton)):
            y.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            err = (y - ref).abs().max().item()
            if not err <= 1e-5:
                raise SystemExit(f"softmax {M}x{N}: {name} differs from torch by {err}")
        t = {"tilec": bench(run_tilec), "triton": bench(run_triton),
             "torch": bench(lambda: torch.softmax(x, dim=1))}
        nbytes = 2 * M * N * 4
        rows.append(("softmax fp32", f"{M}x{N}", {k: nbytes / (v * 1e-3) / 1e12 for k, v in t.items()}))
        del x, y, ref

    for M, N, warps in ((8192, 1024, 4), (8192, 4096, 8), (8192, 8192, 8)):
        kernel = ctx.load_file(kernel_file(args.kernels, f"bench_layer_norm_{N}")).kernel("layer_norm_fwd_kernel")
        x, w, b, y, mean, rstd, eps, ref = layer_norm_case(M, N, dev)

        def run_tilec():
            kernel.launch((M,), x, y, w, b, mean, rstd, x.stride(0), N, eps)

        def run_triton():
            ln.layer_norm_fwd_kernel[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, eps,
                                           BLOCK_SIZE=N, num_warps=warps)

        for name, fn in (("tilec", run_tilec), ("triton", run_triton)):
            y.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            err = (y.float() - ref.float()).abs().max().item()
            if not err <= 2e-2:
                raise SystemExit(f"layer norm {M}x{N}: {name} differs from torch by {err}")
        t = {"tilec": bench(run_tilec), "triton": bench(run_triton),
             "torch": bench(lambda: torch.nn.functional.layer_norm(x, (N,), w, b, eps))}
        nbytes = 2 * M * N * 2
        rows.append(("layer norm fwd fp16", f"{M}x{N}", {k: nbytes / (v * 1e-3) / 1e12 for k, v in t.items()}))
        del x, y, ref

    print(f"device: {torch.cuda.get_device_name(dev)}; do_bench medians; TB/s")
    header = ("workload", "shape", "tilec", "triton", "torch", "tilec/triton", "tilec/torch")
    print("  ".join(f"{h:>20}" if i < 2 else f"{h:>12}" for i, h in enumerate(header)))
    out = []
    for wl, shape, tb in rows:
        print(f"{wl:>20}  {shape:>20}  {tb['tilec']:12.3f}  {tb['triton']:12.3f}  {tb['torch']:12.3f}"
              f"  {tb['tilec'] / tb['triton']:12.3f}  {tb['tilec'] / tb['torch']:12.3f}")
        out.append({"workload": wl, "shape": shape, **{k + "_tbps": v for k, v in tb.items()},
                    "tilec_over_triton": tb["tilec"] / tb["triton"],
                    "tilec_over_torch": tb["tilec"] / tb["torch"]})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(dev), "rows": out}, f, indent=2)


if __name__ == "__main__":
    main()
