//===- Ptxas.cpp - PTX to cubin with the toolkit's ptxas -------------------===//
#include "compiler/Jit/Compiler.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
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

/// Assembles `ptx` for `arch` with `ptxas` into `cubin`. The error carries
/// ptxas's output.
Status assembleCubin(const std::string &ptxas, StringRef arch, StringRef ptx,
                std::string &cubin) {
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
  llvm::SmallVector<StringRef, 6> args = {ptxas, archArg, "-o", out, in};
  std::optional<StringRef> redirects[] = {StringRef(""), log, log};
  std::string errMsg;
  // Generated PTX assembles in well under a second; the limit only ends a
  // ptxas that hangs.
  constexpr unsigned kPtxasSeconds = 300;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, /*Env=*/std::nullopt,
                                     redirects, kPtxasSeconds, 0, &errMsg);
  std::string logText;
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

} // namespace tilec
