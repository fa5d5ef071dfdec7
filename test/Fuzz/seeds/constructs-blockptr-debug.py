import triton
import triton.language as tl

import tiles as t


@triton.jit
def k_blocks(x_ptr, y_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    x = t.block(x_ptr, M, N, stride_m, pid, BM, BN)
    y = t.block(y_ptr, M, N, stride_m, pid, BM, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, 4):
        acc += tl.load(x, boundary_check=(0, 1), padding_option="zero")
        x = tl.advance(x, (0, BN))
    t.check(acc, M)
    tl.store(y, acc, boundary_check=(0, 1))
#@file tiles.py
import triton
import triton.language as tl


@triton.jit
def block(p, M, N, stride_m, pid, BM: tl.constexpr, BN: tl.constexpr):
    return tl.make_block_ptr(base=p, shape=(M, N), strides=(stride_m, 1),
                             offsets=(pid * BM, 0), block_shape=(BM, BN),
                             order=(1, 0))


@triton.jit
def check(acc, M):
    tl.static_assert(acc.shape[0] == acc.shape[1], "square tiles")
    tl.device_print("acc", acc)
    tl.device_assert(M > 0, "M must be positive")
    tl.static_print("checked", acc.shape)
