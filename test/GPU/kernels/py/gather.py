# tl.gather along both axes of a 2-D tile: GPU case of SemanticsTests.cpp
# (runGather). src is M x N, row-major; idx0 (int32, K0 x N) gathers rows
# (axis 0), idx1 (int64, M x K1) gathers columns (axis 1, written as the
# method with a negative axis). Each program gathers from its own src.
import triton
import triton.language as tl


@triton.jit
def gather_kernel(src_ptr, idx0_ptr, idx1_ptr, out0_ptr, out1_ptr,
                  M: tl.constexpr, N: tl.constexpr, K0: tl.constexpr,
                  K1: tl.constexpr):
    pid = tl.program_id(0)
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    src = tl.load(src_ptr + pid * M * N + rm[:, None] * N + rn[None, :])
    r0 = tl.arange(0, K0)
    offs0 = pid * K0 * N + r0[:, None] * N + rn[None, :]
    i0 = tl.load(idx0_ptr + offs0)
    tl.store(out0_ptr + offs0, tl.gather(src, i0, 0))
    r1 = tl.arange(0, K1)
    offs1 = pid * M * K1 + rm[:, None] * K1 + r1[None, :]
    i1 = tl.load(idx1_ptr + offs1)
    tl.store(out1_ptr + offs1, src.gather(i1, axis=-1))
