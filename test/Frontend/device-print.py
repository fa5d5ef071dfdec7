import triton
import triton.language as tl


@triton.jit
def k_print(x_ptr, u_ptr, h_ptr, f8_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    u = tl.load(u_ptr + offs)
    tl.device_print("x", x)
    tl.device_print("x and n: ", x, n)
    tl.device_print(" bits ", x, hex=True)
    tl.device_print("u", u)
    tl.device_print("", tl.load(h_ptr + offs))
    tl.device_print("constants", 7, 2.5, True)
    tl.device_print("ptr", x_ptr)
    tl.device_print("f8", tl.load(f8_ptr + offs))
    tl.device_print("f8 bits", tl.load(f8_ptr + offs), hex=True)
    tl.device_print("only a message")
    print("print is device_print", n)
    print("percent %d", n)


@triton.jit
def k_print_2d(x_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.device_print("tile", tl.load(x_ptr + offs))
