#!/usr/bin/env python3
"""tilec's two back ends side by side: the table of bench/bench_backends.sh.

Reads OUT/*.json, the benchmarks' JSON written with --cuda-kernels, and takes
every row that carries cuda_over_ptx (tilec_rt.backend_fields) together with
the further pairs in its "backend_rows" (sweep configs, a second kernel of the
row). One line per kernel and shape: the run (OUT/NAME.json), the kernel, the
shape, each back end's throughput (TB/s, TFLOP/s) or time (ms), cuda/ptx =
PTX time / CUDA C++ time (> 1: the CUDA C++ build is faster; "<" marks one
more than 5 % slower), the CUDA side's load time (ctx.load_file: NVRTC plus
the driver for a .cu, the driver alone for a .ptx) and, where OUT/nvrtc.tsv
exists (bench_backends.sh compiled kernels-cuda/*.cu itself), the file's
NVRTC compile time. Then the runs that failed (OUT/NAME.rc) and the last
line: "N kernels; M within 5 %; worst RATIO (name)", within 5 % meaning a
CUDA C++ time at most 1.05 times the PTX time.

    bench/backends_summary.py OUT [--json summary.json]
"""

import argparse
import glob
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tilec_rt import print_table  # noqa: E402

WITHIN = 1 / 1.05  # cuda/ptx at or above: the CUDA C++ time within 5 % of PTX's
FORMATS = {"TB/s": ".3f", "TFLOP/s": ".1f", "ms": ".4f"}


def pairs_of(data):
    """The rows of one benchmark's JSON that compare the two back ends."""
    if isinstance(data, dict):
        rows = list(data.get("rows") or []) + list(data.get("sweep") or [])
    else:  # bench_fp8_gemm.py writes the rows alone
        rows = data
    for row in rows:
        if not isinstance(row, dict):
            continue
        if row.get("cuda_over_ptx") is not None:
            yield row
        for extra in row.get("backend_rows") or []:
            if extra.get("cuda_over_ptx") is not None:
                yield extra


def read_nvrtc(path):
    """{file stem: (exit status, ms)} from bench_backends.sh's nvrtc.tsv."""
    out = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 3:
                    out[parts[0]] = (int(parts[1]), int(parts[2]))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", help="bench_backends.sh's output folder")
    p.add_argument("--json", help="also write the table as JSON to this path")
    args = p.parse_args()

    nvrtc = read_nvrtc(os.path.join(args.out, "nvrtc.tsv"))
    entries, unreadable = [], []
    for path in sorted(glob.glob(os.path.join(args.out, "*.json"))):
        run = os.path.basename(path)[:-len(".json")]
        if args.json and os.path.abspath(path) == os.path.abspath(args.json):
            continue
        try:
            with open(path) as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            unreadable.append(f"{run} ({e})")
            continue
        for e in pairs_of(data):
            b = e.get("backends") or {}
            cuda_file = e.get("tilec_cuda_file") or ""
            stem = os.path.splitext(cuda_file)[0]
            entries.append({
                "run": run, "kernel": b.get("kernel") or stem or "?",
                "shape": b.get("shape") or "", "unit": b.get("unit") or "ms",
                "ptx": b.get("ptx"), "cuda": b.get("cuda"),
                "cuda_over_ptx": e["cuda_over_ptx"], "cuda_file": cuda_file,
                "cuda_load_ms": e.get("tilec_cuda_load_ms"),
                "nvrtc_ms": nvrtc[stem][1] if stem in nvrtc else None,
            })

    def num(x, spec):
        return "-" if x is None else format(x, spec)

    print("tilec's back ends: PTX (--kernels) against CUDA C++ (--cuda-kernels); cuda/ptx = "
          "PTX time / CUDA time (> 1: CUDA C++ faster; '<': CUDA more than 5 % slower); "
          "load ms: the CUDA side's ctx.load_file (NVRTC + driver for a .cu, driver for a .ptx)")
    header = ("run", "kernel", "shape", "unit", "PTX", "CUDA C++", "cuda/ptx", "",
              "load ms", *(("NVRTC ms",) if nvrtc else ()))
    lines = [header]
    for e in entries:
        spec = FORMATS.get(e["unit"], ".4g")
        lines.append((e["run"], e["kernel"], str(e["shape"]), e["unit"], num(e["ptx"], spec),
                      num(e["cuda"], spec), f"{e['cuda_over_ptx']:.3f}",
                      "<" if e["cuda_over_ptx"] < WITHIN else "",
                      num(e["cuda_load_ms"], ".0f"),
                      *((num(e["nvrtc_ms"], "d"),) if nvrtc else ())))
    if entries:
        print_table(lines, 4)

    # NVRTC compile time: the .cu files loaded by the benchmarks, and the
    # precompile of kernels-cuda/ (each file sharing the cores with others).
    cu = {e["cuda_file"]: e["cuda_load_ms"] for e in entries
          if e["cuda_file"].endswith(".cu") and e["cuda_load_ms"] is not None}
    if cu:
        worst = max(cu, key=cu.get)
        print(f"NVRTC at load ({len(cu)} .cu files, NVRTC + driver, one at a time): median "
              f"{statistics.median(cu.values()):.0f} ms, max {cu[worst]:.0f} ms ({worst}), "
              f"total {sum(cu.values()) / 1e3:.1f} s")
    if nvrtc:
        ok = {k: ms for k, (rc, ms) in nvrtc.items() if rc == 0}
        used = {k: ok[k] for k in {os.path.splitext(e["cuda_file"])[0] for e in entries}
                if k in ok}
        print(f"NVRTC precompile (nvrtc.tsv, files compiled in parallel): {len(ok)} of "
              f"{len(nvrtc)} compiled" +
              (f", median {statistics.median(ok.values())} ms, max {max(ok.values())} ms "
               f"({max(ok, key=ok.get)})" if ok else "") +
              (f"; the {len(used)} benchmarked: median {statistics.median(used.values())} ms, "
               f"max {max(used.values())} ms" if used else ""))

    failed = []
    for path in sorted(glob.glob(os.path.join(args.out, "*.rc"))):
        with open(path) as f:
            rc = f.read().strip()
        if rc != "0":
            run = os.path.basename(path)[:-len(".rc")]
            failed.append(f"{run} (exit {rc}; {os.path.join(args.out, run + '.log')})")
    for what, items in (("failed runs", failed), ("unreadable JSON", unreadable)):
        if items:
            print(f"{what}: " + ", ".join(items))

    within = [e for e in entries if e["cuda_over_ptx"] >= WITHIN]
    if entries:
        worst = min(entries, key=lambda e: e["cuda_over_ptx"])
        print(f"{len(entries)} kernels; {len(within)} within 5 %; worst "
              f"{worst['cuda_over_ptx']:.3f} ({worst['kernel']} {worst['shape']}, "
              f"{worst['run']})")
    else:
        print("0 kernels: no row with cuda_over_ptx in " + args.out)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"within": WITHIN, "rows": entries, "failed": failed}, f, indent=1)
    return 0 if entries and not failed else 1


if __name__ == "__main__":
    raise SystemExit(main())
