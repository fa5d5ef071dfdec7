import triton
import triton.language as tl


@triton.jit
def k_last_stride(p, n, s):
    d = tl.make_tensor_descriptor(p, shape=[n, n], strides=[s, s], block_shape=[16, 16])
    tl.store(p, d.load([0, 0]).sum())


@triton.jit
def k_block(p, n, s):
    d = tl.make_tensor_descriptor(p, shape=[n, n], strides=[s, 1], block_shape=[16, 24])
    d.store([0, 0], tl.zeros((16, 24), tl.float32))


@triton.jit
def k_narrow(p, n, s):
    d = tl.make_tensor_descriptor(p, shape=[n, n], strides=[s, 1], block_shape=[16, 2])
    d.store([0, 0], tl.zeros((16, 2), tl.float32))


@triton.jit
def k_padding(p, n, s, PAD: tl.constexpr):
    d = tl.make_tensor_descriptor(p, shape=[n, n], strides=[s, 1], block_shape=[16, 16],
                                  padding_option=PAD)
    tl.store(p, d.load([0, 0]).sum())


@triton.jit
def k_loop_carried(p, n, s):
    d = tl.make_tensor_descriptor(p, shape=[n, n], strides=[s, 1], block_shape=[16, 16])
    for i in range(n):
        d = tl.make_tensor_descriptor(p + i, shape=[n, n], strides=[s, 1], block_shape=[16, 16])
    tl.store(p, d.load([0, 0]).sum())
