//===- CompileOptions.cpp - The compile key and the compile step -----------===//
//
// tilec::CompileOptions (tilec/Compile.h): validation, the canonical key
// text and its SHA-256, the compiler's identity, and compileToPTX, the one
// compile from source text to PTX that the command line's default path and
// the JIT share.
//
//===----------------------------------------------------------------------===//
#include "compiler/Jit/Compiler.h"
#include "compiler/Driver/Driver.h"
#include "compiler/Target/PTX/PTXBackend.h"
#include "dialects/Tile/IR/TileOps.h"
#include "passes/Target.h"
#include "TilecVersion.h"

#include "mlir/IR/MLIRContext.h"
#include "compiler/Jit/EntryStore.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/SourceMgr.h"

#include <mutex>

using namespace mlir;
using llvm::StringRef;

namespace tilec {

const char *compilerVersion() {
  return "tilec " TILEC_VERSION " (commit " TILEC_COMMIT
         ", sources " TILEC_SOURCES ", LLVM " LLVM_VERSION_STRING ")";
}

SourceLanguage resolveLanguage(SourceLanguage language,
                               std::string_view fileName) {
  if (language != SourceLanguage::Auto)
    return language;
  return StringRef(fileName.data(), fileName.size()).ends_with(".py")
             ? SourceLanguage::Python
             : SourceLanguage::MLIR;
}

std::string effectiveArch(const CompileOptions &options) {
  return options.arch.empty() ? std::string("sm_90a") : options.arch;
}

std::string CompileOptions::validate(SourceLanguage language) const {
  std::string arch = effectiveArch(*this);
  if (!isSupportedArch(arch))
    return "unsupported arch '" + arch + "'; expected one of " +
           getSupportedTargetNames();
  if (numWarps != 0 && (numWarps > 32 || (numWarps & (numWarps - 1))))
    return "num_warps must be a power of two in [1, 32], found " +
           std::to_string(numWarps);
  if (mmaVersion != 0 && mmaVersion != 2 && mmaVersion != 3)
    return "mma version must be 0, 2 or 3, found " +
           std::to_string(mmaVersion);
  if (warpSpecialize != "hint" && warpSpecialize != "on" &&
      warpSpecialize != "off")
    return "warp specialization must be hint, on or off, found '" +
           warpSpecialize + "'";
  if (numConsumerGroups != 1 && numConsumerGroups != 2)
    return "consumer groups must be 1 or 2, found " +
           std::to_string(numConsumerGroups);
  if (backend != "ptx" && backend != "cuda")
    return "backend must be ptx or cuda, found '" + backend + "'";
  if (clusterSize != 1 && clusterSize != 2)
    return "cluster size must be 1 or 2, found " + std::to_string(clusterSize);
  if (maxnreg != 0 && (maxnreg < 16 || maxnreg > 255))
    return "maxnreg must be 0 (no limit) or in [16, 255], found " +
           std::to_string(maxnreg);
  if (autotuneConfig < -1)
    return "autotune config must be an index (0 or more) or -1, found " +
           std::to_string(autotuneConfig);
  for (const auto &[name, value] : constexprs) {
    (void)value;
    if (name.empty())
      return "a constexpr value without a name";
  }
  if (language == SourceLanguage::MLIR &&
      (!signature.empty() || !constexprs.empty() || numStages != 0 ||
       autotuneConfig != -1))
    return "signature, constexprs, num_stages and autotune config apply to "
           "Python source (MLIR source states them in its tile.func)";
  return "";
}

namespace {
/// Appends `name len:value\n`: length-prefixed, so no two different field
/// lists give the same text.
void addField(std::string &out, std::string_view name, std::string_view value) {
  out += name;
  out += ' ';
  out += std::to_string(value.size());
  out += ':';
  out += value;
  out += '\n';
}
void addField(std::string &out, std::string_view name, uint64_t value) {
  addField(out, name, std::to_string(value));
}
} // namespace

std::string compileKeyText(std::string_view source, std::string_view fileName,
                           SourceLanguage language,
                           const CompileOptions &options) {
  language = resolveLanguage(language, fileName);
  std::string t = "tilec-compile-key 1\n";
  addField(t, "compiler", compilerVersion());
  addField(t, "language", language == SourceLanguage::Python ? "python" : "mlir");
  addField(t, "file", fileName);
  addField(t, "source", source);
  addField(t, "kernel", options.kernel);
  addField(t, "signature", options.signature);
  addField(t, "constexprs", options.constexprs.size());
  for (const auto &[name, value] : options.constexprs) {
    addField(t, "name", name);
    addField(t, "value", value);
  }
  addField(t, "num_warps", options.numWarps);
  addField(t, "num_stages", options.numStages);
  addField(t, "autotune_config", std::to_string(options.autotuneConfig));
  addField(t, "arch", effectiveArch(options));
  addField(t, "fp_fusion", options.fpFusion);
  addField(t, "debug", options.debug);
  addField(t, "mma_version", options.mmaVersion);
  addField(t, "tma", options.tma);
  addField(t, "tma_pointer_loads", options.tmaPointerLoads);
  addField(t, "version_alignment", options.versionAlignment);
  addField(t, "fuse_kernels", options.fuseKernels);
  addField(t, "warp_specialize", options.warpSpecialize);
  addField(t, "num_consumer_groups", options.numConsumerGroups);
  addField(t, "cluster_size", options.clusterSize);
  addField(t, "maxnreg", options.maxnreg);
  addField(t, "auto_maxnreg", options.autoMaxNReg);
  addField(t, "backend", options.backend);
  addField(t, "import_paths", options.importPaths.size());
  for (const std::string &dir : options.importPaths)
    addField(t, "path", dir);
  return t;
}

std::string compileKey(std::string_view source, std::string_view fileName,
                       SourceLanguage language, const CompileOptions &options) {
  std::string text = compileKeyText(source, fileName, language, options);
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

frontend::KernelOptions toKernelOptions(const CompileOptions &options) {
  frontend::KernelOptions k;
  k.kernelName = options.kernel;
  k.signature = options.signature;
  k.constexprs = options.constexprs;
  k.importPaths = options.importPaths;
  k.numWarps = options.numWarps;
  k.numStages = options.numStages;
  k.autotuneConfig = options.autotuneConfig;
  k.arch = effectiveArch(options);
  k.errorLimit = options.errorLimit;
  k.maxInlinedCalls = options.maxInlinedCalls;
  k.maxUnrolledIterations = options.maxUnrolledIterations;
  k.maxOperations = options.maxOperations;
  k.debug = options.debug;
  return k;
}

PipelineOptions toPipelineOptions(const CompileOptions &options) {
  PipelineOptions p;
  p.arch = effectiveArch(options);
  p.numWarps = options.numWarps;
  p.fpFusion = options.fpFusion;
  p.mmaVersion = options.mmaVersion;
  p.tma = options.tma;
  p.tmaPointerLoads = options.tmaPointerLoads;
  p.versionAlignment = options.versionAlignment;
  p.fuseKernels = options.fuseKernels;
  p.warpSpecialize = options.warpSpecialize;
  p.numConsumerGroups = options.numConsumerGroups;
  p.clusterSize = options.clusterSize;
  p.maxNReg = options.maxnreg;
  p.autoMaxNReg = options.autoMaxNReg;
  p.cudaBackend = options.backend == "cuda";
  return p;
}

namespace {
/// A file whose bytes were read once: the compiler sees exactly what was
/// hashed, even if the file changes while it compiles.
class ReadOnceFile : public llvm::vfs::File {
public:
  ReadOnceFile(llvm::vfs::Status status, std::string contents)
      : st(std::move(status)), contents(std::move(contents)) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return st; }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>
  getBuffer(const llvm::Twine &name, int64_t, bool, bool) override {
    return llvm::MemoryBuffer::getMemBufferCopy(contents, name);
  }
  std::error_code close() override { return {}; }

private:
  llvm::vfs::Status st;
  std::string contents;
};

/// The real (or given) file system, remembering every file opened for
/// reading (with the SHA-256 of the bytes handed out) and every path
/// looked for in vain: what the modules a compile imported depend on.
class RecordingFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  explicit RecordingFileSystem(llvm::IntrusiveRefCntPtr<FileSystem> fs)
      : ProxyFileSystem(std::move(fs)) {}
  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &path) override {
    auto result = ProxyFileSystem::status(path);
    if (!result) {
      std::string name = absolute(path);
      std::lock_guard<std::mutex> lock(mutex);
      if (llvm::find(absent, name) == absent.end())
        absent.push_back(name);
    }
    return result;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &path) override {
    auto file = ProxyFileSystem::openFileForRead(path);
    if (!file)
      return file;
    auto st = (*file)->status();
    auto buffer = (*file)->getBuffer(path, -1, false, false);
    if (!st || !buffer)
      return file;
    std::string contents = (*buffer)->getBuffer().str();
    std::string name = absolute(path);
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = llvm::find_if(files, [&](auto &f) { return f.first == name; });
      if (it == files.end())
        files.emplace_back(name, sha256Hex(contents));
    }
    return std::unique_ptr<llvm::vfs::File>(
        new ReadOnceFile(*st, std::move(contents)));
  }
  void take(CompileOutput &out) {
    std::lock_guard<std::mutex> lock(mutex);
    out.filesRead = std::move(files);
    // A path both absent and read (created meanwhile) is a read.
    for (std::string &p : absent)
      if (llvm::find_if(out.filesRead, [&](auto &f) { return f.first == p; }) ==
          out.filesRead.end())
        out.pathsAbsent.push_back(std::move(p));
  }

