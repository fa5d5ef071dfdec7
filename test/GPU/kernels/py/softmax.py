"""Row-wise softmax kernels in the style of Triton's tutorial 02 (fused
softmax), for tilec's GPU tests and benchmarks. Host code included, as a
real kernel file has it; tilec reads only the @triton.jit functions."""
import torch

import triton
import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr):
    # One row per program; the whole row fits in one block.
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets
    mask = col_offsets < n_cols
    row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    tl.store(output_row_start_ptr + col_offsets, softmax_output, mask=mask)


@triton.jit
def softmax_persistent_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride,
                              n_rows, n_cols, BLOCK_SIZE: tl.constexpr,
                              num_stages: tl.constexpr):
    # A fixed grid; each program strides over rows.
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        mask = col_offsets < n_cols
        row = tl.load(row_start_ptr + col_offsets, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        out_ptr = output_ptr + row_idx * output_row_stride
        tl.store(out_ptr + col_offsets, numerator / denominator, mask=mask)


@triton.jit
def softmax_looped_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride,
                          n_rows, n_cols, BLOCK_SIZE: tl.constexpr):
    # Rows wider than a block: a running max and sum over column blocks,
    # then a second pass that writes.
    row_idx = tl.program_id(0)
    in_row = input_ptr + row_idx * input_row_stride
    out_row = output_ptr + row_idx * output_row_stride
    m = -float('inf')
    s = 0.0
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(in_row + cols, mask=cols < n_cols, other=-float('inf'))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(in_row + cols, mask=cols < n_cols, other=-float('inf'))
        tl.store(out_row + cols, tl.exp(x - m) / s, mask=cols < n_cols)


def softmax(x):
    n_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    y = torch.empty_like(x)
    softmax_kernel[(n_rows, )](y, x, x.stride(0), y.stride(0), n_rows, n_cols, BLOCK_SIZE=BLOCK_SIZE)
    return y


if __name__ == "__main__":
    x = torch.randn(1823, 781, device="cuda")
    print(f"max error: {(softmax(x) - torch.softmax(x, dim=1)).abs().max().item()}")
