//===- dot_kernels.cu - CUDA C twins of the tl.dot test kernels ---*- CUDA -*-===//
//
// CUDA C versions of the kernels of test/GPU/kernels/py/matmul.py (and of
// Triton's tutorial 03), with their names, parameters and grids, so that
// `run.sh --reference` runs the tl.dot cases of tilec-gpu-tests without
// tilec: if those pass and tilec's PTX fails, the bug is in the compiler.
// The products go through the same tensor-core instructions a tl.dot backend
// uses (mma.sync m16n8k16 f16/bf16, m16n8k8 tf32, m16n8k32 e4m3/e5m2/s8; PTX
// ISA 9.7.14), so the harness's tolerances meet the hardware's arithmetic:
// tf32 operands are passed as fp32 registers (the tensor core drops the low
// 13 bits), tf32x3 splits them with cvt.rna.tf32.f32 as Triton does, ieee is
// a sequential fmaf. No shared memory and no pipelining: each warp loads its
// fragments from global memory (zero outside the matrices) and computes
// 16 x 8 output tiles of the program's BM x BN tile.
//
// One kernel per translation, chosen and configured by macros (see
// test/CMakeLists.txt, _gpu_dot_reference): REF_MATMUL, REF_DESC, REF_TRANS, REF_ACC,
// REF_CHAIN, REF_AUX, REF_GROUPED, REF_EPILOGUE (with ACT_RELU, ACT_GELU, ACT_GELU_TANH,
// ACT_SILU), REF_ATTN (with ATTN_BF16, HEAD_DIM, CAUSAL, ATTN_DESC for
// attn_fwd_desc_kernel's signature, ATTN_BWD_PRE and ATTN_BWD for the
// backward's two kernels: fp32 CUDA C, no tensor cores), REF_MLP_LINEAR / REF_MLP_FUSED (mlp.py; fp32 CUDA C, GELU for
// linear_kernel's ACTIVATION="gelu", GROUP_M); IN_F16 / IN_BF16 / IN_F32 / IN_I8 / IN_E4M3 / IN_E5M2
// (+ UPCAST: fp8 converted to fp16 first); PREC_IEEE / PREC_TF32X3 for fp32;
// OUT_F32 / OUT_F16 / OUT_BF16 / OUT_I32; BM, BN; LEAKY (tutorial 03);
// GELU (matmul_kernel's ACTIVATION="gelu").
// Launched with 128 threads (num_warps = 4 in the metadata line).
//
//===----------------------------------------------------------------------===//

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <stdint.h>

#ifndef BM
#define BM 64
#endif
#ifndef BN
#define BN 64
#endif

//===----------------------------------------------------------------------===//
// Operand access: element (r, c) of a strided matrix, 0 outside it
//===----------------------------------------------------------------------===//

#if defined(IN_F16) || defined(IN_BF16)
typedef uint16_t In;
#elif defined(IN_F32)
typedef float In;
#else
typedef uint8_t In; // int8 and fp8 bytes
#endif

struct Operand {
  const In *p;
  int rows, cols;
  long long sr, sc; // strides along rows and columns, in elements
  __device__ In at(int r, int c) const {
    return (r < rows && c < cols) ? p[r * sr + c * sc] : In(0);
  }
};

__device__ uint32_t pack2(uint16_t lo, uint16_t hi) {
  return uint32_t(lo) | (uint32_t(hi) << 16);
}
__device__ uint32_t pack4(uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3) {
  return uint32_t(b0) | (uint32_t(b1) << 8) | (uint32_t(b2) << 16) |
         (uint32_t(b3) << 24);
}

#if defined(UPCAST)
/// An fp8 byte as fp16 bits (exact).
__device__ uint16_t upcast(uint8_t b) {
#if defined(IN_E5M2)
  __half_raw h = __nv_cvt_fp8_to_halfraw(b, __NV_E5M2);
#else
  __half_raw h = __nv_cvt_fp8_to_halfraw(b, __NV_E4M3);
#endif
  return h.x;
}
#endif

#if defined(IN_I8)
typedef int Acc;
#else
typedef float Acc;
#endif

//===----------------------------------------------------------------------===//
// One 16 x 8 tile of A[m0:, :K] @ B[:K, n0:], accumulated into c[4]
// (c0, c1 at row m0 + g, columns n0 + 2t, +1; c2, c3 at row m0 + g + 8)
//===----------------------------------------------------------------------===//

