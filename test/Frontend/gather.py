import triton
import triton.language as tl


@triton.jit
def k_gather(src_ptr, idx_ptr, out_ptr):
    # Along axis 1 (int32 index of another width), along axis 0 (the
    # method form, a negative axis), an int8 index widened to int32.
    r = tl.arange(0, 32)
    c = tl.arange(0, 16)
    x = tl.load(src_ptr + r[:, None] * 16 + c[None, :])
    c2 = tl.arange(0, 64)
    i = tl.load(idx_ptr + r[:, None] * 64 + c2[None, :])
    tl.store(out_ptr + r[:, None] * 64 + c2[None, :], tl.gather(x, i, 1))
    r8 = tl.arange(0, 8)
    j = tl.load(idx_ptr + r8[:, None] * 16 + c[None, :]).to(tl.int64)
    tl.store(out_ptr + r8[:, None] * 16 + c[None, :], x.gather(j, axis=-2))
    k = (c[None, :] + r[:, None]).to(tl.int8)
    tl.store(out_ptr + r[:, None] * 16 + c[None, :], tl.gather(x, k, axis=1))


@triton.jit
def k_gather_unsigned(src_ptr, idx_ptr, out_ptr):
    # A uint8 index zero-extends (200 stays 200); the result keeps the
    # source's dtype (uint32).
    c = tl.arange(0, 256)
    x = tl.load(src_ptr + c)
    i = tl.load(idx_ptr + c)
    tl.store(out_ptr + c, tl.gather(x, i, 0))


@triton.jit
def k_gather_ptrs(src_ptr, idx_ptr, out_ptr):
    # A tile of pointers gathers like any other.
    c = tl.arange(0, 128)
    p = src_ptr + c * 2
    i = tl.load(idx_ptr + c)
    q = tl.gather(p, i, 0)
    tl.store(out_ptr + c, tl.load(q))
