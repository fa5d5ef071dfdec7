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


@triton.jit
def k_agree(X):
    tl.static_print(HOST)
    tl.static_print(DEVICE)
    tl.static_assert(HOST == DEVICE)
    tl.static_print(CAUGHT)