__device__ void mmaTile(const Operand &A, const Operand &B, int K, int m0,
                        int n0, Acc c[4]) {
  int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  int r0 = m0 + g, r1 = m0 + g + 8;
#if defined(PREC_IEEE)
  // Sequential fmaf per output element.
  for (int k = 0; k < K; ++k) {
    float b0 = B.at(k, n0 + 2 * t), b1 = B.at(k, n0 + 2 * t + 1);
    float a0 = A.at(r0, k), a1 = A.at(r1, k);
    c[0] = fmaf(a0, b0, c[0]);
    c[1] = fmaf(a0, b1, c[1]);
    c[2] = fmaf(a1, b0, c[2]);
    c[3] = fmaf(a1, b1, c[3]);
  }
#else
  int n = n0 + g; // the B column of this lane's fragments
#endif
#if defined(PREC_IEEE)
#elif defined(IN_F32)
  // tf32 m16n8k8; tf32x3 as three products of split operands.
  for (int k0 = 0; k0 < K; k0 += 8) {
    float af[4] = {A.at(r0, k0 + t), A.at(r1, k0 + t), A.at(r0, k0 + t + 4),
                   A.at(r1, k0 + t + 4)};
    float bf[2] = {B.at(k0 + t, n), B.at(k0 + t + 4, n)};
#if defined(PREC_TF32X3)
    uint32_t abig[4], asmall[4], bbig[2], bsmall[2];
    for (int i = 0; i < 4; ++i) {
      asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(abig[i]) : "f"(af[i]));
      float rest = af[i] - __uint_as_float(abig[i]);
      asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(asmall[i]) : "f"(rest));
    }
    for (int i = 0; i < 2; ++i) {
      asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(bbig[i]) : "f"(bf[i]));
      float rest = bf[i] - __uint_as_float(bbig[i]);
      asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(bsmall[i]) : "f"(rest));
    }
    const uint32_t *as[3] = {asmall, abig, abig};
    const uint32_t *bs[3] = {bbig, bsmall, bbig};
    for (int p = 0; p < 3; ++p)
      asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
          "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
          : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
          : "r"(as[p][0]), "r"(as[p][1]), "r"(as[p][2]), "r"(as[p][3]),
            "r"(bs[p][0]), "r"(bs[p][1]));
#else
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(__float_as_uint(af[0])), "r"(__float_as_uint(af[1])),
          "r"(__float_as_uint(af[2])), "r"(__float_as_uint(af[3])),
          "r"(__float_as_uint(bf[0])), "r"(__float_as_uint(bf[1])));
#endif
  }
#elif defined(IN_F16) || defined(IN_BF16) || defined(UPCAST)
  // m16n8k16 on 16-bit operands.
