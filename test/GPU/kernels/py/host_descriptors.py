"""Kernels that take host-side tensor descriptors as arguments (Triton's
TensorDescriptor from triton.tools.tensor_descriptor; a `tensordesc<T[B0,
B1]>` signature entry): the block shape and dtype come from the descriptor.
The matmuls follow tutorial 09's TMA kernels (B given as N x K, read through
`.T`). Valid Triton 3.6: the benchmark runs the same file through Triton."""
import triton
import triton.language as tl


@triton.jit
def desc_arg_copy_kernel(src_desc, dst_desc, off_m, off_n):
    """dst[i, j] = 2 * src[i + off_m, j + off_n] + 1, one block of the
    descriptors' block shape per program on a 2-D grid; src elements outside
    src's shape read as 0, dst elements outside dst's shape are not written."""
    BLOCK_M: tl.constexpr = dst_desc.block_shape[0]
    BLOCK_N: tl.constexpr = dst_desc.block_shape[1]
    m = tl.program_id(0) * BLOCK_M
    n = tl.program_id(1) * BLOCK_N
    x = src_desc.load([m + off_m, n + off_n])
    dst_desc.store([m, n], (x * 2 + 1).to(dst_desc.dtype))


@triton.jit
def _tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    """Grouped ordering: GROUP_M rows of output tiles at a time."""
    in_group = GROUP_M * num_pid_n
    first_m = (tile_id // in_group) * GROUP_M
    rows = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (tile_id % rows)
    pid_n = (tile_id % in_group) // rows
    return pid_m, pid_n


@triton.jit
def matmul_tma_kernel(a_desc, b_desc, c_desc, M, N, K,
                      GROUP_M: tl.constexpr, NUM_STAGES: tl.constexpr,
                      WARP_SPECIALIZE: tl.constexpr = False):
    """C[M, N] = A[M, K] @ B[N, K]^T, one output tile per program; the tile
    sizes are the descriptors' blocks (A: BM x BK, B: BN x BK, C: BM x BN).
    Ragged edges need no masks: loads zero-fill, stores clip. With
    WARP_SPECIALIZE a producer warp issues the K loop's loads."""
    BLOCK_M: tl.constexpr = a_desc.block_shape[0]
    BLOCK_K: tl.constexpr = a_desc.block_shape[1]
    BLOCK_N: tl.constexpr = b_desc.block_shape[0]
    pid_m, pid_n = _tile_coords(tl.program_id(0), tl.cdiv(M, BLOCK_M),
                                tl.cdiv(N, BLOCK_N), GROUP_M)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(tl.cdiv(K, BLOCK_K), num_stages=NUM_STAGES,
                      warp_specialize=WARP_SPECIALIZE):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = b_desc.load([pid_n * BLOCK_N, k * BLOCK_K])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_desc.dtype))


@triton.jit
def matmul_tma_persistent_kernel(a_desc, b_desc, c_desc, M, N, K,
                                 GROUP_M: tl.constexpr, NUM_STAGES: tl.constexpr,
                                 EPILOGUE_SUBTILE: tl.constexpr,
                                 WARP_SPECIALIZE: tl.constexpr = False,
                                 K_TILES: tl.constexpr = 0):
    """matmul_tma_kernel, persistent: each program loops over output tiles
    in grouped order, stepping by the number of programs. With
    EPILOGUE_SUBTILE, c_desc's block is BM x BN/2 and each tile is stored as
    two halves. With WARP_SPECIALIZE a producer warp issues the loads (of
    the flattened nest, as in tutorial 09). K_TILES > 0 makes the K loop's
    trip count that constant (K must then be K_TILES * BLOCK_K)."""
    BLOCK_M: tl.constexpr = a_desc.block_shape[0]
    BLOCK_K: tl.constexpr = a_desc.block_shape[1]
    BLOCK_N: tl.constexpr = b_desc.block_shape[0]
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    if K_TILES > 0:
        k_tiles = K_TILES
    for tile_id in tl.range(tl.program_id(0), num_pid_m * num_pid_n,
                            tl.num_programs(0), flatten=True,
                            warp_specialize=WARP_SPECIALIZE):
        pid_m, pid_n = _tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_M)
        offs_m = pid_m * BLOCK_M
        offs_n = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in tl.range(k_tiles, num_stages=NUM_STAGES):
            a = a_desc.load([offs_m, k * BLOCK_K])
            b = b_desc.load([offs_n, k * BLOCK_K])
            acc = tl.dot(a, b.T, acc)
        if EPILOGUE_SUBTILE:
            halves = tl.permute(tl.reshape(acc, (BLOCK_M, 2, BLOCK_N // 2)), (0, 2, 1))
            c0, c1 = tl.split(halves)
            c_desc.store([offs_m, offs_n], c0.to(c_desc.dtype))
            c_desc.store([offs_m, offs_n + BLOCK_N // 2], c1.to(c_desc.dtype))
        else:
            c_desc.store([offs_m, offs_n], acc.to(c_desc.dtype))
