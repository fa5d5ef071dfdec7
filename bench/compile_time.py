#!/usr/bin/env python3
"""Times tilec compiling tile programs to PTX: wall time (median of N runs)
and peak resident memory, one process per run (cold: no cache exists).

    bench/compile_time.py [--tilec build/bin/tilec] [--runs 15] [FILE.mlir ...]

Default file: examples/vector_add.mlir. Runs on the build machine (no GPU).
The peer number (Triton's cold compile of vector add, 1.57 s on the H200
host, ../shared/PERFORMANCE.md) includes Python start-up and the first
launch; tilec's includes process start-up and writing the PTX.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)


def run_once(cmd):
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode()
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"compile_time: {' '.join(cmd)} failed:\n{err}")
    return wall, usage.ru_maxrss  # KiB on Linux


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tilec", default=os.path.join(root, "build", "bin", "tilec"))
    p.add_argument("--runs", type=int, default=15)
    p.add_argument("files", nargs="*",
                   default=[os.path.join(root, "examples", "vector_add.mlir")])
    args = p.parse_args()
    print(f"{'program':<32} {'runs':>4} {'median ms':>10} {'min ms':>8} {'peak MiB':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for f in args.files:
            out = os.path.join(tmp, "out.ptx")
            cmd = [args.tilec, f, "--emit=ptx", "-o", out]
            run_once(cmd)  # page in the binary and its libraries
            samples = [run_once(cmd) for _ in range(args.runs)]
            walls = [w for w, _ in samples]
            peak = max(m for _, m in samples)
            print(f"{os.path.basename(f):<32} {args.runs:>4} "
                  f"{statistics.median(walls) * 1e3:>10.1f} {min(walls) * 1e3:>8.1f} "
                  f"{peak / 1024:>9.1f}")


if __name__ == "__main__":
    main()