#if defined(UPCAST)
#define LD16(M, R, C) upcast((M).at(R, C))
#else
#define LD16(M, R, C) (M).at(R, C)
#endif
  for (int k0 = 0; k0 < K; k0 += 16) {
    int k = k0 + 2 * t;
    uint32_t a[4] = {pack2(LD16(A, r0, k), LD16(A, r0, k + 1)),
                     pack2(LD16(A, r1, k), LD16(A, r1, k + 1)),
                     pack2(LD16(A, r0, k + 8), LD16(A, r0, k + 9)),
                     pack2(LD16(A, r1, k + 8), LD16(A, r1, k + 9))};
    uint32_t b[2] = {pack2(LD16(B, k, n), LD16(B, k + 1, n)),
                     pack2(LD16(B, k + 8, n), LD16(B, k + 9, n))};
#if defined(IN_BF16)
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
#else
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
#endif
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
#undef LD16
#else
  // m16n8k32 on 8-bit operands (sm_89+ for fp8).
  for (int k0 = 0; k0 < K; k0 += 32) {
    int k = k0 + 4 * t;
    uint32_t a[4], b[2];
    for (int h = 0; h < 2; ++h) {
      int kk = k + 16 * h;
      a[2 * h] = pack4(A.at(r0, kk), A.at(r0, kk + 1), A.at(r0, kk + 2),
                       A.at(r0, kk + 3));
      a[2 * h + 1] = pack4(A.at(r1, kk), A.at(r1, kk + 1), A.at(r1, kk + 2),
                           A.at(r1, kk + 3));
      b[h] = pack4(B.at(kk, n), B.at(kk + 1, n), B.at(kk + 2, n),
                   B.at(kk + 3, n));
    }
#if defined(IN_I8)
    asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#elif defined(IN_E5M2)
    asm("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    asm("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
  }
#endif
}

//===----------------------------------------------------------------------===//
// The program's BM x BN tile: loads an optional accumulator, stores C
//===----------------------------------------------------------------------===//

#if defined(OUT_F16)
typedef __half Out;
__device__ Out toOut(Acc v) { return __float2half_rn(v); }
#elif defined(OUT_BF16)
typedef __nv_bfloat16 Out;
__device__ Out toOut(Acc v) { return __float2bfloat16_rn(v); }
#elif defined(OUT_I32)
typedef int Out;
__device__ Out toOut(Acc v) { return v; }
#else
typedef float Out;
__device__ Out toOut(Acc v) { return v; }
#endif

#if defined(OUT_F16)
__device__ float fromOut(Out v) { return __half2float(v); }
#elif defined(OUT_BF16)
__device__ float fromOut(Out v) { return __bfloat162float(v); }
#else
__device__ float fromOut(Out v) { return float(v); }
#endif

/// matmul_epilogue_kernel's epilogue (REF_EPILOGUE): the scale, bias per
/// column and residual of C's type and strides; ACT_* the activation.
struct Epilogue {
  const float *bias = nullptr;
  const Out *res = nullptr;
  float scale = 1.0f;
};

__device__ void programTile(const Operand &A, const Operand &B, int K,
                            int pidM, int pidN, Out *C, long long scm,
                            long long scn, const float *C0, long long s0m,
                            long long s0n, Epilogue epi = Epilogue()) {
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int g = lane / 4, t = lane % 4;
  const int tiles = (BM / 16) * (BN / 8);
  for (int tile = warp; tile < tiles; tile += blockDim.x / 32) {
    int m0 = pidM * BM + (tile / (BN / 8)) * 16;
    int n0 = pidN * BN + (tile % (BN / 8)) * 8;
    int rows[4] = {m0 + g, m0 + g, m0 + g + 8, m0 + g + 8};
    int cols[4] = {n0 + 2 * t, n0 + 2 * t + 1, n0 + 2 * t, n0 + 2 * t + 1};
    Acc c[4] = {0, 0, 0, 0};
    if (C0)
      for (int i = 0; i < 4; ++i)
        if (rows[i] < A.rows && cols[i] < B.cols)
          c[i] = C0[rows[i] * s0m + cols[i] * s0n];
    mmaTile(A, B, K, m0, n0, c);
    for (int i = 0; i < 4; ++i) {
      Acc v = c[i];
#if defined(LEAKY)
      v = v >= 0 ? v : 0.01f * v;
#endif
#if defined(GELU)
      v = 0.5f * v * (1.0f + erff(v * 0.7071067811865476f));
#endif
      bool inside = rows[i] < A.rows && cols[i] < B.cols;
#if defined(REF_EPILOGUE)
      if (inside) {
        v = v * epi.scale + epi.bias[cols[i]];
#if defined(ACT_RELU)
        v = fmaxf(v, 0.0f);
#elif defined(ACT_GELU)
        v = 0.5f * v * (1.0f + erff(v * 0.7071067811865476f));
#elif defined(ACT_GELU_TANH)
        v = 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));
#elif defined(ACT_SILU)
        v = v / (1.0f + expf(-v));
#endif
        v += fromOut(epi.res[rows[i] * scm + cols[i] * scn]);
      }
#endif
      if (inside)
        C[rows[i] * scm + cols[i] * scn] = toOut(v);
    }
  }
}

//===----------------------------------------------------------------------===//
// The kernels
//===----------------------------------------------------------------------===//

#if defined(REF_MATMUL)
/// matmul_kernel (and tutorial 03's): 1-D grid of cdiv(M, BM) * cdiv(N, BN).
extern "C" __global__ void matmul_kernel(const In *a, const In *b, Out *c,
                                         int M, int N, int K, int sam, int sak,
                                         int sbk, int sbn, int scm, int scn) {
  int numN = (N + BN - 1) / BN;
  Operand A{a, M, K, sam, sak}, B{b, K, N, sbk, sbn};
  programTile(A, B, K, blockIdx.x / numN, blockIdx.x % numN, c, scm, scn,
              nullptr, 0, 0);
}
#endif

