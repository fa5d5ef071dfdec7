"""Launches the GEMM benchmark kernel (matmul_kernel of matmul.py, fp16, 4096^3)
once through tilec per tile config given, after a warm-up launch, for Nsight
Compute; from a gpu-bundle folder:

    ncu --kernel-name matmul_kernel --launch-skip 1 --launch-count 1 \\
        --section SpeedOfLight --section Occupancy --section WarpStateStats \\
        --section LaunchStats --section MemoryWorkloadAnalysis \\
        python3 bench/profile_gemm.py [SUFFIX]

SUFFIX selects kernels/bench_matmul_fp16_i32_16<SUFFIX>.ptx (default: the
tutorial config 128x256x64, 3 stages, 8 warps; `_128x128x64s3w4` etc. for the
sweep's; the tile sizes are read from the suffix). docs/performance.md records
what it showed.
"""
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import tilec_rt  # noqa: E402


def main():
    suffix = sys.argv[1] if len(sys.argv) > 1 else ""
    bm, bn = (128, 256)
    if suffix:
        tiles = suffix.lstrip("_").split("s")[0].split("x")
        bm, bn = int(tiles[0]), int(tiles[1])
    ctx = tilec_rt.Context(torch.cuda.current_device())
    kernel = ctx.load_file(os.path.join(
        here, "..", "kernels", f"bench_matmul_fp16_i32_16{suffix}.ptx")).kernel("matmul_kernel")
    M = N = K = 4096
    dev = torch.device("cuda", torch.cuda.current_device())
    a = torch.randn((M, K), device=dev, dtype=torch.float16)
    b = torch.randn((K, N), device=dev, dtype=torch.float16)
    c = torch.empty((M, N), device=dev, dtype=torch.float16)
    grid = ((M // bm) * (N // bn),)
    for _ in range(2):
        kernel.launch(grid, a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                      b.stride(1), c.stride(0), c.stride(1))
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
