import torch
import triton
import triton.language as tl


def with_loop():
    out = []
    for b in reversed((32, 64)):
        out = out + [triton.Config({'BLOCK': b})]
    return out


def with_comprehension():
    return {triton.Config({'BLOCK': b}) for b in (32, 64)}


def with_torch():
    if "H100" in torch.cuda.get_device_name(0):
        return [triton.Config({'BLOCK': 64})]
    return [triton.Config({'BLOCK': 32})]


def unreadable():
    with open('configs.txt') as f:
        return f.read()


def outer():
    return with_loop()


APPENDED = []
for b in (32, 64):
    APPENDED.append(triton.Config({'BLOCK': b}))


@triton.autotune(configs=with_loop(), key=['n'])
@triton.jit
def k_loop(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=with_comprehension(), key=['n'])
@triton.jit
def k_comprehension(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=with_torch(), key=['n'])
@triton.jit
def k_torch(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=unreadable(), key=['n'])
@triton.jit
def k_unreadable(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=APPENDED, key=['n'])
@triton.jit
def k_appended(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=outer(), key=['n'])
@triton.jit
def k_nested(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=[triton.Config({'BLOCK': 32}, num_warp=4)], key=['n'])
@triton.jit
def k_config_keyword(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=[triton.Config({'BLOCK': 32, 'BLOCKS': 2})], key=['n'])
@triton.jit
def k_config_name(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=[
    triton.Config({'BLOCK': 32}, num_warps=4),
    triton.Config({'BLOCK': 64}, num_warps=4, maxnreg=128),
    triton.Config({'BLOCK': 64}, num_warps=4, num_ctas=2),
    triton.Config({'BLOCK': 64}, pre_hook=lambda nargs: nargs['x_ptr'].zero_()),
    triton.Config({'BLOCK': 64}, num_warps=3),
    triton.Config({'BLOCK': 64}, num_warps=4, maxnreg=8),
], key=['n'])
@triton.jit
def k_choices(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=triton.Config({'BLOCK': 32}), key=['n'])
@triton.jit
def k_not_list(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=[triton.Config({'BLOCK': 32})], keys=['n'])
@triton.jit
def k_autotune_keyword(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)


@triton.jit
def k_plain(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)


def aliased():
    a = []
    b = a
    a.append(triton.Config({'BLOCK': 32}))
    return b


@triton.autotune(configs=aliased(), key=['n'])
@triton.jit
def k_aliased(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)
