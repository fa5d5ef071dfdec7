//===- Driver.cpp - Compile tile programs in-process ------------*- C++ -*-===//
//
// Glue between the front end, the pass pipelines and the PTX backend, shared
// by the tilec tool and the in-process API.
//
//===----------------------------------------------------------------------===//
#include "compiler/Driver/Driver.h"

#include <set>
#include <tuple>
#include "passes/Target.h"

#include "compiler/Frontend/CodeGen.h"
#include "compiler/Frontend/Parser.h"
#include "compiler/Frontend/Unicode.h"
#include "compiler/InitAll.h"
#include "compiler/Target/CUDA/CUDABackend.h"
#include "compiler/Target/PTX/PTXBackend.h"
#include "dialects/Tile/IR/TileOps.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"

#include <mutex>
#include <optional>
#include <set>
#include <tuple>

using namespace mlir;

namespace {
/// Forwards UTF-8 text to another stream with the characters that could
/// take over or garble a terminal (isHiddenInDiagnostics: C0 controls but
/// tab, newline and carriage return, DEL, C1 controls, format characters
/// such as U+202E RIGHT-TO-LEFT OVERRIDE) and each byte that is not UTF-8
/// replaced by one '?', so that a caret under a source line still lines up;
/// lines are cut after 4096 characters.
class SanitizingStream : public llvm::raw_ostream {
public:
  explicit SanitizingStream(llvm::raw_ostream &os) : os(os) { SetUnbuffered(); }
  ~SanitizingStream() override {
    // A character cut off at the very end: not UTF-8.
    if (!pending.empty())
      os << std::string(pending.size(), '?');
  }

private:
  void write_impl(const char *ptr, size_t size) override {
    // A character split between two writes is decoded whole: its first
    // bytes wait in `pending`.
    std::string text = std::move(pending);
    pending.clear();
    text.append(ptr, size);
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
      unsigned char c = text[i];
      if (c == '\n') {
        column = 0;
        out += '\n';
        ++i;
        continue;
      }
      uint32_t cp;
      unsigned n = tilec::py::decodeUTF8(text, i, cp);
      if (!n && isIncompleteCharacter(llvm::StringRef(text).drop_front(i))) {
        pending = text.substr(i);
        break;
      }
      // Lines past kMaxColumns (a quoted source line of megabytes) end in
      // "..." instead: the output stays O(errors), not O(input).
      if (++column > kMaxColumns) {
        if (column == kMaxColumns + 1)
          out += " ...";
      } else if (!n || (cp != '\r' && tilec::py::isHiddenInDiagnostics(cp))) {
        out += '?';
      } else {
        out.append(text, i, n);
      }
      i += n ? n : 1;
    }
    os << out;
    pos += size;
  }
  /// Whether `rest` is the start of a multi-byte character whose other bytes
  /// have not been written yet.
  static bool isIncompleteCharacter(llvm::StringRef rest) {
    unsigned char lead = rest[0];
    size_t length = lead >= 0xC2 && lead <= 0xDF   ? 2
                    : lead >= 0xE0 && lead <= 0xEF ? 3
                    : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                   : 0;
    if (rest.size() >= length)
      return false;
    for (char b : rest.drop_front())
      if ((static_cast<unsigned char>(b) & 0xC0) != 0x80)
        return false;
    return true;
  }
  static constexpr size_t kMaxColumns = 4096;
  size_t column = 0;
  std::string pending;
  uint64_t current_pos() const override { return pos; }
  llvm::raw_ostream &os;
  uint64_t pos = 0;
};

llvm::StringRef severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error: return "error";
  case DiagnosticSeverity::Warning: return "warning";
  case DiagnosticSeverity::Note: return "note";
  case DiagnosticSeverity::Remark: return "remark";
  }
  return "error";
}

/// The call site in `loc`, looking through names and fused locations (as
/// SourceMgrDiagnosticHandler does).
std::optional<CallSiteLoc> getCallSiteLoc(Location loc) {
  if (auto nameLoc = dyn_cast<NameLoc>(loc))
    return getCallSiteLoc(nameLoc.getChildLoc());
  if (auto callLoc = dyn_cast<CallSiteLoc>(loc))
    return callLoc;
  if (auto fusedLoc = dyn_cast<FusedLoc>(loc))
    for (Location sub : fusedLoc.getLocations())
      if (std::optional<CallSiteLoc> callLoc = getCallSiteLoc(sub))
        return callLoc;
  return std::nullopt;
}

