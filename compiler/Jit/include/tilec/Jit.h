//===- Jit.h - Compile tile programs inside a host application -*- C++ -*-===//
//
// tilec::Jit turns tile-program source text (the Triton language or the
// tile MLIR dialect) into a loaded, launchable tilec::Kernel inside the
// calling process, with no Python and no tilec process (issue 13, item 2):
//
//   std::shared_ptr<tilec::Context> ctx;   // tilec::Context::create(0, ctx)
//   std::unique_ptr<tilec::Jit> jit;       // tilec::Jit::create(ctx, {}, jit)
//   tilec::CompileOptions o;
//   o.kernel = "softmax_kernel";
//   o.signature = "*fp32:16,*fp32:16,i32,i32,i32";
//   o.constexprs = {{"BLOCK_SIZE", "1024"}};
//   tilec::Kernel k;
//   tilec::Status s = jit->compileFile("softmax.py", o, k);
//   s = k.launch(tilec::Grid{rows}, {...}, stream);
//
// Each compile is looked up by its compile key (tilec/Compile.h) first in
// memory, then in the disk cache (tilec/Cache.h), then in the fleet cache
// (Redis, tilec/RemoteCache.h) when one is configured, and only then
// compiled:
// source to PTX in-process, PTX to a cubin by ptxas (or, without ptxas, the
// PTX is loaded and the driver JIT-compiles it), the cubin and its metadata
// (a JSON sidecar) stored in the disk cache and loaded with
// Module::loadImage. Thread-safe: concurrent calls with different keys
// compile in parallel; concurrent calls with the same key compile once and
// share the result. Nothing throws, exits or aborts; a crash inside the
// compiler is an error Status ("internal compiler error").
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_JIT_H
#define TILEC_JIT_H

#include "tilec/Compile.h"
#include "tilec/Runtime.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace tilec {

/// Where Jit::compile found its kernel.
enum class JitOrigin {
  /// Already loaded by this Jit (the in-memory table).
  Memory,
  /// Loaded from the disk cache (another process or an earlier run
  /// compiled it).
  Disk,
  /// Loaded from the fleet cache (another machine compiled it); now on disk
  /// too.
  Fleet,
  /// Compiled by this call.
  Compiled,
};

/// What one Jit::compile did.
struct JitResult {
  /// The compile key (64 hex digits).
  std::string key;
  JitOrigin origin = JitOrigin::Compiled;
  /// Wall time of the call, in seconds.
  double seconds = 0;
  /// Whether the loaded image is a cubin (else PTX the driver compiled).
  bool cubin = false;
  /// Warnings and remarks of a compile (empty for a cache hit).
  std::string diagnostics;
};

class Jit {
public:
  struct Options {
    /// Use the disk cache (tilec/Cache.h): look compiles up there and store
    /// them there.
    bool diskCache = true;
    /// The cache folder (empty: TILEC_CACHE_DIR, else $XDG_CACHE_HOME/tilec,
    /// else ~/.cache/tilec) and its size limit in bytes (0: the default,
    /// 1 GiB).
    std::string cacheDir;
    uint64_t cacheMaxBytes = 0;
    /// The fleet cache, looked up after the disk cache and stored to after
    /// each compile: "redis://HOST[:PORT][/DB]" (tilec/RemoteCache.h).
    /// Empty: $TILEC_FLEET_CACHE, if set; "none": off. Its failures are
    /// notes, never errors of a compile.
    std::string fleetCache;
    /// ptxas, to assemble PTX into a cubin: empty finds $TILEC_PTXAS, then
    /// $CUDA_HOME/bin/ptxas, /usr/local/cuda/bin/ptxas, then ptxas on PATH;
    /// "none" (or none found) loads PTX and lets the driver compile it.
    std::string ptxas;
    /// Called (from the calling thread) with a note the caller may want to
    /// log: a damaged or stale cache entry that was deleted and rebuilt,
    /// ptxas not found. Null: notes are dropped. Library use is quiet by
    /// default.
    std::function<void(const std::string &)> note;
  };

  /// Makes a JIT for `context`'s device. Errors: the disk cache cannot be
  /// opened (DiskCache::open's reasons: no usable folder, wrong owner or
  /// permissions), a given ptxas path that is not an executable file, a
  /// fleet cache URL that does not parse or no loadable libhiredis.
  static Status create(std::shared_ptr<Context> context, const Options &options,
                       std::unique_ptr<Jit> &out);
  ~Jit();
  Jit(const Jit &) = delete;
  Jit &operator=(const Jit &) = delete;

