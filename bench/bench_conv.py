#!/usr/bin/env python3
"""3x3 convolutions (padding 1, stride 1, NCHW fp16, fp32 accumulation):
tilec vs Triton on the same tile programs vs cuDNN through torch, on one GPU.

The kernels are test/GPU/kernels/py/conv2d.py's @triton.jit functions:
conv3x3_nchw_kernel (an implicit GEMM over pixels x output channels with a
gathered A tile, the graph examples' first convolution) and
conv3x3_nchw_taps_kernel (output channels x pixels, one kernel tap at a
time; _hoist: conv3x3_nchw_taps_hoisted_kernel, the same with
loop-invariant offset tiles). tilec compiled each specialization at build time
(kernels/bench_conv_<kind>_<tiles>_w<warps>_s<stages>[_i16].ptx, listed in
test/CMakeLists.txt): with plain i32 sizes, as the graph examples launch
it, and (_i16) with every integer argument i32:16 -- the specialization
Triton's JIT picks by itself where they are multiples of 16, timed only on
such shapes. Triton compiles the same function here with the same
constexprs, num_warps and num_stages. torch runs
F.conv2d(x, w, b, padding=1): cuDNN with torch's defaults
(cudnn.benchmark=False), with cudnn.benchmark=True (the fastest of
cuDNN's algorithms for the shape), and on channels-last copies of x and w
(NHWC: what torch.compile's layout optimization gives cuDNN; the copies
are made before timing). Every result is checked against torch's first.

Timing: triton.testing.do_bench medians (warmup 25 ms, rep 100 ms); tilec
and Triton interleaved in 5 rounds of 20 ms each (tilec, Triton, tilec,
...), reporting each side's median and the median of the rounds' ratios
(Triton time / tilec time: above 1, tilec faster). TFLOP/s counts
2 * N * C_out * H * W * C_in * 9.

--cuda-kernels DIR also checks and times each variant's kernel file from DIR
(tilec's CUDA C++ back end) in the same rounds (tilec, tilec cuda, Triton,
...): "cuda µs" and cuda/ptx = PTX time / CUDA time (> 1: CUDA C++ faster),
the median of the rounds' ratios (JSON: each row's "backend_rows");
--tilec-only leaves Triton and cuDNN out.

    python3 bench/bench_conv.py --bundle . --json conv.json
"""

import argparse
import glob
import importlib.util
import json
import os
import re
import statistics
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tilec_rt  # noqa: E402

