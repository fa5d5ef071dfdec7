import triton
import triton.language as tl


def _meta(grid, kernel, args):
    return {}


@triton.jit(do_not_specialize=["n"], repr=lambda _: "k", launch_metadata=_meta)
def k_keywords(p, n):
    tl.store(p, n)


@triton.jit()
def k_empty_call(p):
    tl.store(p, 1)


def _twice(x):
    return x * 2


twice = triton.jit(_twice)


def k_by_call_impl(p):
    tl.store(p, twice(21))


k_by_call = triton.jit(k_by_call_impl)
