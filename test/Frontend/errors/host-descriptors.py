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


@triton.jit
def k_shape(src, dst):
    # desc.shape and desc.strides: the run-time sizes and strides;
    # offsets= and value= by keyword, as Triton names them.
    m = src.shape[0]
    s = src.strides[0]
    x = src.load(offsets=[m - 16, 0])
    dst.store(offsets=[0, 0], value=x + s.to(tl.float16))
