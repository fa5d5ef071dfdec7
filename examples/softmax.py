"""Row-wise softmax in the Triton language, as Triton's second tutorial
writes its kernel (one row per program, the row in one block). The host
example (examples/host_app) JIT-compiles it from C++:

    tilec examples/softmax.py --kernel softmax_kernel \
        --signature '*fp32:16,*fp32:16,i32,i32,i32,i32' -D BLOCK_SIZE=1024 \
        --num-warps 4 -o softmax.ptx
"""
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride,
                   n_rows, n_cols, BLOCK_SIZE: tl.constexpr):
    # One row per program; BLOCK_SIZE is a power of two >= n_cols.
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    # Masked-off lanes read -inf, so they add exp(-inf) = 0 to the sum.
    row = tl.load(row_start_ptr + col_offsets, mask=mask, other=-float('inf'))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    tl.store(output_row_start_ptr + col_offsets, softmax_output, mask=mask)