private:
  std::string absolute(const llvm::Twine &path) {
    llvm::SmallString<256> abs;
    path.toVector(abs);
    (void)makeAbsolute(abs);
    llvm::sys::path::remove_dots(abs, /*remove_dot_dot=*/true);
    return std::string(abs.str());
  }
  std::mutex mutex;
  std::vector<std::pair<std::string, std::string>> files;
  std::vector<std::string> absent;
};

bool compileUnprotected(std::string_view source, std::string_view fileName,
                        SourceLanguage language, const CompileOptions &options,
                        llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs,
                        std::string &ptx, std::string &diagnostics) {
  StringRef text(source.data(), source.size());
  StringRef name(fileName.data(), fileName.size());
  PipelineOptions pipeline = toPipelineOptions(options);
  if (language == SourceLanguage::Python) {
    frontend::KernelOptions kernel = toKernelOptions(options);
    kernel.fileSystem = fs;
    return compileTritonToPTXUnprotected(text, name, kernel, pipeline, ptx,
                                         diagnostics);
  }
  return withSourceContext(
      text, name, fs, options.errorLimit, diagnostics,
      [&](llvm::SourceMgr &sourceMgr, MLIRContext &ctx,
          llvm::raw_ostream &diagStream) {
        bool looksLikePython = false;
        OwningOpRef<ModuleOp> module =
            parseTileFile(sourceMgr, &ctx, options.numWarps,
                          options.maxOperations, &looksLikePython);
        if (!module && looksLikePython)
          diagStream << "note: the source looks like a Triton-language file "
                        "and was read as MLIR; name it .py or pass the "
                        "Python language\n";
        return module && succeeded(compileModuleToText(*module, pipeline, ptx));
      });
}
} // namespace

