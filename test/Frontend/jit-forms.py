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


# unsloth's form: a plain def made jit by call, then wrapped by
# triton.heuristics by call (its constexprs come from -D).
def by_call_heuristics(out_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    if EVEN:
        tl.store(out_ptr + offs, n)
    else:
        tl.store(out_ptr + offs, n, mask=offs < n)


by_call_heuristics = triton.jit(by_call_heuristics)
by_call_heuristics = triton.heuristics({"EVEN": lambda args: args["n"] % 64 == 0})(by_call_heuristics)
