//===- Jit.cpp - Compile, cache and load tile programs in-process ----------===//
//
// tilec::Jit (tilec/Jit.h): the compile key first in the in-memory table,
// then in the disk cache, else compileToPTX + ptxas; entries hold the
// kernels' metadata as JSON, the image (cubin or PTX) and the modules the
// compile imported with their SHA-256, checked before an entry is reused.
//
//===----------------------------------------------------------------------===//
#include "tilec/Jit.h"
#include "compiler/Jit/Compiler.h"
#include "tilec/Cache.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <mutex>
#include <unordered_map>

using llvm::StringRef;

namespace tilec {

namespace {

/// The hex SHA-256 of `data`.
std::string sha256Hex(StringRef data) {
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(data.data()), data.size()));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

/// The arch of a device of compute capability `cc` (90 -> sm_90a: the
/// arch-specific target, since the cubin only runs on this device anyway).
std::string archForComputeCapability(int cc) {
  std::string arch = "sm_" + std::to_string(cc);
  if (cc >= 90)
    arch += "a";
  return arch;
}

/// A cache entry: what a compile produced, and what it read.
struct Entry {
  std::string metadataJson;
  bool cubin = false;
  std::string image;
  /// (path, SHA-256 of its contents) of each module the compile imported.
  std::vector<std::pair<std::string, std::string>> deps;
};

constexpr StringRef kEntryMagic = "tilec-jit-entry 1\n";

void putBlob(std::string &out, StringRef tag, StringRef bytes) {
  out += tag;
  out += ' ';
  out += std::to_string(bytes.size());
  out += '\n';
  out += bytes;
  out += '\n';
}

/// Reads `tag <len>\n<bytes>\n` at `pos`.
bool getBlob(StringRef in, size_t &pos, StringRef tag, std::string &out) {
  StringRef rest = in.drop_front(pos);
  if (!rest.consume_front(tag) || !rest.consume_front(" "))
    return false;
  size_t nl = rest.find('\n');
  if (nl == StringRef::npos)
    return false;
  uint64_t len = 0;
  if (rest.take_front(nl).getAsInteger(10, len))
    return false;
  rest = rest.drop_front(nl + 1);
  if (rest.size() < len + 1 || rest[len] != '\n')
    return false;
  out = rest.take_front(len).str();
  pos = in.size() - rest.size() + len + 1;
  return true;
}

std::string serializeEntry(const Entry &e) {
  std::string out(kEntryMagic);
  putBlob(out, "metadata", e.metadataJson);
  putBlob(out, e.cubin ? "cubin" : "ptx", e.image);
  putBlob(out, "deps", std::to_string(e.deps.size()));
  for (const auto &[path, hash] : e.deps) {
    putBlob(out, "path", path);
    putBlob(out, "sha256", hash);
  }
  return out;
}

bool parseEntry(StringRef in, Entry &e) {
  if (!in.starts_with(kEntryMagic))
    return false;
  size_t pos = kEntryMagic.size();
  if (!getBlob(in, pos, "metadata", e.metadataJson))
    return false;
  e.cubin = in.drop_front(pos).starts_with("cubin ");
  if (!getBlob(in, pos, e.cubin ? "cubin" : "ptx", e.image))
    return false;
  std::string count;
  uint64_t n = 0;
  if (!getBlob(in, pos, "deps", count) || StringRef(count).getAsInteger(10, n))
    return false;
  for (uint64_t i = 0; i < n; ++i) {
    std::string path, hash;
    if (!getBlob(in, pos, "path", path) || !getBlob(in, pos, "sha256", hash))
      return false;
    e.deps.emplace_back(std::move(path), std::move(hash));
  }
  return pos == in.size();
}

/// One key's state in the in-memory table: filled once; waiters block until
/// then.
struct Slot {
  std::mutex mutex;
  std::condition_variable ready;
  bool done = false;
  Status status;
  Module module;
  JitOrigin origin = JitOrigin::Compiled;
  bool cubin = false;
  std::string diagnostics;
};

} // namespace

struct Jit::Impl {
  std::shared_ptr<Context> context;
  Options options;
  std::string arch;
  std::string ptxas;
  bool haveDiskCache = false;
  DiskCache cache;
  std::string cacheDir;
  std::mutex mutex;
  std::unordered_map<std::string, std::shared_ptr<Slot>> table;

  void note(const std::string &text) const {
    if (options.note)
      options.note(text);
  }

