import triton
import triton.language as tl


@triton.jit
def k_arange_np2(p):
    tl.store(p + tl.arange(0, 1000), 1.0)


@triton.jit
def k_arange_runtime(p, n):
    tl.store(p + tl.arange(0, n), 1.0)


@triton.jit
def k_arange_empty(p):
    x = tl.arange(8, 4)


@triton.jit
def k_broadcast(p):
    a = tl.arange(0, 16)
    b = tl.arange(0, 32)
    tl.store(p + a, a + b)


@triton.jit
def k_broadcast_2d(p):
    a = tl.arange(0, 16)[:, None]
    b = tl.zeros((8, 4), dtype=tl.int32)
    c = a + b


@triton.jit
def k_reshape(p):
    x = tl.reshape(tl.arange(0, 16), (4, 8))


@triton.jit
def k_expand_axis(p):
    x = tl.expand_dims(tl.arange(0, 16), 3)


@triton.jit
def k_slice(p):
    x = tl.arange(0, 16)
    tl.store(p + x[0:8], 1.0)


@triton.jit
def k_tuple_index(p):
    t = (1, 2)
    tl.store(p, t[2])


@triton.jit
def k_unpack(p):
    a, b = (1, 2, 3)


@triton.jit
def k_program_id_axis(p):
    tl.store(p, tl.program_id(3))