/// SourceMgrDiagnosticHandler's output (`file:line:col: error: message`, the
/// source line, a caret; call stacks and notes), but the source line is
/// quoted here rather than by llvm::SMDiagnostic, which leaves out the caret
/// of any line with a non-ASCII character. Columns count characters (code
/// points, as Python's), the caret is placed by terminal cells (a CJK
/// character takes two) and tabs are expanded to multiples of 8 cells.
class SourceLineDiagnosticHandler : public SourceMgrDiagnosticHandler {
public:
  SourceLineDiagnosticHandler(llvm::SourceMgr &mgr, MLIRContext *ctx,
                              llvm::raw_ostream &os)
      : SourceMgrDiagnosticHandler(mgr, ctx, os) {
    setHandler([this](Diagnostic &diag) { emit(diag); });
  }

  /// The diagnostic, the call stack of its location, then its notes (a
  /// note's source line only where its location differs from the last one).
  void emit(Diagnostic &diag) {
    Location loc = diag.getLocation();
    emit(loc, diag.str(), diag.getSeverity());
    if (std::optional<CallSiteLoc> callLoc = getCallSiteLoc(loc)) {
      loc = callLoc->getCaller();
      for (unsigned depth = 0; depth < kCallStackLimit; ++depth) {
        emit(loc, "called from", DiagnosticSeverity::Note);
        if (!(callLoc = getCallSiteLoc(loc)))
          break;
        loc = callLoc->getCaller();
      }
    }
    for (Diagnostic &note : diag.getNotes()) {
      emit(note.getLocation(), note.str(), note.getSeverity(),
           /*displaySourceLine=*/loc != note.getLocation());
      loc = note.getLocation();
    }
  }

  void emit(Location loc, const llvm::Twine &message,
            DiagnosticSeverity severity, bool displaySourceLine = true) {
    auto fileLoc = loc->findInstanceOf<FileLineColLoc>();
    std::optional<llvm::StringRef> line;
    if (fileLoc)
      line = getSourceLine(fileLoc);
    // Byte offset of the location in its line.
    size_t offset = fileLoc ? fileLoc.getColumn() - 1 : 0;
    if (!line || offset > line->size())
      return emitDiagnostic(loc, message, severity, displaySourceLine);

    // The line with tabs expanded, the cells before the character at the
    // location and the characters before it.
    std::string text;
    unsigned cells = 0, column = 1;
    std::optional<unsigned> caretCells;
    for (size_t i = 0; i < line->size();) {
      if (i < offset)
        ++column;
      else if (!caretCells)
        caretCells = cells;
      uint32_t cp;
      unsigned n = tilec::py::decodeUTF8(*line, i, cp);
      if (n && cp == '\t') {
        do {
          text += ' ';
        } while (++cells % 8 != 0);
      } else if (n) {
        text.append(*line, i, n);
        cells += tilec::py::getDisplayWidth(cp);
      } else {
        text += (*line)[i]; // not UTF-8: one '?' (SanitizingStream)
        ++cells;
      }
      i += n ? n : 1;
    }
    os << fileLoc.getFilename().getValue() << ':' << fileLoc.getLine() << ':'
       << column << ": " << severityName(severity) << ": " << message << '\n';
    if (!displaySourceLine)
      return;
    os << text << '\n' << std::string(caretCells.value_or(cells), ' ') << "^\n";
  }

private:
  /// The line of `loc` without its line break, if the file is at hand.
  std::optional<llvm::StringRef> getSourceLine(FileLineColLoc loc) {
    if (loc.getLine() == 0 || loc.getColumn() == 0)
      return std::nullopt;
    const llvm::MemoryBuffer *buffer =
        getBufferForFile(loc.getFilename().getValue());
    if (!buffer)
      return std::nullopt;
    unsigned id = mgr.FindBufferContainingLoc(
        llvm::SMLoc::getFromPointer(buffer->getBufferStart()));
    if (!id)
      return std::nullopt;
    llvm::SMLoc start = mgr.FindLocForLineAndColumn(id, loc.getLine(), 1);
    if (!start.isValid())
      return std::nullopt;
    llvm::StringRef rest(start.getPointer(),
                         buffer->getBufferEnd() - start.getPointer());
    return rest.take_until([](char c) { return c == '\n' || c == '\r'; });
  }