  /// Loads `e` (from the cache or a compile) into `slot`.
  Status load(const Entry &e, StringRef displayName, Slot &slot) {
    slot.cubin = e.cubin;
    return Module::loadImage(context, e.image, e.metadataJson, slot.module,
                             displayName.str());
  }

  /// Whether every module `e` was compiled from still has its contents.
  bool depsUnchanged(const Entry &e, std::string &changed) const {
    for (const auto &[path, hash] : e.deps) {
      auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
      if (!buf || sha256Hex((*buf)->getBuffer()) != hash) {
        changed = path;
        return false;
      }
    }
    return true;
  }

  /// Fills `slot` for `key`: the disk cache, else a compile.
  void fill(const std::string &key, std::string_view source,
            std::string_view fileName, SourceLanguage language,
            const CompileOptions &options, Slot &slot) {
    std::string display(fileName);
    if (haveDiskCache) {
      DiskCache::Lookup found;
      Status s = cache.lookup(key, found);
      if (!found.note.empty())
        note("tilec: cache: " + found.note);
      Entry e;
      std::string changed;
      if (s && found.payload) {
        if (!parseEntry(*found.payload, e)) {
          note("tilec: cache: entry " + key +
               " is not a JIT entry of this format; rebuilding it");
        } else if (!depsUnchanged(e, changed)) {
          note("tilec: cache: entry " + key + " was compiled from '" +
               changed + "', which has changed since; recompiling");
        } else {
          slot.status = load(e, display, slot);
          if (slot.status) {
            slot.origin = JitOrigin::Disk;
            return;
          }
          // An entry the driver refuses (another driver, a damaged image
          // that passed the checksum): rebuild it.
          note("tilec: cache: entry " + key + " did not load (" +
               slot.status.message() + "); recompiling");
          slot.module = Module();
        }
      }
    }
    slot.origin = JitOrigin::Compiled;
    CompileOutput compiled;
    if (!compileToPTX(source, fileName, language, options, nullptr,
                      compiled)) {
      slot.status = Status::error("compile of '" + display + "' failed:\n" +
                                  compiled.diagnostics);
      return;
    }
    slot.diagnostics = std::move(compiled.diagnostics);
    std::vector<KernelInfo> kernels;
    if (Status s = parseKernelMetadata(compiled.ptx, kernels); !s) {
      slot.status = Status::error("internal compiler error: the PTX of '" +
                                  display + "' has bad metadata: " +
                                  s.message());
      return;
    }
    Entry e;
    e.metadataJson = kernelMetadataToJson(kernels);
    bool depsReadable = true;
    for (const std::string &path : compiled.filesRead) {
      auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
      // A module read through the file system that cannot be read back now
      // is an entry that could never be checked: keep it out of the cache.
      if (!buf) {
        depsReadable = false;
        break;
      }
      e.deps.emplace_back(path, sha256Hex((*buf)->getBuffer()));
    }
    if (!ptxas.empty()) {
      slot.status = assembleCubin(ptxas, effectiveArch(options), compiled.ptx,
                             e.image);
      if (!slot.status)
        return;
      e.cubin = true;
    } else {
      e.image = std::move(compiled.ptx);
    }
    slot.status = load(e, display, slot);
    if (!slot.status || !haveDiskCache || !depsReadable)
      return;
    if (Status s = cache.store(key, serializeEntry(e)); !s)
      note("tilec: cache: cannot store entry " + key + ": " + s.message());
  }
};

