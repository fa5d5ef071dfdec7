import triton
import triton.language as tl


@triton.jit
def k_acc(out_ptr, in_ptr, n):
    offs = tl.arange(0, 32)
    acc = tl.zeros((32,), dtype=tl.float32)
    for k in range(0, n):
        acc += tl.load(in_ptr + k * 32 + offs)
    tl.store(out_ptr + offs, acc)


@triton.jit
def k_sum_iv(out_ptr, n):
    total = 0
    for k in range(0, n):
        total += k
    tl.store(out_ptr, total)
