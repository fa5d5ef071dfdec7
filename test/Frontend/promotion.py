import triton
import triton.language as tl


@triton.jit
def k_i32_fp16(out_ptr, a_ptr, b_ptr):
    offs = tl.arange(0, 16)
    tl.store(out_ptr + offs, tl.load(a_ptr + offs) + tl.load(b_ptr + offs))


@triton.jit
def k_fp16_bf16(out_ptr, a_ptr, b_ptr):
    offs = tl.arange(0, 16)
    tl.store(out_ptr + offs, tl.load(a_ptr + offs) + tl.load(b_ptr + offs))


@triton.jit
def k_literals(out_ptr, h_ptr, i_ptr):
    offs = tl.arange(0, 16)
    h = tl.load(h_ptr + offs)
    i = tl.load(i_ptr + offs)
    tl.store(out_ptr + offs, h * 3)
    tl.store(out_ptr + offs, i * 2.5)


@triton.jit
def k_int_div(out_ptr, a_ptr, b_ptr):
    offs = tl.arange(0, 16)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(out_ptr + offs, a / b)
    tl.store(out_ptr + offs, a // b)
    tl.store(out_ptr + offs, a % b)


@triton.jit
def k_fp16_mod(out_ptr, h_ptr):
    offs = tl.arange(0, 16)
    h = tl.load(h_ptr + offs)
    tl.store(out_ptr + offs, h % 2.0)


@triton.jit
def k_int_widths(out_ptr, a_ptr, b_ptr):
    offs = tl.arange(0, 16)
    tl.store(out_ptr + offs, tl.load(a_ptr + offs) + tl.load(b_ptr + offs))