  /// As SourceMgrDiagnosticHandler's default.
  static constexpr unsigned kCallStackLimit = 10;
};
} // namespace

struct tilec::DiagnosticReporter::Impl {
  Impl(llvm::SourceMgr &sm, MLIRContext *ctx, llvm::raw_ostream &os,
       unsigned limit)
      : ctx(ctx), out(os), stream(os), handler(sm, ctx, stream), limit(limit) {
    // Registered after the printer, so it sees each diagnostic first.
    id = ctx->getDiagEngine().registerHandler(
        [this](Diagnostic &d) -> LogicalResult {
          // The same message at the same place once: a kernel versioned on
          // alignment (tile-version-alignment) holds each op twice.
          if (!seen.insert({d.getLocation().getAsOpaquePointer(),
                            int(d.getSeverity()), d.str()})
                   .second)
            return success();
          if (d.getSeverity() == DiagnosticSeverity::Error &&
              this->limit != 0 && ++errors > this->limit) {
            ++dropped;
            return success(); // consumed: not printed
          }
          // Line 0: about the whole file (a kernel it lacks), printed as
          // `file: error: ...` with no line, column or caret.
          auto fileLoc = dyn_cast<FileLineColLoc>(d.getLocation());
          if (!fileLoc || fileLoc.getLine() != 0)
            return failure(); // the printer's (notes ride with their error)
          stream << fileLoc.getFilename().getValue() << ": "
                 << severityName(d.getSeverity()) << ": " << d.str() << "\n";
          for (Diagnostic &note : d.getNotes())
            handler.emit(note.getLocation(), note.str(),
                         DiagnosticSeverity::Note);
          return success();
        });
  }
  ~Impl() { ctx->getDiagEngine().eraseHandler(id); }
  MLIRContext *ctx;
  llvm::raw_ostream &out;
  SanitizingStream stream;
  SourceLineDiagnosticHandler handler;
  unsigned limit;
  unsigned errors = 0, dropped = 0;
  std::set<std::tuple<const void *, int, std::string>> seen;
  DiagnosticEngine::HandlerID id;
};

tilec::DiagnosticReporter::DiagnosticReporter(llvm::SourceMgr &sourceMgr,
                                              MLIRContext *ctx,
                                              llvm::raw_ostream &os,
                                              unsigned errorLimit)
    : impl(std::make_unique<Impl>(sourceMgr, ctx, os, errorLimit)) {}

tilec::DiagnosticReporter::~DiagnosticReporter() = default;

void tilec::DiagnosticReporter::finish() {
  if (impl->dropped)
    impl->out << "tilec: error: " << impl->dropped << " more error"
              << (impl->dropped == 1 ? "" : "s") << " not shown (the limit is "
              << impl->limit << "; --error-limit=0 shows all)\n";
  impl->dropped = 0;
}

void tilec::prepareContext(MLIRContext &ctx) {
  DialectRegistry registry;
  registerAllDialects(registry);
  ctx.appendDialectRegistry(registry);
  ctx.loadAllAvailableDialects();
  // The located message is enough; the generic dump of the op is noise.
  ctx.printOpOnDiagnostic(false);
}

/// Parses the main buffer of `sourceMgr`; syntax errors are emitted as MLIR
/// diagnostics at their file:line:col.
static tilec::py::ParseResult parseMainFile(llvm::SourceMgr &sourceMgr,
                                            MLIRContext *ctx) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  std::string fileName = buffer->getBufferIdentifier().str();
  tilec::py::ParseResult parsed = tilec::py::parseModule(buffer->getBuffer(), fileName);
  if (!parsed.succeeded()) {
    StringAttr file = StringAttr::get(ctx, fileName);
    for (const tilec::py::Diagnostic &d : parsed.diagnostics)
      emitError(FileLineColLoc::get(file, d.loc.line, d.loc.col)) << d.message;
  }
  return parsed;
}

OwningOpRef<ModuleOp>
tilec::importTritonFile(llvm::SourceMgr &sourceMgr, MLIRContext *ctx,
                        const frontend::KernelOptions &options,
                        llvm::raw_ostream *astOut) {
  if (!astOut)
    return importTritonKernels(sourceMgr, ctx, options);
  py::ParseResult parsed = parseMainFile(sourceMgr, ctx);
  if (parsed.succeeded())
    py::dumpAST(*parsed.module, *astOut);
  return nullptr;
}

