#!/usr/bin/env python3
"""Vector add fp32: tilec vs torch.add vs Triton (tutorial 01 style), on one GPU.

Workloads (PERFORMANCE.md): n = 2^28+17 with tilec's `add_kernel_ragged`
(n without a divisibility fact) and n = 2^28 with `add_kernel` (n:16), both
against a Triton kernel written here in the style of tutorial 01; and, the
fairest comparison, the same tile program on both compilers: the kernel of
examples/vector_add.py compiled by tilec from the .py (`py_add_kernel.ptx`)
and by Triton from the same file (imported), at n = 2^28+17. Every
implementation runs on the same tensors; tilec's output (and Triton's) is first
checked bit for bit against torch's (fp32 x + y is exact to compare), with the
output poisoned with NaN before the launch so unwritten elements show.

Timing: triton.testing.do_bench medians (return_mode="median"), warmup 25 ms
and rep 200 ms by default (--warmup/--rep). do_bench flushes L2 between runs;
at 3.2 GB per call the working set is far beyond L2 anyway. Bandwidth counts
bytes read and written once: 3 * n * 4 bytes / time. --cuda-kernels DIR also
times the same kernel files of tilec's CUDA C++ back end against the PTX ones
in two rounds, PTX, CUDA, CUDA, PTX (column "tilec cuda"; cuda/ptx = PTX time /
CUDA time, > 1: CUDA C++ faster); --tilec-only leaves torch and Triton out.

    TILEC_RUNTIME_LIB=lib/libtilec_runtime.so bench/bench_vector_add.py \
        --kernels kernels --json vector_add.json
"""

import argparse
import json
import os
import statistics
import sys

import torch
import triton
import triton.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tilec_rt  # noqa: E402
from gemm_common import cell, interleaved_times, speedup  # noqa: E402

BLOCK_SIZE = 1024
NUM_WARPS = 4


@triton.jit
def triton_add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def triton_add(x, y, out):
    n = out.numel()
    grid = (triton.cdiv(n, BLOCK_SIZE),)
    triton_add_kernel[grid](x, y, out, n, BLOCK_SIZE=BLOCK_SIZE, num_warps=NUM_WARPS)