std::string describeAutotuneConfig(
    const std::vector<std::pair<std::string, std::string>> &constexprs,
    unsigned numWarps, unsigned numStages, unsigned maxnreg) {
  std::string s;
  for (const auto &[name, value] : constexprs)
    s += name + "=" + value + ", ";
  s += "num_warps=" + std::to_string(numWarps) +
       ", num_stages=" + std::to_string(numStages);
  if (maxnreg)
    s += ", maxnreg=" + std::to_string(maxnreg);
  return s;
}

std::string autotuneArgIndices(const KernelInspection &info,
                               std::vector<size_t> &keyArgs,
                               std::vector<size_t> &resetArgs,
                               std::vector<size_t> &restoreArgs) {
  auto index = [&](const std::string &name) -> int {
    for (size_t i = 0; i < info.paramNames.size(); ++i)
      if (info.paramNames[i] == name)
        return int(i);
    return -1;
  };
  for (const std::string &k : info.key)
    if (int i = index(k); i >= 0)
      keyArgs.push_back(size_t(i));
  for (auto [names, to] : {std::pair{&info.resetToZero, &resetArgs},
                           std::pair{&info.restoreValue, &restoreArgs}})
    for (const std::string &n : *names) {
      int i = index(n);
      if (i < 0)
        return n;
      to->push_back(size_t(i));
    }
  return "";
}

