/* A host program built against tilec --aot output (test/CLI/aot.test): it
 * links only libcuda. Without a GPU it stops at cuInit; with one it adds two
 * vectors through the generated launcher and checks the result and the
 * launcher's refusals. */
#include "add.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  CUdevice dev;
  CUcontext ctx;
  CUresult r = cuInit(0);
  if (r != CUDA_SUCCESS) {
    printf("no GPU: cuInit returned %d\n", (int)r);
    return 77;
  }
  if (cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) ||
      cuCtxSetCurrent(ctx))
    return 2;
  enum { N = 4096 + 16 };
  static float x[N], y[N], out[N];
  for (int i = 0; i < N; ++i) {
    x[i] = (float)(i % 97) * 0.25f;
    y[i] = (float)(i % 31) - 7.0f;
  }
  CUdeviceptr dx, dy, dout;
  if (cuMemAlloc(&dx, sizeof x) || cuMemAlloc(&dy, sizeof y) ||
      cuMemAlloc(&dout, sizeof out))
    return 3;
  cuMemcpyHtoD(dx, x, sizeof x);
  cuMemcpyHtoD(dy, y, sizeof y);
  cuMemsetD32(dout, 0, N);
  r = add_kernel(NULL, (N + 1023) / 1024, 1, 1, dx, dy, dout, N);
  if (r != CUDA_SUCCESS) {
    printf("launch failed: %d %s\n", (int)r, add_error());
    return 4;
  }
  cuCtxSynchronize();
  cuMemcpyDtoH(out, dout, sizeof out);
  for (int i = 0; i < N; ++i)
    if (out[i] != x[i] + y[i]) {
      printf("element %d: %f != %f\n", i, out[i], x[i] + y[i]);
      return 5;
    }
  /* Broken facts are refused before the launch. */
  r = add_kernel(NULL, 1, 1, 1, dx, dy, dout, N - 1);
  printf("n = %d: %d %s\n", N - 1, (int)r, add_error());
  if (r != CUDA_ERROR_INVALID_VALUE || !strstr(add_error(), "divisible by 16"))
    return 6;
  r = add_kernel(NULL, 1, 1, 1, dx + 4, dy, dout, N);
  printf("x + 4 bytes: %d %s\n", (int)r, add_error());
  if (r != CUDA_ERROR_INVALID_VALUE || !strstr(add_error(), "16-byte aligned"))
    return 7;
  r = add_kernel(NULL, 0, 1, 1, dx, dy, dout, N);
  if (r != CUDA_ERROR_INVALID_VALUE)
    return 8;
  printf("aot add_kernel: %d elements ok\n", N);
  return 0;
}
