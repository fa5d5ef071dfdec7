"""Tensor descriptors (tl.make_tensor_descriptor, desc.load / desc.store):
block accesses whose boxes may lie partly or wholly outside the tensor.
Valid Triton 3.6: the benchmarks and tests can run the same file through
Triton."""
import triton
import triton.language as tl


@triton.jit
def desc_copy_kernel(src_ptr, dst_ptr, M, N, stride_src, stride_dst,
                     DM, DN, off_m, off_n,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     NAN_PADDING: tl.constexpr):
    """dst[i, j] = 2 * src[i + off_m, j + off_n] + 1 for the [DM, DN] dst,
    one block per program on a 2-D grid; src elements outside [M, N] read as
    0 (or NaN with NAN_PADDING), dst elements outside [DM, DN] are not
    written. off_m and off_n may be negative."""
    src = tl.make_tensor_descriptor(src_ptr, shape=[M, N], strides=[stride_src, 1],
                                    block_shape=[BLOCK_M, BLOCK_N],
                                    padding_option="nan" if NAN_PADDING else "zero")
    dst = tl.make_tensor_descriptor(dst_ptr, shape=[DM, DN], strides=[stride_dst, 1],
                                    block_shape=[BLOCK_M, BLOCK_N])
    m = tl.program_id(0) * BLOCK_M
    n = tl.program_id(1) * BLOCK_N
    x = src.load([m + off_m, n + off_n])
    dst.store([m, n], x * 2 + 1)


@triton.jit
def desc_copy3d_kernel(src_ptr, dst_ptr, B, M, N, s0, s1, d0, d1,
                       BLOCK_B: tl.constexpr, BLOCK_M: tl.constexpr,
                       BLOCK_N: tl.constexpr):
    """dst[b, i, j] = src[b, i, j] + b for a [B, M, N] tensor, one
    [BLOCK_B, BLOCK_M, BLOCK_N] box per program (grid: B, M, N blocks)."""
    src = tl.make_tensor_descriptor(src_ptr, shape=[B, M, N], strides=[s0, s1, 1],
                                    block_shape=[BLOCK_B, BLOCK_M, BLOCK_N])
    dst = tl.make_tensor_descriptor(dst_ptr, shape=[B, M, N], strides=[d0, d1, 1],
                                    block_shape=[BLOCK_B, BLOCK_M, BLOCK_N])
    b = tl.program_id(0) * BLOCK_B
    m = tl.program_id(1) * BLOCK_M
    n = tl.program_id(2) * BLOCK_N
    x = src.load([b, m, n])
    batch = b + tl.arange(0, BLOCK_B)
    dst.store([b, m, n], x + batch[:, None, None].to(tl.float32))
