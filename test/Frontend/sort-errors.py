import triton
import triton.language as tl


@triton.jit
def k_dim(p):
    x = tl.load(p + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    y = tl.sort(x, 0)


@triton.jit
def k_pow2(p):
    x = tl.load(p + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    y = tl.sort(tl.reshape(x, (8, 32))[:, None, :].broadcast_to(8, 3, 32))


@triton.jit
def k_k(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.topk(x, 3)


@triton.jit
def k_desc(p, d):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.sort(x, descending=d)


@triton.jit
def k_scalar(p):
    y = tl.sort(tl.load(p))


@triton.jit
def k_ptr(p):
    y = tl.sort(p + tl.arange(0, 16))
