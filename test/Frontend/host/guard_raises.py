import triton
import triton.language as tl


def is_new():
    raise RuntimeError("no version")


if is_new():
    GUARDED = 1
else:
    GUARDED = 1


@triton.jit
def k_guard_raises(p):
    tl.store(p, GUARDED)