#if defined(REF_EPILOGUE)
/// matmul_epilogue_kernel: matmul_kernel's grid, then C = act(sa * sb * acc
/// + bias) + R.
extern "C" __global__ void matmul_epilogue_kernel(
    const In *a, const In *b, Out *c, const float *bias, const Out *res,
    const float *sa, const float *sb, int M, int N, int K, int sam, int sak,
    int sbk, int sbn, int scm, int scn) {
  int numN = (N + BN - 1) / BN;
  Operand A{a, M, K, sam, sak}, B{b, K, N, sbk, sbn};
  Epilogue epi;
  epi.bias = bias;
  epi.res = res;
  epi.scale = *sa * *sb;
  programTile(A, B, K, blockIdx.x / numN, blockIdx.x % numN, c, scm, scn,
              nullptr, 0, 0, epi);
}
#endif

#if defined(REF_GROUPED)
/// grouped_matmul_kernel: every group's tiles, tile t of all groups by
/// program t % gridDim.x (row-major fp16 A_g, B_g, C_g).
extern "C" __global__ void grouped_matmul_kernel(const long long *ap,
                                                 const long long *bp,
                                                 const long long *cp,
                                                 const int *sizes,
                                                 const int *lds, int count) {
  int first = 0;
  for (int g = 0; g < count; ++g) {
    int M = sizes[3 * g], N = sizes[3 * g + 1], K = sizes[3 * g + 2];
    int numN = (N + BN - 1) / BN, tiles = ((M + BM - 1) / BM) * numN;
    Operand A{reinterpret_cast<const In *>(ap[g]), M, K, lds[3 * g], 1};
    Operand B{reinterpret_cast<const In *>(bp[g]), K, N, lds[3 * g + 1], 1};
    Out *C = reinterpret_cast<Out *>(cp[g]);
    for (int t = 0; t < tiles; ++t)
      if ((first + t) % gridDim.x == blockIdx.x)
        programTile(A, B, K, t / numN, t % numN, C, lds[3 * g + 2], 1,
                    nullptr, 0, 0);
    first += tiles;
  }
}
#endif

#if defined(REF_DESC)
/// matmul_desc_kernel: persistent, tile t = blockIdx.x, blockIdx.x +
/// gridDim.x, ... (row-major tiles: the tile order does not change C).
extern "C" __global__ void matmul_desc_kernel(const In *a, const In *b, Out *c,
                                              int M, int N, int K, int sam,
                                              int sak, int sbk, int sbn,
                                              int scm, int scn) {
  int numN = (N + BN - 1) / BN, tiles = ((M + BM - 1) / BM) * numN;
  Operand A{a, M, K, sam, sak}, B{b, K, N, sbk, sbn};
  for (int t = blockIdx.x; t < tiles; t += gridDim.x)
    programTile(A, B, K, t / numN, t % numN, c, scm, scn, nullptr, 0, 0);
}
#endif

#if defined(REF_TMA)
/// matmul_tma_kernel and matmul_tma_persistent_kernel of
/// host_descriptors.py: each host-side descriptor is its PTX parameters
/// (base, rank i32 sizes, rank - 1 i64 strides); B is given as N x K.
/// Persistent: tile t = blockIdx.x, blockIdx.x + gridDim.x, ...
#define TMA_PARAMS                                                            \
  const In *a, int, int, long long sa, const In *b, int, int, long long sb,   \
      Out *c, int, int, long long sc, int M, int N, int K
__device__ void tmaTiles(const In *a, long long sa, const In *b, long long sb,
                         Out *c, long long sc, int M, int N, int K) {
  int numN = (N + BN - 1) / BN, tiles = ((M + BM - 1) / BM) * numN;
  Operand A{a, M, K, sa, 1}, B{b, K, N, 1, sb};
  for (int t = blockIdx.x; t < tiles; t += gridDim.x)
    programTile(A, B, K, t / numN, t % numN, c, sc, 1, nullptr, 0, 0);
}
extern "C" __global__ void matmul_tma_kernel(TMA_PARAMS) {
  tmaTiles(a, sa, b, sb, c, sc, M, N, K);
}
extern "C" __global__ void matmul_tma_persistent_kernel(TMA_PARAMS) {
  tmaTiles(a, sa, b, sb, c, sc, M, N, K);
}
#endif

#if defined(REF_TRANS)
/// matmul_trans_kernel: strides of the stored (possibly transposed) A, B.
extern "C" __global__ void matmul_trans_kernel(const In *a, const In *b,
                                               float *c, int M, int N, int K,
                                               int sa0, int sa1, int sb0,
                                               int sb1, int scm, int scn) {
  Operand A = TRANS_A ? Operand{a, M, K, sa1, sa0} : Operand{a, M, K, sa0, sa1};
  Operand B = TRANS_B ? Operand{b, K, N, sb1, sb0} : Operand{b, K, N, sb0, sb1};
  programTile(A, B, K, blockIdx.x, blockIdx.y, c, scm, scn, nullptr, 0, 0);
}
#endif

