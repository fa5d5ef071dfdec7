import triton
import triton.language as tl

@triton.jit
def k(x_ptr, bias_ptr, out_ptr, n, SCALE: tl.constexpr, SHAPE: tl.constexpr, FLAG: tl.constexpr, NAME: tl.constexpr, DT: tl.constexpr):
    offs = tl.arange(0, SHAPE[0])
    x = tl.load(x_ptr + offs, mask=offs < n).to(DT)
    if bias_ptr is not None:
        x += tl.load(bias_ptr + offs, mask=offs < n)
    if FLAG:
        x = x * SCALE
    if NAME == "relu":
        x = tl.maximum(x, 0)
    tl.store(out_ptr + offs, x, mask=offs < n)
