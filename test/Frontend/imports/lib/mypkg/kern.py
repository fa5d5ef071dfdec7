"""A kernel file inside its package: its relative imports resolve once the
package root is on the import path (-I lib)."""
import triton
import triton.language as tl

from .ops import twice
from .sub import math


@triton.jit
def k_in_package(p):
    tl.store(p, twice(math.add_one(1.0)))
