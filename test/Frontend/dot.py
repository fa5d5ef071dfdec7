import triton
import triton.language as tl


@triton.jit
def load2d(ptr, R: tl.constexpr, C: tl.constexpr):
    return tl.load(ptr + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :])


@triton.jit
def store2d(ptr, x, R: tl.constexpr, C: tl.constexpr):
    tl.store(ptr + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :], x)


# tl.dot(input, other): the operands' types pick the result's.
@triton.jit
def k_plain(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    c = tl.dot(load2d(a_ptr, M, K), load2d(b_ptr, K, N))
    store2d(c_ptr, c, M, N)


# acc and input_precision by position.
@triton.jit
def k_positional(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, P: tl.constexpr):
    acc = load2d(c_ptr, M, N)
    c = tl.dot(load2d(a_ptr, M, K), load2d(b_ptr, K, N), acc, P)
    store2d(c_ptr, c, M, N)


# Every argument by keyword, in any order.
@triton.jit
def k_keywords(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    acc = load2d(c_ptr, M, N)
    c = tl.dot(out_dtype=tl.float32, acc=acc, max_num_imprecise_acc=None, other=load2d(b_ptr, K, N),
               input=load2d(a_ptr, M, K), input_precision=None, allow_tf32=None)
    store2d(c_ptr, c, M, N)


# The deprecated allow_tf32.
@triton.jit
def k_allow_tf32(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, ALLOW: tl.constexpr):
    c = tl.dot(load2d(a_ptr, M, K), load2d(b_ptr, K, N), allow_tf32=ALLOW)
    store2d(c_ptr, c, M, N)


# fp16 operands accumulating in fp16, with and without an accumulator.
@triton.jit
def k_fp16_acc(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    a = load2d(a_ptr, M, K)
    b = load2d(b_ptr, K, N)
    acc = tl.zeros((M, N), dtype=tl.float16)
    acc = tl.dot(a, b, acc, out_dtype=tl.float16)
    c = tl.dot(a, b, out_dtype=tl.float16)
    store2d(c_ptr, acc + c, M, N)


# int8 operands into an int32 accumulator (out_dtype names its type).
@triton.jit
def k_int8_acc(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    acc = tl.zeros((M, N), dtype=tl.int32)
    acc = tl.dot(load2d(a_ptr, M, K), load2d(b_ptr, K, N), acc, out_dtype=tl.int32)
    store2d(c_ptr, acc, M, N)


# Two fp8 types, fp16 out.
@triton.jit
def k_fp8(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, IMPRECISE: tl.constexpr = None):
    c = tl.dot(load2d(a_ptr, M, K), load2d(b_ptr, K, N), max_num_imprecise_acc=IMPRECISE, out_dtype=tl.float16)
    store2d(c_ptr, c, M, N)


# Batched: B x M x K times B x K x N.
@triton.jit
def k_batched(a_ptr, b_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    a = tl.reshape(load2d(a_ptr, B * M, K), (B, M, K))
    b = tl.reshape(load2d(b_ptr, B * K, N), (B, K, N))
    acc = tl.zeros((B, M, N), dtype=tl.float32)
    c = tl.dot(a, b, acc)
    store2d(c_ptr, tl.reshape(c, (B * M, N)), B * M, N)


# Two batch dimensions: flattened into one, as Triton 3.6 does.
@triton.jit
def k_batched4(a_ptr, b_ptr, c_ptr, B0: tl.constexpr, B1: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
               K: tl.constexpr):
    a = tl.reshape(load2d(a_ptr, B0 * B1 * M, K), (B0, B1, M, K))
    b = tl.reshape(load2d(b_ptr, B0 * B1 * K, N), (B0, B1, K, N))
    c = tl.dot(a, b)
    store2d(c_ptr, tl.reshape(c, (B0 * B1 * M, N)), B0 * B1 * M, N)


# A dot whose operands come through tl.trans, .T and tl.permute.
@triton.jit
def k_transposed(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    at = load2d(a_ptr, K, M)
    bt = load2d(b_ptr, N, K)
    c = tl.dot(tl.trans(at), bt.T)
    c += tl.dot(at.permute(1, 0), tl.permute(bt, (1, 0)))
    store2d(c_ptr, c, M, N)
