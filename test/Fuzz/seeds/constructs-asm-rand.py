import triton
import triton.language as tl

from ops import fast_tanh, noise


@triton.jit
def k_asm_rand(x_ptr, y_ptr, n_seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, fast_tanh(x) + noise(n_seed, offs))
#@file ops.py
import triton
import triton.language as tl


@triton.jit
def fast_tanh(x):
    return tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=r,r", [x],
                                     dtype=tl.float32, is_pure=True, pack=1)


@triton.jit
def noise(seed, offs):
    a, b, c, d = tl.randint4x(seed, offs)
    return tl.rand(seed, offs) + tl.randn(seed, offs) + (a ^ b).to(tl.float32)
