import triton
import triton.language as tl


@triton.jit
def k_float_seed(p, s):
    o = tl.arange(0, 16)
    tl.store(p + o, tl.rand(s, o))


@triton.jit
def k_float_offsets(p, seed):
    o = tl.arange(0, 16)
    tl.store(p + o, tl.randint(seed, o.to(tl.float32)))


@triton.jit
def k_runtime_rounds(p, seed, r):
    o = tl.arange(0, 16)
    tl.store(p + o, tl.randn(seed, o, n_rounds=r))


@triton.jit
def k_negative_rounds(p, seed):
    o = tl.arange(0, 16)
    a, b, c, d = tl.randint4x(seed, o, -1)
    tl.store(p + o, a)


@triton.jit
def k_uniform_float(p):
    o = tl.arange(0, 16)
    tl.store(p + o, tl.uint_to_uniform_float(o.to(tl.float32)))


@triton.jit
def k_impl_signed(p, seed):
    o = tl.arange(0, 16)
    a, b, c, d = tl.philox_impl(o, o, o, o, seed, seed)
    tl.store(p + o, a)


@triton.jit
def k_philox_16(p, seed):
    o = tl.arange(0, 16).to(tl.int16)
    a, b, c, d = tl.philox(seed, o, o, o, o)
    tl.store(p + o, a)


@triton.jit
def k_philox_pointer(p, seed):
    o = tl.arange(0, 16)
    a, b, c, d = tl.philox(seed, p + o, o, o, o)
    tl.store(p + o, a)
