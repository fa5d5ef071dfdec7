/* A GEMM through tilec --aot with TMA launch maps (test/GPU/kernels/py/
 * matmul.py's matmul_kernel compiled with the default --tma-pointer-loads;
 * scripts/jit-bundle.sh): the launcher encodes the two tensor maps from its
 * arguments. C = A B for a ragged M, checked exactly (small integers in
 * fp16). Links only libcuda. */
#include "mm.h"

#include <stdio.h>
#include <stdlib.h>

static unsigned short f16(int v) { /* small integers, exactly */
  unsigned short sign = v < 0 ? 0x8000 : 0;
  unsigned int a = (unsigned int)(v < 0 ? -v : v);
  int e = 0;
  if (a == 0)
    return sign;
  while ((a >> e) > 1)
    ++e;
  return (unsigned short)(sign | ((e + 15) << 10) | (((a << 10) >> e) & 0x3ff));
}

static int from16(unsigned short h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  int v = e == 0 ? 0 : (int)(((1024 + m) << 10) >> (25 - e)) >> 10;
  return (h & 0x8000) ? -v : v;
}

int main(void) {
  CUdevice dev;
  CUcontext ctx;
  if (cuInit(0) != CUDA_SUCCESS) {
    printf("no GPU\n");
    return 77;
  }
  if (cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) ||
      cuCtxSetCurrent(ctx))
    return 2;
  const int M = 300, N = 256, K = 192;
  unsigned short *a = malloc(sizeof(short) * M * K), *b = malloc(sizeof(short) * K * N),
                 *c = malloc(sizeof(short) * M * N);
  int *want = calloc((size_t)M * N, sizeof(int));
  for (int i = 0; i < M * K; ++i)
    a[i] = f16((i * 7 + 3) % 5 - 2);
  for (int i = 0; i < K * N; ++i)
    b[i] = f16((i * 11 + 1) % 5 - 2);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < N; ++j)
        want[i * N + j] += (((i * K + k) * 7 + 3) % 5 - 2) * (((k * N + j) * 11 + 1) % 5 - 2);
  CUdeviceptr da, db, dc;
  if (cuMemAlloc(&da, sizeof(short) * M * K) || cuMemAlloc(&db, sizeof(short) * K * N) ||
      cuMemAlloc(&dc, sizeof(short) * M * N))
    return 3;
  cuMemcpyHtoD(da, a, sizeof(short) * M * K);
  cuMemcpyHtoD(db, b, sizeof(short) * K * N);
  unsigned int grid = (unsigned int)(((M + 127) / 128) * ((N + 127) / 128));
  CUresult r = matmul_kernel(NULL, grid, 1, 1, da, db, dc, M, N, K, K, 1, N, 1, N, 1);
  if (r != CUDA_SUCCESS) {
    printf("launch failed: %d %s\n", (int)r, mm_error());
    return 4;
  }
  if (cuCtxSynchronize() != CUDA_SUCCESS)
    return 5;
  cuMemcpyDtoH(c, dc, sizeof(short) * M * N);
  for (int i = 0; i < M * N; ++i)
    if (from16(c[i]) != want[i]) {
      printf("C[%d][%d] = %d, want %d\n", i / N, i % N, from16(c[i]), want[i]);
      return 6;
    }
  /* A misaligned operand is refused before the launch. */
  r = matmul_kernel(NULL, grid, 1, 1, da + 2, db, dc, M, N, K, K, 1, N, 1, N, 1);
  if (r != CUDA_ERROR_INVALID_VALUE)
    return 7;
  printf("aot GEMM with launch maps %dx%dx%d: ok\n", M, N, K);
  return 0;
}
