import triton
import triton.language as tl

import dup
import rebind
import selfimp


@triton.jit
def k_review(p):
    # dup/__init__.py over dup.py (2); rebind's last bindings (3, 9);
    # selfimp.alias is its own base (2).
    tl.store(p, dup.V * 1000 + rebind.X * 100 + rebind.f * 10 + selfimp.alias())
