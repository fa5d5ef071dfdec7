//===- JitTests.cpp - The JIT, its caches and the AOT-free paths on a GPU ---===//
//
// tilec-jit-tests SRC: tilec::Jit (tilec/Jit.h) on a GPU, against CPU
// references, and the compile / load times issue 13 asks for. SRC is a
// folder holding softmax.py and vector_add.py (examples/). Each check prints
// "PASS name" or "FAIL name: why"; a table of times comes last. Exit 0 when
// every check passed, 1 otherwise, 77 without a GPU.
//
//   tilec-jit-tests SRC                 all checks (a fresh cache folder)
//   tilec-jit-tests SRC --child CACHE   (internal) a second process: loads
//                                       softmax from CACHE, prints its time
//
//===----------------------------------------------------------------------===//
#include "tilec/Jit.h"
#include "tilec/jit_c.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

int failures = 0;
std::vector<std::pair<std::string, double>> timings; // name, seconds

void report(bool ok, const std::string &name, const std::string &why = "") {
  if (ok)
    std::printf("PASS %s\n", name.c_str());
  else
    std::printf("FAIL %s: %s\n", name.c_str(), why.c_str());
  std::fflush(stdout);
  failures += ok ? 0 : 1;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool writeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return bool(out);
}

std::string makeTempDir() {
  char tmpl[] = "/tmp/tilec-jit-XXXXXX";
  const char *d = mkdtemp(tmpl);
  return d ? d : "";
}

const char *originName(tilec::JitOrigin o) {
  switch (o) {
  case tilec::JitOrigin::Memory: return "memory";
  case tilec::JitOrigin::Disk: return "disk";
  case tilec::JitOrigin::Fleet: return "fleet";
  case tilec::JitOrigin::Compiled: return "compiled";
  }
  return "?";
}

/// Device buffers freed at scope exit.
struct DeviceBuffer {
  CUdeviceptr ptr = 0;
  explicit DeviceBuffer(size_t bytes) {
    if (cuMemAlloc(&ptr, bytes ? bytes : 1) != CUDA_SUCCESS)
      ptr = 0;
  }
  ~DeviceBuffer() {
    if (ptr)
      cuMemFree(ptr);
  }
};

tilec::CompileOptions softmaxOptions(int block = 1024) {
  tilec::CompileOptions o;
  o.kernel = "softmax_kernel";
  o.signature = "*fp32:16,*fp32:16,i32,i32,i32,i32";
  o.constexprs = {{"BLOCK_SIZE", std::to_string(block)}};
  o.numWarps = 4;
  return o;
}

/// Runs softmax (rows x cols, row stride `stride` >= cols) through `k` and
/// compares with a float64 CPU reference. "" when it matches.
std::string checkSoftmax(const tilec::Kernel &k, int rows, int cols,
                         int stride, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-4.f, 4.f);
  std::vector<float> in(size_t(rows) * stride), out(in.size(), -7.f);
  for (float &v : in)
    v = dist(gen);
  DeviceBuffer din(in.size() * 4), dout(in.size() * 4);
  if (!din.ptr || !dout.ptr)
    return "cuMemAlloc failed";
  cuMemcpyHtoD(din.ptr, in.data(), in.size() * 4);
  cuMemcpyHtoD(dout.ptr, out.data(), out.size() * 4);
  tilec::Status s = k.launch(
      tilec::Grid{unsigned(rows), 1, 1},
      {tilec::Arg::ptr(dout.ptr), tilec::Arg::ptr(din.ptr),
       tilec::Arg::i32(stride), tilec::Arg::i32(stride), tilec::Arg::i32(rows),
       tilec::Arg::i32(cols)});
  if (!s)
    return s.message();
  if (cuCtxSynchronize() != CUDA_SUCCESS)
    return "cuCtxSynchronize failed";
  cuMemcpyDtoH(out.data(), dout.ptr, out.size() * 4);
  for (int r = 0; r < rows; ++r) {
    double mx = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c)
      mx = std::max(mx, double(in[size_t(r) * stride + c]));
    for (int c = 0; c < cols; ++c)
      sum += std::exp(double(in[size_t(r) * stride + c]) - mx);
    for (int c = 0; c < stride; ++c) {
      float got = out[size_t(r) * stride + c];
      if (c >= cols) {
        if (got != -7.f)
          return "wrote past the row at (" + std::to_string(r) + ", " +
                 std::to_string(c) + ")";
        continue;
      }
      double want = std::exp(double(in[size_t(r) * stride + c]) - mx) / sum;
      if (std::fabs(got - want) > 1e-6 + 1e-5 * std::fabs(want))
        return "(" + std::to_string(r) + ", " + std::to_string(c) +
               "): got " + std::to_string(got) + ", want " +
               std::to_string(want);
    }
  }
  return "";
}

/// x + y over n elements through `launch` (grid, x, y, out, n).
template <typename Launch>
std::string checkAdd(int n, unsigned seed, Launch &&launch) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> x(n), y(n), out(n + 16, -3.f);
  for (int i = 0; i < n; ++i) {
    x[i] = dist(gen);
    y[i] = dist(gen);
  }
  DeviceBuffer dx(n * 4), dy(n * 4), dout((n + 16) * 4);
  cuMemcpyHtoD(dx.ptr, x.data(), n * 4);
  cuMemcpyHtoD(dy.ptr, y.data(), n * 4);
  cuMemcpyHtoD(dout.ptr, out.data(), (n + 16) * 4);
  std::string err = launch(unsigned((n + 1023) / 1024), dx.ptr, dy.ptr,
                           dout.ptr, n);
  if (!err.empty())
    return err;
  if (cuCtxSynchronize() != CUDA_SUCCESS)
    return "cuCtxSynchronize failed";
  cuMemcpyDtoH(out.data(), dout.ptr, (n + 16) * 4);
  for (int i = 0; i < n + 16; ++i) {
    float want = i < n ? x[i] + y[i] : -3.f;
    if (out[i] != want)
      return "element " + std::to_string(i) + ": got " +
             std::to_string(out[i]) + ", want " + std::to_string(want);
  }
  return "";
}

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t)
      .count();
}