#if defined(REF_ACC)
/// matmul_acc_kernel: D = C + A @ B, 2-D grid.
extern "C" __global__ void matmul_acc_kernel(const In *a, const In *b,
                                             const float *c, float *d, int M,
                                             int N, int K, int sam, int sak,
                                             int sbk, int sbn, int scm, int scn,
                                             int sdm, int sdn) {
  Operand A{a, M, K, sam, sak}, B{b, K, N, sbk, sbn};
  programTile(A, B, K, blockIdx.x, blockIdx.y, d, sdm, sdn, c, scm, scn);
}
#endif

#if defined(REF_AUX)
/// matmul_aux_kernel: the GEMM, and program p's aux updates in order.
extern "C" __global__ void matmul_aux_kernel(const In *a, const In *b, float *c,
                                             const int *idx, int *aux, int M,
                                             int N, int K, int sam, int sak,
                                             int sbk, int sbn, int scm, int scn,
                                             int auxLen) {
  // AUX_VEC = 128 int32s per slot: thread v updates element v of each slot.
  int numN = (N + BN - 1) / BN, pid = blockIdx.x;
  for (int v = threadIdx.x; v < 128; v += blockDim.x)
    for (int k = 0; k < (K + 31) / 32; ++k) {
      int *e = aux + ((long long)pid * auxLen + idx[k]) * 128 + v;
      *e = int(unsigned(*e) * 3u + unsigned(k) + 1u);
    }
  Operand A{a, M, K, sam, sak}, B{b, K, N, sbk, sbn};
  programTile(A, B, K, pid / numN, pid % numN, c, scm, scn, nullptr, 0, 0);
}
#endif

#if defined(REF_CHAIN)
/// attention_chain_kernel: S = Q K^T (stored), O = fp16(S) V; L, D <= 64.
extern "C" __global__ void attention_chain_kernel(const __half *q,
                                                  const __half *k,
                                                  const __half *v, float *s,
                                                  float *o, int L, int D) {
  __shared__ __half p[64 * 64];
  long long base = (long long)blockIdx.x * L * D;
  for (int e = threadIdx.x; e < L * L; e += blockDim.x) {
    int i = e / L, j = e % L;
    float acc = 0;
    for (int d = 0; d < D; ++d)
      acc = fmaf(__half2float(q[base + i * D + d]),
                 __half2float(k[base + j * D + d]), acc);
    s[(long long)blockIdx.x * L * L + e] = acc;
    p[e] = __float2half_rn(acc);
  }
  __syncthreads();
  for (int e = threadIdx.x; e < L * D; e += blockDim.x) {
    int i = e / D, d = e % D;
    float acc = 0;
    for (int l = 0; l < L; ++l)
      acc = fmaf(__half2float(p[i * L + l]), __half2float(v[base + l * D + d]),
                 acc);
    o[base + e] = acc;
  }
}
#endif

