#!/usr/bin/env python3
"""3x3 convolutions (padding 1, stride 1, NCHW fp16, fp32 accumulation):
tilec vs Triton on the same tile programs vs cuDNN through torch, on one GPU.

The kernels are test/GPU/kernels/py/conv2d.py's @triton.jit functions:
conv3x3_nchw_kernel (an implicit GEMM over pixels x output channels with a
gathered A tile, the graph examples' first convolution) and
conv3x3_nchw_taps_kernel (output channels x pixels, one kernel tap at a
time; _hoist: conv3x3_nchw_taps_hoisted_kernel, the same with
loop-invariant offset tiles). tilec compiled each specialization at build time
(kernels/bench_conv_<kind>_<tiles>_w<warps>_s<stages>.ptx, listed in
test/CMakeLists.txt); Triton compiles the same function here with the same
constexprs, num_warps and num_stages (its JIT also specializes the integer
arguments that are multiples of 16, as it does by itself). torch runs
F.conv2d(x, w, b, padding=1): cuDNN with torch's defaults
(cudnn.benchmark=False), with cudnn.benchmark=True (the fastest of
cuDNN's algorithms for the shape), and on channels-last copies of x and w
(NHWC: what torch.compile's layout optimization gives cuDNN; the copies
are made before timing). Every result is checked against torch's first.

Timing: triton.testing.do_bench medians (warmup 25 ms, rep 100 ms), the
peers interleaved per shape. TFLOP/s counts 2 * N * C_out * H * W * C_in * 9.

    python3 bench/bench_conv.py --bundle . --json conv.json
"""

import argparse
import glob
import importlib.util
import json
import os
import re
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tilec_rt  # noqa: E402

NAME = re.compile(r"bench_conv_(gemm|taps|hoist)_(\d+)x(\d+)x(\d+)_w(\d+)_s(\d+)(_[a-z]+)?\.ptx$")
# (N, C_in, H, W, C_out): the graph examples' shapes (16 x 32 channels,
# 64x64, an untuned 63x63, 32x32) and one with 64 channels each way.
SHAPES = ((16, 32, 64, 64, 32), (16, 32, 63, 63, 32), (16, 32, 32, 32, 32),
          (8, 64, 64, 64, 64))


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Variant:
    """One specialization: kind gemm (BLOCK_P, BLOCK_CO, BLOCK_K) or taps
    (BLOCK_CO, BLOCK_P, BLOCK_CI), with its grid and launch on both
    compilers."""

    def __init__(self, path, ctx, src):
        m = NAME.search(path)
        self.kind = m.group(1)
        a, b, c, self.warps, self.stages = (int(g) for g in m.groups()[1:6])
        # A suffix (_sync: an A/B build of the same tile by another tilec)
        # has no Triton twin of its own.
        self.suffix = m.group(7) or ""
        self.name = os.path.basename(path)[len("bench_conv_"):-len(".ptx")]
        fn = {"gemm": "conv3x3_nchw_kernel", "taps": "conv3x3_nchw_taps_kernel",
              "hoist": "conv3x3_nchw_taps_hoisted_kernel"}[self.kind]
        self.kernel = ctx.load_file(path).kernel(fn)
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

    def tilec(self, x, wt, b, y):
        n, cin, h, w = x.shape
        cout = wt.shape[0]
        self.kernel.launch(self.grid(n, cin, h, w, cout), x, wt, b, y, n, cin, h, w, cout)

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
    args = p.parse_args()

    torch.cuda.init()
    dev = torch.device("cuda", torch.cuda.current_device())
    ctx = tilec_rt.Context(dev.index)
    kernels = args.kernels or os.path.join(args.bundle, "kernels")
    sources = args.sources or os.path.join(args.bundle, "examples")
    src = load(os.path.join(sources, "conv2d.py"), "tilec_bench_conv")
    paths = sorted(glob.glob(os.path.join(kernels, "bench_conv_*.ptx")))
    variants = [Variant(q, ctx, src) for q in paths
                if not args.only or re.search(args.only, os.path.basename(q))]
    if not variants:
        raise SystemExit("no bench_conv_*.ptx kernels in " + kernels)

    def bench(fn):
        return triton.testing.do_bench(fn, warmup=args.warmup, rep=args.rep,
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
        torch.backends.cudnn.benchmark = False
        times["cudnn"] = bench(lambda: torch.nn.functional.conv2d(x, wt, b, padding=1))
        torch.backends.cudnn.benchmark = True
        times["cudnn_bench"] = bench(lambda: torch.nn.functional.conv2d(x, wt, b, padding=1))
        xl = x.to(memory_format=torch.channels_last)
        wl = wt.to(memory_format=torch.channels_last)
        times["cudnn_nhwc"] = bench(lambda: torch.nn.functional.conv2d(xl, wl, b, padding=1))
        torch.backends.cudnn.benchmark = False
        for v in variants:
            for who in ("tilec", "triton"):
                if who == "triton" and (args.no_triton or v.suffix):
                    continue
                fn = (lambda v=v: v.tilec(x, wt, b, y)) if who == "tilec" else \
                     (lambda v=v: v.triton(x, wt, b, y))
                y.fill_(float("nan"))
                fn()
                torch.cuda.synchronize()
                err = (y.float() - ref).abs().max().item()
                if not err <= 1e-2 * max(1.0, ref.abs().max().item()):
                    print(f"{shape} {v.name} {who}: differs from torch by {err}", flush=True)
                    times[f"{who}:{v.name}"] = float("nan")
                    continue
                times[f"{who}:{v.name}"] = bench(fn)
        best = min(times["cudnn"], times["cudnn_bench"])
        print(f"\n{shape}: cuDNN {times['cudnn'] * 1e3:.2f} µs, cuDNN benchmark="
              f"True {times['cudnn_bench'] * 1e3:.2f} µs, channels-last (benchmark=True) "
              f"{times['cudnn_nhwc'] * 1e3:.2f} µs; 'vs cuDNN': NCHW cuDNN's best",
              flush=True)
        print(f"{'variant':>26} {'tilec µs':>9} {'TF/s':>6} {'triton µs':>10} "
              f"{'tilec/triton':>12} {'vs cuDNN':>9}")
        for v in variants:
            tt = times[f"tilec:{v.name}"]
            tr = times.get(f"triton:{v.name}", float("nan"))
            print(f"{v.name:>26} {tt * 1e3:9.2f} {flop / (tt * 1e-3) / 1e12:6.1f} "
                  f"{tr * 1e3:10.2f} {tr / tt:12.2f} {best / tt:9.2f}", flush=True)
        rows.append({"shape": shape, "times_ms": times})
        del x, wt, b, y, ref, xl, wl
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(dev), "rows": rows}, f, indent=2)


if __name__ == "__main__":
    main()
