//===- tilec.cpp - The tilec compiler driver -------------------*- C++ -*-===//
//
// `tilec input.mlir --emit=ptx -o out.ptx` and, in the form of Triton's AOT
// compiler, `tilec add.py --kernel add_kernel --signature '*fp32:16,i32'
// -D BLOCK_SIZE=1024 -o add.ptx`: reads a tile program (tile dialect or
// Triton language), runs the pipeline up to the requested stage and writes
// it. Errors are printed as
// `file:line:col: error: ...` with the source line and a caret; the exit
// code is 0 on success, 1 on any error. See docs/cli.md.
//
//===----------------------------------------------------------------------===//
#include "compiler/Driver/Driver.h"
#include "compiler/Frontend/CodeGen.h"
#include "compiler/InitAll.h"
#include "compiler/Jit/Aot.h"
#include "compiler/Jit/Compiler.h"
#include "compiler/Pipeline/Pipeline.h"
#include "compiler/Target/CUDA/CUDABackend.h"
#include "compiler/Target/PTX/PTXBackend.h"
#include "dialects/Tile/IR/TileGraphOps.h"
#include "dialects/Tile/IR/TileOps.h"
#include "passes/Target.h"
#include "tilec/Cache.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include <cstdlib>
#include <cstring>
#include <map>
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
using tilec::Stage;

cl::OptionCategory tilecCategory("tilec options");

cl::opt<std::string> inputFilename(cl::Positional,
                                   cl::desc("<input .mlir or .py>"),
                                   cl::Required, cl::cat(tilecCategory));
cl::opt<std::string> outputFilename("o", cl::desc("Output file ('-' for stdout)"),
                                    cl::value_desc("file"), cl::init("-"),
                                    cl::cat(tilecCategory));
cl::opt<Stage> emitStage(
    "emit", cl::desc("Stage to stop at and print"), cl::init(Stage::PTX),
    cl::values(
        clEnumValN(Stage::AST, "ast", "the syntax tree of a .py file"),
        clEnumValN(Stage::Tile, "tile", "tile IR after inlining and clean-up"),
        clEnumValN(Stage::Layout, "layout", "tile IR with layout encodings"),
        clEnumValN(Stage::SIMT, "simt",
                   "per-thread SIMT IR (gpu, arith, scf, llvm)"),
        clEnumValN(Stage::LLVMDialect, "llvm-dialect", "LLVM/NVVM dialect"),
        clEnumValN(Stage::LLVMIR, "llvm", "optimized LLVM IR"),
        clEnumValN(Stage::PTX, "ptx",
                   "PTX assembly with kernel metadata (default)"),
        clEnumValN(Stage::CUDA, "cuda",
                   "CUDA C++ with kernel metadata: one self-contained .cu "
                   "file that nvcc or NVRTC compiles (the CUDA C++ backend)"),
        clEnumValN(Stage::Cubin, "cubin",
                   "a cubin assembled by ptxas (-o FILE.cubin; the "
                   "metadata goes in FILE.json beside it)")),
    cl::cat(tilecCategory));
cl::opt<std::string> arch("arch",
                          cl::desc("Target GPU: sm_80 ... sm_121f (sm_80, sm_86, sm_87, sm_88, "
                                   "sm_89, sm_90, sm_90a, sm_100[a|f], "
                                   "sm_103[a|f], sm_110[a|f], sm_120[a|f], "
                                   "sm_121[a|f])"),
                          cl::init("sm_90a"), cl::cat(tilecCategory));
cl::opt<unsigned> numWarps("num-warps",
                           cl::desc("Warps per CTA for every kernel "
                                    "(overrides tile.num_warps; power of two "
                                    "in [1, 32])"),
                           cl::init(0), cl::cat(tilecCategory));

cl::list<std::string> kernelNames(
    "kernel",
    cl::desc("The @triton.jit function to compile (.py input); several "
             "(repeated, or a comma list) compile into one module"),
    cl::value_desc("name"), cl::CommaSeparated, cl::cat(tilecCategory));
cl::list<std::string> signatures(
    "signature",
    cl::desc("Kernel signature (.py input), Triton AOT syntax: "
             "'*fp32:16,*fp32:16,i32:16,1024' (pointer to fp32 aligned to 16 "
             "bytes, i32 divisible by 16, a constexpr value); with several "
             "kernels, one for all or one per kernel in order"),
    cl::value_desc("entries"), cl::cat(tilecCategory));
cl::list<std::string> defines("D", cl::Prefix,
                              cl::desc("Constexpr value (.py input): -D NAME=VALUE"),
                              cl::value_desc("NAME=VALUE"), cl::cat(tilecCategory));
cl::list<std::string> includeDirs(
    "I", cl::Prefix,
    cl::desc("Folder imports search after the kernel file's (.py input; "
             "repeatable; then $TILEC_PYTHONPATH, ':'-separated)"),
    cl::value_desc("DIR"), cl::cat(tilecCategory));
