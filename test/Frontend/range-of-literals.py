import triton
import triton.language as tl


@triton.jit
def k_i8(out_ptr, c_ptr):
    offs = tl.arange(0, 16)
    tl.store(out_ptr + offs, tl.load(c_ptr + offs) + 300)


@triton.jit
def k_i32(out_ptr):
    offs = tl.arange(0, 16)
    tl.store(out_ptr + offs, offs + 2**40)
