# A load after a store to the same address must read memory again
# (lit: test/Target/PTX/load-after-store.test).
import triton
import triton.language as tl


@triton.jit
def reload_kernel(p, o, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(p + offs, mask=m)
    tl.store(p + offs, x + 1.0, mask=m)
    y = tl.load(p + offs, mask=m)
    tl.store(o + offs, y, mask=m)
