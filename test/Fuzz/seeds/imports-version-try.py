import triton
import triton.language as tl

import compat as c
from compat import tanh, fast_exp, HAS_TORCH


@triton.jit
def k_compat(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tanh(x) + fast_exp(x) * c.SCALE + c.pick(x) + HAS_TORCH
    tl.store(y_ptr + offs, y)
#@file compat.py
"""Version-conditional definitions and fallbacks, as kernel libraries
write them."""
import triton
import triton.language as tl

if triton.__version__ >= "3.0.0":
    from triton.language.extra import libdevice
    SCALE = 2
elif triton.__version__ >= "2.1":
    SCALE = 3
else:
    SCALE = 4

try:
    from triton.language.extra.libdevice import tanh
except ImportError:
    from triton.language.math import tanh

try:
    from triton.language.extra.cuda.libdevice import exp as fast_exp
except ModuleNotFoundError:
    from triton.language.math import exp as fast_exp
else:
    pass

try:
    import torch
    HAS_TORCH = True
except ImportError:
    HAS_TORCH = False

if hasattr(tl, "make_tensor_descriptor"):
    @triton.jit
    def pick(x):
        return libdevice.sqrt(x) * SCALE
else:
    @triton.jit
    def pick(x):
        return x
