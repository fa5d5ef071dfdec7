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


@triton.jit
def fill_kernel(dst_ptr, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """dst = 1 over [M, N], of dst's element type (unsigned ones too)."""
    dst = tl.make_tensor_descriptor(dst_ptr, shape=[M, N], strides=[stride, 1],
                                    block_shape=[BLOCK_M, BLOCK_N])
    m = tl.program_id(0) * BLOCK_M
    dst.store([m, 0], tl.zeros([BLOCK_M, BLOCK_N], dst_ptr.dtype.element_ty) + 1)


@triton.jit
def increment_kernel(dst_ptr, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """dst += 1 in place: the store writes what the kernel reads."""
    dst = tl.make_tensor_descriptor(dst_ptr, shape=[M, N], strides=[stride, 1],
                                    block_shape=[BLOCK_M, BLOCK_N])
    m = tl.program_id(0) * BLOCK_M
    dst.store([m, 0], dst.load([m, 0]) + 1)


@triton.jit
def doubled_stride_kernel(dst_ptr, M, N, stride, BLOCK_M: tl.constexpr,
                          BLOCK_N: tl.constexpr, R: tl.constexpr):
    """A stride of 2^R * stride built by R doublings: its expression tree
    has 2^R leaves."""
    s = stride
    for _ in tl.static_range(R):
        s = s + s
    dst = tl.make_tensor_descriptor(dst_ptr, shape=[M, N], strides=[s, 1],
                                    block_shape=[BLOCK_M, BLOCK_N])
    m = tl.program_id(0) * BLOCK_M
    dst.store([m, 0], tl.zeros([BLOCK_M, BLOCK_N], tl.float32) + 1)
