import triton
import triton.language as tl


@triton.jit
def k(p):
    try:
        x = 1
    finally:
        x = 2
