//===- kernels.cu - CUDA C versions of the GPU test kernels -------*- CUDA -*-===//
//
// Hand-written CUDA C twins of the tile programs the GPU tests run, with the
// same names, parameters (the tilec param ABI), grids and semantics. nvcc
// compiles each to its own PTX file and the build prepends the
// `// tilec.kernel` line tilec would write. They exist to validate the test
// harness and the runtime on a GPU independently of the compiler: if
// `run.sh --reference` fails, the bug is in the harness or the runtime, not
// in tilec. Compile one kernel per translation with -DTILEC_REF_<name>.
//
//===----------------------------------------------------------------------===//

#include <cuda_fp16.h>

#if defined(TILEC_REF_add_kernel) || defined(TILEC_REF_add_kernel_ragged)
#ifdef TILEC_REF_add_kernel
#define ADD_NAME add_kernel
#else
#define ADD_NAME add_kernel_ragged
#endif
/// out[i] = x[i] + y[i]; BLOCK = 1024 elements per program, 128 threads.
extern "C" __global__ void ADD_NAME(const float *x, const float *y, float *out,
                                    int n) {
  for (int k = threadIdx.x; k < 1024; k += blockDim.x) {
    long long i = (long long)blockIdx.x * 1024 + k;
    if (i < n)
      out[i] = x[i] + y[i];
  }
}
#endif

#ifdef TILEC_REF_cvt_kernel
/// out[i] = float(a[i]) + float(b[i]); BLOCK = 1024.
extern "C" __global__ void cvt_kernel(const __half *a, const __half *b,
                                      float *out, int n) {
  for (int k = threadIdx.x; k < 1024; k += blockDim.x) {
    long long i = (long long)blockIdx.x * 1024 + k;
    if (i < n)
      out[i] = __half2float(a[i]) + __half2float(b[i]);
  }
}
#endif

#ifdef TILEC_REF_scale2d_kernel
/// out[i*so + j] = in[i*si + j] * 2; BLOCK_M = 16, BLOCK_N = 64.
extern "C" __global__ void scale2d_kernel(const float *in, float *out, int M,
                                          int N, int strideIn, int strideOut) {
  for (int k = threadIdx.x; k < 16 * 64; k += blockDim.x) {
    int i = blockIdx.x * 16 + k / 64;
    int j = blockIdx.y * 64 + k % 64;
    if (i < M && j < N)
      out[(long long)i * strideOut + j] = in[(long long)i * strideIn + j] * 2.0f;
  }
}
#endif

#ifdef TILEC_REF_colsum_kernel
/// out[i] = sum_k x[k*n + i], in k order from 0; BLOCK = 256.
extern "C" __global__ void colsum_kernel(const float *x, float *out, int n,
                                         int K) {
  for (int t = threadIdx.x; t < 256; t += blockDim.x) {
    int i = blockIdx.x * 256 + t;
    if (i >= n)
      continue;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += x[(long long)k * n + i];
    out[i] = acc;
  }
}
#endif

#ifdef TILEC_REF_scale_kernel
/// out[i] = x[i] * alpha; BLOCK = 1024.
extern "C" __global__ void scale_kernel(const float *x, float *out, float alpha,
                                        int n) {
  for (int k = threadIdx.x; k < 1024; k += blockDim.x) {
    long long i = (long long)blockIdx.x * 1024 + k;
    if (i < n)
      out[i] = x[i] * alpha;
  }
}
#endif
