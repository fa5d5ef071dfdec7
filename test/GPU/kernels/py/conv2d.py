"""A 3x3 convolution as an implicit GEMM for tilec's operator-graph example
examples/graphs/conv_group_norm_mish.mlir (Conv2d -> GroupNorm -> Mish).
Triton 3.6 syntax; tilec reads only the @triton.jit function."""
import triton
import triton.language as tl


@triton.jit
def conv3x3_nchw_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, C_IN, H, W, C_OUT,
                        BLOCK_P: tl.constexpr, BLOCK_CO: tl.constexpr,
                        BLOCK_K: tl.constexpr):
    """y[n, co, h, w] = b[co] + sum over ci, kh, kw of
    x[n, ci, h + kh - 1, w + kw - 1] * w[co, ci, kh, kw] (padding 1, stride
    1), NCHW fp16 in and out, fp32 accumulation: torch's
    F.conv2d(x, w, b, padding=1). An implicit GEMM: rows are the N*H*W
    output pixels, columns the output channels, and the reduction runs over
    K = C_IN * 9 (channel, kernel row, kernel column), each A tile gathered
    from x with the padding masked off. Program (i, j) computes pixels
    [i * BLOCK_P, ...) for channels [j * BLOCK_CO, ...)."""
    pid_p = tl.program_id(0)
    pid_co = tl.program_id(1)
    HW = H * W
    K = C_IN * 9
    p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    co = pid_co * BLOCK_CO + tl.arange(0, BLOCK_CO)
    n = p // HW
    hw = p % HW
    h = hw // W
    w = hw % W
    p_ok = p < N * HW
    co_ok = co < C_OUT
    acc = tl.zeros((BLOCK_P, BLOCK_CO), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        ci = k // 9
        r = k % 9
        kh = r // 3
        kw = r % 3
        ih = h[:, None] + kh[None, :] - 1
        iw = w[:, None] + kw[None, :] - 1
        a_ok = (p_ok[:, None] & (k[None, :] < K) & (ih >= 0) & (ih < H)
                & (iw >= 0) & (iw < W))
        a = tl.load(x_ptr + ((n[:, None] * C_IN + ci[None, :]) * H + ih) * W + iw,
                    mask=a_ok, other=0.0)
        b_ok = (k[:, None] < K) & co_ok[None, :]
        b = tl.load(w_ptr + co[None, :] * K + k[:, None], mask=b_ok, other=0.0)
        acc += tl.dot(a, b)
    bias = tl.load(b_ptr + co, mask=co_ok, other=0.0).to(tl.float32)
    acc += bias[None, :]
    y_off = (n[:, None] * C_OUT + co[None, :]) * HW + hw[:, None]
    tl.store(y_ptr + y_off, acc.to(tl.float16), mask=p_ok[:, None] & co_ok[None, :])


@triton.jit
def _conv_program_tile(C_OUT, H, W, BLOCK_CO: tl.constexpr,
                       BLOCK_P: tl.constexpr):
    """The tile of program (i, j) of the tap-major kernels: sample n =
    j // cdiv(C_OUT, BLOCK_CO), output channels co, pixels hw of that sample
    (row h, column w) and their bounds."""
    pid_p = tl.program_id(0)
    pid_nc = tl.program_id(1)
    co_blocks = tl.cdiv(C_OUT, BLOCK_CO)
    n = pid_nc // co_blocks
    hw = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    co = (pid_nc % co_blocks) * BLOCK_CO + tl.arange(0, BLOCK_CO)
    return n, co, hw, hw // W, hw % W, co < C_OUT, hw < H * W


@triton.jit
def _conv_store(b_ptr, y_ptr, acc, n, co, hw, co_ok, hw_ok, C_OUT, HW):
    """y[n, co, hw] = acc + b[co] as fp16 (acc: output channels x pixels)."""
    bias = tl.load(b_ptr + co, mask=co_ok, other=0.0).to(tl.float32)
    acc += bias[:, None]
    y_off = (n * C_OUT + co[:, None]) * HW + hw[None, :]
    tl.store(y_ptr + y_off, acc.to(tl.float16), mask=co_ok[:, None] & hw_ok[None, :])


@triton.jit
def conv3x3_nchw_taps_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, C_IN, H, W, C_OUT,
                             BLOCK_CO: tl.constexpr, BLOCK_P: tl.constexpr,
                             BLOCK_CI: tl.constexpr):
    """The same convolution as conv3x3_nchw_kernel, computed transposed and
    one kernel tap at a time: y[n, co-block, pixel-block] = sum over
    input-channel blocks and the 9 taps (kh, kw) of w[co, ci, kh, kw] @
    x[n, ci, pixel shifted by (kh - 1, kw - 1)]. Output channels are the
    GEMM's rows and pixels its columns, so every x tile is a [BLOCK_CI,
    BLOCK_P] block whose rows are contiguous runs of pixels (coalesced
    loads, an index computation per pixel and per channel rather than per
    element), and the store writes runs of pixels too. Program (i, j)
    computes pixels [i * BLOCK_P, ...) of sample j // cdiv(C_OUT, BLOCK_CO)
    for channels [(j % cdiv(C_OUT, BLOCK_CO)) * BLOCK_CO, ...)."""
    n, co, hw, h, w, co_ok, hw_ok = _conv_program_tile(C_OUT, H, W, BLOCK_CO,
                                                       BLOCK_P)
    HW = H * W
    K = C_IN * 9
    x_n = x_ptr + n * C_IN * HW
    acc = tl.zeros((BLOCK_CO, BLOCK_P), dtype=tl.float32)
    for step in range(0, 9 * tl.cdiv(C_IN, BLOCK_CI)):
        tap = step % 9
        ci = (step // 9) * BLOCK_CI + tl.arange(0, BLOCK_CI)
        dh = tap // 3 - 1
        dw = tap % 3 - 1
        ih = h + dh
        iw = w + dw
        p_ok = hw_ok & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
        ci_ok = ci < C_IN
        xs = tl.load(x_n + ci[:, None] * HW + (hw + dh * W + dw)[None, :],
                     mask=ci_ok[:, None] & p_ok[None, :], other=0.0)
        ws = tl.load(w_ptr + co[:, None] * K + ci[None, :] * 9 + tap,
                     mask=co_ok[:, None] & ci_ok[None, :], other=0.0)
        acc += tl.dot(ws, xs)
    _conv_store(b_ptr, y_ptr, acc, n, co, hw, co_ok, hw_ok, C_OUT, HW)


@triton.jit
def conv3x3_nchw_taps_hoisted_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, C_IN, H, W,
                                     C_OUT, BLOCK_CO: tl.constexpr,
                                     BLOCK_P: tl.constexpr,
                                     BLOCK_CI: tl.constexpr):
    """conv3x3_nchw_taps_kernel with its per-element offsets computed once:
    the x tile's offsets (channel row * H * W + pixel) and the weights'
    (output channel * C_IN * 9 + input channel * 9) are loop-invariant
    32-bit tiles, and each step adds one scalar (the channel block's and
    the tap's shift) -- fewer instructions per loaded element, for more
    registers held."""
    n, co, hw, h, w, co_ok, hw_ok = _conv_program_tile(C_OUT, H, W, BLOCK_CO,
                                                       BLOCK_P)
    HW = H * W
    K = C_IN * 9
    ci_r = tl.arange(0, BLOCK_CI)
    x_n = x_ptr + n * C_IN * HW
    x_off = ci_r[:, None] * HW + hw[None, :]
    w_off = co[:, None] * K + ci_r[None, :] * 9
    acc = tl.zeros((BLOCK_CO, BLOCK_P), dtype=tl.float32)
    for step in range(0, 9 * tl.cdiv(C_IN, BLOCK_CI)):
        tap = step % 9
        ci0 = (step // 9) * BLOCK_CI
        dh = tap // 3 - 1
        dw = tap % 3 - 1
        ih = h + dh
        iw = w + dw
        p_ok = hw_ok & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
        ci_ok = ci0 + ci_r < C_IN
        xs = tl.load(x_n + (x_off + (ci0 * HW + dh * W + dw)),
                     mask=ci_ok[:, None] & p_ok[None, :], other=0.0)
        ws = tl.load(w_ptr + (w_off + (ci0 * 9 + tap)),
                     mask=co_ok[:, None] & ci_ok[None, :], other=0.0)
        acc += tl.dot(ws, xs)
    _conv_store(b_ptr, y_ptr, acc, n, co, hw, co_ok, hw_ok, C_OUT, HW)
