import triton
import triton.language as tl

@triton.jit
def kc(x_ptr, y_ptr, n, BLOCK: tl.constexpr, CM: tl.constexpr, EV: tl.constexpr, SC: tl.constexpr, VOL: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, cache_modifier=CM, eviction_policy=EV, volatile=VOL)
    tl.store(y_ptr + offs, x, mask=offs < n, cache_modifier=SC)
    s = tl.load(x_ptr, cache_modifier=CM)
    tl.store(y_ptr, s, eviction_policy="evict_first")