#if defined(REF_ATTN)
/// attn_fwd_kernel (test/GPU/kernels/py/attention.py), fp16 (bf16 with
/// ATTN_BF16) Q, K, V and Out, HEAD_DIM (64 or 128) columns, CAUSAL 0 or 1:
/// thread t of program (start_m, z * H + h) computes query row
/// start_m * 128 + t (BLOCK_M = 128 = the 4 warps' threads), with the
/// kernel's online softmax in fp32 over blocks of 64 keys: scores scaled to
/// base 2, the block's max, P rounded to the input type before it meets V,
/// O = acc / l and M = m + log2(l) (0 and 0 for a row that sees no key).
#ifndef CAUSAL
#define CAUSAL 0 // attn_bwd_preprocess_kernel: no mask
#endif
#if defined(ATTN_BF16)
typedef __nv_bfloat16 AttnT;
__device__ float attnLoad(AttnT x) { return __bfloat162float(x); }
__device__ AttnT attnRound(float x) { return __float2bfloat16_rn(x); }
#else
typedef __half AttnT;
__device__ float attnLoad(AttnT x) { return __half2float(x); }
__device__ AttnT attnRound(float x) { return __float2half_rn(x); }
#endif
__device__ void attnRow(const AttnT *Q, const AttnT *K, const AttnT *V,
                        float sm_scale, float *M, AttnT *Out, int sqz, int sqh,
                        int sqm, int sqk, int skz, int skh, int skn, int skk,
                        int svz, int svh, int svn, int svk, int soz, int soh,
                        int som, int sok, int H, int N_Q, int N_KV) {
  int i = blockIdx.x * 128 + threadIdx.x, zh = blockIdx.y;
  if (i >= N_Q)
    return;
  long long z = zh / H, h = zh % H;
  const AttnT *q = Q + z * sqz + h * sqh + (long long)i * sqm;
  const AttnT *k = K + z * skz + h * skh;
  const AttnT *v = V + z * svz + h * svh;
  float qv[HEAD_DIM], acc[HEAD_DIM], x[64];
  for (int d = 0; d < HEAD_DIM; ++d) {
    qv[d] = attnLoad(q[(long long)d * sqk]);
    acc[d] = 0;
  }
  const float qkScale = sm_scale * 1.44269504f;
  int n = CAUSAL ? min(N_KV, i + 1) : N_KV;
  float m = -INFINITY, l = 0;
  for (int j0 = 0; j0 < n; j0 += 64) {
    int cnt = min(64, n - j0);
    float mNew = m;
    for (int jj = 0; jj < cnt; ++jj) {
      const AttnT *kj = k + (long long)(j0 + jj) * skn;
      float s = 0;
      for (int d = 0; d < HEAD_DIM; ++d)
        s = fmaf(qv[d], attnLoad(kj[(long long)d * skk]), s);
      x[jj] = s * qkScale;
      mNew = fmaxf(mNew, x[jj]);
    }
    float alpha = exp2f(m - mNew); // 0 on the first block (m = -inf)
    l *= alpha;
    for (int d = 0; d < HEAD_DIM; ++d)
      acc[d] *= alpha;
    for (int jj = 0; jj < cnt; ++jj) {
      float p = exp2f(x[jj] - mNew);
      l += p;
      float pr = attnLoad(attnRound(p));
      const AttnT *vj = v + (long long)(j0 + jj) * svn;
      for (int d = 0; d < HEAD_DIM; ++d)
        acc[d] = fmaf(pr, attnLoad(vj[(long long)d * svk]), acc[d]);
    }
    m = mNew;
  }
  float lSafe = l == 0 ? 1.0f : l, mSafe = n == 0 ? 0.0f : m;
  M[(long long)zh * N_Q + i] = mSafe + log2f(lSafe);
  AttnT *o = Out + z * soz + h * soh + (long long)i * som;
  for (int d = 0; d < HEAD_DIM; ++d)
    o[(long long)d * sok] = attnRound(acc[d] / lSafe);
}

