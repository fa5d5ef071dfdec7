"""Vector add in the Triton language, written the way Triton's first tutorial
writes it, host code included. tilec compiles the kernel without Python:

    tilec examples/vector_add.py --kernel add_kernel \
        --signature '*fp32:16,*fp32:16,*fp32:16,i32' -D BLOCK_SIZE=1024 \
        --num-warps 4 -o add.ptx
"""
import torch

import triton
import triton.language as tl

DEVICE = "cuda"


@triton.jit
def add_kernel(x_ptr,  # pointer to the first input
               y_ptr,  # pointer to the second input
               output_ptr,  # pointer to the output
               n_elements,  # number of elements
               BLOCK_SIZE: tl.constexpr,  # elements each program handles
               ):
    # Each program handles one block of BLOCK_SIZE elements.
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    # Guard the ragged tail.
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor):
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output


if __name__ == "__main__":
    torch.manual_seed(0)
    size = 98432
    x = torch.rand(size, device=DEVICE)
    y = torch.rand(size, device=DEVICE)
    print(f"max difference: {torch.max(torch.abs(add(x, y) - (x + y)))}")