  /// Compiles (or finds) kernel `options.kernel` of `source` and loads it.
  /// `fileName` names the source in messages, decides the language when
  /// `language` is Auto (`.py`: Python), and is where relative imports
  /// start. An empty `options.arch` means the device's (compute capability
  /// 9.0: sm_90a). For MLIR source, `options.kernel` names which
  /// `tile.func` to return (empty: the only one). Errors carry every
  /// diagnostic (`file:line:col: error: ...` with the source line and a
  /// caret), e.g. "compile of 'softmax.py' failed:\nsoftmax.py:3:5: error:
  /// ..."; ptxas failures end with ptxas's log; load failures are the
  /// runtime's (Module::loadImage).
  Status compile(std::string_view source, std::string_view fileName,
                 const CompileOptions &options, Kernel &out,
                 JitResult *result = nullptr,
                 SourceLanguage language = SourceLanguage::Auto);

  /// Reads the file at `path` and compiles it as compile() does.
  Status compileFile(const std::string &path, const CompileOptions &options,
                     Kernel &out, JitResult *result = nullptr);

  /// The key compile() would use (with the device's arch filled in).
  std::string keyFor(std::string_view source, std::string_view fileName,
                     const CompileOptions &options,
                     SourceLanguage language = SourceLanguage::Auto) const;

  /// The arch compiles target when CompileOptions::arch is empty.
  const std::string &deviceArch() const;
  const std::shared_ptr<Context> &context() const;
  /// The ptxas in use ("" when PTX is loaded instead).
  const std::string &ptxasPath() const;
  /// The disk cache folder ("" when the disk cache is off).
  const std::string &cacheDirectory() const;