OwningOpRef<ModuleOp>
tilec::importTritonKernels(llvm::SourceMgr &sourceMgr, MLIRContext *ctx,
                           llvm::ArrayRef<frontend::KernelOptions> kernels) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  std::string fileName = buffer->getBufferIdentifier().str();
  StringAttr file = StringAttr::get(ctx, fileName);
  if (kernels.empty()) {
    emitError(FileLineColLoc::get(file, 0, 0)) << "no kernel to compile";
    return nullptr;
  }
  for (size_t i = 0; i < kernels.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (!kernels[i].kernelName.empty() &&
          kernels[i].kernelName == kernels[j].kernelName) {
        emitError(FileLineColLoc::get(file, 0, 0))
            << "kernel '" << kernels[i].kernelName << "' given twice";
        return nullptr;
      }
  py::ParseResult parsed = parseMainFile(sourceMgr, ctx);
  if (!parsed.succeeded())
    return nullptr;
  OwningOpRef<ModuleOp> module;
  for (const frontend::KernelOptions &options : kernels) {
    frontend::KernelOptions one = options;
    one.constexprsForSomeKernel |= kernels.size() > 1;
    OwningOpRef<ModuleOp> m = frontend::importKernel(*parsed.module, one, ctx);
    if (!m)
      return nullptr;
    if (!module) {
      module = std::move(m);
      continue;
    }
    // One module: the kernels' functions side by side.
    for (Operation &op : llvm::make_early_inc_range(*m->getBody()))
      op.moveBefore(module->getBody(), module->getBody()->end());
  }
  if (kernels.size() == 1)
    return module;
  // Each constexpr value must name a constexpr parameter of some kernel
  // given it (one kernel alone reports that itself).
  for (const frontend::KernelOptions &options : kernels)
    for (const auto &[name, value] : options.constexprs) {
      (void)value;
      bool used = false;
      for (const frontend::KernelOptions &k : kernels)
        if (const py::FunctionDef *fn =
                parsed.module->lookupFunction(k.kernelName))
          for (const py::Param &p : fn->params)
            used |= p.name == name &&
                    frontend::isConstexprAnnotation(p.annotation.get());
      if (!used) {
        emitError(FileLineColLoc::get(file, 0, 0))
            << "-D " << name
            << ": no kernel given has a constexpr parameter of that name";
        return nullptr;
      }
    }
  return module;
}

namespace {
constexpr unsigned kMaxMLIRNesting = 1000;

/// Whether `text` (MLIR) nests (), [], {} or <> more than kMaxMLIRNesting
/// deep outside strings and comments; `at`: the offset of the bracket that
/// does. `->` is an arrow, not a bracket.
bool exceedsMLIRNesting(StringRef text, size_t &at) {
  unsigned depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') { // a string: up to the unescaped closing quote
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == StringRef::npos)
        return false;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > kMaxMLIRNesting) {
        at = i;
        return true;
      }
    } else if ((c == ')' || c == ']' || c == '}' ||
                (c == '>' && (i == 0 || text[i - 1] != '-'))) &&
               depth > 0) {
      --depth;
    }
  }
  return false;
}
} // namespace

OwningOpRef<ModuleOp> tilec::parseTileFile(llvm::SourceMgr &sourceMgr,
                                           MLIRContext *ctx, unsigned numWarps,
                                           uint64_t maxOperations,
                                           bool *looksLikePython) {
  if (looksLikePython)
    *looksLikePython = false;
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  StringRef text = buffer->getBuffer();
  // MLIR's parser recurses once per nesting level of attributes, types,
  // regions and locations: about 10000 levels overflow the stack. Real IR
  // nests a few dozen deep; refuse past kMaxMLIRNesting first.
  size_t at = 0;
  if (exceedsMLIRNesting(text, at)) {
    unsigned line = 1 + unsigned(text.take_front(at).count('\n'));
    size_t lineStart = text.take_front(at).rfind('\n');
    unsigned col =
        unsigned(lineStart == StringRef::npos ? at + 1 : at - lineStart);
    emitError(FileLineColLoc::get(
        StringAttr::get(ctx, buffer->getBufferIdentifier()), line, col))
        << "brackets nested more than " << kMaxMLIRNesting
        << " deep (the limit: MLIR's parser recurses per level)";
    return nullptr;
  }
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, ctx);
  if (!module) {
    if (looksLikePython)
      *looksLikePython =
          text.contains("@triton.jit") || text.starts_with("import triton");
    return nullptr;
  }
  if (failed(verify(*module)))
    return nullptr;
  if (numWarps != 0)
    module->walk([&](tile::FuncOp f) {
      f->setAttr(tile::TileDialect::getNumWarpsAttrName(),
                 IntegerAttr::get(IntegerType::get(ctx, 32), numWarps));
    });
  // The front end applies the budget as it generates; .mlir input is
  // measured once parsed.
  if (failed(checkOperationBudget(*module, maxOperations)))
    return nullptr;
  return module;
}