cl::opt<unsigned> numStages("num-stages",
                            cl::desc("Software-pipelining depth recorded on the kernel (.py input)"),
                            cl::init(0), cl::cat(tilecCategory));

cl::opt<int> autotuneConfig(
    "autotune-config",
    cl::desc("Which triton.Config of the kernel's @triton.autotune "
             "specializes it (.py input; an index, default 0)"),
    cl::value_desc("N"), cl::init(-1), cl::cat(tilecCategory));

cl::opt<std::string> inputLanguage(
    "x",
    cl::desc("Input language: py (Triton) or mlir (tile dialect); default: "
             "from the file's extension (.py, else mlir), e.g. for '-' (stdin)"),
    cl::value_desc("py|mlir"), cl::Prefix, cl::cat(tilecCategory));

cl::opt<unsigned> errorLimit(
    "error-limit",
    cl::desc("Stop printing errors after N (default 20; 0: no limit), as "
             "clang's -ferror-limit"),
    cl::value_desc("N"), cl::init(tilec::kDefaultErrorLimit),
    cl::cat(tilecCategory));

cl::opt<bool> divisibilityRemarks(
    "divisibility-remarks",
    cl::desc("Remark on each plain integer parameter that would widen a load "
             "or store if the signature said it is a multiple of 16 (i32:16), "
             "as Triton's JIT assumes by itself (.py input; on by default "
             "with --version-alignment=false, else when given; =false to "
             "silence)"),
    cl::init(true), cl::cat(tilecCategory));

cl::opt<unsigned> maxInlinedCalls(
    "max-inlined-calls",
    cl::desc("Budget: helper calls inlined per kernel (.py input; default "
             "10000; 0: no limit)"),
    cl::value_desc("N"), cl::init(10000), cl::cat(tilecCategory));
cl::opt<unsigned> maxUnrolledIterations(
    "max-unrolled-iterations",
    cl::desc("Budget: tl.static_range iterations unrolled per kernel (.py "
             "input; default 10000; 0: no limit)"),
    cl::value_desc("N"), cl::init(10000), cl::cat(tilecCategory));
cl::opt<unsigned> maxOperations(
    "max-operations",
    cl::desc("Budget: operations in a kernel's tile IR, each weighted by "
             "its tile's elements per thread (default 100000; 0: no limit)"),
    cl::value_desc("N"), cl::init(100000), cl::cat(tilecCategory));

cl::opt<unsigned> mmaVersion(
    "mma-version",
    cl::desc("Tensor-core instructions for tl.dot: 2 = mma.sync, 3 = wgmma "
             "where it applies (sm_90a), 0 = the default (3)"),
    cl::value_desc("N"), cl::init(0), cl::cat(tilecCategory));

cl::opt<bool> tma(
    "tma",
    cl::desc("Copy the blocks of host-side tensor descriptors (tensordesc<...> "
             "arguments) with TMA: operand loads of pipelined wgmma loops on "
             "mbarriers, 2-D stores as TMA stores (sm_90+; the runtime "
             "encodes the CUtensorMaps). On by default; --tma=false keeps "
             "masked loads and stores"),
    cl::init(true), cl::cat(tilecCategory));

cl::opt<bool> tmaPointerLoads(
    "tma-pointer-loads",
    cl::desc("Also copy a GEMM's masked pointer loads of tl.dot operands "
             "(tutorial 03's form) with TMA, through tensor maps the runtime "
             "encodes from the arguments (sm_90a, wgmma; with --tma). The "
             "loop is versioned: the TMA copies run where the blocks' row and "
             "column indices are >= 0 and the tensors' sizes and strides "
             "positive, the masked loads elsewhere. On by default; "
             "--tma-pointer-loads=false keeps cp.async"),
    cl::init(true), cl::cat(tilecCategory));

cl::opt<bool> versionAlignment(
    "version-alignment",
    cl::desc("Give each kernel whose loads and stores would be wider if "
             "some integer or pointer arguments were multiples of 2-16 (a "
             "row stride of 3000 fp16 elements: 8) an aligned variant: a "
             "second kernel with those facts in its signature, which the "
             "runtime launches where the arguments have them; --emit=layout "
             "remarks on each kernel. On by default (not for kernels with "
             "tl.dot or tensor descriptors, nor with --aot); =false: none"),
    cl::init(true), cl::cat(tilecCategory));

cl::opt<bool> fuseKernels(
    "fuse-kernels",
    cl::desc("Fuse the maps of tile.graph operator graphs into the kernels "
             "that write or read their buffers (epilogue and prologue "
             "fusion) and into each other (tile-fuse-kernels). On by "
             "default; =false: every launch as written and each map its own "
             "kernel"),
    cl::init(true), cl::cat(tilecCategory));

cl::opt<bool> fusionRemarks(
    "fusion-remarks",
    cl::desc("Remark on each fusion of a graph and on each candidate pair "
             "left unfused, with the reason"),
    cl::init(false), cl::cat(tilecCategory));

