import triton
import triton.language as tl

import ns.sub.m
import ns.sub.m as nm
from star import *
import star


@triton.jit
def k_more(p):
    # A namespace package (no __init__.py) both ways; star imports (public
    # names only), also through another module's star import.
    tl.store(p, ns.sub.m.f() * 100 + nm.f() * 10 + sf() + star.W)


@triton.jit
def k_hidden(p):
    tl.store(p, star._HIDDEN)
