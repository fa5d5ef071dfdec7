"""Autotune config helpers in a library module, as attorch's utils.py
writes them: host functions called from another module's
@triton.autotune, reading this module's constants and imports."""
import triton

from .ops import BLOCK_DEFAULT
from . import tables

WARPS = [2, 4, 8]


def elementwise_configs(block_name='BLOCK'):
    return [triton.Config({block_name: BLOCK_DEFAULT * m}, num_warps=w)
            for m, w in zip([1, 2, 4], WARPS)]


def from_tables(name):
    return tables.lookup(name)
