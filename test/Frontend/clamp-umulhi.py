import triton
import triton.language as tl
@triton.jit
def k(X, Y, B: tl.constexpr):
    o = tl.arange(0, B)
    x = tl.load(X + o)
    y = tl.load(Y + o)
    tl.store(X + o, tl.clamp(x, -1.0, 1.0))
    tl.store(Y + o, tl.umulhi(y.to(tl.int32), 12345).to(tl.float32))