cl::opt<std::string> warpSpecialize(
    "warp-specialize",
    cl::desc("Warp specialization of TMA-copying wgmma loops (sm_90a): a "
             "producer warpgroup issues the copies, the kernel's warps "
             "compute. hint (the default): loops written "
             "tl.range(..., warp_specialize=True); on: every eligible loop; "
             "off: none"),
    cl::value_desc("hint|on|off"), cl::init("hint"), cl::cat(tilecCategory));

cl::opt<unsigned> numConsumerGroups(
    "num-consumer-groups",
    cl::desc("Consumer groups of a warp-specialized persistent loop "
             "(tl.range(..., flatten=True, warp_specialize=True); sm_90a): 2 "
             "runs two groups of --num-warps warps that take turns over the "
             "program's tiles (CUTLASS's ping-pong), one group's epilogue "
             "under the other's main loop; where that does not apply the "
             "loop keeps one group. 1 (the default): one group"),
    cl::value_desc("1|2"), cl::init(1), cl::cat(tilecCategory));

cl::opt<unsigned> maxNReg(
    "maxnreg",
    cl::desc("Registers per thread at most, as Triton's maxnreg (PTX "
             ".maxnreg), for kernels whose autotune config sets none: "
             "ptxas then schedules for that budget (more loads in flight "
             "where the occupancy allows). 16 to 255; 0 (the default): "
             "ptxas's choice"),
    cl::value_desc("N"), cl::init(0), cl::cat(tilecCategory));

cl::opt<bool> autoMaxNReg(
    "auto-maxnreg",
    cl::desc("Mark kernels without tensor-core instructions or a register "
             "limit of their own maxnreg=auto in their metadata: the runtime "
             "loading the PTX (and ptxas assembling a cubin here) gives each "
             "the register limit of the occupancy it reaches without one, "
             "so that ptxas uses the registers that occupancy leaves "
             "(docs/runtime.md, \"Register budget\"). On by default; =false: "
             "ptxas's own choice"),
    cl::init(true), cl::cat(tilecCategory));

cl::opt<unsigned> clusterSize(
    "cluster-size",
    cl::desc("CTAs per thread-block cluster (sm_90+): 2 lets two CTAs that "
             "copy the same TMA block in every K step (adjacent programs of "
             "a grouped GEMM: the same B tile) fetch half each and multicast "
             "it to both; the kernel proves that at run time and otherwise "
             "copies alone, and the runtime launches it in clusters of two "
             "along x when the grid's x is even. 1 (the default): no "
             "clusters"),
    cl::value_desc("1|2"), cl::init(1), cl::cat(tilecCategory));

cl::opt<bool> noFPFusion("no-fp-fusion",
                         cl::desc("Round every fp op (no mul+add contraction "
                                  "into fma; Triton's enable_fp_fusion=False)"),
                         cl::init(false), cl::cat(tilecCategory));

cl::opt<bool> debugMode(
    "debug",
    cl::desc("Compile run-time assertions (tl.device_assert, assert on "
             "run-time values) into checks on the GPU that stop the kernel "
             "with the message where they fail; off, they compile to "
             "nothing (Triton's debug=True; also on when TRITON_DEBUG is set "
             "to a value other than 0)"),
    cl::init(false), cl::cat(tilecCategory));

cl::opt<bool> aot(
    "aot",
    cl::desc("Ahead-of-time output: with -o PREFIX, write PREFIX.cubin, "
             "PREFIX.json (metadata), and PREFIX.h / PREFIX.c, a C launch "
             "function per kernel that embeds the cubin and links only "
             "libcuda (docs/runtime.md)"),
    cl::init(false), cl::cat(tilecCategory));

cl::opt<std::string> aotName(
    "aot-name",
    cl::desc("With --aot: the name of the launch function (default: the "
             "kernel's), so that several specializations of one kernel can "
             "be linked into one program; one --kernel only"),
    cl::value_desc("NAME"), cl::init(""), cl::cat(tilecCategory));

int fail() { return 1; }
} // namespace

/// `tilec cache list|stats|clear [--dir DIR]`: the disk cache of compiled
/// kernels (tilec/Cache.h; TILEC_CACHE_DIR, else XDG_CACHE_HOME/tilec, else
/// HOME/.cache/tilec). Exit codes as for compiles: 0, or 1 with an error.
int runCacheCommand(int argc, char **argv) {
  std::string action, dir;
  for (int i = 2; i < argc; ++i) {
    StringRef a(argv[i]);
    if (a == "--dir" && i + 1 < argc)
      dir = argv[++i];
    else if (a == "--dir") {
      llvm::errs() << "tilec: error: --dir needs a folder (--dir DIR)\n";
      return 1;
    } else if (a.consume_front("--dir="))
      dir = a.str();
    else if (a == "-h" || a == "--help")
      action = "help";
    else if (action.empty())
      action = a.str();
    else
      action = "?";
  }
  if (action == "help" || action.empty()) {
    llvm::outs() << "usage: tilec cache list|stats|clear [--dir DIR]\n"
                    "  the disk cache of compiled kernels: TILEC_CACHE_DIR, "
                    "else $XDG_CACHE_HOME/tilec, else ~/.cache/tilec\n";
    return action.empty() ? 1 : 0;
  }
  if (action != "list" && action != "stats" && action != "clear") {
    llvm::errs() << "tilec: error: unknown cache command; expected list, "
                    "stats or clear\n";
    return 1;
  }
  tilec::DiskCache cache;
  tilec::DiskCache::Options options;
  options.dir = dir;
  tilec::Status s = tilec::DiskCache::open(options, cache);
  if (s && action == "clear")
    s = cache.clear();
  if (s && action == "stats") {
    uint64_t bytes = 0, entries = 0;
    s = cache.stats(bytes, entries);
    if (s)
      llvm::outs() << cache.directory() << ": " << entries << " entries, "
                   << bytes << " bytes\n";
  }
  if (s && action == "list") {
    std::vector<tilec::DiskCache::Entry> entries;
    s = cache.list(entries);
    for (const auto &e : entries)
      llvm::outs() << e.key << "  " << e.bytes << " bytes\n";
  }
  if (!s) {
    llvm::errs() << "tilec: error: " << s.message() << "\n";
    return 1;
  }
  return 0;
}

