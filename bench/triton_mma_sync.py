"""Triton's own mma.sync path on Hopper: the like-for-like peer of tilec's GEMM.

  python3 bench/triton_mma_sync.py v2    # Triton with DISABLE_MMA_V3=1: mma.sync
  python3 bench/triton_mma_sync.py v3    # Triton's default on sm_90: wgmma

Runs test/GPU/kernels/py/matmul.py's matmul_kernel (or $TILEC_MATMUL_DIR's
matmul.py) through Triton on fp16 GEMMs at 4096^3 and 8192^3 for eight tile
configs, checks each result against an fp32 torch reference, and prints
TFLOP/s (do_bench medians of 3 rounds, warmup 25 ms, rep 100 ms), cuBLAS
(torch.mm) timed in the same rounds, the median per-round ratio, which
instruction Triton emitted (wgmma or mma.sync, read from its PTX), registers,
spills and shared bytes. DISABLE_MMA_V3 is Triton's switch (AccelerateMatmul)
that keeps sm_90 on the Ampere mma.sync lowering; a fresh TRITON_CACHE_DIR
keeps compiled kernels of the other mode out. Results: docs/performance.md."""
import os, sys, statistics, tempfile
mode = sys.argv[1]
if mode == "v2":
    os.environ["DISABLE_MMA_V3"] = "1"
os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp()
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("TILEC_MATMUL_DIR", os.path.join(here, "..", "test", "GPU", "kernels", "py")))
import torch, triton
from triton.testing import do_bench
import matmul as mm
dev = torch.device("cuda")
cfgs = [(128,128,64,3,4),(128,256,64,3,8),(128,128,32,4,4),(256,128,64,3,8),(128,256,32,4,8),(128,128,64,4,4),(64,128,64,4,4),(128,64,64,4,4)]
for M in (4096, 8192):
    a = torch.randn((M, M), device=dev, dtype=torch.float16)
    b = torch.randn((M, M), device=dev, dtype=torch.float16)
    c = torch.empty((M, M), device=dev, dtype=torch.float16)
    ref = torch.mm(a.float(), b.float())
    flops = 2.0 * M ** 3
    ints = (M, M, M, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    for bm, bn, bk, st, w in cfgs:
        grid = (triton.cdiv(M, bm) * triton.cdiv(M, bn),)
        fn = lambda: mm.matmul_kernel[grid](a, b, c, *ints, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, NUM_STAGES=st, ACC_INT32=False, UPCAST_FP16=False, INPUT_PRECISION="tf32", num_stages=st, num_warps=w)
        try:
            k = fn(); torch.cuda.synchronize()
        except Exception as e:
            print(f"{mode} {M} {bm}x{bn}x{bk}s{st}w{w} FAIL {type(e).__name__}"); continue
        ptx = k.asm["ptx"]
        kind = "wgmma" if "wgmma" in ptx else ("mma.sync" if "mma.sync" in ptx else "?")
        err = ((c.float() - ref).norm() / ref.norm()).item()
        if not err < 1e-2:
            print(f"WRONG {mode} {M} {bm}x{bn}x{bk}s{st}w{w}: relative error {err:.3g}")
        rs = []
        for r in range(3):
            tc = do_bench(lambda: torch.mm(a, b, out=c), warmup=25, rep=100)
            tt = do_bench(fn, warmup=25, rep=100)
            rs.append((tc, tt))
        tt = statistics.median(x[1] for x in rs); tc = statistics.median(x[0] for x in rs)
        regs = getattr(k, "n_regs", "?"); spills = getattr(k, "n_spills", "?")
        print(f"{mode} M={M} {bm}x{bn}x{bk}s{st}w{w} {kind} {flops/tt/1e9:.1f} TFLOP/s  cuBLAS {flops/tc/1e9:.1f}  ratio {statistics.median(x[0]/x[1] for x in rs):.3f} err {err:.1e} regs {regs} spills {spills} smem {k.metadata.shared}", flush=True)
