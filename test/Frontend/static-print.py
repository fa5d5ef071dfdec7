import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, B: tl.constexpr):
    tl.static_print("B is", B, (B, 2.5), None, True)
    acc = 0.0
    for i in range(n):
        tl.static_print("in a loop", i)
        acc += 1.0
    tl.store(x_ptr, acc)


@triton.jit
def k_print(x_ptr, B: tl.constexpr):
    print("hello", B)
    tl.store(x_ptr, 1.0)


@triton.jit
def k_flood(x_ptr, R: tl.constexpr):
    for i in tl.static_range(R):
        tl.static_print("print", i)
    tl.store(x_ptr, 1.0)
