import torch
import triton
import triton.language as tl

# Version-conditional definitions (issue 11, item 2): tilec answers as
# Triton 3.6.0 with tilec's surface.
if triton.__version__ >= "3.0.0":
    from triton.language.extra import libdevice
    SCALE = 2
elif triton.__version__ >= "2.1":
    SCALE = 3
else:
    SCALE = 4

if hasattr(tl, "make_tensor_descriptor"):
    HAS_DESC = True
else:
    HAS_DESC = False

if hasattr(tl, "no_such_function"):
    MISSING = 1
else:
    MISSING = 0

if torch.cuda.device_count() > 1:
    # Undecidable at compile time (the GPU count): nothing here is defined.
    DEVICE_ONLY = 1

if HAS_DESC:
    @triton.jit
    def pick(x):
        return x * SCALE
else:
    @triton.jit
    def pick(x):
        return x


@triton.jit
def k_module_if(p):
    tl.store(p, pick(libdevice.tanh(1.0)) + HAS_DESC * 10 + MISSING * 100)


@triton.jit
def k_undecidable(p):
    tl.store(p, DEVICE_ONLY)


if __name__ == "__main__":
    x = torch.zeros(4, device="cuda")
    k_module_if[(1,)](x)


if triton.__version__ < "3":
    pass
else:
    if hasattr(tl, "dot"):
        try:
            from triton.language.extra.libdevice import exp as fast_exp
        except ImportError:
            from triton.language.math import exp as fast_exp


@triton.jit
def k_nested_if(p):
    tl.store(p, fast_exp(0.0))


if triton.__version__ >= "3.0":
    def get_configs():
        return [triton.Config({"BLOCK": 64}, num_warps=2)]
else:
    def get_configs():
        return [triton.Config({"BLOCK": 32}, num_warps=8)]


@triton.autotune(configs=get_configs(), key=["n"])
@triton.jit
def k_auto(p, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(p + offs, offs, mask=offs < n)


if triton.__version__ < "3.0":
    @triton.jit
    def k_only_old(p):
        tl.store(p, 1)


# Ifs tilec cannot decide whose branches agree (Liger-Kernel's
# `compare_version(...) and not is_npu_available()`): a branch whose import
# fails under Triton 3.6 (triton.language.math has no tanh) cannot be the
# one taken; the others bind one function, or one value.
if torch.cuda.is_available() and not torch.npu.is_available():
    try:
        from triton.language.extra.libdevice import tanh
    except ModuleNotFoundError:
        from triton.language.extra.cuda.libdevice import tanh
    from triton.language.extra.libdevice import rsqrt
    AGREE = 5
    DISAGREE = 1
else:
    from triton.language.math import tanh
    from triton.language.math import rsqrt
    AGREE = 5
    DISAGREE = 2


@triton.jit
def k_agree(p):
    x = tl.load(p)
    tl.store(p, tanh(x) + rsqrt(x) * AGREE)


@triton.jit
def k_disagree(p):
    tl.store(p, tl.load(p) + DISAGREE)


from packaging.version import Version
import packaging.version
from packaging import version as pv

if Version(triton.__version__) >= Version("3.0") and (3, 6) > (3, 5, 9):
    VERSION_BRANCH = 30
else:
    VERSION_BRANCH = 20
if (Version("3.0") == Version("3.0.0") and Version("3.6.0+cu128") < Version("3.10")
        and packaging.version.Version("3.6") == pv.parse("3.6.0")):
    VERSION_EQ = 1
else:
    VERSION_EQ = 0


@triton.jit
def k_version(p):
    tl.store(p, tl.load(p) + VERSION_BRANCH + VERSION_EQ * 1000)

# An undecidable if after a definition may rebind it: with several GPUs
# REBOUND is 3, elsewhere 1, so it is not defined.
REBOUND = 1
if torch.cuda.device_count() > 1:
    REBOUND = 3
SAME_AFTER = 4
if torch.cuda.device_count() > 1:
    SAME_AFTER = 4


@triton.jit
def k_rebound(p):
    tl.store(p, tl.load(p) + REBOUND)


@triton.jit
def k_same_after(p):
    tl.store(p, tl.load(p) + SAME_AFTER)
