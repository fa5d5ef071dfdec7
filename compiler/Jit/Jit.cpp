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
#include "compiler/Jit/EntryStore.h"
#include "compiler/Target/PTX/PTXBackend.h"
#include "tilec/Cache.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <chrono>
#include <tuple>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <mutex>
#include <unordered_map>

using llvm::StringRef;

namespace tilec {

namespace {

/// The arch of a device of compute capability `cc` (90 -> sm_90a: the
/// arch-specific target, since the cubin only runs on this device anyway).
std::string archForComputeCapability(int cc) {
  std::string arch = "sm_" + std::to_string(cc);
  if (cc >= 90)
    arch += "a";
  return arch;
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
  std::unique_ptr<RemoteCache> fleet;
  std::unique_ptr<EntryStore> store;
  /// The tools' identity in the keys: ptxas and libdevice (by size, so
  /// machines with the same toolkit share entries).
  std::string tools;
  std::mutex mutex;
  std::unordered_map<std::string, std::shared_ptr<Slot>> table;

  void note(const std::string &text) const {
    if (options.note)
      options.note(text);
  }

  /// Loads `e` (from a cache or a compile) into `slot`.
  Status load(const JitEntry &e, StringRef displayName, Slot &slot) {
    slot.cubin = e.cubin;
    return Module::loadImage(context, e.image, e.metadataJson, slot.module,
                             displayName.str());
  }

  /// Fills `slot` for `key`: the disk cache, the fleet cache, else a
  /// compile.
  void fill(const std::string &key, std::string_view source,
            std::string_view fileName, SourceLanguage language,
            const CompileOptions &options, Slot &slot) {
    std::string display(fileName);
    EntryStore::Source from = EntryStore::Source::Disk;
    if (std::optional<JitEntry> e = store->lookup(key, from)) {
      slot.status = load(*e, display, slot);
      if (slot.status) {
        slot.origin = from == EntryStore::Source::Disk ? JitOrigin::Disk
                                                       : JitOrigin::Fleet;
        return;
      }
      // An entry the driver refuses (another driver, a damaged image that
      // passed the checksum): rebuild it.
      note("tilec: cache: entry " + key + " did not load (" +
           slot.status.message() + "); recompiling");
      store->remove(key);
      slot.module = Module();
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
    JitEntry e;
    e.metadataJson = kernelMetadataToJson(kernels);
    // The bytes the compile read, hashed as it read them; the paths it
    // found absent.
    e.deps = std::move(compiled.filesRead);
    for (std::string &path : compiled.pathsAbsent)
      e.deps.emplace_back(std::move(path), "absent");
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
    if (slot.status)
      store->store(key, e);
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
  // The fleet cache: an explicit URL that cannot be used is an error; one
  // from the environment a note (a cluster-wide setting must not stop a
  // machine without libhiredis from compiling).
  std::string fleetUrl = options.fleetCache;
  bool fromEnvironment = false;
  if (fleetUrl.empty())
    if (const char *env = std::getenv("TILEC_FLEET_CACHE")) {
      fleetUrl = env;
      fromEnvironment = true;
    }
  if (!fleetUrl.empty() && fleetUrl != "none")
    if (Status s = RemoteCache::open(fleetUrl, RemoteCache::Options(),
                                     impl->fleet);
        !s) {
      if (!fromEnvironment)
        return Status::error("fleet cache '" + fleetUrl + "': " + s.message());
      impl->note("tilec: fleet cache $TILEC_FLEET_CACHE='" + fleetUrl +
                 "' not used: " + s.message());
    }
  auto sizeOf = [](const std::string &path) -> std::string {
    uint64_t size = 0;
    if (path.empty() || llvm::sys::fs::file_size(path, size))
      return "none";
    return std::to_string(size);
  };
  impl->tools = "ptxas " + (impl->ptxas.empty() ? std::string("none")
                                                 : sizeOf(impl->ptxas)) +
                "\nlibdevice " + sizeOf(findLibdevice());
  Impl *raw = impl.get();
  impl->store = std::make_unique<EntryStore>(
      impl->haveDiskCache ? &impl->cache : nullptr, impl->fleet.get(),
      [raw](const std::string &n) { raw->note(n); });
  out.reset(new Jit(std::move(impl)));
  return Status::success();
}

const std::string &Jit::deviceArch() const { return impl->arch; }
const std::shared_ptr<Context> &Jit::context() const { return impl->context; }
const std::string &Jit::ptxasPath() const { return impl->ptxas; }
const std::string &Jit::cacheDirectory() const { return impl->cacheDir; }

/// The path `p` made absolute against the working directory, without
/// `.` and `..` (imports resolve relative to the file and to relative -I
/// folders: the key must tell two working directories apart).
static std::string absolutePath(StringRef p) {
  llvm::SmallString<256> abs(p);
  (void)llvm::sys::fs::make_absolute(abs);
  llvm::sys::path::remove_dots(abs, /*remove_dot_dot=*/true);
  return std::string(abs.str());
}

std::string Jit::keyFor(std::string_view source, std::string_view fileName,
                        const CompileOptions &options,
                        SourceLanguage language) const {
  CompileOptions o = options;
  if (o.arch.empty())
    o.arch = impl->arch;
  language = resolveLanguage(language, fileName);
  for (std::string &dir : o.importPaths)
    dir = absolutePath(dir);
  std::string key = compileKey(source, absolutePath(StringRef(fileName.data(), fileName.size())),
                               language, o);
  // What the key of the compiler's inputs does not cover: the tools of
  // this Jit (ptxas, or none: a PTX entry; libdevice; NVRTC, whose PTX a
  // CUDA C++ compile's entry holds).
  std::string tools = impl->tools;
  if (o.backend == "cuda")
    tools += "\n" + nvrtcIdentity();
  return sha256Hex(key + "\n" + tools);
}

Status Jit::compile(std::string_view source, std::string_view fileName,
                    const CompileOptions &options, Kernel &out,
                    JitResult *result, SourceLanguage language) {
  auto start = std::chrono::steady_clock::now();
  CompileOptions o = options;
  if (o.arch.empty())
    o.arch = impl->arch;
  language = resolveLanguage(language, fileName);
  std::string key = keyFor(source, fileName, o, language);

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
    // Whatever happens in fill (even an exception from the caller's note
    // callback), the slot is finished and waiters wake.
    bool filled = false;
    llvm::scope_exit finish([&] {
      if (!filled)
        slot->status = Status::error("internal error: the compile of '" +
                                     std::string(fileName) +
                                     "' was interrupted");
      if (!slot->status) {
        // Failures are not remembered: the next call tries again (a
        // ptxas or a disk that works by then).
        std::lock_guard<std::mutex> lock(impl->mutex);
        impl->table.erase(key);
      }
      {
        std::lock_guard<std::mutex> lock(slot->mutex);
        slot->done = true;
      }
      slot->ready.notify_all();
    });
    impl->fill(key, source, fileName, language, o, *slot);
    filled = true;
    origin = slot->origin;
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
      // (A kernel's aligned variant is part of it, not a kernel of its own.)
      std::vector<const KernelInfo *> own;
      for (const KernelInfo &k : kernels)
        if (llvm::none_of(kernels, [&](const KernelInfo &other) {
              return other.alignedVariant == k.name;
            }))
          own.push_back(&k);
      if (own.size() != 1) {
        std::string names;
        for (const KernelInfo *k : own)
          names += (names.empty() ? "'" : ", '") + k->name + "'";
        status = Status::error("'" + std::string(fileName) + "' has " +
                               std::to_string(own.size()) +
                               " kernels (" + names +
                               "); name the one to return");
      }
      else
        name = own.front()->name;
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

//===----------------------------------------------------------------------===//
// AutotunedKernel
//===----------------------------------------------------------------------===//

namespace tilec {

std::string AutotuneConfig::str() const {
  return describeAutotuneConfig(constexprs, numWarps, numStages, maxnreg);
}

int64_t AutotuneConfig::intValue(const std::string &name,
                                 int64_t fallback) const {
  for (const auto &[n, value] : constexprs)
    if (n == name) {
      int64_t v = 0;
      if (!StringRef(value).getAsInteger(10, v))
        return v;
    }
  return fallback;
}

struct AutotunedKernel::State {
  Jit *jit = nullptr;
  std::string source, fileName;
  CompileOptions options;
  Options tuning;
  std::vector<AutotuneConfig> configs;
  /// Configs from @triton.autotune compile by index (autotuneConfig);
  /// C++ configs by their values.
  bool fromDecorator = false;
  std::vector<std::string> paramNames;
  std::vector<size_t> keyArgs, resetArgs, restoreArgs;
  std::string keyPrefix; // the compile key of the untuned options
  std::mutex mutex;
  std::map<std::string, int> chosen;      // tuning key -> config
  std::map<int, Kernel> kernels;          // compiled configs
  std::map<int, std::string> failedCompiles;

  CompileOptions optionsFor(int i) const {
    CompileOptions o = options;
    if (fromDecorator) {
      o.autotuneConfig = i;
      return o;
    }
    const AutotuneConfig &c = configs[size_t(i)];
    for (const auto &[name, value] : c.constexprs) {
      auto it = std::find_if(o.constexprs.begin(), o.constexprs.end(),
                             [&](const auto &p) { return p.first == name; });
      if (it != o.constexprs.end())
        it->second = value;
      else
        o.constexprs.emplace_back(name, value);
    }
    o.numWarps = c.numWarps;
    o.numStages = c.numStages;
    if (c.maxnreg)
      o.maxnreg = c.maxnreg;
    return o;
  }

  /// The compiled config `i` (compiling it on first use); a failure is
  /// remembered so that it is reported, not retried, per object.
  Status kernelFor(int i, Kernel &out) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (auto it = kernels.find(i); it != kernels.end()) {
        out = it->second;
        return Status::success();
      }
      if (auto it = failedCompiles.find(i); it != failedCompiles.end())
        return Status::error(it->second);
    }
    Status s = jit->compile(source, fileName, optionsFor(i), out);
    std::lock_guard<std::mutex> lock(mutex);
    if (s)
      kernels[i] = out;
    else
      failedCompiles[i] = s.message();
    return s;
  }

  /// The tuning key of `args`: the untuned compile key and the key
  /// arguments' values; the disk cache key is its SHA-256.
  std::string tuningKey(const Arg *args) const {
    std::string k = keyPrefix;
    for (size_t a : keyArgs)
      k += "," + std::to_string(int64_t(args[a].bits()));
    return k;
  }
};

namespace {

constexpr StringRef kTuneMagic = "tilec-autotune 1\n";

bool tuningVerbose(const AutotunedKernel::Options &o) {
  const char *env = std::getenv("TILEC_PRINT_AUTOTUNING");
  return o.verbose || (env && *env && StringRef(env) != "0");
}

std::string firstLine(const std::string &text) {
  return text.substr(0, text.find('\n'));
}

/// Device memory freed at scope exit (the restore_value copies).
struct Scratch {
  CUdeviceptr ptr = 0;
  ~Scratch() {
    if (ptr)
      (void)cuMemFree(ptr);
  }
};

} // namespace

/// The state both constructors start from.
static std::shared_ptr<AutotunedKernel::State>
newTunedState(Jit &jit, std::string source, std::string fileName,
              CompileOptions options, const AutotuneOptions &tuning) {
  auto st = std::make_shared<AutotunedKernel::State>();
  st->jit = &jit;
  st->source = std::move(source);
  st->fileName = std::move(fileName);
  st->options = std::move(options);
  st->tuning = tuning;
  return st;
}

static Status finishCreate(std::shared_ptr<AutotunedKernel::State> st,
                           AutotunedKernel &out) {
  CompileOptions untuned = st->options;
  untuned.autotuneConfig = -1;
  // The Jit's key: absolute paths, the device's arch, the tools.
  st->keyPrefix = st->jit->keyFor(st->source, st->fileName, untuned);
  if (!st->fromDecorator)
    for (const AutotuneConfig &c : st->configs)
      st->keyPrefix += "|" + c.str();
  (void)out;
  return Status::success();
}

Status AutotunedKernel::create(Jit &jit, std::string source,
                               std::string fileName, CompileOptions options,
                               AutotunedKernel &out, const Options &tuning) {
  KernelInspection info;
  std::string diagnostics;
  CompileOptions probe = options;
  if (probe.arch.empty())
    probe.arch = jit.deviceArch();
  if (!inspectTritonKernel(source, fileName, probe, info, diagnostics))
    return Status::error("compile of '" + fileName + "' failed:\n" +
                         diagnostics);
  if (info.configs.empty())
    return Status::error("kernel '" + options.kernel + "' of '" + fileName +
                         "' has no @triton.autotune configs; give them to "
                         "the other AutotunedKernel::create");
  auto st = newTunedState(jit, std::move(source), std::move(fileName),
                          std::move(options), tuning);
  st->fromDecorator = true;
  st->paramNames = info.paramNames;
  for (const KernelInspection::Config &c : info.configs) {
    AutotuneConfig a;
    a.constexprs = c.constexprs;
    a.numWarps = c.numWarps;
    a.numStages = c.numStages;
    a.maxnreg = c.maxnreg;
    st->configs.push_back(std::move(a));
  }
  // Names to argument indices. A key name that is not a run-time
  // parameter (a constexpr) is fixed by the options: in the compile key.
  if (std::string bad = autotuneArgIndices(info, st->keyArgs, st->resetArgs,
                                           st->restoreArgs);
      !bad.empty())
    return Status::error("kernel '" + st->options.kernel +
                         "': autotune buffer '" + bad +
                         "' is not a run-time parameter");
  if (Status s = finishCreate(st, out); !s)
    return s;
  out.state = std::move(st);
  return Status::success();
}

Status AutotunedKernel::create(Jit &jit, std::string source,
                               std::string fileName, CompileOptions options,
                               std::vector<AutotuneConfig> configs,
                               std::vector<size_t> keyArgs,
                               AutotunedKernel &out, const Options &tuning) {
  if (configs.empty())
    return Status::error("AutotunedKernel::create: no configs");
  auto st = newTunedState(jit, std::move(source), std::move(fileName),
                          std::move(options), tuning);
  st->configs = std::move(configs);
  st->keyArgs = std::move(keyArgs);
  if (Status s = finishCreate(st, out); !s)
    return s;
  out.state = std::move(st);
  return Status::success();
}

void AutotunedKernel::setBufferRoles(std::vector<size_t> resetToZero,
                                     std::vector<size_t> restoreValue) {
  if (!state)
    return;
  state->resetArgs = std::move(resetToZero);
  state->restoreArgs = std::move(restoreValue);
}

const std::vector<AutotuneConfig> &AutotunedKernel::configs() const {
  static const std::vector<AutotuneConfig> none;
  return state ? state->configs : none;
}

const std::vector<std::string> &AutotunedKernel::paramNames() const {
  static const std::vector<std::string> none;
  return state ? state->paramNames : none;
}

namespace {

/// The buffers a run zeroes and restores, with their sizes.
struct Roles {
  std::vector<AutotuneBuffer> reset, restore;
};

Status resolveRoles(const AutotunedKernel::State &st, const Arg *args,
                    size_t numArgs, const std::vector<AutotuneBuffer> &sizes,
                    Roles &out) {
  for (auto [list, to, what] :
       {std::tuple{&st.resetArgs, &out.reset, "reset_to_zero"},
        std::tuple{&st.restoreArgs, &out.restore, "restore_value"}})
    for (size_t a : *list) {
      auto it = std::find_if(sizes.begin(), sizes.end(),
                             [&](const AutotuneBuffer &b) { return b.arg == a; });
      std::string name = a < st.paramNames.size() && !st.paramNames[a].empty()
                             ? " ('" + st.paramNames[a] + "')"
                             : "";
      if (a >= numArgs || args[a].kind() != ArgKind::Pointer)
        return Status::error(std::string(what) + " argument " +
                             std::to_string(a) + name + " is not a pointer");
      if (it == sizes.end())
        return Status::error(std::string(what) + " names argument " +
                             std::to_string(a) + name +
                             ": give its size in bytes (AutotuneBuffer)");
      to->push_back(*it);
    }
  return Status::success();
}

} // namespace

/// Times config `i` on `args`: milliseconds per run (median of batches), or
/// an error (the config is then skipped).
static Status timeConfig(AutotunedKernel::State &st, int i,
                         const AutotunedKernel::GridFunction &grid,
                         const Arg *args, size_t numArgs, CUstream stream,
                         const Roles &roles,
                         const std::vector<CUdeviceptr> &saved, double &ms) {
  Kernel k;
  if (Status s = st.kernelFor(i, k); !s)
    return Status::error("compile failed: " +
                         firstLine(s.message().substr(
                             std::min(s.message().size(),
                                      s.message().find('\n') + 1))));
  Grid g = grid(st.configs[size_t(i)]);
  auto run = [&]() -> Status {
    for (const AutotuneBuffer &b : roles.reset)
      if (CUresult r = cuMemsetD8Async(CUdeviceptr(args[b.arg].bits()), 0,
                                       b.bytes, stream);
          r != CUDA_SUCCESS)
        return Status::driverError("cuMemsetD8Async", r, "autotune");
    return k.launch(g, args, numArgs, stream);
  };
  auto restore = [&]() -> Status {
    for (size_t j = 0; j < roles.restore.size(); ++j)
      if (CUresult r = cuMemcpyDtoDAsync(
              CUdeviceptr(args[roles.restore[j].arg].bits()), saved[j],
              roles.restore[j].bytes, stream);
          r != CUDA_SUCCESS)
        return Status::driverError("cuMemcpyDtoDAsync", r, "autotune");
    return Status::success();
  };
  CUevent start = nullptr, stop = nullptr;
  if (CUresult r = cuEventCreate(&start, CU_EVENT_DEFAULT); r != CUDA_SUCCESS)
    return Status::driverError("cuEventCreate", r, "autotune");
  if (CUresult r = cuEventCreate(&stop, CU_EVENT_DEFAULT); r != CUDA_SUCCESS) {
    cuEventDestroy(start);
    return Status::driverError("cuEventCreate", r, "autotune");
  }
  llvm::scope_exit events([&] {
    cuEventDestroy(start);
    cuEventDestroy(stop);
  });
  // One run to warm up and estimate; then batches sized to batchMs.
  auto timed = [&](unsigned reps, float &out) -> Status {
    if (CUresult r = cuEventRecord(start, stream); r != CUDA_SUCCESS)
      return Status::driverError("cuEventRecord", r, "autotune");
    for (unsigned r = 0; r < reps; ++r) {
      if (Status s = run(); !s)
        return s;
      if (Status s = restore(); !s)
        return s;
    }
    if (CUresult r = cuEventRecord(stop, stream); r != CUDA_SUCCESS)
      return Status::driverError("cuEventRecord", r, "autotune");
    if (CUresult r = cuEventSynchronize(stop); r != CUDA_SUCCESS)
      return Status::driverError("cuEventSynchronize", r, "autotune");
    if (CUresult r = cuEventElapsedTime(&out, start, stop); r != CUDA_SUCCESS)
      return Status::driverError("cuEventElapsedTime", r, "autotune");
    return Status::success();
  };
  float once = 0;
  if (Status s = timed(1, once); !s)
    return s;
  if (Status s = timed(1, once); !s)
    return s;
  unsigned reps = unsigned(std::clamp(
      st.tuning.batchMs / std::max(double(once), 1e-3), 1.0, 1000.0));
  std::vector<double> perRun;
  for (unsigned b = 0; b < std::max(1u, st.tuning.batches); ++b) {
    float t = 0;
    if (Status s = timed(reps, t); !s)
      return s;
    perRun.push_back(double(t) / reps);
  }
  std::sort(perRun.begin(), perRun.end());
  ms = perRun[perRun.size() / 2];
  return Status::success();
}

/// Benchmarks every config; `result.ms[i]` < 0 for skipped ones. Restores
/// the restore_value buffers at the end.
static Status sweep(AutotunedKernel::State &st,
                    const AutotunedKernel::GridFunction &grid, const Arg *args,
                    size_t numArgs, CUstream stream, const Roles &roles,
                    const std::string &label, AutotuneResult &result) {
  std::vector<Scratch> saved(roles.restore.size());
  std::vector<CUdeviceptr> savedPtrs;
  for (size_t j = 0; j < roles.restore.size(); ++j) {
    if (CUresult r = cuMemAlloc(&saved[j].ptr, std::max<size_t>(
                                                   roles.restore[j].bytes, 1));
        r != CUDA_SUCCESS)
      return Status::driverError("cuMemAlloc", r, "autotune restore_value");
    if (CUresult r = cuMemcpyDtoDAsync(saved[j].ptr,
                                       CUdeviceptr(args[roles.restore[j].arg].bits()),
                                       roles.restore[j].bytes, stream);
        r != CUDA_SUCCESS)
      return Status::driverError("cuMemcpyDtoDAsync", r, "autotune");
    savedPtrs.push_back(saved[j].ptr);
  }
  bool verbose = tuningVerbose(st.tuning);
  result.ms.assign(st.configs.size(), -1);
  result.skipped.clear();
  // prune_configs_by: the configs worth timing for these arguments.
  std::vector<bool> timed(st.configs.size(), true);
  if (st.tuning.prune) {
    std::vector<size_t> keep = st.tuning.prune(st.configs, args, numArgs);
    if (keep.empty())
      return Status::error("kernel '" + st.options.kernel +
                           "': the autotune prune function kept no config");
    timed.assign(st.configs.size(), false);
    for (size_t i : keep) {
      if (i >= st.configs.size())
        return Status::error("kernel '" + st.options.kernel +
                             "': the autotune prune function returned config " +
                             std::to_string(i) + " of " +
                             std::to_string(st.configs.size()));
      timed[i] = true;
    }
  }
  for (size_t i = 0; i < st.configs.size(); ++i) {
    if (!timed[i]) {
      result.skipped.push_back("config " + std::to_string(i) + ": pruned");
      if (verbose)
        std::fprintf(stderr, "tilec: autotune %s: config %zu/%zu (%s): pruned\n",
                     label.c_str(), i + 1, st.configs.size(),
                     st.configs[i].str().c_str());
      continue;
    }
    double ms = -1;
    Status s = timeConfig(st, int(i), grid, args, numArgs, stream, roles,
                          savedPtrs, ms);
    if (!s) {
      // A launch that failed while running leaves the context unusable:
      // that is an error of the tuning, not a skipped config.
      if (s.driverResult() != 0 && s.driverCall() != "cuLaunchKernel" &&
          s.driverCall() != "cuLaunchKernelEx")
        return s;
      result.skipped.push_back("config " + std::to_string(i) + ": " +
                               firstLine(s.message()));
      if (verbose)
        std::fprintf(stderr, "tilec: autotune %s: config %zu/%zu (%s): skipped: %s\n",
                     label.c_str(), i + 1, st.configs.size(),
                     st.configs[i].str().c_str(), firstLine(s.message()).c_str());
      continue;
    }
    result.ms[i] = ms;
    if (verbose)
      std::fprintf(stderr, "tilec: autotune %s: config %zu/%zu (%s): %.4f ms\n",
                   label.c_str(), i + 1, st.configs.size(),
                   st.configs[i].str().c_str(), ms);
  }
  // The outputs as the caller left them: zeroed, restored.
  for (const AutotuneBuffer &b : roles.reset)
    if (CUresult r = cuMemsetD8Async(CUdeviceptr(args[b.arg].bits()), 0,
                                     b.bytes, stream);
        r != CUDA_SUCCESS)
      return Status::driverError("cuMemsetD8Async", r, "autotune");
  for (size_t j = 0; j < roles.restore.size(); ++j)
    if (CUresult r = cuMemcpyDtoDAsync(CUdeviceptr(args[roles.restore[j].arg].bits()),
                                       savedPtrs[j], roles.restore[j].bytes,
                                       stream);
        r != CUDA_SUCCESS)
      return Status::driverError("cuMemcpyDtoDAsync", r, "autotune");
  if (CUresult r = cuStreamSynchronize(stream); r != CUDA_SUCCESS)
    return Status::driverError("cuStreamSynchronize", r, "autotune");
  return Status::success();
}

Status AutotunedKernel::benchmarkAll(const GridFunction &grid, const Arg *args,
                                     size_t numArgs, CUstream stream,
                                     const std::vector<AutotuneBuffer> &buffers,
                                     AutotuneResult &out) {
  if (!state)
    return Status::error("use of an empty AutotunedKernel");
  Roles roles;
  if (Status s = resolveRoles(*state, args, numArgs, buffers, roles); !s)
    return s;
  out = AutotuneResult();
  out.from = AutotuneResult::From::Tuned;
  return sweep(*state, grid, args, numArgs, stream, roles,
               state->options.kernel + " (sweep)", out);
}

Status AutotunedKernel::launch(const GridFunction &grid, const Arg *args,
                               size_t numArgs, CUstream stream,
                               const std::vector<AutotuneBuffer> &buffers,
                               AutotuneResult *result) {
  if (!state)
    return Status::error("launch of an empty AutotunedKernel");
  State &st = *state;
  for (size_t a : st.keyArgs)
    if (a >= numArgs)
      return Status::error("kernel '" + st.options.kernel + "' expects " +
                           "at least " + std::to_string(a + 1) +
                           " arguments (its autotune key), found " +
                           std::to_string(numArgs));
  std::string tkey = st.tuningKey(args);
  std::string diskKey; // computed on a memory miss only
  AutotuneResult local;
  AutotuneResult &r = result ? *result : local;
  r = AutotuneResult();
  int config = -1;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    if (auto it = st.chosen.find(tkey); it != st.chosen.end()) {
      config = it->second;
      r.from = AutotuneResult::From::Memory;
    }
  }
  Jit::Impl &jit = st.jit->internals();
  if (config < 0)
    diskKey = sha256Hex(std::string(kTuneMagic) + tkey);
  if (config < 0 && jit.haveDiskCache) {
    DiskCache::Lookup found;
    if (jit.cache.lookup(diskKey, found) && found.payload) {
      StringRef p(*found.payload);
      int64_t index = -1;
      if (p.consume_front(kTuneMagic)) {
        auto [num, rest] = p.split('\n');
        // The config's description guards against another config list.
        if (!num.getAsInteger(10, index) && index >= 0 &&
            size_t(index) < st.configs.size() &&
            rest == StringRef(st.configs[size_t(index)].str() + "\n"))
          config = int(index);
      }
      if (config >= 0)
        r.from = AutotuneResult::From::Disk;
    }
  }
  Roles roles;
  if (Status s = resolveRoles(st, args, numArgs, buffers, roles); !s)
    return s;
  if (config < 0) {
    r.from = AutotuneResult::From::Tuned;
    std::string label = st.options.kernel + " [key";
    for (size_t a : st.keyArgs)
      label += " " + std::to_string(int64_t(args[a].bits()));
    label += "]";
    if (Status s = sweep(st, grid, args, numArgs, stream, roles, label, r); !s)
      return s;
    for (size_t i = 0; i < r.ms.size(); ++i)
      if (r.ms[i] >= 0 && (config < 0 || r.ms[i] < r.ms[size_t(config)]))
        config = int(i);
    if (config < 0) {
      std::string why;
      for (const std::string &s : r.skipped)
        why += "\n  " + s;
      return Status::error("kernel '" + st.options.kernel +
                           "': every autotune config failed:" + why);
    }
    if (jit.haveDiskCache)
      if (Status s = jit.cache.store(
              diskKey, std::string(kTuneMagic) + std::to_string(config) +
                           "\n" + st.configs[size_t(config)].str() + "\n");
          !s)
        jit.note("tilec: cache: cannot store the autotune choice: " +
                 s.message());
    if (tuningVerbose(st.tuning))
      std::fprintf(stderr, "tilec: autotune %s: chose config %d (%s)\n",
                   label.c_str(), config,
                   st.configs[size_t(config)].str().c_str());
  }
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    st.chosen[tkey] = config;
  }
  r.config = config;
  Kernel k;
  if (Status s = st.kernelFor(config, k); !s)
    return s;
  return k.launch(grid(st.configs[size_t(config)]), args, numArgs, stream);
}

} // namespace tilec
