import triton
import triton.language as tl
from triton.language.extra import cuda as tlc


@triton.jit
def k_misc(p, n):
    a = tl.extra.cuda.num_threads()
    w = tlc.num_warps()
    z = tl.zeros([], tl.float32)
    s = n[None]
    tl.store(p + tl.arange(0, 1), s + a + w)
    tl.store(p, z)


@triton.jit(do_not_specialize=["n"], repr=lambda x: "k", launch_metadata=None)
def k_jitkw(p, n):
    tl.store(p, n)


@triton.heuristics({"BLOCK": lambda args: 64})
@triton.jit
def k_heur(p, n, BLOCK: tl.constexpr):
    tl.store(p + tl.arange(0, BLOCK), n)
