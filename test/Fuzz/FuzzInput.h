//===- FuzzInput.h - One input of the front-end fuzzer ----------*- C++ -*-===//
//
// One fuzz input may hold a whole package: the kernel file and the modules
// it imports, split at lines `#@file <relative/path.py>`. The text before
// the first such line is the kernel file `fuzz.py` (when it is blank, the
// first file named is the kernel, so that a kernel inside a package, with
// relative imports of its own, can be fuzzed too). The files go into an
// llvm::vfs::InMemoryFileSystem under kFuzzRoot, which the front end reads
// imports from (KernelOptions::fileSystem) with kFuzzRoot as its import
// path. A parameter guess (guessSpecialization) stands in for the command
// line's signature and -D values; runFuzzInput then compiles the kernel
// file's first jit function to PTX.
//
// Header-only and shared by the fuzzer (FrontendFuzzer.cpp, built only with
// clang) and its unit test (test/Unit/Compiler/FuzzInputTest.cpp, built
// always), so that the format, the seeds (test/Fuzz/seeds) and the code the
// fuzzer runs are checked by the ordinary test run.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TEST_FUZZ_FUZZINPUT_H
#define TILEC_TEST_FUZZ_FUZZINPUT_H

#include "compiler/Driver/Driver.h"
#include "compiler/Frontend/AST.h"
#include "compiler/Frontend/ImportToTile.h"
#include "compiler/Frontend/Parser.h"
#include "compiler/InitAll.h"
#include "compiler/Target/PTX/PTXBackend.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec::fuzz {

/// The folder the files of an input live in (the import path's one entry).
inline constexpr llvm::StringLiteral kFuzzRoot = "/fuzz";
/// The line prefix that starts a file; the rest of the line is its path.
inline constexpr llvm::StringLiteral kFileMarker = "#@file ";
/// Most `#@file` lines one input may hold, and the longest path: inputs
/// stay cheap to set up.
inline constexpr size_t kMaxFiles = 16;
inline constexpr size_t kMaxPathLength = 128;

/// One file of an input: its path under kFuzzRoot and its text (a view
/// into the input).
struct FuzzFile {
  std::string path;
  std::string_view text;
};

/// Whether `path` may name a file of an input: relative, at most
/// kMaxPathLength characters, `/`-separated parts that are neither empty
/// nor `.` or `..`, no backslash or NUL (a path must stay under kFuzzRoot).
inline bool isFuzzPath(llvm::StringRef path) {
  if (path.empty() || path.size() > kMaxPathLength || path.front() == '/' ||
      path.find_first_of(llvm::StringRef("\\\0", 2)) != llvm::StringRef::npos)
    return false;
  for (llvm::StringRef part : llvm::split(path, '/'))
    if (part.empty() || part == "." || part == "..")
      return false;
  return true;
}

/// Splits `input` into its files, the kernel file first: `fuzz.py` (the
/// text before the first marker line), or the first file named when that
/// text is blank. A marker is a line starting with kFileMarker; its path
/// ends at the line break (blanks and a `\r` around it dropped). Returns
/// nullopt for an input to reject: more than kMaxFiles markers, a path
/// isFuzzPath refuses, or one path given twice.
inline std::optional<std::vector<FuzzFile>>
splitFuzzInput(std::string_view input) {
  std::vector<FuzzFile> files;
  files.push_back({"fuzz.py", {}});
  const char *textStart = input.data();
  auto close = [&](const char *end) {
    files.back().text = std::string_view(textStart, end - textStart);
  };
  size_t pos = 0;
  while (pos <= input.size()) {
    size_t eol = input.find('\n', pos);
    size_t lineEnd = eol == std::string_view::npos ? input.size() : eol;
    llvm::StringRef line(input.data() + pos, lineEnd - pos);
    if (line.starts_with(kFileMarker)) {
      if (files.size() > kMaxFiles)
        return std::nullopt;
      close(input.data() + pos);
      llvm::StringRef path = line.drop_front(kFileMarker.size()).trim();
      if (!isFuzzPath(path))
        return std::nullopt;
      files.push_back({path.str(), {}});
      textStart = input.data() +
                  (eol == std::string_view::npos ? input.size() : eol + 1);
    }
    if (eol == std::string_view::npos)
      break;
    pos = eol + 1;
  }
  close(input.data() + input.size());
  // A blank prefix: the first file named is the kernel.
  if (files.size() > 1 && llvm::StringRef(files.front().text).trim().empty())
    files.erase(files.begin());
  for (size_t i = 0; i < files.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (files[i].path == files[j].path)
        return std::nullopt;
  return files;
}

/// The in-memory file system holding `files` under kFuzzRoot (its working
/// directory), or null when one cannot be added (a file where another
/// needs a folder: `a.py` and `a.py/b.py`).
inline llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem>
makeFuzzFileSystem(llvm::ArrayRef<FuzzFile> files) {
  auto fs = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const FuzzFile &f : files) {
    llvm::SmallString<128> path(kFuzzRoot);
    llvm::sys::path::append(path, f.path);
    if (!fs->addFile(path, /*ModificationTime=*/0,
                     llvm::MemoryBuffer::getMemBufferCopy(
                         llvm::StringRef(f.text.data(), f.text.size()), path)))
      return nullptr;
  }
  if (fs->setCurrentWorkingDirectory(kFuzzRoot))
    return nullptr;
  return fs;
}

