import triton
import triton.language as tl
try:
    from triton.language.extra.libdevice import tanh
except ModuleNotFoundError:
    from triton.language.extra.cuda.libdevice import tanh
else:
    pass
finally:
    x = 1

try:
    import torch
    HAS_TORCH = True
    def host():
        return 1
except ImportError:
    HAS_TORCH = False


@triton.jit
def k(x, y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y + offs, tanh(tl.load(x + offs)))
