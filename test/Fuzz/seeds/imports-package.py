import triton
import triton.language as tl

import pkg
import pkg.sub.ops as m
from pkg import twice
from pkg.sub import ops


@triton.jit
def k_package(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = twice(x) + m.helper(x) + m.CONST + pkg.BLOCK_DEFAULT
    y = y + ops.helper(x) + pkg.sub.ops.CONST + pkg.core.scaled(x)
    tl.store(y_ptr + offs, y, mask=mask)
#@file pkg/__init__.py
"""Re-exports of a submodule, as a package's __init__ writes them."""
import torch  # host only

from .core import twice, BLOCK_DEFAULT
from . import sub

__all__ = ["twice", "BLOCK_DEFAULT", "sub"]
#@file pkg/core.py
import triton
import triton.language as tl

from .sub.ops import add_one
from .utils import SCALE

BLOCK_DEFAULT = 128


@triton.jit
def twice(x):
    return add_one(x + x) - 1


@triton.jit
def scaled(x):
    return x * SCALE
#@file pkg/utils.py
SCALE = 3
#@file pkg/sub/__init__.py
#@file pkg/sub/ops.py
import triton
import triton.language as tl

from ..utils import SCALE
from ...nowhere import nothing  # beyond the top package: an error if used

CONST = SCALE * 2


@triton.jit
def add_one(x):
    return x + 1


@triton.jit
def helper(x):
    return add_one(x) * CONST
