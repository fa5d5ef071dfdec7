"""fp8 GEMM loops that tile-pipeline's deferred accumulation must leave
synchronous (test/Frontend/deferred-accumulation.test): two dots into one
shared A block, both in the precise `+=` form (a dual GEMM, e.g. gate and up
projections), or one an accumulator chain (`tl.dot(a, b, acc)`) beside a `+=`
one. Host tensor descriptors, so the loops copy with TMA."""
import triton
import triton.language as tl


@triton.jit
def dual_kernel(a_desc, b_desc, b2_desc, c_ptr, K, stride_cm,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                TWO: tl.constexpr):
    pm = tl.program_id(0) * BLOCK_M
    pn = tl.program_id(1) * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    acc2 = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for kk in tl.range(0, tl.cdiv(K, BLOCK_K), num_stages=4):
        a = a_desc.load([pm, kk * BLOCK_K])
        if TWO:
            acc2 += tl.dot(a, b2_desc.load([pn, kk * BLOCK_K]).T)
        else:
            acc2 = tl.dot(a, b2_desc.load([pn, kk * BLOCK_K]).T, acc2)
        acc += tl.dot(a, b_desc.load([pn, kk * BLOCK_K]).T)
    acc += acc2
    offs_m = pm + tl.arange(0, BLOCK_M)
    offs_n = pn + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(tl.float16))