LogicalResult tilec::checkOperationBudget(ModuleOp module,
                                          uint64_t maxOperations) {
  if (maxOperations == 0)
    return success();
  LogicalResult result = success();
  module.walk([&](tile::FuncOp func) {
    int64_t numWarps = 4;
    if (auto attr = func->getAttrOfType<IntegerAttr>(
            tile::TileDialect::getNumWarpsAttrName()))
      numWarps = std::max<int64_t>(attr.getInt(), 1);
    uint64_t work = 0;
    func.walk([&](Operation *op) {
      work += tile::getOperationWork(op, 32 * numWarps);
      return work > maxOperations ? WalkResult::interrupt()
                                  : WalkResult::advance();
    });
    if (work > maxOperations) {
      func.emitError() << "the kernel's tile IR exceeds the budget of "
                       << maxOperations
                       << " operations " << frontend::kOperationWorkRule;
      result = failure();
    }
  });
  return result;
}

LogicalResult tilec::runWithVersioningFallback(
    ModuleOp module, bool versionAlignment,
    llvm::function_ref<LogicalResult(ModuleOp, bool)> run,
    const bool *crashed) {
  if (!versionAlignment)
    return run(module, false);
  OwningOpRef<ModuleOp> attempt = module.clone();
  std::vector<Diagnostic> held;
  LogicalResult result = failure();
  {
    ScopedDiagnosticHandler hold(module.getContext(), [&](Diagnostic &d) {
      held.push_back(std::move(d));
      return success();
    });
    result = run(*attempt, true);
  }
  if (succeeded(result)) {
    module.getBodyRegion().takeBody(attempt->getBodyRegion());
    module->setAttrs((*attempt)->getAttrDictionary());
    for (Diagnostic &d : held)
      module.getContext()->getDiagEngine().emit(std::move(d));
    return success();
  }
  if (crashed && *crashed)
    return failure();
  return run(module, false);
}

void tilec::buildPipeline(OpPassManager &pm, Stage stop,
                          const PipelineOptions &options) {
  buildTilePipeline(pm, options);
  if (stop >= Stage::Layout)
    buildLayoutPipeline(pm, options);
  if (stop >= Stage::SIMT)
    buildSIMTPipeline(pm, options);
  if (stop >= Stage::LLVMDialect)
    buildLLVMPipeline(pm, options);
}

LogicalResult tilec::runPipeline(ModuleOp module, Stage stop,
                                 const PipelineOptions &options) {
  return runWithVersioningFallback(
      module, options.versionAlignment, [&](ModuleOp m, bool version) {
        PipelineOptions o = options;
        o.versionAlignment = version;
        PassManager pm(m.getContext());
        buildPipeline(pm, stop, o);
        return pm.run(m);
      });
}

namespace {
/// The reason of the last fatal error on this thread (set by the handler
/// just before it unwinds to runRecoveringFromCrashes).
thread_local std::string fatalReason;
} // namespace

bool tilec::runRecoveringFromCrashes(llvm::function_ref<bool()> work,
                                     std::string &diagnostics) {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::CrashRecoveryContext::Enable();
    llvm::install_fatal_error_handler(
        [](void *, const char *reason, bool) {
          // Inside runRecoveringFromCrashes: unwind to it. Elsewhere LLVM
          // goes on as usual (prints and exits).
          if (llvm::CrashRecoveryContext *crc =
                  llvm::CrashRecoveryContext::GetCurrent()) {
            fatalReason = reason ? reason : "";
            crc->HandleExit(1);
          }
        },
        nullptr);
  });
  fatalReason.clear();
  bool result = false;
  llvm::CrashRecoveryContext crc;
  if (crc.RunSafely([&] { result = work(); }))
    return result;
  diagnostics += "error: internal compiler error: ";
  diagnostics += fatalReason.empty()
                     ? std::string("the compiler crashed (signal ") +
                           std::to_string(crc.RetCode) + ")"
                     : fatalReason;
  diagnostics += "; the input may be valid: please report it\n";
  return false;
}

