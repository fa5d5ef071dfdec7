import triton
import triton.language as tl


@triton.jit
def k_copy(src, dst):
    dst.store([0, 0], src.load([0, 0]))


@triton.jit
def k_offsets(src, dst):
    dst.store([0, 0], src.load([0]))


@triton.jit
def k_as_pointer(src, n):
    tl.store(src + n, 1.0)


@triton.jit
def k_constexpr(src, BLOCK: tl.constexpr):
    src.store([0, 0], tl.zeros((BLOCK, BLOCK), tl.float32))


@triton.jit
def k_copy3d(src, dst):
    dst.store([0, 0, 0], src.load([0, 0, 0]))
