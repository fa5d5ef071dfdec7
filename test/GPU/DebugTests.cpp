//===- DebugTests.cpp - tl.device_print and tl.device_assert on the GPU ---===//
//
// The debugging functions end to end (kernels: test/GPU/kernels/py/debug.py).
// Each case runs its kernel in a child process, this executable run again
// as `tilec-gpu-tests --debug-child MODE KERNEL_DIR` (fork and exec: a
// forked CUDA process cannot use the driver, and a failed assertion leaves
// the child's context unusable, not the harness's), with its stdout and
// stderr captured through a pipe:
//
//  - device_print: every line the kernel prints, deduplicated (replicas
//    print too) and compared as a set with the lines computed on the CPU in
//    Triton's format (`pid (0, 0, 0) idx ( 5) x: -3`);
//  - device_assert under --debug: one negative element makes the kernel
//    trap; the child's output has the CUDA driver's assertion message
//    (file, kernel, block, message) and the runtime's synchronize returned
//    CUDA_ERROR_ASSERT as an error Status (no abort); with all elements
//    positive it passes and computes x + 1;
//  - the same kernel compiled without --debug does not check: no trap, and
//    x + 1 everywhere.
//
//===----------------------------------------------------------------------===//
#include "GpuTestUtils.h"

#include <cerrno>
#include <cstdarg>
#include <csignal>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace tilec;
using namespace tilec::gputest;

namespace {

constexpr int kPrintN = 100, kPrintBlock = 64, kPrintPrograms = 2;
constexpr int kAssertN = 1000, kAssertBlock = 128, kBadIndex = 777;

std::string format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  return buf;
}

/// The inputs of print_kernel (also recomputed by the parent).
std::vector<int32_t> printInts() {
  std::vector<int32_t> x(kPrintN);
  for (int i = 0; i < kPrintN; ++i)
    x[i] = i * 37 - 1000;
  return x;
}
std::vector<float> printFloats() {
  std::vector<float> f(kPrintN);
  for (int i = 0; i < kPrintN; ++i)
    f[i] = float(i) * 0.25f - 3.0f;
  return f;
}

/// assert_kernel's input: 1..n, with element kBadIndex negative if `bad`.
std::vector<int32_t> assertInput(bool bad) {
  std::vector<int32_t> x(kAssertN);
  for (int i = 0; i < kAssertN; ++i)
    x[i] = i + 1;
  if (bad)
    x[kBadIndex] = -5;
  return x;
}

/// Runs assert_kernel of `file` on `x` and synchronizes; returns the
/// synchronize Status (the launch itself must succeed).
Status launchAssert(const Env &env, const std::string &file,
                    const std::vector<int32_t> &x, DeviceBuffer &buf) {
  Kernel k = env.kernel(file, "assert_kernel");
  buf.upload(x);
  check(k.launch({cdiv(kAssertN, kAssertBlock), 1, 1},
                 {Arg::ptr(buf.get()), Arg::i32(kAssertN)}));
  return env.context->synchronize();
}

/// The child's work for `mode`; prints `CHILD-...` lines on stdout.
void childCase(const Env &env, const std::string &mode) {
  if (mode == "print") {
    Kernel k = env.kernel("debug_print_kernel", "print_kernel");
    DeviceBuffer x(kPrintN * 4), f(kPrintN * 4);
    x.upload(printInts());
    f.upload(printFloats());
    check(k.launch({kPrintPrograms, 1, 1},
                   {Arg::ptr(x.get()), Arg::ptr(f.get()), Arg::i32(kPrintN)}));
    check(env.context->synchronize()); // flushes the device's printf
    return;
  }
  if (mode == "assert-fail") {
    DeviceBuffer buf(kAssertN * 4);
    Status s = launchAssert(env, "debug_assert_kernel", assertInput(true), buf);
    std::fflush(stdout);
    std::printf("CHILD-STATUS result=%d ok=%d %s\n", s.driverResult(),
                int(s.ok()), s.message().c_str());
    return;
  }
  bool nodebug = mode == "assert-nodebug";
  if (!nodebug && mode != "assert-pass")
    failCase("unknown child mode '" + mode + "'");
  DeviceBuffer buf(kAssertN * 4);
  std::vector<int32_t> in = assertInput(nodebug);
  check(launchAssert(env,
                     nodebug ? "debug_assert_nodebug_kernel"
                             : "debug_assert_kernel",
                     in, buf));
  std::vector<int32_t> out = buf.download<int32_t>(kAssertN);
  for (int i = 0; i < kAssertN; ++i)
    if (out[i] != in[i] + 1)
      failCase(format("index %d: expected %d, found %d", i, in[i] + 1,
                      out[i]));
}

/// What a child said: its exit status and everything it wrote.
struct ChildResult {
  int status = -1; // exit code, or 128 + signal
  std::string output;
};

