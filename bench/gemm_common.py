"""Pieces the GEMM benchmarks share (bench_gemm.py, bench_fp8_gemm.py; the
other benchmarks use the timing and the tables too): their common command-line
options, loading the tile program, and interleaved timing with per-round
ratios (see shared/PERFORMANCE.md: the implementations are timed in rotated
order within each round, and a ratio is the median of the per-round ratios, so
clock drift over the run cancels)."""

import importlib.util
import os
import statistics

import triton


def add_common_args(p, here, kernels_help):
    """--kernels, --sources, --json, --warmup, --rep and --rounds."""
    p.add_argument("--kernels", default=os.path.join(here, "..", "kernels"), help=kernels_help)
    p.add_argument("--sources", default=os.path.join(here, "..", "examples"),
                   help="directory with matmul.py")
    p.add_argument("--json", help="also write the table as JSON to this path")
    p.add_argument("--warmup", type=int, default=25, help="do_bench warmup, ms")
    p.add_argument("--rep", type=int, default=100, help="do_bench repetition time, ms")
    p.add_argument("--rounds", type=int, default=5, help="interleaved timing rounds")


def load_module(path, name):
    """The Python module at `path` (the tile program Triton compiles)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def interleaved_times(impls, rounds, warmup, rep):
    """{name: [ms per round]}: each round times every implementation with
    triton.testing.do_bench (median), starting at a rotated position."""
    names = list(impls)
    times = {name: [] for name in names}
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            times[name].append(triton.testing.do_bench(impls[name], warmup=warmup, rep=rep,
                                                       return_mode="median"))
    return times


def speedup(times, ours, peer):
    """Median over rounds of peer time / our time (> 1: ours faster); None
    when either was not timed (a peer left out by --tilec-only)."""
    if ours not in times or peer not in times:
        return None
    return statistics.median(t / m for t, m in zip(times[peer], times[ours]))


def cell(x, spec):
    """A table cell: format(x, spec), or "-" for a value not measured (None)."""
    return "-" if x is None else format(x, spec)


