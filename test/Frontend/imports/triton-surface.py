import triton
import triton.language as tl
from triton.language.extra import libdevice

# Imports Triton 3.6 would refuse take the except branch, at module level and
# in host functions: a module it does not have (triton.ops was removed in
# 3.0), a libdevice function it does not define. Those it has bind.
try:
    from triton.language.extra.libdevice import no_such_function
    MISSING_FN = 1
except ImportError:
    MISSING_FN = 2
try:
    import triton.ops
    MISSING_MOD = 1
except ImportError:
    MISSING_MOD = 2
try:
    from triton.language.extra.libdevice import tanh
    PRESENT = 1
except ImportError:
    PRESENT = 2
try:
    from triton.tools.tensor_descriptor import TensorDescriptor
    TOOLS = 1
except ImportError:
    TOOLS = 2


def in_function():
    results = []
    try:
        import triton.nonexistent
        results.append(1)
    except ImportError:
        results.append(2)
    try:
        from triton.language.extra.cuda.libdevice import no_such_function
        results.append(1)
    except ImportError:
        results.append(2)
    try:
        from triton.ops import matmul
        results.append(1)
    except ModuleNotFoundError:
        results.append(2)
    try:
        from triton.language.extra.cuda.libdevice import fast_expf
        results.append(1)
    except ImportError:
        results.append(2)
    return tuple(results)


IN_FUNCTION = in_function()


@triton.jit
def k_surface(X):
    tl.static_print(MISSING_FN, MISSING_MOD, PRESENT, TOOLS, IN_FUNCTION)


@triton.jit
def k_missing_name(X):
    tl.store(X, libdevice.no_such_function(1.0))