/// The path of `file` in the file system makeFuzzFileSystem builds.
inline std::string fuzzFilePath(const FuzzFile &file) {
  llvm::SmallString<128> path(kFuzzRoot);
  llvm::sys::path::append(path, file.path);
  return std::string(path);
}

/// True if `param` is annotated `constexpr`, `tl.constexpr` or
/// `triton.language.constexpr`.
inline bool isConstexprParam(const py::Param &param) {
  if (!param.annotation)
    return false;
  std::string text;
  llvm::raw_string_ostream os(text);
  py::printExpr(*param.annotation, os);
  return llvm::StringRef(text).ends_with("constexpr");
}

/// What the command line would give for kernel `fn`: integer-looking
/// parameter names (`n_elements`, `M`, `stride_am`, ...) get `i32`,
/// everything else a pointer to fp32; constexprs are -D'd to 16 and left
/// out of the signature.
inline void guessSpecialization(const py::FunctionDef &fn,
                                frontend::KernelOptions &options) {
  options.kernelName = fn.name;
  std::string signature;
  for (const py::Param &param : fn.params) {
    if (isConstexprParam(param)) {
      options.constexprs.emplace_back(param.name, "16");
      continue;
    }
    llvm::StringRef name(param.name);
    bool isInt = name.starts_with("n") || name.starts_with("N") ||
                 name.contains("stride") || name.contains("size") ||
                 (name.size() == 1 && llvm::isUpper(name[0]));
    if (!signature.empty())
      signature += ", ";
    signature += isInt ? "i32" : "*fp32";
  }
  options.signature = std::move(signature);
}

/// How far runFuzzInput got with one input.
enum class FuzzOutcome {
  Rejected,    ///< not a well-formed input (splitFuzzInput, makeFuzzFileSystem)
  NoKernel,    ///< the kernel file does not parse or has no jit function
  ImportError, ///< importKernel reported an error
  PipelineError, ///< runPipeline reported an error
  BackendError,  ///< emitPTX reported an error
  Compiled,      ///< PTX text came out
};

/// `outcome` in words.
inline const char *getOutcomeName(FuzzOutcome outcome) {
  switch (outcome) {
  case FuzzOutcome::Rejected:
    return "rejected";
  case FuzzOutcome::NoKernel:
    return "no kernel";
  case FuzzOutcome::ImportError:
    return "import error";
  case FuzzOutcome::PipelineError:
    return "pipeline error";
  case FuzzOutcome::BackendError:
    return "backend error";
  case FuzzOutcome::Compiled:
    return "compiled";
  }
  return "?";
}

/// The dialects of every context, registered once.
inline const mlir::DialectRegistry &getFuzzRegistry() {
  static const mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry();
    registerAllDialects(*r);
    return r;
  }();
  return *registry;
}

/// What the fuzzer does with one input: split it, put its files in memory,
/// parse the kernel file and print its syntax tree to a null stream, and,
/// if it parsed and holds a jit function, import the first one with a
/// guessed specialization (under KernelOptions' default budgets) into a
/// fresh MLIR context, run the whole pipeline and LLVM's NVPTX backend
/// (sm_90a). Each diagnostic is written to `diagnostics` as `location:
/// message` when it is given, else swallowed.
inline FuzzOutcome runFuzzInput(std::string_view input,
                                llvm::raw_ostream *diagnostics = nullptr) {
  std::optional<std::vector<FuzzFile>> files = splitFuzzInput(input);
  if (!files)
    return FuzzOutcome::Rejected;
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> fs =
      makeFuzzFileSystem(*files);
  if (!fs)
    return FuzzOutcome::Rejected;
  const FuzzFile &kernelFile = files->front();
  py::ParseResult parsed =
      py::parseModule(kernelFile.text, fuzzFilePath(kernelFile));
  py::dumpAST(*parsed.module, llvm::nulls());
  if (!parsed.succeeded() || parsed.module->functions.empty())
    return FuzzOutcome::NoKernel;

  mlir::MLIRContext ctx(getFuzzRegistry(),
                        mlir::MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();
  ctx.printOpOnDiagnostic(false);
  mlir::ScopedDiagnosticHandler handler(
      &ctx, [diagnostics](mlir::Diagnostic &d) {
        if (diagnostics)
          *diagnostics << d.getLocation() << ": " << d.str() << "\n";
        return mlir::success();
      });

  frontend::KernelOptions options;
  guessSpecialization(*parsed.module->functions.front(), options);
  options.fileSystem = fs;
  options.importPaths = {kFuzzRoot.str()};
  mlir::OwningOpRef<mlir::ModuleOp> module =
      frontend::importKernel(*parsed.module, options, &ctx);
  if (!module)
    return FuzzOutcome::ImportError;
  // The whole pipeline, through LLVM's NVPTX backend to PTX text: the
  // symbol, parameter and fatal-error checks live past the layout stage.
  if (failed(runPipeline(*module, Stage::LLVMDialect, PipelineOptions())))
    return FuzzOutcome::PipelineError;
  std::string ptx;
  llvm::raw_string_ostream os(ptx);
  if (failed(emitPTX(*module, "sm_90a", os, /*fpFusion=*/true)))
    return FuzzOutcome::BackendError;
  return FuzzOutcome::Compiled;
}

} // namespace tilec::fuzz

#endif // TILEC_TEST_FUZZ_FUZZINPUT_H
