import triton
import triton.language as tl


@triton.jit
async def k_async(x):
    await tl.store(x, 1)