  struct Impl;
  Impl &internals() { return *impl; }

private:
  explicit Jit(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

/// A kernel whose specialization facts are chosen at each launch from the
/// arguments, as Triton's JIT does (issue 13, item 2): each pointer argument
/// 16-byte aligned gets `:16`, each integer argument divisible by 16 gets
/// `:16` and one equal to 1 gets `:1`; the launch uses the variant compiled
/// for those facts, compiling it on first use through the Jit. Signature
/// entries that already carry a fact, and constexpr values, are kept.
class SpecializingKernel {
public:
  SpecializingKernel() = default;
  /// Prepares kernel `options.kernel` of `source` (Python only) with
  /// `options.signature` giving the parameters' types (facts optional).
  /// Nothing is compiled yet. Errors: MLIR source, a signature that does
  /// not parse. `jit` must outlive the kernel.
  static Status create(Jit &jit, std::string source, std::string fileName,
                       CompileOptions options, SpecializingKernel &out);
  /// Picks (compiling if needed) the variant for `args`, then launches it
  /// as Kernel::launch does. The argument checks of the chosen variant
  /// apply; a compile error is returned as from Jit::compile.
  Status launch(const Grid &grid, const Arg *args, size_t numArgs,
                CUstream stream = nullptr, JitResult *result = nullptr);
  /// The signature the variant for `args` is compiled with (unit-testable,
  /// no compile): e.g. "*fp32:16,*fp32,i32:16,i32:1" (entry order and
  /// constexpr values as in the options' signature).
  Status specializedSignature(const Arg *args, size_t numArgs,
                              std::string &out) const;
  /// Variants compiled so far.
  size_t numVariants() const;

  struct State;

private:
  std::shared_ptr<State> state;
};

/// One autotune config: constexpr values (by name, Python's spelling) with
/// num_warps, num_stages and maxnreg -- a `triton.Config`.
struct AutotuneConfig {
  std::vector<std::pair<std::string, std::string>> constexprs;
  unsigned numWarps = 4;
  unsigned numStages = 3;
  /// Registers per thread at most (PTX .maxnreg; 16 to 255); 0: the
  /// options' maxnreg (by default none).
  unsigned maxnreg = 0;
  /// "BLOCK_M=128, BLOCK_N=64, num_warps=4, num_stages=3" (", maxnreg=N"
  /// when set).
  std::string str() const;
  /// The value of constexpr `name` as an integer (for grid functions);
  /// `fallback` when the config does not set it or it is not an integer.
  int64_t intValue(const std::string &name, int64_t fallback = 0) const;
};

/// A buffer argument the benchmarking zeroes before each run
/// (reset_to_zero) or saves and restores around it (restore_value): the
/// argument's index and the bytes it spans from its pointer.
struct AutotuneBuffer {
  size_t arg = 0;
  size_t bytes = 0;
};

/// What one AutotunedKernel::launch decided.
struct AutotuneResult {
  /// The config launched (an index into configs()).
  int config = -1;
  /// How the choice was made: benchmarked now, read from the disk cache (a
  /// process before tuned this key), or remembered by this object.
  enum class From { Tuned, Disk, Memory } from = From::Memory;
  /// Per config, its time in milliseconds when benchmarked now (median of
  /// batches; -1 for a config that was skipped).
  std::vector<double> ms;
  /// Why configs were skipped (compile errors, launches refused: e.g. more
  /// shared memory than the device has), "config i: reason".
  std::vector<std::string> skipped;
};

/// How AutotunedKernel times configs.
struct AutotuneOptions {
  /// Progress lines on stderr (also with $TILEC_PRINT_AUTOTUNING).
  bool verbose = false;
  /// Target time of one measured batch (milliseconds) and batches per
  /// config; each batch's launches are timed together with CUDA events.
  double batchMs = 10;
  unsigned batches = 5;
  /// Triton's `prune_configs_by={'early_config_prune': f}` in C++: called
  /// before a key is tuned with the configs and the launch's arguments,
  /// it returns the indices (into the configs) worth timing -- e.g. those
  /// whose block fits the problem; the others are skipped as "pruned".
  /// Unset: every config is timed. An index out of range is an error of
  /// the launch; an empty result, every config pruned, too. (A `.py`
  /// file's prune_configs_by is Python code tilec does not run: docs/
  /// language.md.)
  std::function<std::vector<size_t>(const std::vector<AutotuneConfig> &,
                                    const Arg *args, size_t numArgs)>
      prune;
};

/// A kernel tuned over configs at first launch per key, as Triton's
/// `@triton.autotune` does (issue 13, item 5): each config is compiled
/// through the Jit, benchmarked with CUDA events on the launch's own
/// arguments, and the fastest is launched; the choice is remembered per
/// key -- the values of the key arguments -- in memory and in the disk
/// cache, so that another process does not tune again. Configs that fail
/// to compile or to launch are skipped (AutotuneResult::skipped). Buffers
/// named by reset_to_zero are zeroed before every benchmark run and once
/// more before the real launch; those named by restore_value are saved
/// first and restored after every run, so tuning never changes the
/// outputs. Progress goes to stderr, one line per config, when
/// Options::verbose or $TILEC_PRINT_AUTOTUNING is set (quiet by default).
class AutotunedKernel {
public:
  using Options = AutotuneOptions;
  /// The configs, key, reset_to_zero and restore_value of the kernel's
  /// `@triton.autotune` (Python source). Errors: no decorator, a key or
  /// buffer name that is not a parameter, the front end's errors.
  static Status create(Jit &jit, std::string source, std::string fileName,
                       CompileOptions options, AutotunedKernel &out,
                       const Options &tuning = Options());
  /// The C++ equivalent: `configs` given here (their constexprs, warps and
  /// stages override `options`'), the key as argument indices.
  static Status create(Jit &jit, std::string source, std::string fileName,
                       CompileOptions options,
                       std::vector<AutotuneConfig> configs,
                       std::vector<size_t> keyArgs, AutotunedKernel &out,
                       const Options &tuning = Options());

  /// The grid of a launch, from the config being run.
  using GridFunction = std::function<Grid(const AutotuneConfig &)>;

  /// Launches with the config chosen for the key of `args` (tuning first
  /// on a new key). `buffers` gives the size of each argument that the
  /// decorator's reset_to_zero / restore_value name (or, with the C++
  /// constructor, lists what to reset and restore: resetToZero,
  /// restoreValue). Errors: a named buffer without a size, every config
  /// failing, the chosen config's launch errors.
  Status launch(const GridFunction &grid, const Arg *args, size_t numArgs,
                CUstream stream = nullptr,
                const std::vector<AutotuneBuffer> &buffers = {},
                AutotuneResult *result = nullptr);
  /// For the C++ constructor: which arguments to zero / save and restore.
  void setBufferRoles(std::vector<size_t> resetToZero,
                      std::vector<size_t> restoreValue);

  /// Benchmarks every config on `args` as tuning does, without choosing or
  /// remembering (a brute-force sweep to check the tuner against).
  Status benchmarkAll(const GridFunction &grid, const Arg *args,
                      size_t numArgs, CUstream stream,
                      const std::vector<AutotuneBuffer> &buffers,
                      AutotuneResult &out);

  const std::vector<AutotuneConfig> &configs() const;
  /// The run-time parameters' names (Python source) in argument order.
  const std::vector<std::string> &paramNames() const;

  struct State;

private:
  std::shared_ptr<State> state;
};

} // namespace tilec

#endif // TILEC_JIT_H
