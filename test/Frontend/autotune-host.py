# Autotune configs built by host functions, as recent Triton tutorials do:
# the helpers below are plain Python that tilec evaluates at compile time.
import itertools
import torch
import triton
import triton.language as tl

BASE_STAGES = 2


def on_cuda():
    """Whether the active backend is CUDA (tilec: always)."""
    return triton.runtime.driver.active.get_current_target().backend == "cuda"


def hopper_or_later():
    target = triton.runtime.driver.active.get_current_target()
    return target.backend == "cuda" and target.arch >= 90


def cuda_configs(stages=BASE_STAGES):
    common = [
        triton.Config({'BLOCK': 128, 'SCALE': 2.5}, num_warps=8, num_stages=stages),
        triton.Config({'BLOCK': 64, 'SCALE': 1.0, 'TAG': 'small'}, num_warps=2),
    ]
    if hopper_or_later():
        return common + [triton.Config({'BLOCK': 256, 'SCALE': 0.5}, num_stages=stages + 3)]
    return common


def rocm_configs():
    # Never evaluated on CUDA: a comprehension tilec would refuse.
    return [triton.Config({'BLOCK': b}, num_warps=4) for b in (32, 64)]


def pick_configs():
    if on_cuda():
        return cuda_configs()
    else:
        return rocm_configs()


# Host code tilec skips.
def launch(x):
    grid = lambda meta: (triton.cdiv(x.numel(), meta['BLOCK']), )
    return scaled_copy[grid](x, x, x.numel())


@triton.autotune(configs=pick_configs(), key=['n'], reset_to_zero=['out_ptr'], warmup=5)
@triton.jit
def scaled_copy(out_ptr, in_ptr, n, BLOCK: tl.constexpr, SCALE: tl.constexpr, TAG: tl.constexpr = 'big'):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(in_ptr + offs, mask=offs < n)
    if TAG == 'small':
        x = x + 1.0
    tl.store(out_ptr + offs, x * SCALE, mask=offs < n)


CONFIG_LIST = [triton.Config({'BLOCK': 32}, num_warps=1, num_stages=1)]


@triton.autotune(CONFIG_LIST + [triton.Config({'BLOCK': 16})], ['n'])
@triton.jit
def from_constant(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, offs, mask=offs < n)


@triton.autotune(configs=[], key=[])
@triton.jit
def empty_list(out_ptr, BLOCK: tl.constexpr = 8):
    tl.store(out_ptr + tl.arange(0, BLOCK), 1.0)


# Tutorial 06's form: a list comprehension over several lists with a filter,
# a tuple target, range().
@triton.autotune(configs=[triton.Config({'BLOCK': b, 'SCALE': s}, num_stages=st, num_warps=w)
                          for b in [16, 32] for (s, st) in ((1, 2), (3, 4))
                          for w in range(2, 5, 2)
                          if not (b == 2**5 and s == 1)], key=['n'])
@triton.jit
def from_comprehension(out_ptr, n, BLOCK: tl.constexpr, SCALE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, offs * SCALE, mask=offs < n)


ZIP_SIZES = [16, 32]


# zip() and list repetition in host code.
@triton.autotune(configs=[triton.Config({'BLOCK': b}, num_warps=w)
                          for b, w in zip(ZIP_SIZES * 2, [1, 2, 4, 8])], key=['n'])
@triton.jit
def from_zip(out_ptr, n, BLOCK: tl.constexpr):
    tl.store(out_ptr + tl.arange(0, BLOCK), n)


BLOCKS = {"small": 32, "large": 128}


def loop_configs():
    # Loops, break/continue, append/extend, +=, dict items and item
    # assignment, as library config helpers build their lists.
    configs = []
    for name, block in BLOCKS.items():
        for warps in [2, 4, 8, 16]:
            if warps == 8 and name == "small":
                continue
            if warps > 8:
                break
            configs.append(triton.Config({"BLOCK": block}, num_warps=warps))
    n = 0
    while n < 2:
        n += 1
    configs += [triton.Config({"BLOCK": 64 * n}, num_warps=4)]
    extra = {}
    extra["BLOCK"] = 512
    configs.extend([triton.Config(extra, num_warps=4)])
    return configs


@triton.autotune(configs=loop_configs(), key=["n"])
@triton.jit
def from_loops(p, n, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(p + o, 1, mask=o < n)


@triton.autotune(configs=[triton.Config({"BLOCK": b}, num_warps=w, num_stages=s)
                          for b, w, s in itertools.product([64, 128], [4, 8], [2])],
                 key=["n"])
@triton.jit
def from_product(p, n, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(p + o, 1, mask=o < n)
