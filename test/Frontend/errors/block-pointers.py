import triton
import triton.language as tl


@triton.jit
def k_base(x_ptr, N):
    p = tl.make_block_ptr(x_ptr + tl.arange(0, 16), (N,), (1,), (0,), (16,), (0,))


@triton.jit
def k_block(x_ptr, N, B: tl.constexpr):
    p = tl.make_block_ptr(x_ptr, (N,), (1,), (0,), (B,), (0,))


@triton.jit
def k_order(x_ptr, N):
    p = tl.make_block_ptr(x_ptr, (N, N), (N, 1), (0, 0), (16, 16), (1, 1))


@triton.jit
def k_rank(x_ptr, N):
    p = tl.make_block_ptr(x_ptr, (N, N), (N, 1), (0,), (16, 16), (1, 0))


@triton.jit
def k_offset64(x_ptr, N):
    p = tl.make_block_ptr(x_ptr, (N,), (1,), (tl.program_id(0).to(tl.int64),),
                          (16,), (0,))


@triton.jit
def k_mask(x_ptr, N):
    p = tl.make_block_ptr(x_ptr, (N,), (1,), (0,), (16,), (0,))
    x = tl.load(p, mask=tl.arange(0, 16) < N)


@triton.jit
def k_nan_int(x_ptr, N):
    p = tl.make_block_ptr(x_ptr, (N,), (1,), (0,), (16,), (0,))
    x = tl.load(p, boundary_check=(0,), padding_option="nan")


@triton.jit
def k_check_dim(x_ptr, N):
    p = tl.make_block_ptr(x_ptr, (N,), (1,), (0,), (16,), (0,))
    x = tl.load(p, boundary_check=(1,))


@triton.jit
def k_check_dup(x_ptr, N):
    p = tl.make_block_ptr(x_ptr, (N, N), (N, 1), (0, 0), (16, 16), (1, 0))
    x = tl.load(p, boundary_check=(0, 0))


@triton.jit
def k_pointer_tile_check(x_ptr, N):
    x = tl.load(x_ptr + tl.arange(0, 16), boundary_check=(0,))


@triton.jit
def k_advance(x_ptr, N):
    p = tl.advance(x_ptr, (16,))


@triton.jit
def k_advance_rank(x_ptr, N):
    p = tl.make_block_ptr(x_ptr, (N, N), (N, 1), (0, 0), (16, 16), (1, 0))
    p = tl.advance(p, (16,))


@triton.jit
def k_loop_shape(x_ptr, N):
    p = tl.make_block_ptr(x_ptr, (N,), (1,), (0,), (16,), (0,))
    for k in range(0, N, 16):
        p = tl.make_block_ptr(x_ptr, (N,), (1,), (k,), (32,), (0,))


@triton.jit
def k_if_shape(x_ptr, N):
    p = tl.make_block_ptr(x_ptr, (N,), (1,), (0,), (16,), (0,))
    if N > 3:
        p = tl.make_block_ptr(x_ptr, (N,), (1,), (0,), (32,), (0,))


@triton.jit
def k_store_mask(x_ptr, N):
    p = tl.make_block_ptr(x_ptr, (N,), (1,), (0,), (16,), (0,))
    tl.store(p, 1.0, mask=tl.arange(0, 16) < N)


@triton.jit
def k_if_order(x_ptr, N):
    p = tl.make_block_ptr(x_ptr, (N, N), (N, 1), (0, 0), (16, 16), (1, 0))
    if N > 3:
        p = tl.make_block_ptr(x_ptr, (N, N), (N, 1), (0, 0), (16, 16), (0, 1))