Jit::Jit(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Jit::~Jit() = default;

Status Jit::create(std::shared_ptr<Context> context, const Options &options,
                   std::unique_ptr<Jit> &out) {
  if (!context)
    return Status::error("Jit::create: no context");
  auto impl = std::make_unique<Impl>();
  impl->context = std::move(context);
  impl->options = options;
  impl->arch = archForComputeCapability(impl->context->computeCapability());
  if (options.ptxas == "none") {
    impl->ptxas.clear();
  } else if (!options.ptxas.empty()) {
    if (!llvm::sys::fs::can_execute(options.ptxas) ||
        llvm::sys::fs::is_directory(options.ptxas))
      return Status::error("ptxas '" + options.ptxas +
                           "' is not an executable file");
    impl->ptxas = options.ptxas;
  } else {
    impl->ptxas = findPtxas();
    if (impl->ptxas.empty())
      impl->note("tilec: ptxas not found ($TILEC_PTXAS, $CUDA_HOME/bin, "
                 "/usr/local/cuda/bin, PATH); loading PTX, which the driver "
                 "compiles");
  }
  if (options.diskCache) {
    DiskCache::Options co;
    co.dir = options.cacheDir;
    if (options.cacheMaxBytes)
      co.maxBytes = options.cacheMaxBytes;
    if (Status s = DiskCache::open(co, impl->cache); !s)
      return s;
    impl->haveDiskCache = true;
    impl->cacheDir = impl->cache.directory();
  }
  out.reset(new Jit(std::move(impl)));
  return Status::success();
}

const std::string &Jit::deviceArch() const { return impl->arch; }
const std::shared_ptr<Context> &Jit::context() const { return impl->context; }
const std::string &Jit::ptxasPath() const { return impl->ptxas; }
const std::string &Jit::cacheDirectory() const { return impl->cacheDir; }

std::string Jit::keyFor(std::string_view source, std::string_view fileName,
                        const CompileOptions &options,
                        SourceLanguage language) const {
  CompileOptions o = options;
  if (o.arch.empty())
    o.arch = impl->arch;
  return compileKey(source, fileName, language, o);
}

Status Jit::compile(std::string_view source, std::string_view fileName,
                    const CompileOptions &options, Kernel &out,
                    JitResult *result, SourceLanguage language) {
  auto start = std::chrono::steady_clock::now();
  CompileOptions o = options;
  if (o.arch.empty())
    o.arch = impl->arch;
  language = resolveLanguage(language, fileName);
  std::string key = compileKey(source, fileName, language, o);

  std::shared_ptr<Slot> slot;
  bool mine = false;
  {
    std::lock_guard<std::mutex> lock(impl->mutex);
    auto [it, inserted] = impl->table.try_emplace(key);
    if (inserted)
      it->second = std::make_shared<Slot>();
    slot = it->second;
    mine = inserted;
  }
  JitOrigin origin = JitOrigin::Memory;
  if (mine) {
    impl->fill(key, source, fileName, language, o, *slot);
    origin = slot->origin;
    if (!slot->status) {
      // Failures are not remembered: the next call tries again (a ptxas
      // or a disk that works by then).
      std::lock_guard<std::mutex> lock(impl->mutex);
      impl->table.erase(key);
    }
    {
      std::lock_guard<std::mutex> lock(slot->mutex);
      slot->done = true;
    }
    slot->ready.notify_all();
  } else {
    std::unique_lock<std::mutex> lock(slot->mutex);
    slot->ready.wait(lock, [&] { return slot->done; });
  }
  if (result) {
    result->key = key;
    result->origin = origin;
    result->cubin = slot->cubin;
    result->diagnostics = origin == JitOrigin::Compiled ? slot->diagnostics
                                                         : std::string();
  }
  Status status = slot->status;
  if (status) {
    // The kernel asked for, or the module's only one.
    std::string name = o.kernel;
    const std::vector<KernelInfo> &kernels = slot->module.kernels();
    if (name.empty()) {
      if (kernels.size() != 1) {
        std::string names;
        for (const KernelInfo &k : kernels)
          names += (names.empty() ? "'" : ", '") + k.name + "'";
        status = Status::error("'" + std::string(fileName) + "' has " +
                               std::to_string(kernels.size()) +
                               " kernels (" + names +
                               "); name the one to return");
      }
      else
        name = kernels.front().name;
    }
    if (status)
      status = slot->module.getKernel(name, out);
  }
  if (result)
    result->seconds = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  return status;
}

Status Jit::compileFile(const std::string &path, const CompileOptions &options,
                        Kernel &out, JitResult *result) {
  if (llvm::sys::fs::is_directory(path))
    return Status::error("cannot read '" + path + "': it is a directory");
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buf)
    return Status::error("cannot read '" + path +
                         "': " + buf.getError().message());
  std::string text = (*buf)->getBuffer().str();
  return compile(text, path, options, out, result);
}

//===----------------------------------------------------------------------===//
// SpecializingKernel
//===----------------------------------------------------------------------===//

struct SpecializingKernel::State {
  Jit *jit = nullptr;
  std::string source, fileName;
  CompileOptions options;
  /// The signature's entries; for each, whether it is a parameter whose
  /// facts the launch chooses (a pointer or an integer without a fact).
  std::vector<std::string> entries;
  std::vector<ParamType> params;
  /// For each launch argument (a parameter entry), its entry index.
  std::vector<size_t> paramEntry;
  std::vector<bool> chooses;
  std::mutex mutex;
  /// Variants by their facts (one character per parameter).
  std::map<std::string, Kernel> variants;

