import triton
import triton.language as tl


@triton.jit
def half_int_kernel(X, U, Q, F, G, O, I, BLOCK: tl.constexpr):
    # Integers to and from f16/bf16 (Triton's .to): round to nearest from
    # int8/16/32/64 and uint32, truncate toward zero back to each width.
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    u = tl.load(U + offs)
    q = tl.load(Q + offs)
    f = tl.load(F + offs)
    g = tl.load(G + offs)
    tl.store(O + offs, x.to(tl.float16))
    tl.store(O + BLOCK + offs, u.to(tl.float16))
    tl.store(O + 2 * BLOCK + offs, q.to(tl.float16))
    tl.store(O + 3 * BLOCK + offs, x.to(tl.int8).to(tl.float16))
    tl.store(O + 4 * BLOCK + offs, x.to(tl.bfloat16).to(tl.float16))
    tl.store(O + 5 * BLOCK + offs, u.to(tl.bfloat16).to(tl.float16))
    tl.store(I + offs, f.to(tl.int32) + f.to(tl.uint32).to(tl.int32))
    tl.store(I + BLOCK + offs, g.to(tl.int32) + g.to(tl.uint8).to(tl.int32))
    tl.store(I + 2 * BLOCK + offs, (f.to(tl.int64) + g.to(tl.int16).to(tl.int64)).to(tl.int32))


@triton.jit
def half_f64_kernel(F, G, D, BLOCK: tl.constexpr):
    # f16 and bf16 to f64 (exact, through f32).
    offs = tl.arange(0, BLOCK)
    tl.store(D + offs, tl.load(F + offs).to(tl.float64) * tl.load(G + offs).to(tl.float64))
