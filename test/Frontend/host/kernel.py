import sys
import triton
import triton.language as tl

from devpkg import IS_AMD, IS_HOPPER, NUM_WARPS, device_platform
from devpkg.utils.device import FAST, lookup

WARPS = [1, 2] if IS_AMD else [4, NUM_WARPS]


def half(x):
    return x // 2


@triton.autotune(configs=[triton.Config({}, num_warps=w) for w in WARPS], key=["n"])
@triton.jit
def k_host(p, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(p + offs, mask=offs < n)
    # Module constants the host code computed, and a host function called
    # from the kernel on compile-time values.
    tl.static_assert(device_platform == "cuda")
    tl.static_assert(sys.platform == "linux")
    if IS_HOPPER:
        x = x * 2.0
    if FAST:
        x = x + 100.0
    x = x + half(BLOCK) + lookup((1, 2, 3), 2)
    tl.store(p + offs, x, mask=offs < n)
