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
