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
@triton.jit
def k_cast_value(x_ptr, n, B: tl.constexpr, DT: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, B))
    m = tl.float32(-float("inf"))
    y = x.cast(tl.float16).cast(tl.float32)
    s = n.cast(tl.float32)
    tl.static_print(DT.value, tl.constexpr(B).value)
    tl.store(x_ptr + tl.arange(0, B), tl.maximum(y, m) + s)

@triton.autotune(configs=[triton.Config({'B': 32})], key=['n'], **{'cache_results': True})
@triton.jit
def k_autotune_kwargs(x_ptr, n, B: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, B), 1.0)
