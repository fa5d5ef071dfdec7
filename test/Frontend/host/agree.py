import triton
import triton.language as tl

# The same Python expressions evaluated by host code (a host function) and by
# the code generator (a module constant): one answer, python3's.


def host_values():
    return ('a' + 'b', 7 / 2, 'b' in 'abc', 'ab' * 2, 2 * 'é', 'aé'[-1],
            len('aé'), ~5, -True, 5 ^ 3, 1 << 4, -8 >> 1, 7.5 // 2, -7.5 % 2,
            (1,) * 3)


HOST = host_values()
DEVICE = ('a' + 'b', 7 / 2, 'b' in 'abc', 'ab' * 2, 2 * 'é', 'aé'[-1],
          len('aé'), ~5, -True, 5 ^ 3, 1 << 4, -8 >> 1, 7.5 // 2, -7.5 % 2,
          (1,) * 3)


def divide(x):
    try:
        return 1 / x
    except ZeroDivisionError:
        return -1.0


CAUGHT = divide(0)

# No environment variable is named with '=' or a NUL byte (the test sets
# TILEC_AGREE_T to "X=1": glibc's getenv would answer "1" for "TILEC_AGREE_T=X"
# and the value for "TILEC_AGREE_T\0X"); Python's os.environ has no such key.
import os
ENV = (os.environ.get("TILEC_AGREE_T=X", "none"),
       os.environ.get("TILEC_AGREE_T\0X", "none"),
       os.environ.get("TILEC_AGREE_T"))


def star_kw(**kw):
    return kw


def star_args(x, *rest, scale=2, **opts):
    return (x, rest, scale, opts)


STARS = (star_kw(kw=64)["kw"], star_args(1, 2, 3, scale=5, mode="fast")[1],
         star_args(1, 2, 3, scale=5, mode="fast")[3]["mode"],
         len(star_args(7)[1]), len(star_args(7)[3]))


def any_keys():
    d = {1: "a", (2, 3): "b"}
    return d[1] + d[(2, 3)]


CONVERSIONS = (int(" 42 "), int("-1_000"), int("+7"), bool(""), bool("0"),
               any_keys())


# A module-level dict: a table module constants and kernels index.
DTYPES = {"fp16": tl.float16, "bf16": tl.bfloat16, 32: tl.float32}
TABLE = {"small": 16, "large": 128}
PICK = TABLE["large"] // 2


# String and dict methods at module level and in kernels, as host code runs
# them.
if triton.__version__.startswith("3."):
    MAJOR = 3
else:
    MAJOR = 0
PARTS = triton.__version__.split(".")
JOINED = "-".join(PARTS) + "|" + "a_b_c".replace("_", "")
LOOKUP = TABLE.get("small", 0) + TABLE.get("missing", 1)


@triton.jit
def k_methods(X):
    tl.static_print(MAJOR, PARTS, JOINED, LOOKUP, "x_y".upper())


@triton.jit
def k_dict(X, DT: tl.constexpr):
    x = tl.load(X).to(DTYPES[DT])
    tl.store(X, (x + PICK).to(DTYPES[32]))


@triton.jit
def k_agree(X):
    tl.static_print(HOST)
    tl.static_print(DEVICE)
    tl.static_assert(HOST == DEVICE)
    tl.static_print(CAUGHT)
    tl.static_print(ENV)
    tl.static_print(STARS)
    tl.static_print(CONVERSIONS)