def load_example_kernel(path):
    """The @triton.jit add_kernel of examples/vector_add.py, as Triton sees it."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("tilec_example_vector_add", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.add_kernel


def verify(name, run, out, expected):
    out.fill_(float("nan"))
    run()
    torch.cuda.synchronize()
    if not torch.equal(out, expected):
        bad = (out != expected).nonzero()
        i = int(bad[0]) if bad.numel() else -1
        raise SystemExit(f"{name}: output differs from torch at index {i}: "
                         f"expected {expected[i].item()!r}, found {out[i].item()!r} "
                         f"({bad.numel()} mismatches)")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kernels", default=os.path.join(here, "..", "kernels"),
                   help="directory with add_kernel.ptx and add_kernel_ragged.ptx")
    p.add_argument("--json", help="also write the table as JSON to this path")
    p.add_argument("--warmup", type=int, default=25, help="do_bench warmup, ms")
    p.add_argument("--rep", type=int, default=200, help="do_bench repetition time, ms")
    tilec_rt.add_backend_arguments(p)
    args = p.parse_args()
    cuda, peers = args.cuda_kernels, not args.tilec_only

    torch.cuda.init()
    device = torch.device("cuda", torch.cuda.current_device())
    ctx = tilec_rt.Context(device.index)
    def tutorial_add(x, y, out):
        triton_add(x, y, out)

    workloads = [
        ("vector add fp32 (ragged)", (1 << 28) + 17, "add_kernel_ragged", "add_kernel_ragged", tutorial_add),
        ("vector add fp32 (n:16)", 1 << 28, "add_kernel", "add_kernel", tutorial_add),
    ]
    example = os.path.join(here, "..", "examples", "vector_add.py")
    if os.path.exists(example) and os.path.exists(
            tilec_rt.kernel_path(args.kernels, "py_add_kernel.ptx")):
        same_source = load_example_kernel(example)

        def same_source_add(x, y, out):
            n = out.numel()
            same_source[(triton.cdiv(n, BLOCK_SIZE),)](x, y, out, n, BLOCK_SIZE=BLOCK_SIZE,
                                                     num_warps=NUM_WARPS)

        workloads.append(("same .py, both compilers", (1 << 28) + 17, "py_add_kernel",
                          "add_kernel", same_source_add))
    rows = []
    for workload, n, ptx_name, kernel_name, triton_fn in workloads:
        kernel = tilec_rt.load_kernel(ctx, args.kernels, ptx_name + ".ptx", kernel_name)
        kernel_c = (tilec_rt.load_kernel(ctx, cuda, ptx_name + ".ptx", kernel_name)
                    if cuda else None)
        gen = torch.Generator(device=device).manual_seed(0)
        x = torch.rand(n, device=device, generator=gen) * 8 - 4
        y = torch.rand(n, device=device, generator=gen) * 8 - 4
        out = torch.empty(n, device=device)
        expected = x + y
        grid = (triton.cdiv(n, BLOCK_SIZE),)

        def run_tilec(kernel=kernel):
            kernel.launch(grid, x, y, out, n)

        def run_cuda():
            run_tilec(kernel_c)

        def run_torch():
            torch.add(x, y, out=out)

        def run_triton():
            triton_fn(x, y, out)

        verify("tilec " + kernel_name, run_tilec, out, expected)
        if cuda:
            verify(f"tilec cuda {kernel_name} ({kernel_c.path})", run_cuda, out, expected)
        if peers:
            verify("triton", run_triton, out, expected)
        del expected

        times, ratio = {}, None
        if cuda:
            # PTX, CUDA, CUDA, PTX: each side's median, the median of the rounds' ratios.
            rounds = interleaved_times({"tilec": run_tilec, "tilec_cuda": run_cuda}, 2,
                                       args.warmup, args.rep)
            times = {k: statistics.median(v) for k, v in rounds.items()}
            ratio = speedup(rounds, "tilec_cuda", "tilec")
        for name, fn in (("tilec", run_tilec), ("torch", run_torch), ("triton", run_triton)):
            if name in times or (name != "tilec" and not peers):
                continue
            times[name] = triton.testing.do_bench(fn, warmup=args.warmup, rep=args.rep,
                                                  return_mode="median")
        tbps = {k: 3 * n * 4 / (ms * 1e-3) / 1e12 for k, ms in times.items()}
        rows.append({
            "workload": workload, "n": n, "kernel": ptx_name,
            "tilec_ms": times["tilec"], "torch_ms": times.get("torch"),
            "triton_ms": times.get("triton"),
            "tilec_tbps": tbps["tilec"], "torch_tbps": tbps.get("torch"),
            "triton_tbps": tbps.get("triton"),
            "tilec_over_torch": tbps["tilec"] / tbps["torch"] if peers else None,
            "tilec_over_triton": tbps["tilec"] / tbps["triton"] if peers else None,
        })
        if cuda:
            rows[-1].update(tilec_cuda_tbps=tbps["tilec_cuda"], **tilec_rt.backend_fields(
                kernel, kernel_c, times["tilec"], times["tilec_cuda"], ratio, label=workload,
                shape=f"n={n}", work=3 * n * 4, unit="TB/s"))
        del x, y, out
        torch.cuda.empty_cache()

    print(f"device: {torch.cuda.get_device_name(device)}; do_bench medians, "
          f"warmup {args.warmup} ms, rep {args.rep} ms" +
          ("; cuda/ptx: PTX time / CUDA C++ time (> 1: CUDA C++ faster), median of 2 "
           "rounds" if cuda else ""))
    # With --cuda-kernels, "tilec cuda TB/s" after tilec's and "cuda/ptx" last.
    header = ("workload", "n", "tilec TB/s", *(("tilec cuda TB/s",) if cuda else ()),
              "torch TB/s", "triton TB/s", "tilec/torch", "tilec/triton",
              *(("cuda/ptx",) if cuda else ()))
    lines = [header] + [(r["workload"], str(r["n"]), f"{r['tilec_tbps']:.3f}",
                         *((f"{r['tilec_cuda_tbps']:.3f}",) if cuda else ()),
                         cell(r["torch_tbps"], ".3f"), cell(r["triton_tbps"], ".3f"),
                         cell(r["tilec_over_torch"], ".3f"), cell(r["tilec_over_triton"], ".3f"),
                         *((f"{r['cuda_over_ptx']:.3f}",) if cuda else ()))
                        for r in rows]
    widths = [max(len(line[c]) for line in lines) for c in range(len(header))]
    for k, line in enumerate(lines):
        print("  ".join(cell.ljust(w) if c == 0 else cell.rjust(w)
                        for c, (cell, w) in enumerate(zip(line, widths))))
        if k == 0:
            print("  ".join("-" * w for w in widths))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(device),
                       "warmup_ms": args.warmup, "rep_ms": args.rep, "rows": rows}, f, indent=2)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