/// Writes each (path, contents) in binary, all or none: every file is
/// opened first and kept only when all were written (a failure removes
/// those already written), as for a single -o file. Reports a failure.
static bool writeFiles(
    const std::vector<std::pair<std::string, std::string>> &files) {
  std::string errorMessage;
  std::vector<std::unique_ptr<llvm::ToolOutputFile>> outs;
  for (const auto &[path, contents] : files) {
    auto out = openOutputFile(path, &errorMessage);
    if (!out) {
      llvm::errs() << "tilec: error: " << errorMessage << "\n";
      return false;
    }
    out->os() << contents;
    out->os().flush();
    if (out->os().has_error()) {
      llvm::errs() << "tilec: error: cannot write '" << path
                   << "': " << out->os().error().message() << "\n";
      out->os().clear_error();
      return false;
    }
    outs.push_back(std::move(out));
  }
  for (auto &out : outs)
    out->keep();
  return true;
}

/// --aot of a kernel with several @triton.autotune configs (and no
/// --autotune-config): each config compiled and assembled on its own, one
/// header and source with a launcher per config and a dispatcher that
/// tunes at its first call per key. Returns -1 when the kernel has no
/// such configs (the caller goes on as for any kernel), else the exit code.
static int writeAutotunedAot(const tilec::CompileOptions &options,
                             const std::string &ptxas) {
  auto input = llvm::MemoryBuffer::getFileOrSTDIN(inputFilename);
  if (!input)
    return -1; // the normal path reports it
  std::string source = (*input)->getBuffer().str();
  tilec::KernelInspection info;
  std::string diagnostics;
  if (!tilec::inspectTritonKernel(source, inputFilename, options, info,
                                  diagnostics) ||
      info.configs.size() < 2)
    return -1;
  tilec::AotAutotuned tuned;
  tuned.paramNames = info.paramNames;
  tuned.launcherName = aotName;
  if (std::string bad = tilec::autotuneArgIndices(
          info, tuned.keyArgs, tuned.resetArgs, tuned.restoreArgs);
      !bad.empty()) {
    llvm::errs() << "tilec: error: --aot: autotune buffer '" << bad
                 << "' is not a run-time parameter of '" << options.kernel
                 << "'\n";
    return 1;
  }
  std::string base = outputFilename;
  std::vector<std::pair<std::string, std::string>> files;
  for (size_t i = 0; i < info.configs.size(); ++i) {
    tilec::CompileOptions one = options;
    one.autotuneConfig = int(i);
    tilec::CompileOutput out;
    bool ok = tilec::compileToPTX(source, inputFilename,
                                  tilec::SourceLanguage::Python, one, nullptr,
                                  out);
    llvm::errs() << out.diagnostics;
    if (!ok)
      return 1;
    std::vector<tilec::KernelInfo> kernels;
    std::string cubin;
    if (tilec::Status s = tilec::parseKernelMetadata(out.ptx, kernels);
        !s || kernels.size() != 1) {
      llvm::errs() << "tilec: error: internal compiler error: bad kernel "
                      "metadata for config "
                   << i << "\n";
      return 1;
    }
    if (tilec::Status s =
            tilec::assembleCubin(ptxas, tilec::effectiveArch(one), out.ptx, cubin);
        !s) {
      llvm::errs() << "tilec: error: config " << i << ": " << s.message()
                   << "\n";
      return 1;
    }
    const tilec::KernelInspection::Config &c = info.configs[i];
    std::string name = tilec::describeAutotuneConfig(c.constexprs, c.numWarps,
                                                     c.numStages, c.maxnreg);
    std::string stem = base + ".config" + std::to_string(i);
    files.emplace_back(stem + ".cubin", cubin);
    files.emplace_back(stem + ".json", tilec::kernelMetadataToJson(kernels));
    tuned.configInfos.push_back(kernels.front());
    tuned.cubins.push_back(std::move(cubin));
    tuned.configNames.push_back(name);
    tuned.configValues.push_back(c.constexprs);
  }
  std::string prefix = llvm::sys::path::filename(base).str();
  std::string provenance = std::string(tilec::compilerVersion()) + " from " +
                           llvm::sys::path::filename(inputFilename).str() +
                           " for " + tilec::effectiveArch(options);
  std::string header, csource;
  std::string problem = tilec::generateAotAutotuned(
      tuned, prefix, prefix + ".h", provenance, header, csource);
  if (!problem.empty()) {
    llvm::errs() << "tilec: error: --aot: " << problem << "\n";
    return 1;
  }
  files.emplace_back(base + ".h", header);
  files.emplace_back(base + ".c", csource);
  return writeFiles(files) ? 0 : 1;
}

