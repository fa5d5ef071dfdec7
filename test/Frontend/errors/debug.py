import triton
import triton.language as tl


@triton.jit
def k_prefix_not_str(p, n):
    x = tl.load(p)
    tl.device_print(x, x)


@triton.jit
def k_print_tensor_first(p, n):
    x = tl.load(p)
    print(x)


@triton.jit
def k_prefix_not_ascii(p, n):
    tl.device_print("caf\u00e9", 1)


@triton.jit
def k_value_str(p, n):
    tl.device_print("x", "a string")


@triton.jit
def k_print_sep(p, n):
    print("x", 1, sep=",")


@triton.jit
def k_hex_not_bool(p, n):
    tl.device_print("x", 1, hex=n)


@triton.jit
def k_assert_str(p, n):
    tl.device_assert("yes")


@triton.jit
def k_assert_ptr(p, n):
    tl.device_assert(p)


@triton.jit
def k_assert_msg(p, n):
    tl.device_assert(n > 0, 3)


@triton.jit
def k_assert_args(p, n):
    tl.device_assert(n > 0, "m", None, 4)


@triton.jit
def k_assert_stmt_msg(p, n):
    assert n > 0, n
