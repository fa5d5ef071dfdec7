# Host code a kernel library runs at import (flash-linear-attention's
# fla/utils.py, unsloth's device_type.py): cached host functions, try/except,
# the target's facts, the environment.
import functools
import os
from functools import cache, lru_cache

import torch
import triton


@cache
def get_available_device() -> str:
    try:
        return triton.runtime.driver.active.get_current_target().backend
    except Exception:
        return 'cpu'


@lru_cache(maxsize=1)
def is_mlx():
    try:
        from mlx_runtime.core import is_available  # not installed
    except ImportError:
        return False
    return is_available()


@functools.cache
def is_hip():
    return bool(getattr(getattr(torch, "version", None), "hip", None))


def capability():
    major, minor = 0, 0
    try:
        cap = torch.cuda.get_device_capability(0)
        major = cap[0]
        minor = cap[1]
    finally:
        pass
    return (major, minor)


def lookup(table, key):
    try:
        return table[key]
    except KeyError as e:
        return -1
    else:
        return -2


device_platform = get_available_device()
IS_AMD = device_platform == 'hip' or is_hip()
IS_HOPPER = not IS_AMD and not is_mlx() and capability() >= (9, 0) and capability() < (10, 0)
NUM_WARPS = lookup({"cuda": 8, "hip": 4}, device_platform) * -lookup({}, "x")
FAST = os.environ.get("DEVPKG_FAST_OPS", "0") == "1"
