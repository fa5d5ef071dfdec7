"""Device-side tensor descriptors whose sizes and strides are expressions
of the kernel's arguments (launch-maps.test). Valid Triton 3.6."""
import triton
import triton.language as tl


@triton.jit
def rows_kernel(src_ptr, dst_ptr, B, M, N, stride,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """dst = src + 1 over [B * M, N] (row stride `stride`), one block of
    rows per program."""
    src = tl.make_tensor_descriptor(src_ptr, shape=[B * M, N], strides=[stride, 1],
                                    block_shape=[BLOCK_M, BLOCK_N])
    dst = tl.make_tensor_descriptor(dst_ptr, shape=[B * M, N], strides=[stride, 1],
                                    block_shape=[BLOCK_M, BLOCK_N])
    m = tl.program_id(0) * BLOCK_M
    dst.store([m, 0], src.load([m, 0]) + 1)


@triton.jit
def half_rows_kernel(src_ptr, dst_ptr, B, M, N, stride,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """The same over [M // 2, N]: a division the launch does not evaluate."""
    src = tl.make_tensor_descriptor(src_ptr, shape=[M // 2, N], strides=[stride, 1],
                                    block_shape=[BLOCK_M, BLOCK_N])
    dst = tl.make_tensor_descriptor(dst_ptr, shape=[M // 2, N], strides=[stride, 1],
                                    block_shape=[BLOCK_M, BLOCK_N])
    m = tl.program_id(0) * BLOCK_M
    dst.store([m, 0], src.load([m, 0]) + 1)
