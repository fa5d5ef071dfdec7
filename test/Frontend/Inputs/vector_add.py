"""
Vector addition
===============

A first Triton kernel: each program adds one block of two vectors.
Written for the tilec front-end tests (host code included on purpose).
"""
import torch

import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()
DEFAULT_BLOCK: tl.constexpr = 1024
NUM_ELEMENTS = 98_432


@triton.jit
def add_kernel(x_ptr,  # pointer to the first input
               y_ptr,  # pointer to the second input
               output_ptr,  # pointer to the output
               n_elements,  # number of elements
               BLOCK_SIZE: tl.constexpr,  # elements per program
               ):
    """Adds x and y block by block; the last block is masked."""
    pid = tl.program_id(axis=0)  # one program per block
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask, other=0.0)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


@triton.jit
def scaled_add_kernel(x_ptr, y_ptr, out_ptr, n_elements, alpha, BLOCK_SIZE: tl.constexpr = 512):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask); y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, alpha * x + y, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor):
    output = torch.empty_like(x)
    assert x.device == DEVICE and y.device == DEVICE and output.device == DEVICE
    n_elements = output.numel()
    def grid(meta):
        return (triton.cdiv(n_elements, meta["BLOCK_SIZE"]), )

    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=DEFAULT_BLOCK)
    return output


class VectorAdd(torch.nn.Module):
    """A module wrapper, to exercise class bodies in host code."""

    def __init__(self, block_size=DEFAULT_BLOCK):
        super().__init__()
        self.block_size = block_size

    def forward(self, x, y, *, alpha: float = 1.0):
        if alpha == 1.0:
            return add(x, y)
        out = torch.empty_like(x)
        n = out.numel()
        scaled_add_kernel[(triton.cdiv(n, self.block_size), )](x, y, out, n, alpha, BLOCK_SIZE=self.block_size)
        return out


@triton.testing.perf_report([
    triton.testing.Benchmark(
        x_names=["n"],
        x_vals=[1 << k for k in range(10, 27, 2)],
        x_log=True,
        line_arg="who",
        line_vals=["kernel", "eager"],
        line_names=["add_kernel", "x + y"],
        styles=[("tab:blue", "-"), ("tab:orange", "--")],
        ylabel="GB/s",
        plot_name=f"vector-add-{torch.float32}".replace("torch.", ""),
        args=dict(dtype=torch.float32),
    )
])
def bench_add(n, who, dtype):
    a, b = (torch.randn(n, device=DEVICE, dtype=dtype) for _ in range(2))
    run = {"kernel": lambda: add(a, b), "eager": lambda: a + b}[who]
    med, lo, hi = triton.testing.do_bench(run, quantiles=[0.5, 0.1, 0.9])
    to_gbps = lambda t_ms: (3 * a.numel() * a.element_size()) / (t_ms * 1e6)
    return tuple(map(to_gbps, (med, hi, lo)))


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.rand(NUM_ELEMENTS, device=DEVICE)
    y = torch.rand(NUM_ELEMENTS, device=DEVICE)
    output_torch = x + y
    output_triton = add(x, y)
    diff = (output_torch - output_triton).abs().max()
    print(f'max |eager - kernel| = {diff.item():.2e} over {NUM_ELEMENTS:,} elements')
    try:
        bench_add.run(print_data=True, show_plots=False)
    except Exception as e:  # no GPU in CI
        print(f"benchmark skipped: {e!r}")