/// --emit=cubin and --aot: PTX, ptxas, the metadata sidecar, and for --aot
/// the C launchers (compiler/Jit/Aot.h).
static int writeCubin(
    ModuleOp module, const tilec::PipelineOptions &opts,
    const std::string &ptxas,
    const std::map<std::string, std::vector<std::string>> &argNames,
    llvm::function_ref<bool(llvm::function_ref<LogicalResult()>)> recovering) {
  std::string ptx;
  llvm::raw_string_ostream ptxStream(ptx);
  if (!recovering([&] {
        return tilec::emitPTX(module, opts.arch, ptxStream, opts.fpFusion,
                              opts.autoMaxNReg);
      }))
    return 1;
  std::vector<tilec::KernelInfo> kernels;
  if (tilec::Status s = tilec::parseKernelMetadata(ptx, kernels); !s) {
    llvm::errs() << "tilec: error: internal compiler error: bad kernel "
                    "metadata: "
                 << s.message() << "\n";
    return 1;
  }
  std::string cubin;
  if (tilec::Status s = tilec::assembleCubin(ptxas, opts.arch, ptx, cubin);
      !s) {
    llvm::errs() << "tilec: error: " << s.message() << "\n";
    return 1;
  }
  // FILE.cubin -> FILE.json; --aot: PREFIX -> PREFIX.cubin, ...
  std::string base = outputFilename;
  if (!aot && StringRef(base).ends_with(".cubin"))
    base.resize(base.size() - strlen(".cubin"));
  std::string cubinPath = aot ? base + ".cubin" : outputFilename.getValue();
  std::string header, source;
  if (aot) {
    std::vector<tilec::AotKernel> aotKernels;
    for (const tilec::KernelInfo &k : kernels) {
      tilec::AotKernel a;
      a.info = k;
      // One name per signature entry: its first argument's.
      auto it = argNames.find(k.name);
      size_t arg = 0;
      for (const tilec::ParamType &p : k.signature.params) {
        std::string name;
        if (it != argNames.end() && arg < it->second.size())
          name = it->second[arg];
        a.paramNames.push_back(name);
        arg += p.isTensorDesc ? 2 * p.block.size() : 1;
      }
      a.launcherName = aotName;
      aotKernels.push_back(std::move(a));
    }
    std::string prefix = llvm::sys::path::filename(base).str();
    std::string provenance = std::string(tilec::compilerVersion()) +
                             " from " +
                             llvm::sys::path::filename(inputFilename).str() +
                             " for " + opts.arch;
    std::string problem = tilec::generateAot(
        aotKernels, cubin, prefix, prefix + ".h", provenance, header, source);
    if (!problem.empty()) {
      llvm::errs() << "tilec: error: --aot: " << problem << "\n";
      return 1;
    }
  }
  std::vector<std::pair<std::string, std::string>> files = {
      {cubinPath, cubin}, {base + ".json", tilec::kernelMetadataToJson(kernels)}};
  if (aot) {
    files.emplace_back(base + ".h", header);
    files.emplace_back(base + ".c", source);
  }
  if (!writeFiles(files))
    return 1;
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  if (argc >= 2 && StringRef(argv[1]) == "cache")
    return runCacheCommand(argc, argv);
  // --mlir-print-ir-before/after=<pass> name passes by their argument: the
  // passes must be registered before the pass manager's options exist.
  tilec::registerAllPasses();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerAsmPrinterCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions({&tilecCategory});
  // --version: tilec's version and commit first, then LLVM's.
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << tilec::compilerVersion() << "\n";
    cl::PrintVersionMessage();
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "tilec: compile tile programs to NVIDIA GPU kernels\n\n"
      "  tilec kernel.mlir --emit=ptx -o kernel.ptx\n"
      "  tilec kernel.py --kernel NAME --signature SIG -D NAME=VALUE -o k.ptx\n"
      "  tilec cache list|stats|clear [--dir DIR]   (the JIT's disk cache)\n");

  if (!tilec::isSupportedArch(arch)) {
    llvm::errs() << "tilec: error: unsupported --arch '" << arch
                 << "'; expected one of " << tilec::getSupportedTargetNames()
                 << "\n";
    return fail();
  }
  if (numWarps != 0 && (numWarps > 32 || (numWarps & (numWarps - 1)))) {
    llvm::errs() << "tilec: error: --num-warps must be a power of two in "
                    "[1, 32], found "
                 << numWarps << "\n";
    return fail();
  }
  if (mmaVersion != 0 && mmaVersion != 2 && mmaVersion != 3) {
    llvm::errs() << "tilec: error: expected --mma-version 0, 2 or 3, found "
                 << mmaVersion << "\n";
    return fail();
  }
  if (warpSpecialize != "hint" && warpSpecialize != "on" &&
      warpSpecialize != "off") {
    llvm::errs() << "tilec: error: expected --warp-specialize=hint, on or "
                    "off, found '"
                 << warpSpecialize << "'\n";
    return fail();
  }
  if (numConsumerGroups != 1 && numConsumerGroups != 2) {
    llvm::errs() << "tilec: error: expected --num-consumer-groups 1 or 2, "
                    "found "
                 << numConsumerGroups << "\n";
    return fail();
  }
  if (clusterSize != 1 && clusterSize != 2) {
    llvm::errs() << "tilec: error: expected --cluster-size 1 or 2, found "
                 << clusterSize << "\n";
    return fail();
  }
  if (maxNReg != 0 && (maxNReg < 16 || maxNReg > 255)) {
    llvm::errs() << "tilec: error: expected --maxnreg in [16, 255] (or 0: no "
                    "limit), found "
                 << maxNReg << "\n";
    return fail();
  }
  if (!inputLanguage.empty() && inputLanguage != "py" &&
      inputLanguage != "mlir") {
    llvm::errs() << "tilec: error: expected -x py or -x mlir, found -x "
                 << inputLanguage << "\n";
    return fail();
  }
  bool isPython = inputLanguage.empty()
                      ? llvm::StringRef(inputFilename).ends_with(".py")
                      : inputLanguage == "py";
  if (!isPython &&
      (!kernelNames.empty() || !signatures.empty() || !defines.empty() ||
       numStages != 0 || autotuneConfig.getNumOccurrences())) {
    llvm::errs() << "tilec: error: --kernel, --signature, -D, --num-stages "
                    "and --autotune-config apply to .py input (-x py reads "
                    "a file of another name, or stdin, as .py)\n";
    return fail();
  }
  if (autotuneConfig.getNumOccurrences() && autotuneConfig < 0) {
    llvm::errs() << "tilec: error: --autotune-config must be a config index "
                    "(0 or more), found "
                 << autotuneConfig << "\n";
    return fail();
  }
  if (!isPython && emitStage == Stage::AST) {
    llvm::errs() << "tilec: error: --emit=ast applies to .py input\n";
    return fail();
  }
  // Kernels and their signatures: one signature for all, or one each.
  std::vector<std::string> kernels(kernelNames.begin(), kernelNames.end());
  if (llvm::is_contained(kernels, std::string())) {
    llvm::errs() << "tilec: error: expected a kernel name for each entry of "
                    "--kernel, found an empty one (a trailing or doubled "
                    "comma?)\n";
    return fail();
  }
  if (kernels.empty())
    kernels.push_back(""); // the import lists the file's kernels
  if (signatures.size() > 1 && signatures.size() != kernels.size()) {
    llvm::errs() << "tilec: error: expected one --signature for all kernels or "
                    "one per --kernel ("
                 << kernels.size() << "), found " << signatures.size() << "\n";
    return fail();
  }
  // The one options value (tilec/Compile.h) the JIT and the cache key use
  // too; the front end's and the pipeline's options derive from it.
  tilec::CompileOptions compileOptions;
  compileOptions.kernel = kernels.front();
  compileOptions.signature = signatures.empty() ? "" : signatures.front();
  compileOptions.numWarps = numWarps;
  compileOptions.numStages = numStages;
  compileOptions.autotuneConfig = autotuneConfig;
  compileOptions.arch = arch;
  compileOptions.fpFusion = !noFPFusion;
  compileOptions.mmaVersion = mmaVersion;
  compileOptions.tma = tma;
  compileOptions.tmaPointerLoads = tmaPointerLoads;
  // --aot's launchers call one kernel each: no aligned variants there yet.
  compileOptions.versionAlignment = versionAlignment && !aot;
  compileOptions.fuseKernels = fuseKernels;
  compileOptions.warpSpecialize = warpSpecialize;
  compileOptions.numConsumerGroups = numConsumerGroups;
  compileOptions.clusterSize = clusterSize;
  compileOptions.maxnreg = maxNReg;
  compileOptions.autoMaxNReg = autoMaxNReg;
  compileOptions.errorLimit = errorLimit;
  compileOptions.maxInlinedCalls = maxInlinedCalls;
  compileOptions.maxUnrolledIterations = maxUnrolledIterations;
  compileOptions.maxOperations = maxOperations;
  // Triton's knob: TRITON_DEBUG=1 turns debug on for every compile.
  const char *tritonDebug = std::getenv("TRITON_DEBUG");
  compileOptions.debug = debugMode || (tritonDebug && *tritonDebug &&
                                       StringRef(tritonDebug) != "0");
  compileOptions.importPaths.assign(includeDirs.begin(), includeDirs.end());
  if (const char *env = std::getenv("TILEC_PYTHONPATH")) {
    llvm::SmallVector<llvm::StringRef> dirs;
    llvm::StringRef(env).split(dirs, ':', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef d : dirs)
      compileOptions.importPaths.push_back(d.str());
  }
  for (const std::string &d : defines) {
    auto [name, value] = llvm::StringRef(d).split('=');
    if (name.empty() || !llvm::StringRef(d).contains('=')) {
      llvm::errs() << "tilec: error: expected -D NAME=VALUE, found -D" << d
                   << "\n";
      return fail();
    }
    compileOptions.constexprs.emplace_back(name.trim().str(),
                                           value.trim().str());
  }
  tilec::frontend::KernelOptions kernelOptions =
      tilec::toKernelOptions(compileOptions);
  // Library modules choose definitions by environment variables at import
  // (FLA_USE_FAST_OPS): the command line reads them as Python would.
  kernelOptions.readEnvironment = true;
  // With alignment versioning the kernel checks such arguments at run time
  // itself; the remark (a `:16` saves the check and the second version)
  // then prints only when asked for.
  kernelOptions.divisibilityRemarks =
      divisibilityRemarks && (!compileOptions.versionAlignment ||
                              divisibilityRemarks.getNumOccurrences() > 0);

  // -o naming the input would replace the source with the output.
  if (outputFilename != "-" && inputFilename != "-" &&
      llvm::sys::fs::equivalent(inputFilename, outputFilename)) {
    llvm::errs() << "tilec: error: -o '" << outputFilename
                 << "' is the input file; choose another output\n";
    return fail();
  }

  if (aot && emitStage.getNumOccurrences()) {
    llvm::errs() << "tilec: error: --aot writes a cubin, its metadata and C "
                    "sources; it cannot be combined with --emit\n";
    return fail();
  }
  if (!aotName.empty() && (!aot || kernelNames.size() > 1)) {
    llvm::errs() << "tilec: error: --aot-name names the launch function of "
                    "one kernel compiled with --aot\n";
    return fail();
  }
  if (aot)
    emitStage = Stage::Cubin;
  if (!aot && emitStage == Stage::Cubin && outputFilename != "-" &&
      !StringRef(outputFilename).ends_with(".cubin")) {
    llvm::errs() << "tilec: error: --emit=cubin needs -o FILE.cubin (the "
                    "metadata goes in FILE.json), found -o '"
                 << outputFilename << "'\n";
    return fail();
  }
  if (emitStage == Stage::Cubin && outputFilename == "-") {
    llvm::errs() << "tilec: error: "
                 << (aot ? "--aot needs -o PREFIX (it writes PREFIX.cubin, "
                           "PREFIX.json, PREFIX.h and PREFIX.c)"
                         : "--emit=cubin needs -o FILE.cubin (a cubin is "
                           "binary; FILE.json gets the metadata)")
                 << "\n";
    return fail();
  }
  std::string ptxas;
  if (emitStage == Stage::Cubin) {
    ptxas = tilec::findPtxas();
    if (ptxas.empty()) {
      llvm::errs() << "tilec: error: ptxas not found ($TILEC_PTXAS, "
                      "$CUDA_HOME/bin, /usr/local/cuda/bin, PATH); "
                   << (aot ? "--aot" : "--emit=cubin") << " needs it\n";
      return fail();
    }
  }

  // An autotuned kernel's AOT output covers every config.
  if (aot && isPython && kernels.size() == 1 &&
      !autotuneConfig.getNumOccurrences()) {
    int rc = writeAutotunedAot(compileOptions, ptxas);
    if (rc >= 0)
      return rc;
  }

  MLIRContext context;
  tilec::prepareContext(context);

  std::string errorMessage;
  auto input = openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << "tilec: error: " << errorMessage << "\n";
    return fail();
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  tilec::DiagnosticReporter diagnostics(sourceMgr, &context, llvm::errs(),
                                       errorLimit);
  // Every return below reports the errors the limit held back.
  struct Finish {
    tilec::DiagnosticReporter &r;
    ~Finish() { r.finish(); }
  } finishAtEnd{diagnostics};

  OwningOpRef<ModuleOp> module;
  if (isPython) {
    if (emitStage == Stage::AST) {
      auto output = openOutputFile(outputFilename, &errorMessage);
      if (!output) {
        llvm::errs() << "tilec: error: " << errorMessage << "\n";
        return fail();
      }
      std::string ast;
      llvm::raw_string_ostream astStream(ast);
      bool hadError = false;
      ScopedDiagnosticHandler counter(&context, [&](Diagnostic &d) {
        hadError |= d.getSeverity() == DiagnosticSeverity::Error;
        return failure(); // let the source manager handler print it
      });
      (void)tilec::importTritonFile(sourceMgr, &context, kernelOptions,
                                    &astStream);
      if (hadError)
        return fail();
      output->os() << ast;
      output->keep();
      return 0;
    }
    std::vector<tilec::frontend::KernelOptions> each;
    for (size_t i = 0; i < kernels.size(); ++i) {
      each.push_back(kernelOptions);
      each.back().kernelName = kernels[i];
      if (signatures.size() > 1)
        each.back().signature = signatures[i];
    }
    module = tilec::importTritonKernels(sourceMgr, &context, each);
  } else {
    bool looksLikePython = false;
    module = tilec::parseTileFile(sourceMgr, &context, numWarps,
                                  maxOperations, &looksLikePython);
    if (!module && looksLikePython)
      llvm::errs() << "tilec: note: the input looks like a Triton-language "
                      "file and was read as MLIR (files not named .py are); "
                      "use -x py\n";
  }
  if (!module)
    return fail();

  // Operator graphs reach the runtime through the PTX's `// tilec.graph`
  // lines only: the cubin's JSON sidecar and the AOT launchers carry none.
  if (emitStage == Stage::Cubin || aot)
    for (auto graph : module->getOps<tilec::tile::GraphOp>()) {
      graph.emitError("unimplemented: ")
          << (aot ? "--aot" : "--emit=cubin")
          << " does not carry operator graphs yet; compile with --emit=ptx "
             "(its tilec.graph line is what GraphProgram runs)";
      return fail();
    }

  // The kernels' parameter names (the front end's argument locations), for
  // the AOT launchers.
  std::map<std::string, std::vector<std::string>> argNames;
  if (aot)
    module->walk([&](tilec::tile::FuncOp f) {
      std::vector<std::string> &names = argNames[f.getName().str()];
      for (BlockArgument arg : f.getArguments()) {
        auto name = dyn_cast<NameLoc>(arg.getLoc());
        names.push_back(name ? name.getName().str() : std::string());
      }
    });

  // The pipeline and the backend: an LLVM fatal error or a crash (e.g. an
  // NVVM op of a .mlir input the target cannot select) is an "internal
  // compiler error", exit 1.
  bool crashed = false;
  auto recovering = [&crashed](llvm::function_ref<LogicalResult()> step) {
    std::string ice;
    bool ok = tilec::runRecoveringFromCrashes(
        [&] { return succeeded(step()); }, ice);
    llvm::errs() << ice;
    crashed |= !ice.empty();
    return ok;
  };
  tilec::PipelineOptions opts = tilec::toPipelineOptions(compileOptions);
  opts.versionRemarks = emitStage == Stage::Layout;
  opts.fusionRemarks = fusionRemarks;
  // With aligned variants first; where one cannot be compiled, without
  // (tilec::runWithVersioningFallback).
  auto runStages = [&](ModuleOp m, bool version) -> LogicalResult {
    tilec::PipelineOptions o = opts;
    o.versionAlignment = version;
    PassManager pm(&context);
    if (failed(applyPassManagerCLOptions(pm)))
      return failure();
    // --mlir-timing: the report prints when `timing` goes out of scope.
    DefaultTimingManager timingManager;
    applyDefaultTimingManagerCLOptions(timingManager);
    TimingScope timing = timingManager.getRootScope();
    pm.enableTiming(timing);
    // (Cubin and the LLVM IR/PTX stages run the backend after the last
    // MLIR stage.)
    tilec::buildPipeline(pm,
                         emitStage == Stage::CUDA
                             ? Stage::SIMT
                             : std::min(Stage(emitStage), Stage::LLVMDialect),
                         o);
    return success(recovering([&] { return pm.run(m); }));
  };
  if (failed(tilec::runWithVersioningFallback(*module, opts.versionAlignment,
                                              runStages, &crashed)))
    return fail();

  if (emitStage == Stage::Cubin)
    return writeCubin(*module, opts, ptxas, argNames, recovering);

  auto output = openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << "tilec: error: " << errorMessage << "\n";
    return fail();
  }
  if (emitStage == Stage::PTX) {
    if (!recovering([&] {
          return tilec::emitPTX(*module, opts.arch, output->os(), opts.fpFusion,
                                opts.autoMaxNReg);
        }))
      return fail();
  } else if (emitStage == Stage::CUDA) {
    if (!recovering([&] {
          return tilec::emitCUDA(*module, opts.arch, output->os(),
                                 opts.autoMaxNReg, opts.fpFusion);
        }))
      return fail();
  } else if (emitStage == Stage::LLVMIR) {
    if (!recovering([&] {
          return tilec::emitLLVMIR(*module, opts.arch, output->os(), opts.fpFusion);
        }))
      return fail();
  } else {
    module->print(output->os());
    output->os() << "\n";
  }
  // A full disk or a closed pipe: say so (the file is not kept).
  output->os().flush();
  if (output->os().has_error()) {
    llvm::errs() << "tilec: error: cannot write '" << outputFilename
                 << "': " << output->os().error().message() << "\n";
    output->os().clear_error();
    return fail();
  }
  output->keep();
  return 0;
}
