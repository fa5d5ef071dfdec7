import triton
import triton.language as tl


@triton.jit
def load2d(ptr, R: tl.constexpr, C: tl.constexpr):
    return tl.load(ptr + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :])


# Operand types and sizes come from the signature and -D.
@triton.jit
def k_types(a_ptr, b_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    c = tl.dot(load2d(a_ptr, M, K), load2d(b_ptr, K, N))


@triton.jit
def k_inner(a_ptr, b_ptr):
    c = tl.dot(load2d(a_ptr, 16, 32), load2d(b_ptr, 16, 16))


@triton.jit
def k_ranks(a_ptr, b_ptr):
    a = load2d(a_ptr, 16, 16)
    b = tl.reshape(load2d(b_ptr, 32, 16), (2, 16, 16))
    c = tl.dot(a, b)


@triton.jit
def k_rank1(a_ptr, b_ptr):
    c = tl.dot(tl.load(a_ptr + tl.arange(0, 16)), tl.load(b_ptr + tl.arange(0, 16)))


@triton.jit
def k_batch(a_ptr, b_ptr):
    a = tl.reshape(load2d(a_ptr, 32, 16), (2, 16, 16))
    b = tl.reshape(load2d(b_ptr, 64, 16), (4, 16, 16))
    c = tl.dot(a, b)


@triton.jit
def k_scalar(a_ptr, b_ptr):
    c = tl.dot(load2d(a_ptr, 16, 16), 2.0)


@triton.jit
def k_both_precisions(a_ptr, b_ptr):
    c = tl.dot(load2d(a_ptr, 16, 16), load2d(b_ptr, 16, 16), input_precision="ieee", allow_tf32=False)


@triton.jit
def k_precision(a_ptr, b_ptr, P: tl.constexpr):
    c = tl.dot(load2d(a_ptr, 16, 16), load2d(b_ptr, 16, 16), input_precision=P)


@triton.jit
def k_out_dtype(a_ptr, b_ptr, K: tl.constexpr, OUT: tl.constexpr):
    if OUT == "bf16":
        c = tl.dot(load2d(a_ptr, 16, K), load2d(b_ptr, K, 16), out_dtype=tl.bfloat16)
    elif OUT == "i32":
        c = tl.dot(load2d(a_ptr, 16, K), load2d(b_ptr, K, 16), out_dtype=tl.int32)
    else:
        c = tl.dot(load2d(a_ptr, 16, K), load2d(b_ptr, K, 16), out_dtype=OUT)


@triton.jit
def k_acc(a_ptr, b_ptr, K: tl.constexpr, ACC: tl.constexpr):
    a = load2d(a_ptr, 16, K)
    b = load2d(b_ptr, K, 16)
    if ACC == "int":
        c = tl.dot(a, b, 0)
    elif ACC == "shape":
        c = tl.dot(a, b, tl.zeros((16, 32), dtype=tl.float32))
    elif ACC == "i32":
        c = tl.dot(a, b, tl.zeros((16, 16), dtype=tl.int32))
    else:
        c = tl.dot(a, b, tl.zeros((16, 16), dtype=tl.float16), out_dtype=tl.float16)


@triton.jit
def k_imprecise(a_ptr, b_ptr, IMPRECISE: tl.constexpr):
    c = tl.dot(load2d(a_ptr, 16, 32), load2d(b_ptr, 32, 16), max_num_imprecise_acc=IMPRECISE)


@triton.jit
def k_method(a_ptr, b_ptr):
    c = load2d(a_ptr, 16, 16).dot(load2d(b_ptr, 16, 16))


@triton.jit
def k_keyword(a_ptr, b_ptr):
    c = tl.dot(load2d(a_ptr, 16, 16), load2d(b_ptr, 16, 16), precision="ieee")