int runChild(const std::string &src, const std::string &cacheDir) {
  auto start = std::chrono::steady_clock::now();
  std::shared_ptr<tilec::Context> ctx;
  if (!tilec::Context::create(0, ctx))
    return 2;
  double ctxSeconds = secondsSince(start);
  std::unique_ptr<tilec::Jit> jit;
  tilec::Jit::Options jo;
  jo.cacheDir = cacheDir;
  if (!tilec::Jit::create(ctx, jo, jit))
    return 3;
  tilec::Kernel k;
  tilec::JitResult r;
  tilec::Status s = jit->compileFile(src + "/softmax.py", softmaxOptions(), k, &r);
  if (!s) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 4;
  }
  std::string err = checkSoftmax(k, 5, 300, 304, 7);
  std::printf("child origin=%s seconds=%.6f context=%.6f check=%s\n",
              originName(r.origin), r.seconds, ctxSeconds,
              err.empty() ? "ok" : err.c_str());
  return r.origin == tilec::JitOrigin::Disk && err.empty() ? 0 : 5;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: tilec-jit-tests SRC [--child CACHE]\n");
    return 2;
  }
  std::string src = argv[1];
  if (argc == 4 && std::string(argv[2]) == "--child")
    return runChild(src, argv[3]);

  auto ctxStart = std::chrono::steady_clock::now();
  std::shared_ptr<tilec::Context> ctx;
  if (tilec::Status s = tilec::Context::create(0, ctx); !s) {
    std::printf("skipped: no CUDA driver/GPU (%s)\n", s.message().c_str());
    return 77;
  }
  timings.emplace_back("context create (cuInit, primary context)",
                       secondsSince(ctxStart));
  std::printf("device: %s (sm_%d)\n", ctx->deviceName().c_str(),
              ctx->computeCapability());
  std::string cacheDir = makeTempDir() + "/cache";
  std::string softmaxSource = readFile(src + "/softmax.py");

  // 1. Cold compile: the first compile of the process, an empty cache.
  std::vector<std::string> notes;
  tilec::Jit::Options jo;
  jo.cacheDir = cacheDir;
  jo.note = [&](const std::string &n) { notes.push_back(n); };
  std::unique_ptr<tilec::Jit> jit;
  auto createStart = std::chrono::steady_clock::now();
  if (tilec::Status s = tilec::Jit::create(ctx, jo, jit); !s) {
    report(false, "jit_create", s.message());
    return 1;
  }
  timings.emplace_back("Jit::create", secondsSince(createStart));
  std::printf("ptxas: %s; cache: %s\n",
              jit->ptxasPath().empty() ? "(none: PTX)" : jit->ptxasPath().c_str(),
              jit->cacheDirectory().c_str());
  tilec::Kernel softmax;
  tilec::JitResult r;
  tilec::Status s = jit->compileFile(src + "/softmax.py", softmaxOptions(),
                                     softmax, &r);
  report(s.ok() && r.origin == tilec::JitOrigin::Compiled && r.cubin,
         "cold_compile", s.ok() ? std::string("origin ") + originName(r.origin)
                                : s.message());
  timings.emplace_back("cold compile softmax.py -> loaded kernel (in-process, "
                       "ptxas cubin)",
                       r.seconds);
  if (s) {
    std::string err = checkSoftmax(softmax, 37, 1000, 1008, 1);
    report(err.empty(), "cold_compile_runs_softmax_37x1000", err);
    err = checkSoftmax(softmax, 3, 1, 16, 2);
    report(err.empty(), "softmax_one_column", err);
  }

  // 2. The same key again: the in-memory table.
  {
    double best = 1e9;
    tilec::Status s2;
    for (int i = 0; i < 100; ++i) {
      tilec::Kernel k;
      s2 = jit->compileFile(src + "/softmax.py", softmaxOptions(), k, &r);
      best = std::min(best, r.seconds);
      if (!s2 || r.origin != tilec::JitOrigin::Memory)
        break;
    }
    report(s2.ok() && r.origin == tilec::JitOrigin::Memory, "memory_hit",
           s2.ok() ? originName(r.origin) : s2.message());
    timings.emplace_back("memory hit (same Jit; includes reading the file, "
                         "best of 100)",
                         best);
    double bestText = 1e9;
    for (int i = 0; i < 100; ++i) {
      tilec::Kernel k;
      s2 = jit->compile(softmaxSource, src + "/softmax.py", softmaxOptions(), k,
                        &r);
      bestText = std::min(bestText, r.seconds);
    }
    timings.emplace_back("memory hit (source text given, best of 100)",
                         bestText);
  }

  // 3. A new Jit in this process: the disk cache.
  {
    std::unique_ptr<tilec::Jit> jit2;
    s = tilec::Jit::create(ctx, jo, jit2);
    tilec::Kernel k;
    if (s)
      s = jit2->compileFile(src + "/softmax.py", softmaxOptions(), k, &r);
    report(s.ok() && r.origin == tilec::JitOrigin::Disk, "disk_hit_new_jit",
           s.ok() ? originName(r.origin) : s.message());
    timings.emplace_back("disk hit (new Jit, same process)", r.seconds);
    if (s) {
      std::string err = checkSoftmax(k, 64, 1024, 1024, 3);
      report(err.empty(), "disk_hit_runs_softmax_64x1024", err);
    }
  }

  // 4. A second process: the disk cache.
  {
    std::string cmd = "'/proc/" + std::to_string(getpid()) + "/exe' '" + src +
                      "' --child '" + cacheDir + "'";
    FILE *p = popen(cmd.c_str(), "r");
    std::string out;
    char buf[512];
    while (p && std::fgets(buf, sizeof buf, p))
      out += buf;
    int rc = p ? pclose(p) : -1;
    report(rc == 0, "disk_hit_second_process", out);
    double secs = 0;
    if (const char *at = std::strstr(out.c_str(), "seconds="))
      secs = std::atof(at + 8);
    timings.emplace_back("disk hit (second process, first compile call)", secs);
  }

  // 5. Concurrent compiles: 4 keys, each asked by 2 threads at once.
  {
    std::unique_ptr<tilec::Jit> jit3;
    tilec::Jit::Options o3 = jo;
    o3.cacheDir = makeTempDir() + "/cache";
    s = tilec::Jit::create(ctx, o3, jit3);
    std::atomic<int> compiled{0}, ok{0};
    std::vector<std::thread> threads;
    std::vector<std::string> errors(8);
    auto start = std::chrono::steady_clock::now();
    for (int t = 0; t < 8; ++t)
      threads.emplace_back([&, t] {
        tilec::Kernel k;
        tilec::JitResult rr;
        int block = 128 << (t % 4);
        tilec::Status st = jit3->compileFile(src + "/softmax.py",
                                             softmaxOptions(block), k, &rr);
        if (!st) {
          errors[t] = st.message();
          return;
        }
        ok += 1;
        compiled += rr.origin == tilec::JitOrigin::Compiled;
      });
    for (auto &th : threads)
      th.join();
    double secs = secondsSince(start);
    std::string why;
    for (const std::string &e : errors)
      why += e;
    report(s.ok() && ok == 8 && compiled == 4, "concurrent_8_threads_4_keys",
           "ok " + std::to_string(ok.load()) + ", compiled " +
               std::to_string(compiled.load()) + " " + why);
    timings.emplace_back("4 keys compiled by 8 threads at once (wall)", secs);
  }

  // 6. Errors come back located; the process lives on.
  {
    tilec::Kernel k;
    std::string bad = "import triton\nimport triton.language as tl\n\n"
                      "@triton.jit\ndef k(x_ptr):\n    y = tl.load(x_ptr +)\n";
    tilec::CompileOptions o;
    o.kernel = "k";
    o.signature = "*fp32";
    s = jit->compile(bad, "bad.py", o, k);
    report(!s.ok() && s.message().find("bad.py:6:") != std::string::npos &&
               s.message().find("^") != std::string::npos,
           "syntax_error_located", s.message());
    o.kernel = "nope";
    s = jit->compile(softmaxSource, "softmax.py", o, k);
    report(!s.ok() && s.message().find("nope") != std::string::npos,
           "unknown_kernel", s.message());
    tilec::CompileOptions bw = softmaxOptions();
    bw.numWarps = 3;
    s = jit->compile(softmaxSource, "softmax.py", bw, k);
    report(!s.ok() && s.message().find("num_warps") != std::string::npos,
           "bad_num_warps", s.message());
  }

  // 7. A damaged cache entry is noted, deleted and rebuilt.
  {
    std::string key = jit->keyFor(softmaxSource, src + "/softmax.py",
                                  softmaxOptions());
    std::string entry = cacheDir + "/" + key.substr(0, 2) + "/" + key;
    std::string bytes = readFile(entry);
    bool wrote = !bytes.empty() && writeFile(entry, bytes.substr(0, bytes.size() / 2));
    notes.clear();
    std::unique_ptr<tilec::Jit> jit4;
    s = tilec::Jit::create(ctx, jo, jit4);
    tilec::Kernel k;
    if (s)
      s = jit4->compileFile(src + "/softmax.py", softmaxOptions(), k, &r);
    std::string err = s ? checkSoftmax(k, 4, 100, 112, 4) : s.message();
    report(wrote && s.ok() && r.origin == tilec::JitOrigin::Compiled &&
               notes.size() == 1 && err.empty(),
           "truncated_entry_rebuilt",
           (notes.empty() ? std::string("no note") : notes.front()) + " " + err);
  }

  // 8. An imported module that changed makes its entries stale.
  {
    std::string dir = makeTempDir();
    std::string helper = dir + "/helpers.py";
    std::string main = dir + "/scaled.py";
    writeFile(helper, "import triton\nimport triton.language as tl\n\n"
                      "@triton.jit\ndef scale(x):\n    return x * 2.0\n");
    writeFile(main,
              "import triton\nimport triton.language as tl\nfrom helpers "
              "import scale\n\n@triton.jit\ndef scaled_kernel(x_ptr, out_ptr, "
              "n, BLOCK: tl.constexpr):\n    offs = tl.program_id(0) * BLOCK "
              "+ tl.arange(0, BLOCK)\n    m = offs < n\n    x = tl.load(x_ptr "
              "+ offs, mask=m)\n    tl.store(out_ptr + offs, scale(x), "
              "mask=m)\n");
    tilec::CompileOptions o;
    o.kernel = "scaled_kernel";
    o.signature = "*fp32:16,*fp32:16,i32";
    o.constexprs = {{"BLOCK", "256"}};
    auto runScaled = [&](tilec::Kernel &k, float factor) -> std::string {
      const int n = 300;
      std::vector<float> x(n), out(n);
      for (int i = 0; i < n; ++i)
        x[i] = float(i) - 7.5f;
      DeviceBuffer dx(n * 4), dout(n * 4);
      cuMemcpyHtoD(dx.ptr, x.data(), n * 4);
      tilec::Status st = k.launch(tilec::Grid{2, 1, 1},
                                  {tilec::Arg::ptr(dx.ptr),
                                   tilec::Arg::ptr(dout.ptr),
                                   tilec::Arg::i32(n)});
      if (!st)
        return st.message();
      cuCtxSynchronize();
      cuMemcpyDtoH(out.data(), dout.ptr, n * 4);
      for (int i = 0; i < n; ++i)
        if (out[i] != x[i] * factor)
          return "element " + std::to_string(i) + " " + std::to_string(out[i]);
      return "";
    };
    tilec::Kernel k1, k2;
    std::unique_ptr<tilec::Jit> a, b;
    s = tilec::Jit::create(ctx, jo, a);
    if (s)
      s = a->compileFile(main, o, k1, &r);
    std::string e1 = s ? runScaled(k1, 2.0f) : s.message();
    writeFile(helper, "import triton\nimport triton.language as tl\n\n"
                      "@triton.jit\ndef scale(x):\n    return x * 3.0\n");
    notes.clear();
    tilec::JitResult r2;
    s = tilec::Jit::create(ctx, jo, b);
    if (s)
      s = b->compileFile(main, o, k2, &r2);
    std::string e2 = s ? runScaled(k2, 3.0f) : s.message();
    report(e1.empty() && e2.empty() && r.origin == tilec::JitOrigin::Compiled &&
               r2.origin == tilec::JitOrigin::Compiled && notes.size() == 1,
           "changed_import_recompiles",
           e1 + " | " + e2 + " | " + originName(r2.origin) + " | " +
               (notes.empty() ? "no note" : notes.front()));

    // The same relative file name in two working directories whose
    // helper modules differ: two keys, two kernels.
    std::string other = makeTempDir();
    writeFile(other + "/helpers.py", "import triton\nimport triton.language as tl\n\n"
                                     "@triton.jit\ndef scale(x):\n    return x * 5.0\n");
    writeFile(other + "/scaled.py", readFile(main));
    char cwd[4096];
    std::string back = getcwd(cwd, sizeof cwd) ? cwd : "/";
    tilec::Kernel k3, k4;
    tilec::JitResult r3, r4;
    std::unique_ptr<tilec::Jit> c, d;
    std::string e3 = "no chdir", e4;
    if (chdir(dir.c_str()) == 0) {
      s = tilec::Jit::create(ctx, jo, c);
      if (s)
        s = c->compileFile("scaled.py", o, k3, &r3);
      e3 = s ? runScaled(k3, 3.0f) : s.message();
    }
    if (chdir(other.c_str()) == 0) {
      s = tilec::Jit::create(ctx, jo, d);
      if (s)
        s = d->compileFile("scaled.py", o, k4, &r4);
      e4 = s ? runScaled(k4, 5.0f) : s.message();
    }
    if (chdir(back.c_str()) != 0)
      e4 += " (could not return to " + back + ")";
    report(e3.empty() && e4.empty() && r3.key != r4.key &&
               r4.origin == tilec::JitOrigin::Compiled,
           "same_relative_name_two_directories",
           e3 + " | " + e4 + " | " + originName(r4.origin));
  }

  // 9. Without ptxas: PTX, compiled by the driver.
  {
    tilec::Jit::Options o = jo;
    o.ptxas = "none";
    o.diskCache = false;
    std::unique_ptr<tilec::Jit> j;
    s = tilec::Jit::create(ctx, o, j);
    tilec::Kernel k;
    if (s)
      s = j->compileFile(src + "/softmax.py", softmaxOptions(), k, &r);
    std::string err = s ? checkSoftmax(k, 9, 513, 528, 5) : s.message();
    report(s.ok() && !r.cubin && err.empty(), "ptx_without_ptxas", err);
    timings.emplace_back("cold compile without ptxas (driver compiles the PTX; "
                         "second compile of the process)",
                         r.seconds);
  }

  // 9b. The register budget on the cubin path (assembleCubin): ptxas's own
  // count, then .maxnreg where the occupancy leaves registers unused. The
  // 4096-wide softmax of 8 warps has such slack (47 registers, 5 CTAs per
  // SM: a budget of 48).
  {
    tilec::Jit::Options o = jo;
    o.diskCache = false;
    std::unique_ptr<tilec::Jit> j;
    s = tilec::Jit::create(ctx, o, j);
    tilec::CompileOptions with = softmaxOptions(4096), without = with;
    with.numWarps = without.numWarps = 8;
    without.autoMaxNReg = false;
    tilec::Kernel a, b;
    tilec::JitResult ra, rb;
    if (s)
      s = j->compileFile(src + "/softmax.py", with, a, &ra);
    if (s)
      s = j->compileFile(src + "/softmax.py", without, b, &rb);
    std::string err = s ? checkSoftmax(a, 33, 4000, 4000, 3) : s.message();
    if (err.empty())
      err = checkSoftmax(b, 33, 4000, 4000, 3);
    int regsPerSM = 0, regsA = 0, regsB = 0, ctasA = 0, ctasB = 0;
    unsigned budget = 0;
    if (err.empty()) {
      cuDeviceGetAttribute(&regsPerSM,
                           CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
                           ctx->device());
      cuFuncGetAttribute(&regsA, CU_FUNC_ATTRIBUTE_NUM_REGS, a.function());
      cuFuncGetAttribute(&regsB, CU_FUNC_ATTRIBUTE_NUM_REGS, b.function());
      cuOccupancyMaxActiveBlocksPerMultiprocessor(&ctasA, a.function(), 256,
                                                  a.sharedBytes());
      cuOccupancyMaxActiveBlocksPerMultiprocessor(&ctasB, b.function(), 256,
                                                  b.sharedBytes());
      budget = tilec::occupancyRegisterBudget(
          unsigned(regsB), 8, unsigned(ctasB), unsigned(regsPerSM));
      err = "without a budget " + std::to_string(regsB) + " registers, " +
            std::to_string(ctasB) + " CTAs/SM; budget " +
            std::to_string(budget) + "; with it " + std::to_string(regsA) +
            " registers, " + std::to_string(ctasA) + " CTAs/SM";
      std::printf("cubin register budget: %s\n", err.c_str());
      if (budget != 0 && regsA <= int(budget) && ctasA >= ctasB && ra.cubin &&
          rb.cubin)
        err.clear();
    }
    report(err.empty(), "cubin_register_budget", err);
  }

  // 10. Facts chosen at launch (Triton's JIT specialization).
  {
    tilec::CompileOptions o;
    o.kernel = "add_kernel";
    o.signature = "*fp32,*fp32,*fp32,i32";
    o.constexprs = {{"BLOCK_SIZE", "1024"}};
    tilec::SpecializingKernel sk;
    s = tilec::SpecializingKernel::create(*jit, readFile(src + "/vector_add.py"),
                                          src + "/vector_add.py", o, sk);
    std::string sig16, sigOdd;
    std::vector<tilec::Arg> a16 = {tilec::Arg::ptr(CUdeviceptr(4096)),
                                   tilec::Arg::ptr(CUdeviceptr(4096)),
                                   tilec::Arg::ptr(CUdeviceptr(4100)),
                                   tilec::Arg::i32(4096)};
    if (s)
      s = sk.specializedSignature(a16.data(), a16.size(), sig16);
    a16[3] = tilec::Arg::i32(1);
    if (s)
      s = sk.specializedSignature(a16.data(), a16.size(), sigOdd);
    report(s.ok() && sig16 == "*fp32:16,*fp32:16,*fp32,i32:16" &&
               sigOdd == "*fp32:16,*fp32:16,*fp32,i32:1",
           "specialized_signature", sig16 + " / " + sigOdd);
    auto launchWith = [&](unsigned grid, CUdeviceptr x, CUdeviceptr y,
                          CUdeviceptr out, int n) -> std::string {
      tilec::Arg args[] = {tilec::Arg::ptr(x), tilec::Arg::ptr(y),
                           tilec::Arg::ptr(out), tilec::Arg::i32(n)};
      tilec::Status st = sk.launch(tilec::Grid{grid, 1, 1}, args, 4);
      return st ? "" : st.message();
    };
    std::string e1 = checkAdd(4096, 11, launchWith);
    std::string e2 = checkAdd(1000, 12, launchWith);
    std::string e3 = checkAdd(8192, 13, launchWith);
    report(e1.empty() && e2.empty() && e3.empty() && sk.numVariants() == 2,
           "specializing_kernel_two_variants",
           e1 + e2 + e3 + " variants " + std::to_string(sk.numVariants()));
  }

  // 11. The C API.
  {
    tilec_context cctx = nullptr;
    tilec_jit cjit = nullptr;
    tilec_kernel ck = nullptr;
    tilec_jit_options jopts;
    tilec_jit_options_init(&jopts);
    jopts.cache_dir = cacheDir.c_str();
    tilec_compile_options copts;
    tilec_compile_options_init(&copts);
    copts.kernel = "add_kernel";
    copts.signature = "*fp32:16,*fp32:16,*fp32:16,i32";
    const char *defs[] = {"BLOCK_SIZE=1024"};
    copts.constexprs = defs;
    copts.num_constexprs = 1;
    std::string path = src + "/vector_add.py";
    int rc = tilec_context_create(0, &cctx);
    if (rc == TILEC_OK)
      rc = tilec_jit_create(cctx, &jopts, &cjit);
    if (rc == TILEC_OK)
      rc = tilec_jit_compile_file(cjit, path.c_str(), &copts, &ck);
    std::string err = rc == TILEC_OK ? "" : tilec_last_error();
    if (rc == TILEC_OK)
      err = checkAdd(3000, 21, [&](unsigned grid, CUdeviceptr x, CUdeviceptr y,
                                   CUdeviceptr out, int n) -> std::string {
        tilec_arg args[4] = {{TILEC_ARG_PTR, 0, {x}},
                             {TILEC_ARG_PTR, 0, {y}},
                             {TILEC_ARG_PTR, 0, {out}},
                             {TILEC_ARG_I32, 0, {uint64_t(n)}}};
        return tilec_kernel_launch(ck, grid, 1, 1, args, 4, nullptr) ==
                       TILEC_OK
                   ? ""
                   : tilec_last_error();
      });
    tilec_kernel bad = nullptr;
    int rcBad = tilec_jit_compile(cjit, "x", 1, nullptr, &copts, &bad);
    std::string badMsg = tilec_last_error();
    report(err.empty() && rcBad == TILEC_ERROR &&
               badMsg.find("file_name is NULL") != std::string::npos,
           "c_api", err + " | " + badMsg);
    tilec_kernel_destroy(ck);
    tilec_jit_destroy(cjit);
    tilec_context_destroy(cctx);
  }

  // 12. Tile-dialect source through the JIT.
  {
    tilec::Kernel k;
    s = jit->compileFile(src + "/vector_add.mlir", tilec::CompileOptions(), k,
                         &r);
    std::string err = s ? "" : s.message();
    if (s)
      err = checkAdd(5008, 31, [&](unsigned grid, CUdeviceptr x, CUdeviceptr y,
                                   CUdeviceptr out, int n) -> std::string {
        unsigned blocks = unsigned((n + 1023) / 1024);
        (void)grid;
        tilec::Status st = k.launch(
            tilec::Grid{blocks, 1, 1},
            {tilec::Arg::ptr(x), tilec::Arg::ptr(y), tilec::Arg::ptr(out),
             tilec::Arg::i32(n)});
        return st ? "" : st.message();
      });
    report(err.empty(), "mlir_source", err);
  }

  // 13. A CUDA Graph of three launches, replayed.
  {
    CUstream stream = nullptr;
    cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING);
    const int n = 4096;
    std::vector<float> x(n, 1.5f), y(n, 2.0f), out(n);
    DeviceBuffer dx(n * 4), dy(n * 4), d1(n * 4), d2(n * 4), d3(n * 4);
    cuMemcpyHtoD(dx.ptr, x.data(), n * 4);
    cuMemcpyHtoD(dy.ptr, y.data(), n * 4);
    tilec::CompileOptions o;
    o.kernel = "add_kernel";
    o.signature = "*fp32:16,*fp32:16,*fp32:16,i32:16";
    o.constexprs = {{"BLOCK_SIZE", "1024"}};
    tilec::Kernel add;
    s = jit->compileFile(src + "/vector_add.py", o, add);
    tilec::Graph graph;
    if (s)
      s = tilec::Graph::capture(ctx, stream, [&](CUstream st) -> tilec::Status {
        tilec::Grid g{n / 1024, 1, 1};
        if (tilec::Status e = add.launch(g, {tilec::Arg::ptr(dx.ptr), tilec::Arg::ptr(dy.ptr), tilec::Arg::ptr(d1.ptr), tilec::Arg::i32(n)}, st); !e)
          return e;
        if (tilec::Status e = add.launch(g, {tilec::Arg::ptr(d1.ptr), tilec::Arg::ptr(dy.ptr), tilec::Arg::ptr(d2.ptr), tilec::Arg::i32(n)}, st); !e)
          return e;
        return add.launch(g, {tilec::Arg::ptr(d2.ptr), tilec::Arg::ptr(d1.ptr), tilec::Arg::ptr(d3.ptr), tilec::Arg::i32(n)}, st);
      }, graph);
    if (s)
      s = graph.launch(stream);
    if (s)
      s = graph.launch(stream);
    cuStreamSynchronize(stream);
    cuMemcpyDtoH(out.data(), d3.ptr, n * 4);
    bool ok = s.ok();
    for (int i = 0; ok && i < n; ++i)
      ok = out[i] == (1.5f + 2.0f + 2.0f) + (1.5f + 2.0f);
    report(ok, "graph_capture_replay", s.ok() ? "wrong values" : s.message());
    tilec::Graph none;
    s = tilec::Graph::capture(ctx, nullptr, [](CUstream) { return tilec::Status(); }, none);
    report(!s.ok(), "graph_refuses_legacy_stream", "captured the NULL stream");
    cuStreamDestroy(stream);
  }

  // 15. Autotuning (@triton.autotune read from the source).
  {
    std::string path = src + "/autotune.py";
    std::string text = readFile(path);
    tilec::AutotuneOptions quiet;
    // reset_to_zero: an atomic integer sum must count the input once.
    tilec::CompileOptions o;
    o.kernel = "sum_kernel";
    o.signature = "*i32:16,*i32:16,i32";
    tilec::AutotunedKernel sum;
    s = tilec::AutotunedKernel::create(*jit, text, path, o, sum, quiet);
    const int n = 1 << 20;
    std::vector<int32_t> x(n);
    int64_t want = 0;
    for (int i = 0; i < n; ++i) {
      x[i] = int32_t((int64_t(i) * 7919) % 1000) - 500;
      want += x[i];
    }
    DeviceBuffer dx(n * 4), dsum(64);
    cuMemcpyHtoD(dx.ptr, x.data(), n * 4);
    cuMemsetD8(dsum.ptr, 0, 64);
    tilec::Arg args[] = {tilec::Arg::ptr(dx.ptr), tilec::Arg::ptr(dsum.ptr),
                         tilec::Arg::i32(n)};
    auto grid = [&](const tilec::AutotuneConfig &c) {
      int64_t block = c.intValue("BLOCK", 1024);
      return tilec::Grid{unsigned((n + block - 1) / block), 1, 1};
    };
    tilec::AutotuneResult tr;
    if (s)
      s = sum.launch(grid, args, 3, nullptr, {{1, 4}}, &tr);
    int32_t got = 0;
    cuCtxSynchronize();
    cuMemcpyDtoH(&got, dsum.ptr, 4);
    std::string times;
    for (double t : tr.ms)
      times += " " + std::to_string(t);
    report(s.ok() && tr.from == tilec::AutotuneResult::From::Tuned &&
               got == int32_t(want),
           "autotune_reset_to_zero_sum",
           (s.ok() ? "" : s.message()) + " got " + std::to_string(got) +
               " want " + std::to_string(want) + " ms" + times);
    // The same key again: remembered; a missing buffer size is an error.
    cuMemsetD8(dsum.ptr, 0, 64);
    tilec::AutotuneResult again;
    s = sum.launch(grid, args, 3, nullptr, {{1, 4}}, &again);
    cuCtxSynchronize();
    cuMemcpyDtoH(&got, dsum.ptr, 4);
    report(s.ok() && again.from == tilec::AutotuneResult::From::Memory &&
               again.config == tr.config && got == int32_t(want),
           "autotune_remembered", s.message());
    s = sum.launch(grid, args, 3, nullptr, {}, &again);
    report(!s.ok() && s.message().find("give its size") != std::string::npos,
           "autotune_needs_buffer_size", s.message());
    // A second object (a new process would be the same): the disk cache.
    tilec::AutotunedKernel sum2;
    s = tilec::AutotunedKernel::create(*jit, text, path, o, sum2, quiet);
    cuMemsetD8(dsum.ptr, 0, 64);
    if (s)
      s = sum2.launch(grid, args, 3, nullptr, {{1, 4}}, &again);
    cuCtxSynchronize();
    cuMemcpyDtoH(&got, dsum.ptr, 4);
    report(s.ok() && again.from == tilec::AutotuneResult::From::Disk &&
               again.config == tr.config && got == int32_t(want),
           "autotune_choice_from_disk", s.message());

    // prune_configs_by in C++: only the last config is timed (and chosen)
    // for a new key (n - 4096 elements); an index out of range is an error.
    tilec::AutotuneOptions pruning;
    pruning.prune = [](const std::vector<tilec::AutotuneConfig> &configs,
                       const tilec::Arg *, size_t) {
      return std::vector<size_t>{configs.size() - 1};
    };
    tilec::AutotunedKernel pruned;
    s = tilec::AutotunedKernel::create(*jit, text, path, o, pruned, pruning);
    const int n2 = n - 4096;
    int64_t want2 = 0;
    for (int i = 0; i < n2; ++i)
      want2 += x[i];
    tilec::Arg args2[] = {tilec::Arg::ptr(dx.ptr), tilec::Arg::ptr(dsum.ptr),
                          tilec::Arg::i32(n2)};
    auto grid2 = [&](const tilec::AutotuneConfig &c) {
      int64_t block = c.intValue("BLOCK", 1024);
      return tilec::Grid{unsigned((n2 + block - 1) / block), 1, 1};
    };
    tilec::AutotuneResult pr;
    cuMemsetD8(dsum.ptr, 0, 64);
    if (s)
      s = pruned.launch(grid2, args2, 3, nullptr, {{1, 4}}, &pr);
    cuCtxSynchronize();
    cuMemcpyDtoH(&got, dsum.ptr, 4);
    size_t numConfigs = s.ok() ? pruned.configs().size() : 0;
    report(s.ok() && pr.from == tilec::AutotuneResult::From::Tuned &&
               numConfigs > 1 && pr.config == int(numConfigs - 1) &&
               pr.skipped.size() == numConfigs - 1 &&
               pr.skipped.front().find("pruned") != std::string::npos &&
               got == int32_t(want2),
           "autotune_prune_configs",
           (s.ok() ? "" : s.message()) + " config " + std::to_string(pr.config) +
               " got " + std::to_string(got) + " want " + std::to_string(want2));
    pruning.prune = [](const std::vector<tilec::AutotuneConfig> &configs,
                       const tilec::Arg *, size_t) {
      return std::vector<size_t>{configs.size()};
    };
    tilec::AutotunedKernel badPrune;
    s = tilec::AutotunedKernel::create(*jit, text, path, o, badPrune, pruning);
    tilec::Arg args3[] = {tilec::Arg::ptr(dx.ptr), tilec::Arg::ptr(dsum.ptr),
                          tilec::Arg::i32(n2 - 4096)};
    if (s)
      s = badPrune.launch(grid2, args3, 3, nullptr, {{1, 4}});
    report(!s.ok() && s.message().find("prune function returned config") !=
                          std::string::npos,
           "autotune_prune_out_of_range", s.message());

    // restore_value: y += x in place, tuned, must add x exactly once.
    tilec::CompileOptions ao;
    ao.kernel = "axpy_inplace_kernel";
    ao.signature = "*fp32:16,*fp32:16,i32";
    tilec::AutotunedKernel axpy;
    s = tilec::AutotunedKernel::create(*jit, text, path, ao, axpy, quiet);
    const int m = 100003;
    std::vector<float> xs(m), ys(m), out(m);
    for (int i = 0; i < m; ++i) {
      xs[i] = float(i % 13);
      ys[i] = float(i % 7) * 0.5f;
    }
    DeviceBuffer ax(m * 4), ay(m * 4);
    cuMemcpyHtoD(ax.ptr, xs.data(), m * 4);
    cuMemcpyHtoD(ay.ptr, ys.data(), m * 4);
    tilec::Arg aargs[] = {tilec::Arg::ptr(ax.ptr), tilec::Arg::ptr(ay.ptr),
                          tilec::Arg::i32(m)};
    auto agrid = [&](const tilec::AutotuneConfig &c) {
      int64_t block = c.intValue("BLOCK", 1024);
      return tilec::Grid{unsigned((m + block - 1) / block), 1, 1};
    };
    if (s)
      s = axpy.launch(agrid, aargs, 3, nullptr, {{1, size_t(m) * 4}});
    cuCtxSynchronize();
    cuMemcpyDtoH(out.data(), ay.ptr, m * 4);
    bool ok = s.ok();
    for (int i = 0; ok && i < m; ++i)
      ok = out[i] == ys[i] + xs[i];
    report(ok, "autotune_restore_value_axpy", s.message());

    // GEMM: the tuner's choice against a brute-force sweep.
    tilec::CompileOptions mo;
    mo.kernel = "matmul_autotuned_kernel";
    mo.signature = "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,"
                   "i32:1,i32:16,i32:1,i32:16,i32:1";
    tilec::AutotunedKernel mm;
    auto t0 = std::chrono::steady_clock::now();
    s = tilec::AutotunedKernel::create(*jit, text, path, mo, mm, quiet);
    const int M = 4096, N = 4096, K = 4096;
    std::vector<uint16_t> ah(size_t(M) * K, 0x3c00 /* 1.0 */),
        bh(size_t(K) * N, 0x3800 /* 0.5 */), ch(size_t(M) * N);
    DeviceBuffer da(ah.size() * 2), db(bh.size() * 2), dc(ch.size() * 2);
    cuMemcpyHtoD(da.ptr, ah.data(), ah.size() * 2);
    cuMemcpyHtoD(db.ptr, bh.data(), bh.size() * 2);
    tilec::Arg margs[] = {
        tilec::Arg::ptr(da.ptr), tilec::Arg::ptr(db.ptr), tilec::Arg::ptr(dc.ptr),
        tilec::Arg::i32(M), tilec::Arg::i32(N), tilec::Arg::i32(K),
        tilec::Arg::i32(K), tilec::Arg::i32(1), tilec::Arg::i32(N),
        tilec::Arg::i32(1), tilec::Arg::i32(N), tilec::Arg::i32(1)};
    auto mgrid = [&](const tilec::AutotuneConfig &c) {
      int64_t bm = c.intValue("BLOCK_M", 64), bn = c.intValue("BLOCK_N", 64);
      return tilec::Grid{unsigned(((M + bm - 1) / bm) * ((N + bn - 1) / bn)), 1, 1};
    };
    tilec::AutotuneResult tuned, brute;
    if (s)
      s = mm.launch(mgrid, margs, 12, nullptr, {}, &tuned);
    double tuneSeconds = secondsSince(t0);
    cuCtxSynchronize();
    cuMemcpyDtoH(ch.data(), dc.ptr, ch.size() * 2);
    // 1.0 * 0.5 summed over K = 4096: 2048 exactly in fp16 (0x6800).
    bool right = s.ok() && ch[0] == 0x6800 && ch[ch.size() - 1] == 0x6800;
    tilec::AutotuneOptions slow;
    slow.batchMs = 40;
    slow.batches = 7;
    tilec::AutotunedKernel sweepK;
    tilec::Status sb = tilec::AutotunedKernel::create(*jit, text, path, mo, sweepK, slow);
    if (sb)
      sb = sweepK.benchmarkAll(mgrid, margs, 12, nullptr, {}, brute);
    int best = -1;
    for (size_t i = 0; i < brute.ms.size(); ++i)
      if (brute.ms[i] >= 0 && (best < 0 || brute.ms[i] < brute.ms[size_t(best)]))
        best = int(i);
    std::string detail = "tuner chose " + std::to_string(tuned.config) +
                         ", sweep best " + std::to_string(best) + "; tuner ms";
    for (double t : tuned.ms)
      detail += " " + std::to_string(t);
    detail += "; sweep ms";
    for (double t : brute.ms)
      detail += " " + std::to_string(t);
    std::printf("autotune gemm 4096^3: %s; tuning took %.2f s\n", detail.c_str(),
                tuneSeconds);
    bool same = best >= 0 && tuned.config >= 0 &&
                (tuned.config == best ||
                 brute.ms[size_t(tuned.config)] <= 1.02 * brute.ms[size_t(best)]);
    report(s.ok() && sb.ok() && right && same, "autotune_gemm_matches_brute_force",
           (s.ok() ? "" : s.message()) + (sb.ok() ? "" : sb.message()) +
               (right ? "" : " wrong result ") + detail);
    timings.emplace_back("autotune GEMM 4096^3 over 4 configs (compile + benchmark)",
                         tuneSeconds);
  }

  // 14. Host time per launch of a tiny kernel: Kernel::launch and the C
  // API against a bare cuLaunchKernel of the same function and arguments.
  // Batches of 256 launches on one stream, synchronized between batches;
  // the host time of the launch calls alone in microseconds per launch,
  // the median of 60 batches per variant, the variants' batches
  // interleaved.
  {
    tilec::CompileOptions o;
    o.kernel = "add_kernel";
    o.signature = "*fp32:16,*fp32:16,*fp32:16,i32";
    o.constexprs = {{"BLOCK_SIZE", "1024"}};
    tilec::Kernel add;
    s = jit->compileFile(src + "/vector_add.py", o, add);
    tilec_context cctx = nullptr;
    tilec_jit cjit = nullptr;
    tilec_kernel ck = nullptr;
    tilec_compile_options copts;
    tilec_compile_options_init(&copts);
    copts.kernel = "add_kernel";
    copts.signature = o.signature.c_str();
    const char *defs[] = {"BLOCK_SIZE=1024"};
    copts.constexprs = defs;
    copts.num_constexprs = 1;
    std::string path = src + "/vector_add.py";
    tilec_jit_options jopts;
    tilec_jit_options_init(&jopts);
    jopts.cache_dir = cacheDir.c_str();
    bool capiOk = tilec_context_create(0, &cctx) == TILEC_OK &&
                  tilec_jit_create(cctx, &jopts, &cjit) == TILEC_OK &&
                  tilec_jit_compile_file(cjit, path.c_str(), &copts, &ck) ==
                      TILEC_OK;
    const int n = 16;
    DeviceBuffer dx(64), dy(64), dout(64);
    CUstream stream = nullptr;
    cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING);
    CUfunction fn = add.function();
    CUdeviceptr px = dx.ptr, py = dy.ptr, po = dout.ptr;
    int32_t nn = n;
    void *raw[] = {&px, &py, &po, &nn};
    tilec::Arg args[] = {tilec::Arg::ptr(px), tilec::Arg::ptr(py),
                         tilec::Arg::ptr(po), tilec::Arg::i32(n)};
    tilec_arg cargs[4] = {{TILEC_ARG_PTR, 0, {px}},
                          {TILEC_ARG_PTR, 0, {py}},
                          {TILEC_ARG_PTR, 0, {po}},
                          {TILEC_ARG_I32, 0, {uint64_t(n)}}};
    const int batch = 256, batches = 60;
    bool launchOk = s.ok() && capiOk;
    // One batch of `batch` launches of variant `which`: host microseconds
    // per launch. 0: bare cuLaunchKernel; 1: the same after a
    // cuCtxGetCurrent (what the runtime asks before each launch); 2:
    // Kernel::launch; 3: tilec_kernel_launch.
    auto batchOf = [&](int which) {
      cuStreamSynchronize(stream);
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < batch; ++i) {
        if (which <= 1) {
          if (which == 1) {
            CUcontext cur = nullptr;
            launchOk &= cuCtxGetCurrent(&cur) == CUDA_SUCCESS;
          }
          launchOk &= cuLaunchKernel(fn, 1, 1, 1, 128, 1, 1, 0, stream, raw,
                                     nullptr) == CUDA_SUCCESS;
        } else if (which == 2) {
          launchOk &= add.launch(tilec::Grid{1, 1, 1}, args, 4, stream).ok();
        } else {
          launchOk &= tilec_kernel_launch(ck, 1, 1, 1, cargs, 4, stream) ==
                      TILEC_OK;
        }
      }
      return secondsSince(t0) * 1e6 / batch;
    };
    // Batches interleaved, the order rotating, after 4 warm-up rounds; the
    // median batch of each variant.
    std::vector<double> per[4];
    if (launchOk)
      for (int b = 0; b < batches + 4; ++b)
        for (int j = 0; j < 4; ++j) {
          int which = (b + j) % 4;
          double us = batchOf(which);
          if (b >= 4)
            per[which].push_back(us);
        }
    cuStreamSynchronize(stream);
    cuStreamDestroy(stream);
    tilec_kernel_destroy(ck);
    tilec_jit_destroy(cjit);
    tilec_context_destroy(cctx);
    report(launchOk, "launch_overhead_measured", s.ok() ? "" : s.message());
    if (launchOk) {
      auto med = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
      };
      double r0 = med(per[0]), r1 = med(per[1]), r2 = med(per[2]),
             r3 = med(per[3]);
      std::printf("launch host us: raw cuLaunchKernel %.3f, raw after "
                  "cuCtxGetCurrent %.3f (%.3fx), Kernel::launch %.3f (%.3fx), "
                  "C API %.3f (%.3fx)\n",
                  r0, r1, r1 / r0, r2, r2 / r0, r3, r3 / r0);
      timings.emplace_back("host time per launch: raw cuLaunchKernel", r0 * 1e-6);
      timings.emplace_back("host time per launch: cuCtxGetCurrent + cuLaunchKernel", r1 * 1e-6);
      timings.emplace_back("host time per launch: Kernel::launch", r2 * 1e-6);
      timings.emplace_back("host time per launch: tilec_kernel_launch (C)", r3 * 1e-6);
    }
  }

  std::printf("\n%-78s %12s\n", "timing", "ms");
  for (const auto &[name, secs] : timings)
    std::printf("%-78s %12.3f\n", name.c_str(), secs * 1e3);
  std::printf("\n%d failed\n", failures);
  return failures ? 1 : 0;
}
