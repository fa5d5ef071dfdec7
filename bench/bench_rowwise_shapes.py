#!/usr/bin/env python3
"""Row-wise kernels on tuned and untuned shapes (issue 14): softmax fp32 and
layer-norm forward fp16, tilec vs Triton vs torch on one GPU, the same
@triton.jit functions (test/GPU/kernels/py/softmax.py and layer_norm.py)
through both compilers.

Two steps, because the GPU machine has no LLVM:

1. On the build machine, compile every shape's kernels with the tilec CLI:

       bench/bench_rowwise_shapes.py --compile build/bin/tilec --out .dev/rowwise

   For each shape three PTX files: `spec`, the signature Triton's JIT would
   specialize for the launch's arguments (`i32:16` for an integer divisible
   by 16, `:16` pointers: torch's allocations are 256-byte aligned); `plain`,
   every integer a plain `i32` (tilec versions the kernel on the arguments'
   alignment at run time, tile-version-alignment); and `noversion`, plain
   with --version-alignment=false (one version: what a plain signature gave
   before). BLOCK_SIZE and num_warps as the tutorials choose them.

2. On the GPU machine (torch, triton; TILEC_RUNTIME_LIB or a gpu-bundle's
   lib/ for the runtime):

       bench/bench_rowwise_shapes.py --kernels .dev/rowwise [--rounds 3]

   Every output is checked against torch first. Timing: triton.testing.
   do_bench medians (warmup 25 ms, rep 100 ms), rounds interleaved over all
   variants; the table shows each variant's best round. Bandwidth counts the
   bytes read and written once: softmax 2*M*N*4, layer norm 2*M*N*2 (the
   weights and statistics are not counted, as in bench_rowwise.py).
   `--baseline DIR` also times the spec kernels of another tilec build
   (step 1 with that build's tilec into DIR) in the same rounds, for a
   change's before/after on one GPU; step 1's `--tilec-flag=FLAG` compiles
   such a folder with one more option instead (e.g. the register budget
   off: `--tilec-flag=--auto-maxnreg=false`). `--baseline` repeats: each
   folder is a column "tilec baseline NAME" and a "spec / baseline NAME"
   ratio.

The CUDA C++ back end (issue 16): step 1 with `--tilec-flag=--emit=cuda
--out .dev/rowwise-cuda` writes the same kernels as `.cu` files (the
runtime compiles them with NVRTC at load; or `bin/tilec-nvrtc -o DIR
.dev/rowwise-cuda/*.cu` precompiles them), and step 2 with `--cuda-kernels
.dev/rowwise-cuda` also checks and times every variant from that folder in
the same rounds ("tilec cuda VARIANT"): a column "tilec cuda spec" and the
ratio cuda/ptx (PTX time / CUDA time: > 1, CUDA C++ faster), and the
geometric mean of each variant's. `--tilec-only` leaves Triton and torch
out; `--json PATH` writes the table.
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHAPES = [(8192, 1000), (8192, 1024), (8192, 3000), (8192, 4096), (8192, 8192),
          (8192, 16384), (4097, 1000), (3, 16384)]


def next_pow2(n):
    return 1 << (n - 1).bit_length()


def softmax_config(n):
    block = next_pow2(n)
    # Tutorial 02's choice.
    warps = 4 if block < 2048 else 8 if block < 4096 else 16
    return block, warps


def layer_norm_config(n):
    # Tutorial 05's choice (fp16: at most 64 KiB per row).
    block = min(65536 // 2, next_pow2(n))
    warps = min(max(block // 256, 1), 8)
    return block, warps


def int_entry(value, variant):
    # Triton's JIT: divisible by 16 -> i32:16, equal to 1 -> a constant 1
    # (not hit by these shapes' strides and sizes but M = 1).
    if variant == "spec" and value % 16 == 0:
        return "i32:16"
    return "i32"


def maxnreg_candidates(warps):
    """Register limits worth trying (Triton's maxnreg): the most a thread
    may use for 2, 4 and 6 CTAs of `warps` warps per SM (65536 registers),
    rounded down to 8, in [32, 255]."""
    out = []
    for ctas in (2, 4, 6):
        r = min(255, 65536 // (ctas * 32 * warps) // 8 * 8)
        if r >= 32 and r not in out:
            out.append(r)
    return out


def kernels_for(kind, m, n, tune=False):
    """(file stem, source, kernel, signature, flags, variant) per variant;
    with `tune`, also the spec kernel with each maxnreg_candidates limit
    (variant "r<N>")."""
    out = []
    for variant in ("spec", "plain", "noversion"):
        if kind == "softmax":
            block, warps = softmax_config(n)
            ints = ",".join(int_entry(v, variant) for v in (n, n, m, n))
            sig = f"*fp32:16,*fp32:16,{ints}"
            src, name = "softmax.py", "softmax_kernel"
        else:
            block, warps = layer_norm_config(n)
            ints = ",".join(int_entry(v, variant) for v in (n, n))
            sig = f"*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,{ints},fp32"
            src, name = "layer_norm.py", "layer_norm_fwd_kernel"
        flags = [f"-DBLOCK_SIZE={block}", "--num-warps", str(warps)]
        if variant == "noversion":
            flags.append("--version-alignment=false")
        out.append((f"{kind}_{m}x{n}_{variant}", src, name, sig, flags, variant))
        if tune and variant == "spec":
            for r in maxnreg_candidates(warps):
                out.append((f"{kind}_{m}x{n}_spec_r{r}", src, name, sig,
                            flags + ["--maxnreg", str(r)], f"r{r}"))
    return out


def compile_all(tilec, out, extra=()):
    # --emit=cuda among the flags: the CUDA C++ back end's NAME.cu.
    ext = ".cu" if "--emit=cuda" in extra else ".ptx"
    os.makedirs(out, exist_ok=True)
    sources = os.path.join(HERE, "..", "test", "GPU", "kernels", "py")
    for f in ("softmax.py", "layer_norm.py"):
        shutil.copy(os.path.join(sources, f), os.path.join(out, f))
    for kind in ("softmax", "layer_norm"):
        for m, n in SHAPES:
            for stem, src, name, sig, flags, _ in kernels_for(kind, m, n, tune=True):
                cmd = [tilec, os.path.join(sources, src), "--kernel", name,
                       "--signature", sig, *flags, *extra,
                       "-o", os.path.join(out, stem + ext)]
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode != 0:
                    sys.exit(f"{' '.join(cmd)}\n{r.stderr}")
    count = sum(len(kernels_for(kind, m, n, tune=True))
                for kind in ("softmax", "layer_norm") for m, n in SHAPES)
    print(f"compiled {count} kernels into {out}")


def bench(args):
    import torch
    import triton
    sys.path.insert(0, HERE)
    import tilec_rt
    from bench_rowwise import layer_norm_case, load

    cuda, peers = args.cuda_kernels, not args.tilec_only
    torch.cuda.init()
    dev = torch.device("cuda", torch.cuda.current_device())
    ctx = tilec_rt.Context(dev.index)
    sm = load(os.path.join(args.kernels, "softmax.py"), "bench_shapes_softmax")
    ln = load(os.path.join(args.kernels, "layer_norm.py"), "bench_shapes_layer_norm")
    torch.manual_seed(0)

    def timed(fn):
        return triton.testing.do_bench(fn, warmup=args.warmup, rep=args.rep,
                                       return_mode="median")

    def kernels_for_run(kind, m, n):
        """kernels_for's entries with their loaded kernel; with
        --cuda-kernels, each also from there as variant "cuda VARIANT";
        for each --baseline DIR, also that build's spec kernel as variant
        "baseline NAME" (NAME: the folder's name)."""
        for entry in kernels_for(kind, m, n, tune=args.tune_maxnreg):
            stem, name = entry[0], entry[2]
            k = ctx.load_file(os.path.join(args.kernels, stem + ".ptx")).kernel(name)
            yield (*entry, k)
            if cuda:
                kc = tilec_rt.load_kernel(ctx, cuda, stem + ".ptx", name)
                kernel_files[(kind, m, n, "tilec cuda " + entry[5])] = (k, kc)
                yield (*entry[:5], "cuda " + entry[5], kc)
            for folder in (args.baseline if entry[5] == "spec" else []):
                kb = ctx.load_file(os.path.join(folder, stem + ".ptx")).kernel(name)
                yield (*entry[:5], baseline_label(folder), kb)

    def baseline_label(folder):
        return "baseline " + os.path.basename(os.path.normpath(folder))

    cases = []  # (kind, m, n, {variant: fn}, nbytes)
    keep = []
    kernel_files = {}  # (kind, m, n, "tilec cuda VARIANT") -> (PTX kernel, CUDA kernel)
    for kind in ("softmax", "layer_norm"):
        for m, n in SHAPES:
            fns = {}
            if kind == "softmax":
                block, warps = softmax_config(n)
                x = torch.randn(m, n, device=dev, dtype=torch.float32)
                y = torch.empty_like(x)
                ref = torch.softmax(x, dim=1)
                tol = 1e-5
                for stem, _, name, _, _, variant, k in kernels_for_run(kind, m, n):
                    fns["tilec " + variant] = (lambda k=k, x=x, y=y, m=m, n=n:
                                               k.launch((m,), y, x, x.stride(0), y.stride(0), m, n))
                for r in ([None] + (maxnreg_candidates(warps) if args.tune_maxnreg else [])
                          if peers else []):
                    fns["triton" + (f" r{r}" if r else "")] = (
                        lambda x=x, y=y, m=m, n=n, block=block, warps=warps, r=r:
                        sm.softmax_kernel[(m,)](y, x, x.stride(0), y.stride(0), m, n,
                                                BLOCK_SIZE=block, num_warps=warps,
                                                **({"maxnreg": r} if r else {})))
                if peers:
                    fns["torch"] = lambda x=x: torch.softmax(x, dim=1)
                nbytes = 2 * m * n * 4
                keep.append((x, y, ref))
            else:
                block, warps = layer_norm_config(n)
                x, w, b, y, mean, rstd, eps, ref = layer_norm_case(m, n, dev)
                tol = 2e-2
                for stem, _, name, _, _, variant, k in kernels_for_run(kind, m, n):
                    fns["tilec " + variant] = (
                        lambda k=k, x=x, y=y, w=w, b=b, mean=mean, rstd=rstd, m=m, n=n:
                        k.launch((m,), x, y, w, b, mean, rstd, x.stride(0), n, eps))
                for r in ([None] + (maxnreg_candidates(warps) if args.tune_maxnreg else [])
                          if peers else []):
                    fns["triton" + (f" r{r}" if r else "")] = (
                        lambda x=x, y=y, w=w, b=b, mean=mean, rstd=rstd, m=m, n=n, block=block,
                        warps=warps, r=r: ln.layer_norm_fwd_kernel[(m,)](
                            x, y, w, b, mean, rstd, x.stride(0), n, eps, BLOCK_SIZE=block,
                            num_warps=warps, **({"maxnreg": r} if r else {})))
                if peers:
                    fns["torch"] = (lambda x=x, w=w, b=b, n=n:
                                    torch.nn.functional.layer_norm(x, (n,), w, b, eps))
                nbytes = 2 * m * n * 2
                keep.append((x, y, ref, w, b, mean, rstd))
            for label, fn in list(fns.items()):
                if label == "torch":
                    continue
                y.fill_(float("nan"))
                try:
                    fn()
                except Exception as e:  # a Triton without the maxnreg option
                    if not label.startswith("triton r"):
                        raise
                    print(f"{kind} {m}x{n}: {label}: {e}; left out")
                    del fns[label]
                    continue
                torch.cuda.synchronize()
                err = (y.float() - ref.float()).abs().max().item()
                if not err <= tol:
                    sys.exit(f"{kind} {m}x{n}: {label} differs from torch by {err}")
            cases.append((kind, m, n, fns, nbytes))

    best = {}
    for r in range(args.rounds):
        for kind, m, n, fns, nbytes in cases:
            for label, fn in fns.items():
                tbps = nbytes / (timed(fn) * 1e-3) / 1e12
                key = (kind, m, n, label)
                best[key] = max(best.get(key, 0.0), tbps)

    labels = ["tilec spec", "tilec plain", "tilec noversion", "triton", "torch"]
    for i, folder in enumerate(args.baseline):
        labels.insert(3 + i, "tilec " + baseline_label(folder))
    if cuda:
        labels.insert(1, "tilec cuda spec")
    print(f"device: {torch.cuda.get_device_name(dev)}; do_bench medians, best of "
          f"{args.rounds} interleaved rounds; TB/s" +
          ("; cuda/ptx: the spec kernel's PTX time / CUDA C++ time (> 1: CUDA C++ faster)"
           if cuda else ""))
    print(f"{'kernel':>10} {'shape':>11} " + " ".join(f"{l:>15}" for l in labels) +
          f" {'spec/triton':>11} {'plain/triton':>12} {'plain/spec':>10} {'spec/torch':>10}" +
          (f" {'cuda/ptx':>8}" if cuda else ""))
    ratios = {"spec": [], "plain": []} if peers else {}
    out = []  # the JSON rows

    def cell(x, width):  # "-": not timed (--tilec-only)
        return f"{x:{width}.3f}" if x is not None else f"{'-':>{width}}"

    for kind, m, n, fns, nbytes in cases:
        v = {l: best.get((kind, m, n, l)) for l in labels}
        if peers:
            ratios["spec"].append(v["tilec spec"] / v["triton"])
            ratios["plain"].append(v["tilec plain"] / v["triton"])
        print(f"{kind:>10} {f'{m}x{n}':>11} " + " ".join(cell(v[l], 15) for l in labels) +
              f" {cell(v['tilec spec'] / v['triton'] if peers else None, 11)}"
              f" {cell(v['tilec plain'] / v['triton'] if peers else None, 12)}"
              f" {v['tilec plain'] / v['tilec spec']:10.3f}"
              f" {cell(v['tilec spec'] / v['torch'] if peers else None, 10)}" +
              (f" {v['tilec cuda spec'] / v['tilec spec']:8.3f}" if cuda else ""))
        row = {"kind": kind, "M": m, "N": n,
               **{l.replace(" ", "_") + "_tbps": best[(kind, m, n, l)] for l in fns}}
        if cuda:
            # Each variant's two builds, from their best rounds (ms = bytes / TB/s / 1e9;
            # cuda/ptx = PTX time / CUDA time); the spec one is the row's own.
            pairs = []
            for l in fns:
                if l.startswith("tilec cuda "):
                    ptx_label = "tilec " + l[len("tilec cuda "):]
                    pairs.append(tilec_rt.backend_fields(
                        *kernel_files[(kind, m, n, l)],
                        nbytes / best[(kind, m, n, ptx_label)] / 1e9,
                        nbytes / best[(kind, m, n, l)] / 1e9, label=f"{kind} {ptx_label[6:]}",
                        shape=f"{m}x{n}", work=nbytes, unit="TB/s"))
            row.update(pairs[0], backend_rows=pairs[1:])
        out.append(row)
    if cuda:
        variants = dict.fromkeys(l[len("tilec cuda "):] for *_, fns, _ in cases for l in fns
                                 if l.startswith("tilec cuda "))
        for variant in variants:  # (the maxnreg variants differ between shapes)
            ratios[f"cuda/ptx {variant}"] = [
                best[(kind, m, n, "tilec cuda " + variant)] / best[(kind, m, n, "tilec " + variant)]
                for kind, m, n, _, _ in cases if (kind, m, n, "tilec cuda " + variant) in best]
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(dev), "rounds": args.rounds,
                       "rows": out}, f, indent=2)
        print(f"wrote {args.json}")
    if args.tune_maxnreg and peers:
        # Each compiler's best over maxnreg (none and the candidates), the
        # same .py and block/warps config.
        rs = []
        print("maxnreg tuned: each compiler's best over no limit and "
              "maxnreg_candidates (TB/s, the winning limit)")
        for kind, m, n, fns, _ in cases:
            def tuned(default, prefix):
                return max((best[(kind, m, n, l)], l) for l in fns
                           if l == default or l.startswith(prefix))
            tv, tl = tuned("tilec spec", "tilec r")
            rv, rl = tuned("triton", "triton r")
            rs.append(tv / rv)
            print(f"{kind:>10} {f'{m}x{n}':>11} tilec {tv:.3f} ({tl}) triton {rv:.3f} ({rl}) "
                  f"tilec/triton {tv / rv:.3f}")
        ratios["tuned / tuned"] = rs
    for folder in args.baseline:
        label = baseline_label(folder)
        rs = [best[(kind, m, n, "tilec spec")] / best[(kind, m, n, "tilec " + label)]
              for kind, m, n, _, _ in cases]
        ratios["spec / " + label] = rs
        for (kind, m, n, _, _), r in zip(cases, rs):
            print(f"{kind:>10} {f'{m}x{n}':>11} spec / {label} {r:.3f}")
    for k, rs in ratios.items():
        gm = math.exp(sum(math.log(r) for r in rs) / len(rs))
        what = k if "/" in k else f"tilec {k} / triton"
        print(f"geometric mean {what}: {gm:.3f} (min {min(rs):.3f})")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--compile", metavar="TILEC", help="compile the kernels with this tilec")
    p.add_argument("--out", default=".dev/rowwise", help="with --compile: the output folder")
    p.add_argument("--tilec-flag", action="append", default=[], metavar="FLAG",
                   help="with --compile: one more tilec option for every kernel "
                        "(repeatable), e.g. --tilec-flag=--auto-maxnreg=false for a "
                        "--baseline folder, or --tilec-flag=--emit=cuda for a "
                        "--cuda-kernels folder (NAME.cu)")
    p.add_argument("--kernels", default=".dev/rowwise", help="the folder --compile wrote")
    p.add_argument("--baseline", metavar="DIR", action="append", default=[],
                   help="also time the spec kernels --compile wrote into DIR with another "
                        "tilec build or options (same names), in the same interleaved "
                        "rounds, labelled 'baseline' and DIR's name (repeatable)")
    p.add_argument("--tune-maxnreg", action="store_true",
                   help="also time the spec kernels with each maxnreg_candidates limit "
                        "(compiled by --compile) and Triton with the same limits; prints "
                        "each compiler's best")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--warmup", type=int, default=25)
    p.add_argument("--rep", type=int, default=100)
    p.add_argument("--json", help="also write the table as JSON to this path")
    sys.path.insert(0, HERE)
    import tilec_rt
    tilec_rt.add_backend_arguments(p)
    args = p.parse_args()
    if args.compile:
        compile_all(args.compile, args.out, args.tilec_flag)
    else:
        bench(args)


if __name__ == "__main__":
    main()
