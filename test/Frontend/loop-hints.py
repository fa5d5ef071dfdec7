import triton
import triton.language as tl


@triton.jit
def k_hints(x_ptr, n, OFF: tl.constexpr):
    acc = tl.zeros((16, ), dtype=tl.float32)
    for i in tl.range(0, n, 1, num_stages=3, loop_unroll_factor=2, disallow_acc_multi_buffer=True, flatten=True,
                      warp_specialize=True, disable_licm=True):
        acc += tl.load(x_ptr + i * 16 + tl.arange(0, 16))
    # By position after the bounds; False and None leave nothing.
    for j in tl.range(0, n, 1, 4, None, False, OFF, OFF):
        acc += 1.0
    tl.store(x_ptr + tl.arange(0, 16), acc)