/// What inspectTritonKernel reads of the imported kernel `func`.
static void readInspection(tile::FuncOp func, KernelInspection &out) {
  // One name per parameter: a descriptor's arguments share theirs.
  for (BlockArgument arg : func.getArguments()) {
    auto name = dyn_cast<NameLoc>(arg.getLoc());
    std::string n = name ? name.getName().str() : std::string();
    if (out.paramNames.empty() || out.paramNames.back() != n || n.empty())
      out.paramNames.push_back(n);
  }
  auto autotune = func->getAttrOfType<DictionaryAttr>("tile.autotune");
  if (!autotune)
    return;
  auto names = [](Attribute a, std::vector<std::string> &to) {
    if (auto list = dyn_cast_or_null<ArrayAttr>(a))
      for (Attribute n : list)
        if (auto s = dyn_cast<StringAttr>(n))
          to.push_back(s.str());
  };
  names(autotune.get("key"), out.key);
  names(autotune.get("reset_to_zero"), out.resetToZero);
  names(autotune.get("restore_value"), out.restoreValue);
  if (auto configs = dyn_cast_or_null<ArrayAttr>(autotune.get("configs")))
    for (Attribute c : configs) {
      auto dict = dyn_cast<DictionaryAttr>(c);
      if (!dict)
        continue;
      KernelInspection::Config config;
      if (auto w = dyn_cast_or_null<IntegerAttr>(dict.get("num_warps")))
        config.numWarps = unsigned(w.getInt());
      if (auto st = dyn_cast_or_null<IntegerAttr>(dict.get("num_stages")))
        config.numStages = unsigned(st.getInt());
      if (auto r = dyn_cast_or_null<IntegerAttr>(dict.get("maxnreg")))
        config.maxnreg = unsigned(r.getInt());
      if (auto values =
              dyn_cast_or_null<DictionaryAttr>(dict.get("constexprs")))
        for (NamedAttribute v : values) {
          std::string text;
          if (auto b = dyn_cast<BoolAttr>(v.getValue()))
            text = b.getValue() ? "True" : "False";
          else if (auto i = dyn_cast<IntegerAttr>(v.getValue()))
            text = std::to_string(i.getInt());
          else if (auto f = dyn_cast<FloatAttr>(v.getValue()))
            text = std::to_string(f.getValueAsDouble());
          else if (auto str = dyn_cast<StringAttr>(v.getValue()))
            text = "'" + str.str() + "'";
          else
            text = "None";
          config.constexprs.emplace_back(v.getName().str(), text);
        }
      out.configs.push_back(std::move(config));
    }
}

bool inspectTritonKernel(std::string_view source, std::string_view fileName,
                         const CompileOptions &options, KernelInspection &out,
                         std::string &diagnostics) {
  out = KernelInspection();
  if (std::string problem = options.validate(SourceLanguage::Python);
      !problem.empty()) {
    diagnostics = "error: " + problem + "\n";
    return false;
  }
  return runRecoveringFromCrashes(
      [&] {
        return withSourceContext(
            StringRef(source.data(), source.size()),
            StringRef(fileName.data(), fileName.size()), nullptr,
            options.errorLimit, diagnostics,
            [&](llvm::SourceMgr &sourceMgr, MLIRContext &ctx,
                llvm::raw_ostream &) {
              frontend::KernelOptions kernel = toKernelOptions(options);
              OwningOpRef<ModuleOp> module =
                  importTritonKernels(sourceMgr, &ctx, kernel);
              if (!module)
                return false;
              tile::FuncOp func;
              module->walk([&](tile::FuncOp f) {
                if (!func &&
                    (options.kernel.empty() || f.getName() == options.kernel))
                  func = f;
              });
              if (!func)
                return false;
              readInspection(func, out);
              return true;
            });
      },
      diagnostics);
}

bool compileToPTX(std::string_view source, std::string_view fileName,
                  SourceLanguage language, const CompileOptions &options,
                  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem,
                  CompileOutput &out) {
  out = CompileOutput();
  language = resolveLanguage(language, fileName);
  if (std::string problem = options.validate(language); !problem.empty()) {
    out.diagnostics = "error: " + problem + "\n";
    return false;
  }
  if (!fileSystem)
    fileSystem = llvm::vfs::getRealFileSystem();
  auto recording =
      llvm::makeIntrusiveRefCnt<RecordingFileSystem>(std::move(fileSystem));
  bool ok = runRecoveringFromCrashes(
      [&] {
        return compileUnprotected(source, fileName, language, options,
                                  recording, out.ptx, out.diagnostics);
      },
      out.diagnostics);
  recording->take(out);
  if (ok && options.backend == "cuda") {
    // The CUDA C++ backend's text, compiled as the runtime compiles a .cu
    // (NVRTC, loaded at its first use): the entry holds PTX either way.
    std::string ptx;
    Status s = compileCUDAToPTX(out.ptx, effectiveArch(options), ptx, fileName);
    if (!s) {
      out.diagnostics += "error: " + s.message() + "\n";
      ok = false;
    }
    out.ptx = std::move(ptx);
  }
  if (!ok)
    out.ptx.clear();
  return ok;
}

} // namespace tilec
