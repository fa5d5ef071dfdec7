"""Launches the GEMM benchmark kernel (matmul_kernel of matmul.py, fp16) once
through tilec per tile config given, after a warm-up launch, for Nsight
Compute; from a gpu-bundle folder:

    ncu --kernel-name matmul_kernel --launch-skip 1 --launch-count 1 \\
        --section SpeedOfLight --section Occupancy --section WarpStateStats \\
        --section LaunchStats --section MemoryWorkloadAnalysis \\
        python3 bench/profile_gemm.py [--family F] [--size S] [SUFFIX]

--family selects the bundle's kernel family, bench_<F>_fp16_i32_16<SUFFIX>.ptx:
matmul (mma.sync, the default), wgmma (cp.async) or wgmma_tmaptr (the
operand loads on TMA). --size sets M = N = K (default 4096). SUFFIX selects a
sweep config (default: the tutorial config 128x256x64, 3 stages, 8 warps;
`_128x128x64s3w4` etc.; the tile sizes are read from it).
docs/performance.md records what it showed.
"""
import argparse
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import tilec_rt  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("suffix", nargs="?", default="")
    p.add_argument("--family", default="matmul",
                   help="matmul, wgmma, wgmma_tmaptr, wgmma_tmaptr_cluster2 or any "
                        "bench_<F>_fp16_i32_16.ptx in the bundle")
    p.add_argument("--size", type=int, default=4096, help="M = N = K")
    args = p.parse_args()
    bm, bn = (128, 256)
    if args.suffix:
        tiles = args.suffix.lstrip("_").split("s")[0].split("x")
        bm, bn = int(tiles[0]), int(tiles[1])
    ctx = tilec_rt.Context(torch.cuda.current_device())
    kernel = ctx.load_file(os.path.join(
        here, "..", "kernels", f"bench_{args.family}_fp16_i32_16{args.suffix}.ptx")
    ).kernel("matmul_kernel")
    M = N = K = args.size
    dev = torch.device("cuda", torch.cuda.current_device())
    a = torch.randn((M, K), device=dev, dtype=torch.float16)
    b = torch.randn((K, N), device=dev, dtype=torch.float16)
    c = torch.empty((M, N), device=dev, dtype=torch.float16)
    grid = (((M + bm - 1) // bm) * ((N + bn - 1) // bn),)
    for _ in range(2):
        kernel.launch(grid, a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                      b.stride(1), c.stride(0), c.stride(1))
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
