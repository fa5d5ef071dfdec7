import triton
import triton.language as tl


@triton.jit
def k_math(X, Y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    a = x / y                # div.full.f32 (approximate, as Triton)
    b = tl.div_rn(x, y)      # div.rn.f32 (IEEE)
    c = tl.sqrt(x)           # sqrt.approx.f32
    d = tl.sqrt_rn(y)        # sqrt.rn.f32
    e = tl.exp(x)            # ex2.approx.f32 of x * log2(e)
    f = tl.math.exp2(y)      # ex2.approx.ftz.f32
    tl.store(X + offs, a + b + c + d + e + f)