  /// One character per argument: '6' 16-byte aligned / divisible by 16,
  /// '1' equal to 1, '-' neither (or not chosen).
  Status facts(const Arg *args, size_t numArgs, std::string &out) const {
    if (numArgs != paramEntry.size())
      return Status::error("kernel '" + options.kernel + "' expects " +
                           std::to_string(paramEntry.size()) +
                           " arguments (signature '" + options.signature +
                           "'), found " + std::to_string(numArgs));
    out.assign(numArgs, '-');
    for (size_t i = 0; i < numArgs; ++i) {
      size_t e = paramEntry[i];
      if (!chooses[e])
        continue;
      const ParamType &p = params[i];
      uint64_t bits = args[i].bits();
      if (p.isPointer) {
        if (args[i].kind() == ArgKind::Pointer && bits % 16 == 0)
          out[i] = '6';
        continue;
      }
      // An integer: its value as the kernel sees it (sign-extended).
      int64_t v = int64_t(bits);
      if (v == 1)
        out[i] = '1';
      else if (v % 16 == 0)
        out[i] = '6';
    }
    return Status::success();
  }

  std::string signatureFor(const std::string &facts) const {
    std::string sig;
    size_t arg = 0;
    for (size_t e = 0; e < entries.size(); ++e) {
      if (e)
        sig += ',';
      std::string entry = entries[e];
      if (arg < paramEntry.size() && paramEntry[arg] == e) {
        if (chooses[e] && facts[arg] == '6')
          entry += ":16";
        else if (chooses[e] && facts[arg] == '1')
          entry += ":1";
        ++arg;
      }
      sig += entry;
    }
    return sig;
  }
};

Status SpecializingKernel::create(Jit &jit, std::string source,
                                  std::string fileName, CompileOptions options,
                                  SpecializingKernel &out) {
  if (resolveLanguage(SourceLanguage::Auto, fileName) != SourceLanguage::Python)
    return Status::error("a specializing kernel compiles Python source; '" +
                         fileName + "' is not a .py file");
  auto st = std::make_shared<State>();
  st->jit = &jit;
  st->source = std::move(source);
  st->fileName = std::move(fileName);
  st->options = std::move(options);
  for (std::string_view e : Signature::splitEntries(st->options.signature)) {
    StringRef entry = StringRef(e.data(), e.size()).trim();
    st->entries.push_back(entry.str());
    ParamType p;
    // Constexpr values (1024, None, (64, 2)) are not parameters.
    if (!ParamType::parse(std::string_view(entry.data(), entry.size()), p)) {
      st->chooses.push_back(false);
      continue;
    }
    bool noFact = p.divisibility == 0 && !p.equalToOne;
    bool integer = !p.isPointer && !p.isTensorDesc && isInteger(p.type) &&
                   p.type != ScalarType::I1;
    st->chooses.push_back(noFact && (p.isPointer || integer));
    st->paramEntry.push_back(st->entries.size() - 1);
    st->params.push_back(std::move(p));
  }
  out.state = std::move(st);
  return Status::success();
}

Status SpecializingKernel::specializedSignature(const Arg *args,
                                                size_t numArgs,
                                                std::string &out) const {
  if (!state)
    return Status::error("use of an empty SpecializingKernel");
  std::string facts;
  if (Status s = state->facts(args, numArgs, facts); !s)
    return s;
  out = state->signatureFor(facts);
  return Status::success();
}

size_t SpecializingKernel::numVariants() const {
  if (!state)
    return 0;
  std::lock_guard<std::mutex> lock(state->mutex);
  return state->variants.size();
}

Status SpecializingKernel::launch(const Grid &grid, const Arg *args,
                                  size_t numArgs, CUstream stream,
                                  JitResult *result) {
  if (!state)
    return Status::error("launch of an empty SpecializingKernel");
  std::string facts;
  if (Status s = state->facts(args, numArgs, facts); !s)
    return s;
  Kernel kernel;
  {
    std::lock_guard<std::mutex> lock(state->mutex);
    auto it = state->variants.find(facts);
    if (it != state->variants.end())
      kernel = it->second;
  }
  if (!kernel.isValid()) {
    CompileOptions o = state->options;
    o.signature = state->signatureFor(facts);
    if (Status s = state->jit->compile(state->source, state->fileName, o,
                                       kernel, result);
        !s)
      return s;
    std::lock_guard<std::mutex> lock(state->mutex);
    state->variants.emplace(facts, kernel);
  } else if (result) {
    *result = JitResult();
    result->origin = JitOrigin::Memory;
  }
  return kernel.launch(grid, args, numArgs, stream);
}

} // namespace tilec
