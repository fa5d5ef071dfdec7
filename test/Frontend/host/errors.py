import torch
import triton
import triton.language as tl


def check():
    if torch.cuda.get_device_capability()[0] < 10:
        raise RuntimeError("needs Blackwell")
    return 1


NEEDS_BLACKWELL = check()

backend = None


def set_backend(name):
    global backend
    backend = name


set_backend("cuda")


def reraise():
    try:
        raise KeyError("k")
    except LookupError:
        raise


@triton.jit
def k_raises(p):
    tl.store(p, NEEDS_BLACKWELL)


@triton.jit
def k_global(p):
    tl.static_assert(backend is None)
    tl.store(p, 1)


@triton.jit
def k_reraise(p):
    tl.store(p, reraise())


@triton.jit
def k_device_name(p):
    tl.static_assert("H100" in torch.cuda.get_device_name(0))
    tl.store(p, 1)