NAME = re.compile(r"bench_conv_(gemm|taps|hoist)_(\d+)x(\d+)x(\d+)_w(\d+)_s(\d+)(_i16)?\.ptx$")
ROUNDS = 5
# (N, C_in, H, W, C_out): the graph examples' shapes (16 x 32 channels,
# 64x64, an untuned 63x63, 32x32), one with 64 channels each way, and a
# small untuned one (one sample of 17x17: three programs).
SHAPES = ((16, 32, 64, 64, 32), (16, 32, 63, 63, 32), (16, 32, 32, 32, 32),
          (8, 64, 64, 64, 64), (1, 32, 17, 17, 32))


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Variant:
    """One specialization: kind gemm (BLOCK_P, BLOCK_CO, BLOCK_K) or taps
    (BLOCK_CO, BLOCK_P, BLOCK_CI), with its grid and launch on both
    compilers."""

    def __init__(self, path, ctx, src, cuda_kernels=None):
        m = NAME.search(path)
        self.kind = m.group(1)
        a, b, c, self.warps, self.stages = (int(g) for g in m.groups()[1:6])
        # _i16: compiled with every integer argument i32:16, the
        # specialization Triton's JIT picks where they are multiples of 16
        # (run only on such shapes); no suffix: plain i32, as the graph
        # examples launch it.
        self.spec16 = m.group(7) == "_i16"
        self.name = os.path.basename(path)[len("bench_conv_"):-len(".ptx")]
        fn = {"gemm": "conv3x3_nchw_kernel", "taps": "conv3x3_nchw_taps_kernel",
              "hoist": "conv3x3_nchw_taps_hoisted_kernel"}[self.kind]
        self.kernel = ctx.load_file(path).kernel(fn)
        # The CUDA C++ back end's build of the same file (--cuda-kernels).
        self.kernel_c = (tilec_rt.load_kernel(ctx, cuda_kernels, os.path.basename(path), fn)
                         if cuda_kernels else None)
        self.triton_fn = getattr(src, fn)
        if self.kind == "gemm":
            self.consts = dict(BLOCK_P=a, BLOCK_CO=b, BLOCK_K=c)
        else:
            self.consts = dict(BLOCK_CO=a, BLOCK_P=b, BLOCK_CI=c)

    def grid(self, n, cin, h, w, cout):
        c = self.consts
        if self.kind == "gemm":
            return (triton.cdiv(n * h * w, c["BLOCK_P"]), triton.cdiv(cout, c["BLOCK_CO"]))
        return (triton.cdiv(h * w, c["BLOCK_P"]), n * triton.cdiv(cout, c["BLOCK_CO"]))

    def tilec(self, x, wt, b, y, kernel=None):
        n, cin, h, w = x.shape
        cout = wt.shape[0]
        (kernel or self.kernel).launch(self.grid(n, cin, h, w, cout), x, wt, b, y, n, cin, h,
                                       w, cout)

    def triton(self, x, wt, b, y):
        n, cin, h, w = x.shape
        cout = wt.shape[0]
        self.triton_fn[self.grid(n, cin, h, w, cout)](
            x, wt, b, y, n, cin, h, w, cout, **self.consts,
            num_warps=self.warps, num_stages=self.stages)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bundle", default=os.path.join(here, ".."),
                   help="gpu-bundle folder (kernels/, examples/conv2d.py)")
    p.add_argument("--kernels", help="the PTX folder (default: BUNDLE/kernels)")
    p.add_argument("--sources", help="the folder of conv2d.py (default: BUNDLE/examples)")
    p.add_argument("--only", help="regex: the variants to run")
    p.add_argument("--no-triton", action="store_true")
    p.add_argument("--json")
    p.add_argument("--warmup", type=int, default=25)
    p.add_argument("--rep", type=int, default=100)
    tilec_rt.add_backend_arguments(p)
    args = p.parse_args()
    cuda, peers = args.cuda_kernels, not args.tilec_only

    torch.cuda.init()
    dev = torch.device("cuda", torch.cuda.current_device())
    ctx = tilec_rt.Context(dev.index)
    kernels = args.kernels or os.path.join(args.bundle, "kernels")
    sources = args.sources or os.path.join(args.bundle, "examples")
    src = load(os.path.join(sources, "conv2d.py"), "tilec_bench_conv")
    paths = sorted(glob.glob(os.path.join(kernels, "bench_conv_*.ptx")))
    paths = [q for q in paths if not args.only or re.search(args.only, os.path.basename(q))]
    missing = tilec_rt.missing_kernels(cuda, [os.path.basename(q) for q in paths]) if cuda else []
    if missing:
        raise SystemExit("missing CUDA C++ back end kernel(s): " + ", ".join(missing))
    variants = [Variant(q, ctx, src, cuda) for q in paths]
    if not variants:
        raise SystemExit("no bench_conv_*.ptx kernels in " + kernels)

    def bench(fn, rep=args.rep):
        return triton.testing.do_bench(fn, warmup=args.warmup, rep=rep,
                                       return_mode="median")

    rows = []
    gen = torch.Generator(device=dev).manual_seed(0)
    for n, cin, h, w, cout in SHAPES:
        x = torch.randn(n, cin, h, w, device=dev, dtype=torch.float16, generator=gen)
        wt = (torch.randn(cout, cin, 3, 3, device=dev, dtype=torch.float16, generator=gen)
              / (cin * 9) ** 0.5).half()
        b = torch.randn(cout, device=dev, dtype=torch.float16, generator=gen)
        y = torch.empty(n, cout, h, w, device=dev, dtype=torch.float16)
        ref = torch.nn.functional.conv2d(x.float(), wt.float(), b.float(), padding=1)
        shape = f"{n}x{cin}x{h}x{w}->{cout}"
        flop = 2.0 * n * cout * h * w * cin * 9
        times = {}
        xl = wl = None
        backend_rows = []  # --cuda-kernels: each variant's two builds
        if peers:
            torch.backends.cudnn.benchmark = False
            times["cudnn"] = bench(lambda: torch.nn.functional.conv2d(x, wt, b, padding=1))
            torch.backends.cudnn.benchmark = True
            times["cudnn_bench"] = bench(lambda: torch.nn.functional.conv2d(x, wt, b, padding=1))
            xl = x.to(memory_format=torch.channels_last)
            wl = wt.to(memory_format=torch.channels_last)
            times["cudnn_nhwc"] = bench(lambda: torch.nn.functional.conv2d(xl, wl, b, padding=1))
            torch.backends.cudnn.benchmark = False
        for v in variants:
            if v.spec16 and any(d % 16 for d in (n, cin, h, w, cout)):
                continue  # Triton would not specialize these sizes so
            fns = {"tilec": lambda v=v: v.tilec(x, wt, b, y)}
            if cuda:
                fns["tilec_cuda"] = lambda v=v: v.tilec(x, wt, b, y, v.kernel_c)
            if not args.no_triton and peers:
                fns["triton"] = lambda v=v: v.triton(x, wt, b, y)
            ok = True
            for who, fn in fns.items():
                y.fill_(float("nan"))
                fn()
                torch.cuda.synchronize()
                err = (y.float() - ref).abs().max().item()
                if not err <= 1e-2 * max(1.0, ref.abs().max().item()):
                    if who == "tilec_cuda":
                        raise SystemExit(f"{shape} {v.name} {who} ({v.kernel_c.path}): differs "
                                         f"from torch by {err}")
                    print(f"{shape} {v.name} {who}: differs from torch by {err}", flush=True)
                    ok = False
            if not ok:
                continue
            # Interleaved rounds (tilec, Triton, tilec, ...): the medians of
            # each side's times and of the per-round ratios.
            rounds = {who: [] for who in fns}
            for _ in range(ROUNDS):
                for who, fn in fns.items():
                    rounds[who].append(bench(fn, max(1, args.rep // ROUNDS)))
            for who, ts in rounds.items():
                times[f"{who}:{v.name}"] = statistics.median(ts)
            if "triton" in rounds:
                times[f"ratio:{v.name}"] = statistics.median(
                    tr / tt for tt, tr in zip(rounds["tilec"], rounds["triton"]))
            if cuda:
                times[f"cuda_over_ptx:{v.name}"] = statistics.median(
                    tt / tc for tt, tc in zip(rounds["tilec"], rounds["tilec_cuda"]))
                backend_rows.append(tilec_rt.backend_fields(
                    v.kernel, v.kernel_c, times[f"tilec:{v.name}"],
                    times[f"tilec_cuda:{v.name}"], times[f"cuda_over_ptx:{v.name}"],
                    shape=shape, work=flop, unit="TFLOP/s"))
        nan = float("nan")
        if peers:
            best = min(times["cudnn"], times["cudnn_bench"])
            print(f"\n{shape}: cuDNN {times['cudnn'] * 1e3:.2f} µs, cuDNN benchmark="
                  f"True {times['cudnn_bench'] * 1e3:.2f} µs, channels-last (benchmark=True) "
                  f"{times['cudnn_nhwc'] * 1e3:.2f} µs; 'vs cuDNN': NCHW cuDNN's best",
                  flush=True)
        else:
            best = nan
            print(f"\n{shape}:", flush=True)
        # With --cuda-kernels, "cuda µs" and "cuda/ptx" (PTX time / CUDA time) last.
        print(f"{'variant':>30} {'tilec µs':>9} {'TF/s':>6} {'triton µs':>10} "
              f"{'triton/tilec':>12} {'vs cuDNN':>9}" +
              (f" {'cuda µs':>9} {'cuda/ptx':>8}" if cuda else ""))
        for v in variants:
            if f"tilec:{v.name}" not in times:
                continue
            tt = times[f"tilec:{v.name}"]
            tr = times.get(f"triton:{v.name}", nan)
            print(f"{v.name:>30} {tt * 1e3:9.2f} {flop / (tt * 1e-3) / 1e12:6.1f} "
                  f"{tr * 1e3:10.2f} {times.get(f'ratio:{v.name}', nan):12.2f} " +
                  (f"{best / tt:9.2f}" if peers else f"{'-':>9}") +
                  (f" {times[f'tilec_cuda:{v.name}'] * 1e3:9.2f} "
                   f"{times[f'cuda_over_ptx:{v.name}']:8.3f}" if cuda else ""), flush=True)
        rows.append({"shape": shape, "times_ms": times,
                     **({"backend_rows": backend_rows} if cuda else {})})
        del x, wt, b, y, ref, xl, wl
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(dev), "rows": rows}, f, indent=2)


if __name__ == "__main__":
    main()
