import triton
import triton.language as tl


@triton.jit
def k_copy(x_ptr, y_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    x = tl.make_block_ptr(x_ptr, (M, N), (stride_m, 1), (pid * BM, 0),
                          (BM, BN), (1, 0))
    y = tl.make_block_ptr(base=y_ptr, shape=(M, N), strides=(stride_m, 1),
                          offsets=(pid * BM, 0), block_shape=(BM, BN),
                          order=(1, 0))
    tl.store(y, tl.load(x, boundary_check=(1, 0), padding_option="nan"),
             boundary_check=(0, 1))


@triton.jit
def k_unchecked(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    # No boundary_check: no mask, as Triton.
    p = tl.make_block_ptr(x_ptr, (N,), (1,), (tl.program_id(0) * BLOCK,),
                          (BLOCK,), (0,))
    q = tl.make_block_ptr(y_ptr, (N,), (1,), (tl.program_id(0) * BLOCK,),
                          (BLOCK,), (0,))
    tl.store(q, tl.load(p) + 1)


@triton.jit
def k_loop(x_ptr, out_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    p = tl.make_block_ptr(x_ptr, (M, N), (stride_m, 1),
                          (tl.program_id(0) * BM, 0), (BM, BN), (1, 0))
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, N, BN):
        acc += tl.load(p, boundary_check=(1,))
        p = tl.advance(p, (0, BN))
    o = tl.make_block_ptr(out_ptr, (M, BN), (BN, 1), (tl.program_id(0) * BM, 0),
                          (BM, BN), (1, 0))
    tl.store(o, acc)


@triton.jit
def k_while(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(x_ptr, (N,), (1,), (0,), (BLOCK,), (0,))
    acc = tl.zeros((BLOCK,), tl.float32)
    k = 0
    while k < N:
        acc += tl.load(p, boundary_check=(0,))
        p = tl.advance(p, (BLOCK,))
        k += BLOCK
    tl.store(out_ptr + tl.arange(0, BLOCK), acc)


@triton.jit
def k_if(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(x_ptr, (N,), (1,), (0,), (BLOCK,), (0,))
    if tl.program_id(0) % 2 == 1:
        p = tl.advance(p, (BLOCK,))
    tl.store(out_ptr + tl.arange(0, BLOCK), tl.load(p, boundary_check=(0,)))


@triton.jit
def load_block(p):
    return tl.load(p, boundary_check=(0,))


@triton.jit
def k_helper(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(x_ptr, (N,), (1,), (tl.program_id(0) * BLOCK,),
                          (BLOCK,), (0,))
    q = tl.make_block_ptr(out_ptr, (N,), (1,), (tl.program_id(0) * BLOCK,),
                          (BLOCK,), (0,))
    tl.store(q, load_block(p) * 2, boundary_check=(0,))


@triton.jit
def k_tuple_loop(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    # Not a block pointer: a tuple of run-time values carried by a loop
    # (the same mechanism).
    offs = tl.arange(0, BLOCK)
    t = (tl.zeros((BLOCK,), tl.float32), 0)
    for k in range(0, N, BLOCK):
        x = tl.load(x_ptr + k + offs, mask=k + offs < N, other=0.0)
        t = (t[0] + x, t[1] + 1)
    tl.store(out_ptr + offs, t[0] / t[1])


@triton.jit
def k_scalar_store(out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # A scalar value broadcast to the block.
    o = tl.make_block_ptr(out_ptr, (M, N), (N, 1), (0, 0), (BM, BN), (1, 0))
    tl.store(o, 7, boundary_check=(0, 1))
