# Layer normalization, forward and backward. The backward pass reduces the
# weight and bias gradients in two stages: programs accumulate partial sums
# into GROUP_SIZE_M row buffers guarded by spin locks (atomic_cas/xchg), and
# a second kernel sums the buffers.
import torch

import triton
import triton.language as tl

try:
    import apex  # noqa: F401 - optional comparison
    HAS_APEX = True
except ModuleNotFoundError:
    HAS_APEX = False

MAX_FUSED_SIZE: int = 65536 // 2
LOCK_GROUPS = {
    4096: 64,
    8192: 96,
    'default': 128,
}


@triton.jit
def _layer_norm_fwd_fused(
    X,  # input pointer
    Y,  # output pointer
    W,  # weights
    B,  # biases
    Mean,  # per-row mean, saved for backward
    Rstd,  # per-row 1/std, saved for backward
    stride,  # elements between rows
    N,  # columns
    eps,  # avoids division by zero
    BLOCK_SIZE: tl.constexpr,
):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    # mean
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    # variance
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    # normalize and apply the affine map
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


@triton.jit
def _layer_norm_bwd_dx_fused(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N, GROUP_SIZE_M: tl.constexpr,
                             BLOCK_SIZE_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    # Each group of rows shares one partial-sum buffer and one lock.
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = (dy).to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    tl.debug_barrier()
    # release the lock
    tl.atomic_xchg(Lock, 0)


@triton.jit
def _layer_norm_bwd_dwdb(DW, DB, FINAL_DW, FINAL_DB, M, N, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.)
        db += tl.load(DB + offs, mask=mask, other=0.)
    sum_dw = tl.sum(dw, axis=0)
    sum_db = tl.sum(db, axis=0)
    tl.store(FINAL_DW + cols, sum_dw, mask=cols < N)
    tl.store(FINAL_DB + cols, sum_db, mask=cols < N)


class LayerNorm(torch.autograd.Function):

    @staticmethod
    def forward(ctx, x, normalized_shape, weight, bias, eps):
        y = torch.empty_like(x)
        x_arg = x.reshape(-1, x.shape[-1])
        M, N = x_arg.shape
        mean = torch.empty((M, ), dtype=torch.float32, device=x.device)
        rstd = torch.empty((M, ), dtype=torch.float32, device=x.device)
        BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(N))
        if N > BLOCK_SIZE:
            raise RuntimeError("This layer norm doesn't support feature dim >= 64KB.")
        num_warps = min(max(BLOCK_SIZE // 256, 1), 8)
        _layer_norm_fwd_fused[(M, )](  #
            x_arg, y, weight, bias, mean, rstd,  #
            x_arg.stride(0), N, eps,  #
            BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps, num_ctas=1)
        ctx.save_for_backward(x, weight, bias, mean, rstd)
        ctx.BLOCK_SIZE = BLOCK_SIZE
        ctx.num_warps = num_warps
        ctx.eps = eps
        return y

    @staticmethod
    def backward(ctx, dy):
        x, w, b, m, v = ctx.saved_tensors
        N = w.shape[0]
        GROUP_SIZE_M = LOCK_GROUPS.get(N, LOCK_GROUPS['default'] if N > 8192 else 256 if N <= 1024 else 128)
        locks = torch.zeros(2 * GROUP_SIZE_M, dtype=torch.int32, device=w.device)
        _dw = torch.zeros((GROUP_SIZE_M, N), dtype=x.dtype, device=w.device)
        _db = torch.zeros((GROUP_SIZE_M, N), dtype=x.dtype, device=w.device)
        dw = torch.empty((N, ), dtype=w.dtype, device=w.device)
        db = torch.empty((N, ), dtype=w.dtype, device=w.device)
        dx = torch.empty_like(dy)
        x_arg = x.reshape(-1, x.shape[-1])
        M, N = x_arg.shape
        _layer_norm_bwd_dx_fused[(M, )](  #
            dx, dy, _dw, _db, x, w, m, v, locks,  #
            x_arg.stride(0), N,  #
            BLOCK_SIZE_N=ctx.BLOCK_SIZE,  #
            GROUP_SIZE_M=GROUP_SIZE_M,  #
            num_warps=ctx.num_warps)
        grid = lambda meta: [triton.cdiv(N, meta['BLOCK_SIZE_N'])]
        _layer_norm_bwd_dwdb[grid](
            _dw, _db, dw, db, min(GROUP_SIZE_M, M), N,  #
            BLOCK_SIZE_M=32,  #
            BLOCK_SIZE_N=128, num_ctas=1)
        return dx, None, dw, db, None


layer_norm = LayerNorm.apply


def check_layer_norm(rows, cols, dtype, eps=1e-5, device="cuda"):
    """Compares values and all three gradients against torch."""
    wshape = (cols, )
    params = [torch.rand(wshape, dtype=dtype, device=device, requires_grad=True) for _ in "wb"]
    x = (0.5 * torch.randn(rows, cols, dtype=dtype, device=device) - 2.3).requires_grad_()
    dy = torch.randn_like(x) / 10
    grads = {}
    for name, fn in (("ours", layer_norm), ("torch", torch.nn.functional.layer_norm)):
        y = fn(x, wshape, *params, eps)
        y.backward(dy)
        grads[name] = [y.detach()] + [t.grad.clone() for t in (x, *params)]
        for t in (x, *params):
            t.grad = None
    for got, want in zip(grads["ours"], grads["torch"]):
        torch.testing.assert_close(got, want.to(got.dtype), atol=1e-2, rtol=0, msg=lambda m: f"mismatch: {m}")


@triton.testing.perf_report([
    triton.testing.Benchmark(x_names=["cols"], x_vals=list(range(1024, 16385, 1024)), line_arg="impl",
                             line_vals=["ours", "torch", *(["apex"] if HAS_APEX else [])],
                             line_names=["fused", "torch", *(["apex"] if HAS_APEX else [])],
                             styles=[("C0", "-"), ("C1", "-"), ("C2", ":")], ylabel="GB/s",
                             plot_name=f"layer-norm-{direction}", args={"rows": 4096, "direction": direction})
    for direction in ("forward", "backward")
])
def bench(rows, cols, impl, direction, dtype=torch.float16):
    w = torch.rand(cols, dtype=dtype, device="cuda", requires_grad=True)
    b = torch.rand_like(w, requires_grad=True)
    x = torch.randn(rows, cols, dtype=dtype, device="cuda", requires_grad=True)
    fwd = {
        "ours": lambda: layer_norm(x, (cols, ), w, b, 1e-5),
        "torch": lambda: torch.nn.functional.layer_norm(x, (cols, ), w, b, 1e-5),
    }.get(impl) or (lambda: apex.normalization.FusedLayerNorm((cols, )).cuda().half()(x))
    if direction == "forward":
        ms = triton.testing.do_bench(fwd)
        moved = 2 * x.numel() * x.element_size()
    else:
        y = fwd()
        dy = torch.randn_like(y)
        ms = triton.testing.do_bench(lambda: y.backward(dy, retain_graph=True), grad_to_none=[x, w, b])
        moved = 3 * x.numel() * x.element_size()
    return moved / ms * 1e-6


if __name__ == "__main__":
    for shape in ((1151, 8192), (64, 1000)):
        check_layer_norm(*shape, torch.float16)
    else:
        print("layer norm: all checks passed")
    with torch.no_grad():
        bench.run(save_path=".", print_data=True)
