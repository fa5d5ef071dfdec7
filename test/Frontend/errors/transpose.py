import triton
import triton.language as tl


@triton.jit
def k_trans_1d(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = tl.trans(x)


@triton.jit
def k_permute_no_dims(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :])
    y = tl.permute(x)


@triton.jit
def k_not_permutation(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :])
    y = tl.trans(x, 0, 0)


@triton.jit
def k_t_3d(x_ptr):
    x = tl.reshape(tl.load(x_ptr + tl.arange(0, 64)), (4, 4, 4))
    y = x.T


@triton.jit
def k_dims_keyword(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :])
    y = tl.trans(x, dims=(1, 0))


@triton.jit
def k_scalar(x_ptr):
    y = tl.trans(tl.load(x_ptr))