bool tilec::compileTritonToPTX(llvm::StringRef source, llvm::StringRef fileName,
                               const frontend::KernelOptions &kernel,
                               const PipelineOptions &options,
                               std::string &ptx, std::string &diagnostics) {
  return compileTritonToPTX(source, fileName,
                            llvm::ArrayRef<frontend::KernelOptions>(kernel),
                            options, ptx, diagnostics);
}

bool tilec::compileTritonToPTX(llvm::StringRef source, llvm::StringRef fileName,
                               llvm::ArrayRef<frontend::KernelOptions> kernel,
                               const PipelineOptions &options,
                               std::string &ptx, std::string &diagnostics) {
  std::string out;
  bool ok = runRecoveringFromCrashes(
      [&] {
        return compileTritonToPTXUnprotected(source, fileName, kernel, options,
                                             out, diagnostics);
      },
      diagnostics);
  if (ok)
    ptx = std::move(out);
  return ok;
}

bool tilec::withSourceContext(
    llvm::StringRef source, llvm::StringRef fileName,
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem,
    unsigned errorLimit, std::string &diagnostics,
    llvm::function_ref<bool(llvm::SourceMgr &, MLIRContext &,
                            llvm::raw_ostream &)>
        body) {
  MLIRContext ctx(MLIRContext::Threading::DISABLED);
  prepareContext(ctx);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, fileName), llvm::SMLoc());
  // Errors in imported modules show their source lines from where the
  // modules were read.
  if (fileSystem)
    sourceMgr.setVirtualFileSystem(fileSystem);
  llvm::raw_string_ostream diagStream(diagnostics);
  DiagnosticReporter reporter(sourceMgr, &ctx, diagStream, errorLimit);
  struct Finish {
    DiagnosticReporter &r;
    ~Finish() { r.finish(); }
  } finishAtEnd{reporter};
  return body(sourceMgr, ctx, diagStream);
}

bool tilec::compileTritonToPTXUnprotected(
    llvm::StringRef source, llvm::StringRef fileName,
    llvm::ArrayRef<frontend::KernelOptions> kernels,
    const PipelineOptions &options, std::string &ptx,
    std::string &diagnostics) {
  return withSourceContext(
      source, fileName, kernels.empty() ? nullptr : kernels.front().fileSystem,
      kernels.empty() ? kDefaultErrorLimit : kernels.front().errorLimit,
      diagnostics,
      [&](llvm::SourceMgr &sourceMgr, MLIRContext &ctx,
          llvm::raw_ostream &diagStream) {
        if (!isSupportedArch(options.arch)) {
          diagStream << "error: unsupported arch '" << options.arch
                     << "'; expected one of " << getSupportedTargetNames()
                     << "\n";
          return false;
        }
        // Host code evaluated for autotune configs sees the target
        // compiled for.
        std::vector<frontend::KernelOptions> kernelsForArch(kernels.begin(),
                                                           kernels.end());
        for (frontend::KernelOptions &k : kernelsForArch)
          k.arch = options.arch;
        OwningOpRef<ModuleOp> module =
            importTritonKernels(sourceMgr, &ctx, kernelsForArch);
        return module && succeeded(compileModuleToText(*module, options, ptx));
      });
}

LogicalResult tilec::compileModuleToText(ModuleOp module,
                                         const PipelineOptions &options,
                                         std::string &text) {
  if (failed(runPipeline(module,
                         options.cudaBackend ? Stage::SIMT : Stage::LLVMDialect,
                         options)))
    return failure();
  llvm::raw_string_ostream stream(text);
  if (options.cudaBackend)
    return emitCUDA(module, options.arch, stream, options.autoMaxNReg,
                    options.fpFusion);
  return emitPTX(module, options.arch, stream, options.fpFusion,
                 options.autoMaxNReg);
}
