import itertools
import triton
import triton.language as tl

from devutil import IS_AMD, IS_HOPPER, NUM_WARPS, pick, FAST

WARPS = [1, 2] if IS_AMD else [4, NUM_WARPS]


def configs():
    out = []
    for b, w in itertools.product([32, 64], WARPS):
        if b == 64 and w == 1:
            continue
        out.append(triton.Config({"BLOCK": b}, num_warps=w))
    extra = {"BLOCK": 128}
    extra["BLOCK"] = 256
    out += [triton.Config(extra, num_warps=4)]
    return out


@triton.autotune(configs=configs(), key=["n"])
@triton.jit
def k_host(p, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(p + offs, mask=offs < n)
    if IS_HOPPER:
        x = x * 2.0
    if FAST:
        x = x + 1.0
    x = x + pick((1, 2, 3), 1)
    tl.store(p + offs, x, mask=offs < n)
#@file devutil.py
"""Host code a library runs at import: cached functions, try/except,
the target's facts, the environment."""
import functools
import os
from functools import cache, lru_cache

import torch
import triton


@cache
def backend():
    try:
        return triton.runtime.driver.active.get_current_target().backend
    except Exception:
        return "cpu"


@lru_cache(maxsize=1)
def has_mlx():
    try:
        from mlx_core import ok
    except ImportError:
        return False
    finally:
        pass
    return ok


@functools.cache
def is_hip():
    return bool(getattr(getattr(torch, "version", None), "hip", None))


def capability():
    major, minor = torch.cuda.get_device_capability(0)
    return (major, minor)


def pick(table, key):
    try:
        return table[key]
    except (KeyError, IndexError) as e:
        return -1
    else:
        return -2


def count_down(n):
    total = 0
    while n > 0:
        n -= 1
        if n == 3:
            break
        total += n
    else:
        raise RuntimeError("unreachable")
    return total


IS_AMD = backend() == "hip" or is_hip()
IS_HOPPER = not IS_AMD and not has_mlx() and (9, 0) <= capability() < (10, 0)
NUM_WARPS = pick({"cuda": 8, "hip": 4}, backend()) * -pick({}, "x") + count_down(5) - 4
FAST = os.environ.get("DEVUTIL_FAST", "0") == "1"
