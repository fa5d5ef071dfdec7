//===- VersionAlignment.cpp - Alignment versioning of kernels ---*- C++ -*-===//
//
// tile-version-alignment: a kernel whose loads and stores would move more
// bytes per access if some of its integer or pointer arguments were
// multiples of a power of two gets an aligned variant, a copy of it that
// assumes so, which the runtime launches where the arguments have those
// facts (Triton's JIT specializes so; torch checks alignment before choosing
// a vectorized kernel). The pass's description
// (Passes.td) gives the rules; this file finds the arguments and the
// smallest divisors that pay, with the axis analysis
// (passes/Analysis/AxisInfo.h) run as if the signature said them.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "dialects/Tile/IR/TileDialect.h"
#include "passes/Analysis/AxisInfo.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringSet.h"

namespace tilec {
#define GEN_PASS_DEF_TILEVERSIONALIGNMENTPASS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// Divisibility a version may assume of an argument: 16 (bytes for a
/// pointer, a multiple of 16 for an integer) is what a 16-byte access
/// ever needs.
constexpr int64_t kMaxAssumed = 16;
/// Arguments considered per kernel (each costs up to four analysis runs of
/// the kernel).
constexpr unsigned kMaxCandidates = 16;

/// An argument the guard tests: `arg % divisor == 0` (the address, for a
/// pointer).
struct Assumption {
  unsigned arg;
  int64_t divisor;
};

class TileVersionAlignmentPass
    : public tilec::impl::TileVersionAlignmentPassBase<TileVersionAlignmentPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<FuncOp> kernels;
    llvm::StringSet<> variants;
    for (auto func : module.getOps<FuncOp>())
      if (auto v = func->getAttrOfType<StringAttr>(
              TileDialect::getAlignedVariantAttrName()))
        variants.insert(v.getValue());
    for (auto func : module.getOps<FuncOp>())
      if (func.isKernel() && !variants.contains(func.getSymName()))
        kernels.push_back(func);
    for (FuncOp func : kernels)
      versionKernel(module, func);
  }

