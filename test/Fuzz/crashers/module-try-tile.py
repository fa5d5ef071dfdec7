import triton
import triton.language as tl

# A module-level try binding a tile, not a compile-time value: evaluated
# before the kernel exists (which binding would Python make?), its
# tl.full built an op with no block, never freed (a leak the fuzzer found).
try:
    X = tl.full((4,), 28, tl.uint8)
except ImportError:
    X = 1


@triton.jit
def k(p):
    tl.store(p, X)
