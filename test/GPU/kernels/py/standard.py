# Triton 3.6's standard-library functions tilec composes in the front end
# (tl.flip, tl.softmax, tl.cat, tl.ravel): GPU case of SemanticsTests.cpp.
import triton
import triton.language as tl


@triton.jit
def standard_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    # out[0:B] flip(x); [B:2B] softmax(x); [2B:4B] cat(x, 2x);
    # [4B:5B] ravel(flip of x as 4 x B/4 along 0); [5B:6B] the same along 1.
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.flip(x))
    tl.store(out_ptr + BLOCK + offs, tl.softmax(x))
    y = tl.cat(x, x * 2, can_reorder=True)
    tl.store(out_ptr + 2 * BLOCK + tl.arange(0, 2 * BLOCK), y)
    m = tl.reshape(x, (4, BLOCK // 4))
    tl.store(out_ptr + 4 * BLOCK + offs, tl.ravel(tl.flip(m, 0)))
    tl.store(out_ptr + 5 * BLOCK + offs, m.flip(1).ravel())