#if defined(ATTN_BWD_PRE)
/// attn_bwd_preprocess_kernel: thread t of program (x, z * H + h) sums
/// O * dO over row x * 128 + t.
extern "C" __global__ void
attn_bwd_preprocess_kernel(const AttnT *O, const AttnT *DO, float *Delta,
                           int soz, int soh, int som, int sdz, int sdh,
                           int sdm, int H, int N_Q) {
  int i = blockIdx.x * 128 + threadIdx.x, zh = blockIdx.y;
  if (i >= N_Q)
    return;
  long long z = zh / H, h = zh % H;
  const AttnT *o = O + z * soz + h * soh + (long long)i * som;
  const AttnT *g = DO + z * sdz + h * sdh + (long long)i * sdm;
  float sum = 0;
  for (int d = 0; d < HEAD_DIM; ++d)
    sum = fmaf(attnLoad(o[d]), attnLoad(g[d]), sum);
  Delta[(long long)zh * N_Q + i] = sum;
}
#elif defined(ATTN_BWD)
/// attn_bwd_kernel: program (pid, z * H + h); thread t computes dK and dV
/// of key pid * 128 + t (a loop over the queries that see it) and dQ of
/// query pid * 128 + t (a loop over the keys it sees), P recomputed from M
/// in fp32 (BLOCK_N1 = BLOCK_M2 = 128 = the 4 warps' threads).
extern "C" __global__ void
attn_bwd_kernel(const AttnT *Q, const AttnT *K, const AttnT *V, float sm_scale,
                const AttnT *DO, AttnT *DQ, AttnT *DK, AttnT *DV,
                const float *M, const float *Delta, int sqz, int sqh, int sqm,
                int skz, int skh, int skn, int H, int N_Q, int N_KV) {
  int t = threadIdx.x, zh = blockIdx.y;
  long long z = zh / H, h = zh % H;
  const AttnT *q = Q + z * sqz + h * sqh, *g = DO + z * sqz + h * sqh;
  const AttnT *k = K + z * skz + h * skh, *v = V + z * skz + h * skh;
  const float *m = M + (long long)zh * N_Q, *delta = Delta + (long long)zh * N_Q;
  const float qkScale = sm_scale * 1.44269504f;
  // P_ij recomputed from M, and dS_ij = P_ij (dO_i . V_j - Delta_i).
  auto pair = [&](int i, int j, float &p, float &ds) {
    float s = 0, dp = 0;
    for (int d = 0; d < HEAD_DIM; ++d) {
      s = fmaf(attnLoad(q[(long long)i * sqm + d]),
               attnLoad(k[(long long)j * skn + d]), s);
      dp = fmaf(attnLoad(g[(long long)i * sqm + d]),
                attnLoad(v[(long long)j * skn + d]), dp);
    }
    p = exp2f(s * qkScale - m[i]);
    ds = p * (dp - delta[i]);
  };
  float a[HEAD_DIM], b[HEAD_DIM];
  int j = blockIdx.x * 128 + t;
  if (j < N_KV) {
    for (int d = 0; d < HEAD_DIM; ++d)
      a[d] = b[d] = 0;
    for (int i = CAUSAL ? j : 0; i < N_Q; ++i) {
      float p, ds;
      pair(i, j, p, ds);
      for (int d = 0; d < HEAD_DIM; ++d) {
        a[d] = fmaf(ds, attnLoad(q[(long long)i * sqm + d]), a[d]);
        b[d] = fmaf(p, attnLoad(g[(long long)i * sqm + d]), b[d]);
      }
    }
    for (int d = 0; d < HEAD_DIM; ++d) {
      DK[z * skz + h * skh + (long long)j * skn + d] = attnRound(a[d] * sm_scale);
      DV[z * skz + h * skh + (long long)j * skn + d] = attnRound(b[d]);
    }
  }
  int i = blockIdx.x * 128 + t;
  if (i < N_Q) {
    for (int d = 0; d < HEAD_DIM; ++d)
      a[d] = 0;
    int n = CAUSAL ? min(N_KV, i + 1) : N_KV;
    for (int jj = 0; jj < n; ++jj) {
      float p, ds;
      pair(i, jj, p, ds);
      for (int d = 0; d < HEAD_DIM; ++d)
        a[d] = fmaf(ds, attnLoad(k[(long long)jj * skn + d]), a[d]);
    }
    for (int d = 0; d < HEAD_DIM; ++d)
      DQ[z * sqz + h * sqh + (long long)i * sqm + d] = attnRound(a[d] * sm_scale);
  }
}
#elif defined(ATTN_DESC)
/// attn_fwd_desc_kernel: contiguous [Z, H, N, HEAD_DIM] tensors.
extern "C" __global__ void attn_fwd_desc_kernel(const AttnT *Q, const AttnT *K,
                                                const AttnT *V, float sm_scale,
                                                float *M, AttnT *Out, int Z,
                                                int H, int N_Q, int N_KV) {
  (void)Z;
  int D = HEAD_DIM;
  attnRow(Q, K, V, sm_scale, M, Out, H * N_Q * D, N_Q * D, D, 1,
          H * N_KV * D, N_KV * D, D, 1, H * N_KV * D, N_KV * D, D, 1,
          H * N_Q * D, N_Q * D, D, 1, H, N_Q, N_KV);
}
#else
extern "C" __global__ void
attn_fwd_kernel(const AttnT *Q, const AttnT *K, const AttnT *V, float sm_scale,
                float *M, AttnT *Out, int sqz, int sqh, int sqm, int sqk,
                int skz, int skh, int skn, int skk, int svz, int svh, int svn,
                int svk, int soz, int soh, int som, int sok, int H, int N_Q,
                int N_KV) {
  attnRow(Q, K, V, sm_scale, M, Out, sqz, sqh, sqm, sqk, skz, skh, skn, skk,
          svz, svh, svn, svk, soz, soh, som, sok, H, N_Q, N_KV);
}
#endif
#endif

//===----------------------------------------------------------------------===//
// The MLP kernels (test/GPU/kernels/py/mlp.py): REF_MLP_LINEAR, REF_MLP_FUSED
//===----------------------------------------------------------------------===//

