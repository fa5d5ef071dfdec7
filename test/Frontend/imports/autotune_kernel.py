import triton
import triton.language as tl

import mypkg.tuning as tuning
from mypkg.tuning import elementwise_configs


@triton.autotune(configs=elementwise_configs(), key=['n'])
@triton.jit
def k_helper(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)


@triton.autotune(configs=tuning.from_tables("k_tables"), key=['n'])
@triton.jit
def k_tables(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)
