"""Launches layer_norm_fwd_kernel (fp16, 8192x1024, 4 warps by default) once through Triton and
once through tilec, after a warm-up launch of each, for Nsight Compute; from a gpu-bundle folder:

    ncu --kernel-name regex:layer_norm --launch-skip 2 --launch-count 2 \\
        --section SpeedOfLight --section Occupancy --section WarpStateStats \\
        --section LaunchStats python3 bench/profile_layer_norm.py

The first profiled launch is Triton's, the second tilec's (docs/performance.md). Other shapes:
`--n 16384 --block 16384 --warps 8 --ptx DIR/layer_norm_8192x16384_spec.ptx` (a kernel of
bench_rowwise_shapes.py --compile).
"""
import argparse
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import tilec_rt  # noqa: E402
from bench_rowwise import load  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=1024)
    p.add_argument("--block", type=int, default=1024)
    p.add_argument("--warps", type=int, default=4)
    p.add_argument("--ptx", default=os.path.join(here, "..", "kernels", "bench_layer_norm_1024.ptx"))
    args = p.parse_args()
    ctx = tilec_rt.Context(torch.cuda.current_device())
    ln = load(os.path.join(here, "..", "examples", "layer_norm.py"), "tilec_profile_ln")
    kernel = ctx.load_file(args.ptx).kernel("layer_norm_fwd_kernel")
    M, N, eps = 8192, args.n, 1e-5
    dev = torch.device("cuda", torch.cuda.current_device())
    x = torch.randn(M, N, device=dev, dtype=torch.float16)
    w = torch.rand(N, device=dev, dtype=torch.float16)
    b = torch.rand(N, device=dev, dtype=torch.float16)
    y = torch.empty_like(x)
    mean = torch.empty(M, device=dev)
    rstd = torch.empty(M, device=dev)
    for _ in range(2):
        ln.layer_norm_fwd_kernel[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, eps,
                                       BLOCK_SIZE=args.block, num_warps=args.warps)
        kernel.launch((M,), x, y, w, b, mean, rstd, x.stride(0), N, eps)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
