import torch
import triton
import triton.language as tl
import badpkg.badconst
from .sibling import helper
from badpkg.cycle_a import f as cyc
import badpkg.syntax as bad


@triton.jit
def k_torch(p):
    tl.store(p, torch.zeros(1))


@triton.jit
def k_relative(p):
    tl.store(p, helper(1.0))


@triton.jit
def k_cycle(p):
    tl.store(p, cyc(1.0))


@triton.jit
def k_syntax(p):
    tl.store(p, bad.f(1.0))


@triton.jit
def k_bad_constant(p):
    tl.store(p, badpkg.badconst.X)
