"""Launches one of the bundle's host-descriptor GEMM kernels
(matmul_tma_persistent_kernel of host_descriptors.py: bench_host_desc_tma_*,
bench_host_desc_ws_*, bench_host_desc_pp_*) once after a warm-up launch, for
Nsight Compute; from a gpu-bundle folder:

    ncu --kernel-name matmul_tma_persistent_kernel --launch-skip 1 --launch-count 1 \\
        --section SpeedOfLight --section MemoryWorkloadAnalysis \\
        --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active \\
        python3 bench/profile_host_desc.py bench_host_desc_pp_fp16 [--size S]

The kernel's tile (BLOCK_M x BLOCK_N x BLOCK_K) is given by --tile (default
128x256x64, the ws/tma kernels'; 128x128x64 for the pp ones: chosen from the
name when not given); the grid is min(#SMs, #tiles), as bench_desc_gemm.py
launches it. docs/performance.md records what it showed.
"""
import argparse
import os
import sys

import torch
from triton.tools.tensor_descriptor import TensorDescriptor

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import tilec_rt  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("name", help="the kernel's PTX file in kernels/, without .ptx")
    p.add_argument("--kernels", default=os.path.join(here, "..", "kernels"))
    p.add_argument("--size", type=int, default=4096, help="M = N = K")
    p.add_argument("--tile", help="BLOCK_MxBLOCK_NxBLOCK_K (default: from the name)")
    args = p.parse_args()
    tile = args.tile or ("128x128x64" if "_pp_" in args.name else "128x256x64")
    bm, bn, bk = (int(x) for x in tile.split("x"))
    dtype = torch.bfloat16 if "bf16" in args.name else torch.float16
    dev = torch.device("cuda", torch.cuda.current_device())
    ctx = tilec_rt.Context(dev.index)
    kernel = ctx.load_file(os.path.join(args.kernels, args.name + ".ptx")) \
        .kernel("matmul_tma_persistent_kernel")
    n = args.size
    a = torch.randn((n, n), device=dev, dtype=dtype)
    b = torch.randn((n, n), device=dev, dtype=dtype)  # N x K
    c = torch.empty((n, n), device=dev, dtype=dtype)
    descs = (TensorDescriptor.from_tensor(a, [bm, bk]), TensorDescriptor.from_tensor(b, [bn, bk]),
             TensorDescriptor.from_tensor(c, [bm, bn]))
    sms = torch.cuda.get_device_properties(dev).multi_processor_count
    grid = (min(sms, -(-n // bm) * -(-n // bn)),)
    for _ in range(2):
        kernel.launch(grid, *descs, n, n, n)
    torch.cuda.synchronize()
    err = (c.float() - a.float() @ b.float().T).abs().max().item()
    print(f"{args.name} {n}^3 grid {grid[0]}: max abs error {err:.3g}")


if __name__ == "__main__":
    main()
