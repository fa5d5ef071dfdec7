//===- launch_overhead.cpp - Host cost of a kernel launch ----------------===//
//
// How long the host spends in one launch: Kernel::launch (argument checks,
// tensor-map encoding, cuLaunchKernel) against a bare cuLaunchKernel of the
// same function with the same arguments. From a gpu-bundle folder:
//
//   bin/tilec-launch-bench kernels [launches]
//
// The kernels are the GEMM benchmark's matmul_kernel (matmul.py, fp16,
// 128x256x64): bench_wgmma_fp16_i32_16 (cp.async, no tensor maps) and
// bench_wgmma_tmaptr_fp16_i32_16 (its loads on TMA: two launch maps, which
// the runtime evaluates and encodes with cuTensorMapEncodeTiled at each
// launch). The problem is 16 x 16 x 16 (one CTA, a few microseconds of GPU
// time), launched in batches of 256 on one stream, synchronized between
// batches; the time counted is the host time of the launch calls alone, its
// median over batches, in microseconds per launch, and the median of three
// interleaved rounds. Prints a table; exits 77 without a GPU, 1 on an error.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int kBatch = 256;
constexpr int kSize = 16; // M = N = K

bool check(const tilec::Status &s, const char *what) {
  if (!s.ok())
    std::fprintf(stderr, "tilec-launch-bench: %s: %s\n", what,
                 s.message().c_str());
  return s.ok();
}

bool checkCu(CUresult r, const char *what) {
  if (r != CUDA_SUCCESS) {
    const char *name = nullptr;
    cuGetErrorName(r, &name);
    std::fprintf(stderr, "tilec-launch-bench: %s failed: %s\n", what,
                 name ? name : "unknown error");
  }
  return r == CUDA_SUCCESS;
}

/// Median over `batches` of the host microseconds per launch of `launch`.
template <typename F>
double timeLaunches(int batches, CUstream stream, F &&launch, bool &ok) {
  std::vector<double> perLaunch;
  for (int b = 0; b < batches + 2 && ok; ++b) { // two warm-up batches
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kBatch && ok; ++i)
      ok = launch();
    auto end = std::chrono::steady_clock::now();
    ok = ok && checkCu(cuStreamSynchronize(stream), "cuStreamSynchronize");
    if (b >= 2)
      perLaunch.push_back(
          std::chrono::duration<double, std::micro>(end - start).count() /
          kBatch);
  }
  if (perLaunch.empty())
    return 0;
  std::sort(perLaunch.begin(), perLaunch.end());
  return perLaunch[perLaunch.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2 || std::string(argv[1]) == "--help") {
    std::printf("usage: tilec-launch-bench KERNEL_DIR [LAUNCHES]\n");
    return argc < 2 ? 2 : 0;
  }
  std::string dir = argv[1];
  int launches = argc > 2 ? std::atoi(argv[2]) : 20000;
  int batches = std::max(1, launches / kBatch);

  std::shared_ptr<tilec::Context> ctx;
  if (tilec::Status s = tilec::Context::create(0, ctx); !s.ok()) {
    std::printf("skipped: no CUDA driver/GPU (%s)\n", s.message().c_str());
    return 77;
  }
  CUdeviceptr a = 0, b = 0, c = 0;
  size_t bytes = size_t(kSize) * kSize * 2;
  if (!checkCu(cuMemAlloc(&a, bytes), "cuMemAlloc") ||
      !checkCu(cuMemAlloc(&b, bytes), "cuMemAlloc") ||
      !checkCu(cuMemAlloc(&c, bytes), "cuMemAlloc"))
    return 1;
  CUstream stream = nullptr;
  if (!checkCu(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
               "cuStreamCreate"))
    return 1;

  // matmul_kernel(a, b, c, M, N, K, stride_am, stride_ak, stride_bk,
  //               stride_bn, stride_cm, stride_cn)
  std::vector<tilec::Arg> args = {
      tilec::Arg::ptr(a),        tilec::Arg::ptr(b),     tilec::Arg::ptr(c),
      tilec::Arg::i32(kSize),    tilec::Arg::i32(kSize), tilec::Arg::i32(kSize),
      tilec::Arg::i32(kSize),    tilec::Arg::i32(1),     tilec::Arg::i32(kSize),
      tilec::Arg::i32(1),        tilec::Arg::i32(kSize), tilec::Arg::i32(1)};
  tilec::Grid grid{1, 1, 1};

  const char *names[] = {"bench_wgmma_fp16_i32_16",
                         "bench_wgmma_tmaptr_fp16_i32_16"};
  tilec::Module modules[2];
  tilec::Kernel kernels[2];
  for (int k = 0; k < 2; ++k)
    if (!check(tilec::Module::loadFile(ctx, dir + "/" + names[k] + ".ptx",
                                       modules[k]),
               names[k]) ||
        !check(modules[k].getKernel("matmul_kernel", kernels[k]), names[k]))
      return 1;
  // Three interleaved rounds; each number is the median of its rounds.
  bool ok = true;
  std::vector<double> viaTilec[2], bare;
  for (int round = 0; round < 3 && ok; ++round)
    for (int k = 0; k < 2 && ok; ++k) {
      const tilec::Kernel &kernel = kernels[k];
      viaTilec[k].push_back(timeLaunches(batches, stream, [&] {
        return check(kernel.launch(grid, args, stream), "launch");
      }, ok));
      // The bare driver launch: of the kernel without launch maps only (a
      // map's bytes are the runtime's to encode).
      if (ok && kernel.info().launchMaps.empty()) {
        std::vector<void *> params;
        for (const tilec::Arg &arg : args)
          params.push_back(const_cast<void *>(arg.data()));
        CUfunction f = kernel.function();
        bare.push_back(timeLaunches(batches, stream, [&] {
          return checkCu(cuLaunchKernel(f, 1, 1, 1, kernel.numWarps() * 32, 1,
                                        1, kernel.sharedBytes(), stream,
                                        params.data(), nullptr),
                         "cuLaunchKernel");
        }, ok));
      }
    }
  if (!ok)
    return 1;
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  std::printf("%-34s %5s %10s %10s\n", "kernel", "maps", "tilec us", "bare us");
  for (int k = 0; k < 2; ++k) {
    size_t maps = kernels[k].info().launchMaps.size();
    char bareText[32] = "-";
    if (!maps)
      std::snprintf(bareText, sizeof bareText, "%.2f", median(bare));
    std::printf("%-34s %5zu %10.2f %10s\n", names[k], maps,
                median(viaTilec[k]), bareText);
  }
  cuStreamDestroy(stream);
  cuMemFree(a);
  cuMemFree(b);
  cuMemFree(c);
  return 0;
}