private:
  /// Why `func` is left as it is, or an empty string where it may be
  /// versioned.
  std::string refusal(FuncOp func, SmallVectorImpl<Operation *> &accesses) {
    // Once per kernel: not a kernel that has a variant or is one (the pass
    // may run twice, as tilec-opt's output through tilec does).
    if (func->hasAttr(TileDialect::getAlignedVariantAttrName()))
      return "it has an aligned variant already";
    int64_t ops = 0;
    std::string why;
    func.walk([&](Operation *op) {
      ++ops;
      if (isa<LoadOp, StoreOp>(op))
        accesses.push_back(op);
      // A GEMM's operand loads have their own versioning
      // (tile-pointer-loads-to-descriptors) and pipelines; descriptors kept
      // for TMA do not read through pointer tiles.
      if (why.empty() && isa<DotOp, DescLoadOp, DescStoreOp>(op))
        why = "it has a '" + op->getName().getStringRef().str() + "'";
    });
    if (!why.empty())
      return why;
    if (maxOperations && ops > int64_t(maxOperations))
      return "its " + std::to_string(ops) +
             " operations exceed the budget of " +
             std::to_string(maxOperations) + " (max-operations)";
    return "";
  }

  /// The divisibility the kernel's signature gives argument `i` (1: none).
  static int64_t givenDivisibility(FuncOp func, unsigned i) {
    if (auto d = func.getArgAttrOfType<IntegerAttr>(
            i, TileDialect::getDivisibilityAttrName()))
      return d.getInt();
    return 1;
  }

  /// Bytes per access of each of `accesses` with argument `i` assumed a
  /// multiple of `assumed[i]` (where above what the signature says).
  static SmallVector<int64_t> widths(FuncOp func,
                                     ArrayRef<Operation *> accesses,
                                     ArrayRef<Assumption> assumed) {
    MLIRContext *ctx = func.getContext();
    StringAttr name =
        StringAttr::get(ctx, TileDialect::getDivisibilityAttrName());
    SmallVector<Attribute> saved;
    for (const Assumption &a : assumed) {
      saved.push_back(func.getArgAttr(a.arg, name));
      if (a.divisor > givenDivisibility(func, a.arg))
        func.setArgAttr(a.arg, name,
                        IntegerAttr::get(IntegerType::get(ctx, 32), a.divisor));
    }
    SmallVector<int64_t> bytes;
    {
      // The kernel alone (its calls are inlined): the cost of a trial does
      // not grow with the module's other kernels.
      ModuleAxisInfo axis(func);
      for (Operation *op : accesses)
        bytes.push_back(axis.getAccessBytes(op));
    }
    for (auto [a, attr] : llvm::zip_equal(assumed, saved)) {
      if (attr)
        func.setArgAttr(a.arg, name, attr);
      else
        func.removeArgAttr(a.arg, name);
    }
    return bytes;
  }

  /// `'stride'` where the front end named the argument, else `argument #2`.
  static std::string argName(FuncOp func, unsigned i) {
    if (auto n = dyn_cast<NameLoc>(func.getArgument(i).getLoc()))
      return "'" + n.getName().str() + "'";
    return "argument #" + std::to_string(i);
  }

  void versionKernel(ModuleOp module, FuncOp func) {
    SmallVector<Operation *> accesses;
    if (std::string why = refusal(func, accesses); !why.empty()) {
      if (remarks && !accesses.empty())
        emitRemark(func.getLoc())
            << "kernel '" << func.getSymName()
            << "' is not versioned on alignment: " << why;
      return;
    }
    if (accesses.empty())
      return;
    // Integer and pointer scalars whose value may still be unaligned -- not
    // the base, sizes and strides of a host-side tensor descriptor, whose
    // facts the runtime cannot check.
    llvm::SmallBitVector inDescriptor(func.getNumArguments());
    SmallVector<unsigned> entries = func.getSignatureArguments();
    for (auto [k, first] : llvm::enumerate(entries))
      if (func.getArgAttr(first, TileDialect::getTensorDescAttrName()))
        inDescriptor.set(first, k + 1 < entries.size()
                                    ? entries[k + 1]
                                    : func.getNumArguments());
    SmallVector<Assumption> candidates;
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      Type t = func.getArgument(i).getType();
      if (inDescriptor.test(i) || !isa<IntegerType, PtrType>(t) ||
          t.isInteger(1) ||
          func.getArgAttr(i, TileDialect::getEqualToAttrName()) ||
          givenDivisibility(func, i) >= kMaxAssumed ||
          func.getArgument(i).use_empty())
        continue;
      if (candidates.size() == kMaxCandidates) {
        if (remarks)
          emitRemark(func.getLoc())
              << "kernel '" << func.getSymName() << "': alignment versioning "
              << "considers its first " << kMaxCandidates
              << " integer and pointer parameters only";
        break;
      }
      candidates.push_back({i, kMaxAssumed});
    }
    if (candidates.empty())
      return;
    SmallVector<int64_t> before = widths(func, accesses, {});
    SmallVector<int64_t> best = widths(func, accesses, candidates);
    if (best == before)
      return;
    // Each argument's smallest divisor that keeps every access as wide as
    // with all of them at 16 (1: the argument is not needed).
    for (Assumption &c : candidates) {
      for (int64_t d = 1; d < kMaxAssumed; d *= 2) {
        int64_t was = c.divisor;
        c.divisor = d;
        if (widths(func, accesses, candidates) == best)
          break;
        c.divisor = was;
      }
    }
    SmallVector<Assumption> assumed;
    for (const Assumption &c : candidates)
      if (c.divisor > givenDivisibility(func, c.arg))
        assumed.push_back(c);
    if (assumed.empty())
      return;
    FuncOp variant = version(module, func, assumed);
    if (remarks) {
      int64_t loads = 0, stores = 0, from = INT64_MAX, to = 0;
      for (auto [op, was, now] : llvm::zip_equal(accesses, before, best)) {
        if (now <= was)
          continue;
        (isa<LoadOp>(op) ? loads : stores) += 1;
        from = std::min(from, was);
        to = std::max(to, now);
      }
      InFlightDiagnostic r = emitRemark(func.getLoc());
      r << "kernel '" << func.getSymName() << "' gets an aligned variant '"
        << variant.getSymName() << "', which the launch runs where ";
      for (auto [k, a] : llvm::enumerate(assumed))
        r << (k ? " and " : "") << argName(func, a.arg)
          << (isa<PtrType>(func.getArgument(a.arg).getType()) ? " (address)"
                                                              : "")
          << " % " << a.divisor << " == 0";
      r << ", " << loads << " load(s) and " << stores
        << " store(s) move up to " << to << " bytes per access instead of "
        << from << "; elsewhere the kernel runs as written";
    }
  }

  /// A copy of `func`, named after it, whose assumed arguments carry the
  /// facts (`tile.divisibility`), recorded as `func`'s aligned variant.
  static FuncOp version(ModuleOp module, FuncOp func,
                        ArrayRef<Assumption> assumed) {
    std::string base = (func.getSymName() + "__aligned").str(), name = base;
    for (unsigned i = 2; SymbolTable::lookupSymbolIn(module, name); ++i)
      name = base + std::to_string(i);
    OpBuilder b(func);
    b.setInsertionPointAfter(func);
    auto clone = cast<FuncOp>(b.clone(*func));
    clone.setSymName(name);
    for (const Assumption &a : assumed)
      clone.setArgAttr(a.arg, TileDialect::getDivisibilityAttrName(),
                       b.getI32IntegerAttr(int32_t(a.divisor)));
    func->setAttr(TileDialect::getAlignedVariantAttrName(),
                  b.getStringAttr(name));
    return clone;
  }
};

} // namespace