/// Runs this executable as `--debug-child mode kernelDir`, stdout and
/// stderr into one pipe; at most 120 s.
ChildResult runChild(const Env &env, const std::string &mode) {
  int fds[2];
  if (::pipe(fds) != 0)
    failCase(std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0)
    failCase(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::dup2(fds[1], 2);
    ::close(fds[0]);
    ::close(fds[1]);
    ::alarm(120);
    const char *args[] = {"tilec-gpu-tests", "--debug-child", mode.c_str(),
                          env.kernelDir.c_str(), nullptr};
    ::execv("/proc/self/exe", const_cast<char *const *>(args));
    std::fprintf(stderr, "exec: %s\n", std::strerror(errno));
    ::_exit(127);
  }
  ::close(fds[1]);
  ChildResult r;
  char buf[4096];
  ssize_t got;
  while ((got = ::read(fds[0], buf, sizeof(buf))) != 0) {
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      break;
    r.output.append(buf, size_t(got));
  }
  ::close(fds[0]);
  int ws = 0;
  while (::waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
  }
  r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
  // The child's own verdicts.
  if (r.status == 4) {
    size_t at = r.output.find("CHILD-SKIP ");
    throw CaseSkip{at == std::string::npos ? "kernel not found"
                                           : r.output.substr(at + 11)};
  }
  return r;
}

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream is(text);
  for (std::string l; std::getline(is, l);)
    out.push_back(l);
  return out;
}

void expectChildOk(const ChildResult &r) {
  if (r.status != 0)
    failCase(format("child exited with %d; its output:\n", r.status) +
             r.output);
}

void runDevicePrint(const Env &env) {
  ChildResult r = runChild(env, "print");
  expectChildOk(r);
  std::vector<int32_t> x = printInts();
  std::vector<float> f = printFloats();
  std::set<std::string> expected;
  for (int p = 0; p < kPrintPrograms; ++p) {
    for (int i = 0; i < kPrintBlock; ++i) {
      int g = p * kPrintBlock + i;
      bool in = g < kPrintN;
      // idx padded to 2 digits: ceil(log10(64)).
      expected.insert(format("pid (%d, 0, 0) idx (%2d) x: %d", p, i,
                             in ? x[g] : -1));
      expected.insert(format("pid (%d, 0, 0) idx (%2d) f: 0x%08x", p, i,
                             in ? floatBits(f[g]) : 0u));
    }
    expected.insert(format("pid (%d, 0, 0) idx () n: %d", p, kPrintN));
  }
  std::set<std::string> found;
  size_t printed = 0;
  for (const std::string &l : lines(r.output)) {
    if (l.rfind("pid (", 0) != 0)
      continue;
    ++printed;
    if (!expected.count(l))
      failCase("unexpected line '" + l + "'");
    found.insert(l);
  }
  for (const std::string &e : expected)
    if (!found.count(e))
      failCase(format("%zu of %zu expected lines printed (%zu lines); "
                      "missing, e.g., '",
                      found.size(), expected.size(), printed) +
               e + "'");
}

void runAssertFails(const Env &env) {
  ChildResult r = runChild(env, "assert-fail");
  expectChildOk(r);
  const std::string &o = r.output;
  auto expect = [&](const std::string &what) {
    if (o.find(what) == std::string::npos)
      failCase("expected '" + what + "' in the child's output:\n" + o);
  };
  // The driver's message: file:line: function: block: [...], thread: [...]
  // Assertion `message` failed.
  expect("Assertion `x must be positive` failed");
  expect("debug.py:");
  expect("assert_kernel");
  expect(format("block: [%d,0,0]", kBadIndex / kAssertBlock));
  if (o.find("n must be positive") != std::string::npos)
    failCase("the assertion on n fired:\n" + o);
  // The runtime's error Status.
  expect("CHILD-STATUS result=710 ok=0 cuCtxSynchronize failed");
  expect("CUDA_ERROR_ASSERT");
  expect("a device-side assertion failed");
}

} // namespace

int tilec::gputest::runDebugChild(int argc, char **argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (argc != 2) {
    std::printf("CHILD-FAIL usage: --debug-child MODE KERNEL_DIR\n");
    return 2;
  }
  Env env;
  env.kernelDir = argv[1];
  Status s = Context::create(0, env.context);
  if (!s.ok()) {
    std::printf("CHILD-FAIL %s\n", s.message().c_str());
    return 1;
  }
  try {
    childCase(env, argv[0]);
  } catch (const CaseFailure &f) {
    std::printf("CHILD-FAIL %s\n", f.what.c_str());
    return 1;
  } catch (const CaseSkip &sk) {
    std::printf("CHILD-SKIP %s\n", sk.what.c_str());
    return 4;
  }
  std::fflush(stdout);
  return 0;
}

void tilec::gputest::addDebugCases(std::vector<TestCase> &cases) {
  cases.push_back({"debug_print_kernel/device_print", false, true,
                   runDevicePrint});
  cases.push_back({"debug_assert_kernel/fails", false, true, runAssertFails});
  cases.push_back({"debug_assert_kernel/passes", false, true,
                   [](const Env &e) { expectChildOk(runChild(e, "assert-pass")); }});
  cases.push_back({"debug_assert_nodebug_kernel/no_check", false, true,
                   [](const Env &e) {
                     expectChildOk(runChild(e, "assert-nodebug"));
                   }});
}
