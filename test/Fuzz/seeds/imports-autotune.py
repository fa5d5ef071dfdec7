import triton
import triton.language as tl

import tuning
from tuning import elementwise_configs


@triton.autotune(configs=elementwise_configs(), key=["n"])
@triton.jit
def k_autotuned(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask) * tuning.GAIN,
             mask=mask)
#@file tuning.py
"""Autotune configs built by host functions of a library module."""
import triton

from consts import BLOCK_DEFAULT

WARPS = [2, 4, 8]
GAIN = 3


def elementwise_configs(block_name="BLOCK"):
    return [triton.Config({block_name: BLOCK_DEFAULT * m}, num_warps=w)
            for m, w in zip([1, 2, 4], WARPS)]
#@file consts.py
BLOCK_DEFAULT = 16
