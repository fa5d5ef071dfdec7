//===- main.cpp - A host application that JIT-compiles a tile program ------===//
//
// host_app SOFTMAX_PY [ROWS COLS]: compiles softmax_kernel of the
// Triton-language file with tilec's JIT (cached on disk: a second run loads
// it), runs it on device buffers it allocates with the CUDA driver API, and
// checks every element against a CPU softmax in double precision. Prints
// the compile's origin and time. Exit 0 when the result matches, 1 on an
// error, 77 when there is no GPU.
//
//===----------------------------------------------------------------------===//
#include "tilec/Jit.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

static int fail(const std::string &what, const tilec::Status &s) {
  std::fprintf(stderr, "host_app: %s: %s\n", what.c_str(), s.message().c_str());
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2 && argc != 4) {
    std::fprintf(stderr, "usage: host_app SOFTMAX_PY [ROWS COLS]\n");
    return 2;
  }
  int rows = argc == 4 ? std::atoi(argv[2]) : 1823;
  int cols = argc == 4 ? std::atoi(argv[3]) : 781;
  if (rows < 1 || cols < 1 || cols > 1024) {
    std::fprintf(stderr, "host_app: expected ROWS >= 1 and 1 <= COLS <= 1024\n");
    return 2;
  }

  std::shared_ptr<tilec::Context> ctx;
  if (tilec::Status s = tilec::Context::create(0, ctx); !s) {
    std::printf("host_app: no GPU (%s)\n", s.message().c_str());
    return 77;
  }
  std::unique_ptr<tilec::Jit> jit;
  tilec::Jit::Options jitOptions; // disk cache: TILEC_CACHE_DIR or ~/.cache/tilec
  jitOptions.note = [](const std::string &n) { std::fprintf(stderr, "%s\n", n.c_str()); };
  if (tilec::Status s = tilec::Jit::create(ctx, jitOptions, jit); !s)
    return fail("Jit::create", s);

  // What Triton's JIT would be told at the call site: the kernel, the
  // argument types with their facts, the constexpr block size.
  tilec::CompileOptions options;
  options.kernel = "softmax_kernel";
  options.signature = "*fp32:16,*fp32:16,i32,i32,i32,i32";
  options.constexprs = {{"BLOCK_SIZE", "1024"}};
  options.numWarps = 4;
  tilec::Kernel softmax;
  tilec::JitResult result;
  if (tilec::Status s = jit->compileFile(argv[1], options, softmax, &result); !s)
    return fail("compile", s);
  const char *origin = result.origin == tilec::JitOrigin::Compiled ? "compiled"
                       : result.origin == tilec::JitOrigin::Disk   ? "disk cache"
                       : result.origin == tilec::JitOrigin::Fleet  ? "fleet cache"
                                                                   : "memory";
  std::printf("softmax_kernel: %s in %.3f ms (%s, key %.16s...)\n", origin,
              result.seconds * 1e3, result.cubin ? "cubin" : "PTX",
              result.key.c_str());

  // Inputs: random rows, each padded to a stride of a multiple of 16
  // elements (the :16 facts are on the pointers only).
  int stride = (cols + 15) / 16 * 16;
  std::vector<float> in(size_t(rows) * stride, 0.f), out(in.size(), 0.f);
  std::mt19937 gen(2026);
  std::uniform_real_distribution<float> dist(-5.f, 5.f);
  for (float &v : in)
    v = dist(gen);
  CUdeviceptr dIn = 0, dOut = 0;
  size_t bytes = in.size() * sizeof(float);
  if (cuMemAlloc(&dIn, bytes) != CUDA_SUCCESS ||
      cuMemAlloc(&dOut, bytes) != CUDA_SUCCESS ||
      cuMemcpyHtoD(dIn, in.data(), bytes) != CUDA_SUCCESS) {
    std::fprintf(stderr, "host_app: device allocation or copy failed\n");
    return 1;
  }
  tilec::Status s = softmax.launch(
      tilec::Grid{unsigned(rows), 1, 1},
      {tilec::Arg::ptr(dOut), tilec::Arg::ptr(dIn), tilec::Arg::i32(stride),
       tilec::Arg::i32(stride), tilec::Arg::i32(rows), tilec::Arg::i32(cols)});
  if (!s)
    return fail("launch", s);
  if (s = ctx->synchronize(); !s)
    return fail("synchronize", s);
  cuMemcpyDtoH(out.data(), dOut, bytes);
  cuMemFree(dIn);
  cuMemFree(dOut);

  double worst = 0;
  for (int r = 0; r < rows; ++r) {
    const float *x = &in[size_t(r) * stride];
    double mx = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c)
      mx = std::max(mx, double(x[c]));
    for (int c = 0; c < cols; ++c)
      sum += std::exp(double(x[c]) - mx);
    for (int c = 0; c < cols; ++c) {
      double want = std::exp(double(x[c]) - mx) / sum;
      double err = std::fabs(out[size_t(r) * stride + c] - want);
      if (err > 1e-6 + 1e-5 * want) {
        std::fprintf(stderr, "host_app: row %d col %d: %g, expected %g\n", r,
                     c, out[size_t(r) * stride + c], want);
        return 1;
      }
      worst = std::max(worst, err);
    }
  }
  std::printf("softmax %d x %d: ok (max abs error %.3g)\n", rows, cols, worst);
  return 0;
}
