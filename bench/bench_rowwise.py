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
--cuda-kernels DIR also times the same kernel files of tilec's CUDA C++ back
end (tilec_rt.add_backend_arguments; a folder's NAME.cu where no NAME.ptx is)
against the PTX ones in two rounds, PTX, CUDA, CUDA, PTX: the column "tilec
cuda" and the ratio cuda/ptx (PTX time / CUDA time: > 1, CUDA C++ faster).

    TILEC_RUNTIME_LIB=lib/libtilec_runtime.so bench/bench_rowwise.py \
        --kernels kernels --sources examples --json rowwise.json
"""

import argparse
import importlib.util
import json
import os
import statistics
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tilec_rt  # noqa: E402
from gemm_common import interleaved_times, speedup  # noqa: E402


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
    tilec_rt.add_backend_arguments(p)
    args = p.parse_args()
    cuda, peers = args.cuda_kernels, not args.tilec_only

    torch.cuda.init()
    dev = torch.device("cuda", torch.cuda.current_device())
    ctx = tilec_rt.Context(dev.index)
    sm = load(os.path.join(args.sources, "softmax.py"), "tilec_bench_softmax")
    ln = load(os.path.join(args.sources, "layer_norm.py"), "tilec_bench_layer_norm")
    rows = []

    def bench(fn):
        return triton.testing.do_bench(fn, warmup=args.warmup, rep=args.rep,
                                       return_mode="median")

    def load_kernels(fname, name):
        """The PTX kernel and, with --cuda-kernels, the CUDA C++ one (else None)."""
        return (tilec_rt.load_kernel(ctx, args.kernels, fname, name),
                tilec_rt.load_kernel(ctx, cuda, fname, name) if cuda else None)

    def time_tilec(run_tilec, run_cuda):
        """({"tilec": ms[, "tilec_cuda": ms]}, cuda/ptx or None): one do_bench,
        or with --cuda-kernels two rounds, PTX, CUDA, CUDA, PTX (each side's
        median, the ratio the median of the rounds' ratios)."""
        if run_cuda is None:
            return {"tilec": bench(run_tilec)}, None
        times = interleaved_times({"tilec": run_tilec, "tilec_cuda": run_cuda}, 2,
                                  args.warmup, args.rep)
        return ({k: statistics.median(v) for k, v in times.items()},
                speedup(times, "tilec_cuda", "tilec"))

    def check(what, y, ref, tol, run_tilec, run_cuda, run_triton):
        """Each build (tilec; its CUDA C++ build with --cuda-kernels; Triton
        unless --tilec-only) writes the NaN-filled `y`: within `tol` of `ref`."""
        for name, fn in (("tilec", run_tilec), ("tilec cuda", run_cuda),
                         ("triton", run_triton if peers else None)):
            if fn is None:
                continue
            y.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            err = (y.float() - ref.float()).abs().max().item()
            if not err <= tol:
                raise SystemExit(f"{what}: {name} differs from torch by {err}")

    def backends(kernel, kernel_c, t, ratio, workload, shape, nbytes):
        return (tilec_rt.backend_fields(kernel, kernel_c, t["tilec"], t["tilec_cuda"], ratio,
                                        label=workload, shape=shape, work=nbytes, unit="TB/s")
                if cuda else {})

    for M, N, warps in ((8192, 1024, 4), (8192, 4096, 8), (4096, 16384, 16)):
        kernel, kernel_c = load_kernels(f"bench_softmax_{N}.ptx", "softmax_kernel")
        x = torch.randn(M, N, device=dev, dtype=torch.float32)
        y = torch.empty_like(x)
        ref = torch.softmax(x, dim=1)

        def run_tilec(kernel=kernel):
            kernel.launch((M,), y, x, x.stride(0), y.stride(0), M, N)

        def run_triton():
            sm.softmax_kernel[(M,)](y, x, x.stride(0), y.stride(0), M, N,
                                    BLOCK_SIZE=N, num_warps=warps)

        def run_torch():
            torch.softmax(x, dim=1, out=y) if hasattr(torch, "softmax") else None

        run_cuda = (lambda: run_tilec(kernel_c)) if cuda else None
        check(f"softmax {M}x{N}", y, ref, 1e-5, run_tilec, run_cuda, run_triton)
        t, ratio = time_tilec(run_tilec, run_cuda)
        if peers:
            t.update(triton=bench(run_triton), torch=bench(lambda: torch.softmax(x, dim=1)))
        nbytes = 2 * M * N * 4
        tbps = {k: nbytes / (v * 1e-3) / 1e12 for k, v in t.items()}
        rows.append(("softmax fp32", f"{M}x{N}", tbps,
                     backends(kernel, kernel_c, t, ratio, "softmax fp32", f"{M}x{N}", nbytes)))
        del x, y, ref

    for M, N, warps in ((8192, 1024, 4), (8192, 4096, 8), (8192, 8192, 8)):
        kernel, kernel_c = load_kernels(f"bench_layer_norm_{N}.ptx", "layer_norm_fwd_kernel")
        x, w, b, y, mean, rstd, eps, ref = layer_norm_case(M, N, dev)

        def run_tilec(kernel=kernel):
            kernel.launch((M,), x, y, w, b, mean, rstd, x.stride(0), N, eps)

        def run_triton():
            ln.layer_norm_fwd_kernel[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, eps,
                                           BLOCK_SIZE=N, num_warps=warps)

        run_cuda = (lambda: run_tilec(kernel_c)) if cuda else None
        check(f"layer norm {M}x{N}", y, ref, 2e-2, run_tilec, run_cuda, run_triton)
        t, ratio = time_tilec(run_tilec, run_cuda)
        if peers:
            t.update(triton=bench(run_triton),
                     torch=bench(lambda: torch.nn.functional.layer_norm(x, (N,), w, b, eps)))
        nbytes = 2 * M * N * 2
        tbps = {k: nbytes / (v * 1e-3) / 1e12 for k, v in t.items()}
        rows.append(("layer norm fwd fp16", f"{M}x{N}", tbps,
                     backends(kernel, kernel_c, t, ratio, "layer norm fwd fp16", f"{M}x{N}",
                              nbytes)))
        del x, y, ref

    print(f"device: {torch.cuda.get_device_name(dev)}; do_bench medians; TB/s" +
          ("; cuda/ptx: PTX time / CUDA C++ time (> 1: CUDA C++ faster), median of 2 "
           "rounds" if cuda else ""))
    cols = ["tilec"] + (["tilec_cuda"] if cuda else []) + (["triton", "torch"] if peers else [])
    peer_cols = ["triton", "torch"] if peers else []
    header = ("workload", "shape", *(c.replace("_", " ") for c in cols),
              *(f"tilec/{c}" for c in peer_cols), *(["cuda/ptx"] if cuda else []))
    print("  ".join(f"{h:>20}" if i < 2 else f"{h:>12}" for i, h in enumerate(header)))
    out = []
    for wl, shape, tb, extra in rows:
        cells = ([tb[c] for c in cols] + [tb["tilec"] / tb[c] for c in peer_cols] +
                 ([extra["cuda_over_ptx"]] if cuda else []))
        print(f"{wl:>20}  {shape:>20}" + "".join(f"  {v:12.3f}" for v in cells))
        out.append({"workload": wl, "shape": shape, **{k + "_tbps": v for k, v in tb.items()},
                    **{f"tilec_over_{c}": tb["tilec"] / tb[c] for c in peer_cols}, **extra})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(dev), "rows": out}, f, indent=2)


if __name__ == "__main__":
    main()
