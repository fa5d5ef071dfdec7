import triton
import triton.language as tl


@triton.jit
def k_forms(x_ptr, y_ptr):
    offs = tl.arange(0, 2)[:, None, None] * 128 + tl.arange(0, 16)[None, :, None] * 8 + tl.arange(0, 8)[None, None, :]
    x = tl.load(x_ptr + offs)
    # Without dims: the last two dimensions swap (a batched transpose).
    a = tl.trans(x)
    # dims as separate ints, as one tuple, as methods; permute likewise.
    b = tl.trans(x, 2, 0, 1)
    c = tl.trans(x, (2, 0, 1))
    d = x.trans(2, 0, 1)
    e = tl.permute(x, 1, 2, 0)
    f = x.permute((1, 2, 0))
    tl.store(y_ptr + tl.arange(0, 256), tl.reshape(a, (256, )) + tl.reshape(b + c + d, (256, )) +
             tl.reshape(e + f, (256, )))


@triton.jit
def k_2d(x_ptr, y_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :])
    t = x.T + tl.trans(x) + x.trans() + tl.permute(x, 1, 0)
    tl.store(y_ptr + tl.arange(0, 32)[:, None] * 16 + tl.arange(0, 16)[None, :], t)
