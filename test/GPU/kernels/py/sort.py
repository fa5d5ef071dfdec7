# tl.sort and tl.topk (Triton 3.6's bitonic sort, composed in the front
# end): GPU case sort_kernel of SemanticsTests.cpp.
import triton
import triton.language as tl


@triton.jit
def sort_kernel(x_ptr, i_ptr, out_ptr, iout_ptr, ROWS: tl.constexpr,
                N: tl.constexpr, K: tl.constexpr):
    # out: [0, RN) rows of x ascending; [RN, 2RN) descending (method form);
    # [2RN, 2RN + R*K) each row's K largest, largest first.
    # iout: [0, RN) the int32 values ascending, [RN, 2RN) as uint32,
    # descending.
    r = tl.arange(0, ROWS)[:, None]
    c = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + r * N + c)
    tl.store(out_ptr + r * N + c, tl.sort(x))
    tl.store(out_ptr + ROWS * N + r * N + c, x.sort(dim=1, descending=True))
    kc = tl.arange(0, K)[None, :]
    tl.store(out_ptr + 2 * ROWS * N + r * K + kc, tl.topk(x, K))
    offs = tl.arange(0, ROWS * N)
    i = tl.load(i_ptr + offs)
    tl.store(iout_ptr + offs, tl.sort(i, 0))
    u = i.to(tl.uint32)
    tl.store(iout_ptr + ROWS * N + offs,
             tl.sort(u, descending=True).to(tl.int32))
