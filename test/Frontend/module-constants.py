import triton
import triton.language as tl

SCALE = 4
HALF: tl.constexpr = SCALE // 2
NEG_FLOOR = -7 // 2
NEG_MOD = -7 % 3
RATE = 0.5
ENABLED = True
BLOCK = tl.constexpr(64)


@triton.jit
def k_consts(out_ptr):
    # 4 * 2 + (-4) + 2: Python's floor division and modulo
    tl.store(out_ptr + tl.arange(0, 16), SCALE * HALF + NEG_FLOOR + NEG_MOD)


@triton.jit
def k_float_bool(out_ptr):
    if ENABLED:
        tl.store(out_ptr + tl.arange(0, BLOCK), RATE)