#if defined(REF_MLP_LINEAR) || defined(REF_MLP_FUSED)
/// fp16 (IN_F16) or bf16 (IN_BF16) bits to fp32, exactly.
__device__ float mlpLoad(uint16_t bits) {
#if defined(IN_BF16)
  return __uint_as_float(uint32_t(bits) << 16);
#else
  return __half2float(__ushort_as_half(bits));
#endif
}
/// fp32 to the input type, round to nearest even.
__device__ uint16_t mlpRound(float f) {
#if defined(IN_BF16)
  return __bfloat16_as_ushort(__float2bfloat16_rn(f));
#else
  return __half_as_ushort(__float2half_rn(f));
#endif
}
/// The exact (erf) GELU in fp32, as mlp.py's _gelu.
__device__ float mlpGelu(float x) {
  return 0.5f * x * (1.0f + erff(x * 0.7071067811865476f));
}
#endif

#if defined(REF_MLP_LINEAR)
#ifndef GROUP_M
#define GROUP_M 8
#endif
/// linear_kernel: Y = act(X W^T + b), W [N, K], b [N] of the input's type;
/// program pid computes the BM x BN tile of tutorial 03's grouped order,
/// its threads striding over the tile's elements (sequential fmaf over K).
extern "C" __global__ void linear_kernel(const uint16_t *x, const uint16_t *w,
                                         const uint16_t *b, uint16_t *y, int M,
                                         int N, int K, int sxm, int sxk,
                                         int swn, int swk, int sym, int syn) {
  int pid = blockIdx.x;
  int numPidM = (M + BM - 1) / BM, numPidN = (N + BN - 1) / BN;
  int inGroup = GROUP_M * numPidN, firstPidM = (pid / inGroup) * GROUP_M;
  int groupSizeM = min(numPidM - firstPidM, GROUP_M);
  int pidM = firstPidM + ((pid % inGroup) % groupSizeM);
  int pidN = (pid % inGroup) / groupSizeM;
  for (int e = threadIdx.x; e < BM * BN; e += blockDim.x) {
    int r = pidM * BM + e / BN, c = pidN * BN + e % BN;
    if (r >= M || c >= N)
      continue;
    float acc = 0;
    for (int k = 0; k < K; ++k)
      acc = fmaf(mlpLoad(x[(long long)r * sxm + (long long)k * sxk]),
                 mlpLoad(w[(long long)c * swn + (long long)k * swk]), acc);
    acc += mlpLoad(b[c]);
#if defined(GELU)
    acc = mlpGelu(acc);
#endif
    y[(long long)r * sym + (long long)c * syn] = mlpRound(acc);
  }
}
#endif

#if defined(REF_MLP_FUSED)
/// fused_mlp_kernel: Y = gelu(X W1^T + b1) W2^T + b2, program (pid_m,
/// pid_n) computing rows pid_m * BM + t (t over the threads) and the BN
/// columns of block pid_n; each hidden unit rounded to the input type
/// before it meets W2, as the kernel's h.
extern "C" __global__ void
fused_mlp_kernel(const uint16_t *x, const uint16_t *w1, const uint16_t *b1,
                 const uint16_t *w2, const uint16_t *b2, uint16_t *y, int M,
                 int K, int H, int N, int sxm, int sxk, int sw1h, int sw1k,
                 int sw2n, int sw2h, int sym, int syn) {
  for (int t = threadIdx.x; t < BM; t += blockDim.x) {
    int r = blockIdx.x * BM + t, c0 = blockIdx.y * BN;
    if (r >= M)
      continue;
    float acc[BN];
    for (int c = 0; c < BN; ++c)
      acc[c] = 0;
    for (int j = 0; j < H; ++j) {
      float z = 0;
      for (int k = 0; k < K; ++k)
        z = fmaf(mlpLoad(x[(long long)r * sxm + (long long)k * sxk]),
                 mlpLoad(w1[(long long)j * sw1h + (long long)k * sw1k]), z);
      float h = mlpLoad(mlpRound(mlpGelu(z + mlpLoad(b1[j]))));
      for (int c = 0; c < BN && c0 + c < N; ++c)
        acc[c] = fmaf(h, mlpLoad(w2[(long long)(c0 + c) * sw2n +
                                    (long long)j * sw2h]),
                      acc[c]);
    }
    for (int c = 0; c < BN && c0 + c < N; ++c)
      y[(long long)r * sym + (long long)(c0 + c) * syn] =
          mlpRound(acc[c] + mlpLoad(b2[c0 + c]));
  }
}
#endif
