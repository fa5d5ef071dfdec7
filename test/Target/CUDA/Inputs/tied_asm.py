import triton
import triton.language as tl


@triton.jit
def tied_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # An f32 input tied ("0") to an i32 output under "r": its bits.
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    y = tl.inline_asm_elementwise("add.u32 $0, $0, 1;", "=r,0", [x],
                                  dtype=tl.int32, is_pure=True, pack=1)
    tl.store(y_ptr + o, y, mask=m)


@triton.jit
def bool_asm_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # An int1 result under "=r": the register's low bit (as NVPTX truncates
    # it); a C++ bool is not a register.
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(x_ptr + o, mask=m, other=0)
    b = tl.inline_asm_elementwise("and.b32 $0, $1, 6;", "=r,r", [x],
                                  dtype=tl.int1, is_pure=True, pack=1)
    tl.store(y_ptr + o, (b & m).to(tl.int32), mask=m)
