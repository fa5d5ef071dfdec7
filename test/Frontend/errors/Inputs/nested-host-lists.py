# A host function doubling a nested list, in @triton.autotune's configs.
import triton
import triton.language as tl


def g(n, l):
    if n > 0:
        return g(n - 1, [l, l])
    return l


@triton.autotune(configs=[triton.Config({'BLOCK': 16})] + g(28, []), key=[])
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    tl.store(x_ptr, 1.0)
