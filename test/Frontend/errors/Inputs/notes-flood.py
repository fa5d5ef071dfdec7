import triton
import triton.language as tl


@triton.jit
def k(a_ptr, b_ptr, c_ptr, R: tl.constexpr):
    r16 = tl.arange(0, 16)
    a = tl.load(a_ptr + r16[:, None] * 16 + r16[None, :])
    c = tl.zeros((16, 16), dtype=tl.float32)
    for i in tl.static_range(R):
        c = tl.dot(a, a + i, c)
    r = tl.arange(0, 256)
    big = tl.load(b_ptr + r[:, None] * 256 + r[None, :])
    tl.store(c_ptr + r[:, None] * 256 + r[None, :], tl.trans(big))
    tl.store(c_ptr + r16[:, None] * 16 + r16[None, :], c)
