//===- Ptxas.cpp - PTX to cubin with the toolkit's ptxas -------------------===//
#include "compiler/Jit/Compiler.h"
#include "passes/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <map>
#include <optional>

using llvm::StringRef;

namespace tilec {

/// Finds ptxas: $TILEC_PTXAS, $CUDA_HOME/bin, $CUDA_PATH/bin,
/// /usr/local/cuda/bin, PATH. "" when none.
std::string findPtxas() {
  auto executable = [](const std::string &p) {
    return !p.empty() && llvm::sys::fs::can_execute(p) &&
           !llvm::sys::fs::is_directory(p);
  };
  if (const char *env = std::getenv("TILEC_PTXAS"); env && *env)
    return executable(env) ? std::string(env) : std::string();
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *env = std::getenv(var); env && *env) {
      std::string p = std::string(env) + "/bin/ptxas";
      if (executable(p))
        return p;
    }
  if (executable("/usr/local/cuda/bin/ptxas"))
    return "/usr/local/cuda/bin/ptxas";
  if (auto p = llvm::sys::findProgramByName("ptxas"))
    return *p;
  return "";
}

/// Runs `ptxas` on `ptx` for `arch` (with `-v` where `verbose`) into
/// `cubin`; `logText` is what ptxas printed. The error carries that output.
static Status runPtxas(const std::string &ptxas, StringRef arch, StringRef ptx,
                       bool verbose, std::string &cubin, std::string &logText) {
  llvm::SmallString<128> in, out, log;
  int fd = -1;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tilec-jit", "ptx", fd, in))
    return Status::error("cannot create a temporary file for ptxas: " +
                         ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << ptx;
    os.flush();
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(in);
      return Status::error("cannot write the PTX for ptxas to '" +
                           in.str().str() + "'");
    }
  }
  llvm::scope_exit cleanup([&] {
    llvm::sys::fs::remove(in);
    if (!out.empty())
      llvm::sys::fs::remove(out);
    if (!log.empty())
      llvm::sys::fs::remove(log);
  });
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tilec-jit", "cubin", out))
    return Status::error("cannot create a temporary file for ptxas: " +
                         ec.message());
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tilec-jit", "log", log))
    return Status::error("cannot create a temporary file for ptxas: " +
                         ec.message());
  std::string archArg = ("-arch=" + arch).str();
  llvm::SmallVector<StringRef, 7> args = {ptxas, archArg, "-o", out, in};
  if (verbose)
    args.insert(args.begin() + 1, "-v");
  std::optional<StringRef> redirects[] = {StringRef(""), log, log};
  std::string errMsg;
  // Generated PTX assembles in well under a second; the limit only ends a
  // ptxas that hangs.
  constexpr unsigned kPtxasSeconds = 300;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, /*Env=*/std::nullopt,
                                     redirects, kPtxasSeconds, 0, &errMsg);
  logText.clear();
  if (auto buf = llvm::MemoryBuffer::getFile(log))
    logText = (*buf)->getBuffer().str();
  if (rc != 0) {
    std::string what = rc < 0 ? "could not run (" + errMsg + ")"
                              : "exited with " + std::to_string(rc);
    return Status::error("ptxas (" + ptxas + ") " + what + " assembling for " +
                         arch.str() + (logText.empty() ? "" : ":\n" + logText));
  }
  auto buf = llvm::MemoryBuffer::getFile(out, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf)
    return Status::error("cannot read ptxas's output '" + out.str().str() +
                         "': " + buf.getError().message());
  cubin = (*buf)->getBuffer().str();
  return Status::success();
}

std::map<std::string, PtxasUsage> parsePtxasUsage(StringRef log) {
  std::map<std::string, PtxasUsage> usage;
  std::string current;
  llvm::SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : lines) {
    // "ptxas info    : Compiling entry function 'k' for 'sm_90a'"
    constexpr StringRef kEntry = "Compiling entry function '";
    if (size_t at = line.find(kEntry); at != StringRef::npos) {
      StringRef rest = line.drop_front(at + kEntry.size());
      current = rest.take_until([](char c) { return c == '\''; }).str();
      usage[current];
      continue;
    }
    // "ptxas info    : Used 112 registers, used 1 barriers, 64 bytes smem,
    // 416 bytes cmem[0]"
    constexpr StringRef kUsed = "Used ";
    size_t at = line.find(kUsed);
    if (current.empty() || at == StringRef::npos ||
        !line.contains(" registers"))
      continue;
    PtxasUsage &u = usage[current];
    StringRef regs = line.drop_front(at + kUsed.size());
    regs.consumeInteger(10, u.registers);
    if (size_t smem = line.find(" bytes smem"); smem != StringRef::npos) {
      StringRef before = line.take_front(smem);
      size_t space = before.find_last_of(" ,");
      if (space != StringRef::npos)
        before.drop_front(space + 1).getAsInteger(10, u.sharedBytes);
    }
  }
  return usage;
}

Status assembleCubin(const std::string &ptxas, StringRef arch, StringRef ptx,
                     std::string &cubin) {
  std::string log;
  std::vector<KernelInfo> kernels;
  bool budget =
      parseKernelMetadata(std::string_view(ptx.data(), ptx.size()), kernels)
          .ok() &&
      llvm::any_of(kernels, [](const KernelInfo &k) { return k.autoMaxNReg; });
  if (Status s = runPtxas(ptxas, arch, ptx, budget, cubin, log); !s || !budget)
    return s;
  // The register budget (docs/runtime.md, "Register budget"): what the
  // runtime does for PTX with the driver's figures, here with the
  // target's, then a second ptxas run. Where the usage cannot be read or
  // nothing changes, the first cubin stands.
  const TargetInfo *target = lookupTarget(arch);
  if (!target)
    return Status::success();
  std::map<std::string, PtxasUsage> usage = parsePtxasUsage(log);
  std::string patched = ptx.str();
  bool changed = false;
  for (const KernelInfo &k : kernels) {
    auto it = usage.find(k.name);
    if (!k.autoMaxNReg || it == usage.end() || it->second.registers == 0)
      continue;
    unsigned shared = it->second.sharedBytes + k.sharedBytes;
    unsigned ctas =
        target->residentCTAs(k.numWarps, it->second.registers, shared);
    unsigned limit = occupancyRegisterBudget(it->second.registers, k.numWarps,
                                             ctas, target->registersPerSM());
    // The budget keeps `ctas` by construction (the same sub-partition rule
    // as residentCTAs; RegisterBudgetTest checks both).
    if (limit && setEntryMaxNReg(patched, k.name, limit).ok())
      changed = true;
  }
  if (!changed)
    return Status::success();
  // An optimization only: where ptxas refuses the limited PTX, the first
  // cubin stands.
  std::string limited;
  if (runPtxas(ptxas, arch, patched, false, limited, log))
    cubin = std::move(limited);
  return Status::success();
}

} // namespace tilec
