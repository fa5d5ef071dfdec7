/* A host program built against tilec --aot output of an autotuned kernel
 * (test/CLI/aot.test, scripts/jit-bundle.sh): sum_kernel of
 * test/GPU/kernels/py/autotune.py, whose @triton.autotune has 4 configs,
 * key=['n'] and reset_to_zero=['out_ptr']. The first call tunes (zeroing
 * the output around each timed run), the second reuses the choice; both
 * must count the input exactly once. Links only libcuda. */
#include "sum.h"

#include <stdio.h>
#include <stdlib.h>

static void grid(int config, unsigned int g[3], void *user) {
  long long n = *(const int *)user;
  long long block = sum_kernel_config_int(config, "BLOCK", 1024);
  g[0] = (unsigned int)((n + block - 1) / block);
  g[1] = g[2] = 1;
}

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
  int n = (1 << 20) + 3;
  int *x = malloc(sizeof(int) * (size_t)n);
  long long want = 0;
  for (int i = 0; i < n; ++i) {
    x[i] = (int)((long long)i * 7919 % 1000) - 500;
    want += x[i];
  }
  CUdeviceptr dx, dout;
  if (cuMemAlloc(&dx, sizeof(int) * (size_t)n) || cuMemAlloc(&dout, 64))
    return 3;
  cuMemcpyHtoD(dx, x, sizeof(int) * (size_t)n);
  for (int call = 0; call < 2; ++call) {
    int got = 0;
    cuMemsetD8(dout, 0, 64);
    r = sum_kernel(NULL, grid, &n, dx, dout, n, 4);
    if (r != CUDA_SUCCESS) {
      printf("launch failed: %d %s\n", (int)r, sum_error());
      return 4;
    }
    cuCtxSynchronize();
    cuMemcpyDtoH(&got, dout, 4);
    printf("call %d: config %d (%s): sum %d, want %lld\n", call,
           sum_kernel_tuned_config(),
           sum_kernel_config_name(sum_kernel_tuned_config()), got, want);
    if (got != (int)want)
      return 5;
  }
  printf("aot autotuned sum_kernel: ok\n");
  return 0;
}
