//===- AxisInfo.h - Contiguity, divisibility and constancy ------*- C++ -*-===//
//
// A sparse forward data-flow analysis (MLIR's DataFlowSolver) over tile IR
// that tracks, for each dimension of every integer or pointer tile (and
// scalar), three powers of two:
//
//  - contiguity[d]: the values form runs of this many consecutive integers
//    (elements, for pointers) along d;
//  - divisibility[d]: the first value of each run is a multiple of this (for
//    pointers: the address in bytes); with contiguity 1, every value is;
//  - constancy[d]: the values form runs of this many equal values along d.
//
// Kernel arguments seed it from `tile.divisibility` / `tile.equal_to`. Layout
// assignment and the memory-op lowering read it to pick vector widths: a
// thread may access min(contiguity, divisibility / element size) elements in
// one instruction, and a mask whose constancy covers those elements is one
// predicate. The rules follow Triton's AxisInfo, made conservative where
// runs break (see AxisInfo.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PASSES_ANALYSIS_AXISINFO_H
#define TILEC_PASSES_ANALYSIS_AXISINFO_H

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace tilec {

/// Per-dimension facts about an integer or pointer value (see file comment).
/// Scalars have rank 1. A default-constructed AxisInfo is "uninitialized"
/// (the optimistic bottom of the lattice).
class AxisInfo {
public:
  using DimVector = llvm::SmallVector<int64_t, 4>;
  /// Cap on divisibility (the divisibility of 0).
  static constexpr int64_t kMaxDivisor = int64_t(1) << 30;

  AxisInfo() = default;
  AxisInfo(DimVector contiguity, DimVector divisibility, DimVector constancy,
           std::optional<int64_t> constant = std::nullopt)
      : contiguity(std::move(contiguity)),
        divisibility(std::move(divisibility)),
        constancy(std::move(constancy)), constant(constant) {}

  /// Knows nothing: contiguity, divisibility and constancy 1 per dimension.
  static AxisInfo getPessimistic(unsigned rank);
  /// The state for `value` with no information (scalar rank 1).
  static AxisInfo getPessimisticValueState(mlir::Value value);
  /// Every element equal to `c`, over a tile of `shape` (empty: scalar).
  static AxisInfo getConstant(int64_t c, llvm::ArrayRef<int64_t> shape);

  /// Least upper bound: gcd per dimension (a power of two: the minimum).
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);

  bool isUninitialized() const { return contiguity.empty(); }
  unsigned getRank() const { return contiguity.size(); }
  int64_t getContiguity(unsigned d) const { return contiguity[d]; }
  int64_t getDivisibility(unsigned d) const { return divisibility[d]; }
  int64_t getConstancy(unsigned d) const { return constancy[d]; }
  const DimVector &getContiguity() const { return contiguity; }
  const DimVector &getDivisibility() const { return divisibility; }
  const DimVector &getConstancy() const { return constancy; }
  std::optional<int64_t> getConstantValue() const { return constant; }
  /// Divisibility that holds for every element along d (1 inside runs).
  int64_t getElementDivisibility(unsigned d) const {
    return contiguity[d] > 1 ? 1 : divisibility[d];
  }

  bool operator==(const AxisInfo &o) const {
    return contiguity == o.contiguity && divisibility == o.divisibility &&
           constancy == o.constancy && constant == o.constant;
  }
  void print(llvm::raw_ostream &os) const;

private:
  DimVector contiguity, divisibility, constancy;
  std::optional<int64_t> constant;
};

using AxisInfoLattice = mlir::dataflow::Lattice<AxisInfo>;

/// The transfer functions; load into a DataFlowSolver with DeadCodeAnalysis
/// and SparseConstantPropagation (or use ModuleAxisInfo).
class AxisInfoAnalysis
    : public mlir::dataflow::SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  mlir::LogicalResult
  visitOperation(mlir::Operation *op,
                 llvm::ArrayRef<const AxisInfoLattice *> operands,
                 llvm::ArrayRef<AxisInfoLattice *> results) override;
  void visitNonControlFlowArguments(mlir::Operation *op,
                                    const mlir::RegionSuccessor &successor,
                                    llvm::ArrayRef<AxisInfoLattice *> argLattices,
                                    unsigned firstIndex) override;
  void setToEntryState(AxisInfoLattice *lattice) override;
};

/// Runs the analysis over a module once and answers queries.
class ModuleAxisInfo {
public:
  /// Runs the solver on `module`; emits nothing and cannot fail on valid IR.
  explicit ModuleAxisInfo(mlir::Operation *module);

  /// The facts for `value` (pessimistic if the analysis did not reach it).
  AxisInfo getAxisInfo(mlir::Value value) const;

  /// Elements a thread may read or write in one instruction through the
  /// tile of pointers `ptr` along tile dimension `dim`, given `perThread`
  /// consecutive elements held per thread: the largest power of two
  /// dividing min(perThread, contiguity, divisibility / element bytes,
  /// 16 / element bytes).
  int64_t getPtrVectorWidth(mlir::Value ptr, unsigned dim,
                            int64_t perThread) const;
  /// Runs of equal mask values along `dim` (constancy; the tile's size
  /// along `dim` for no mask).
  int64_t getMaskConstancy(mlir::Value mask, unsigned dim) const;
  /// The largest power of two V such that, in every aligned run of V
  /// elements along `dim`, the mask is true on a prefix of the run and
  /// false after it (at least its constancy). `x < y` (signed) with `x`
  /// contiguous and `y` constant over the run has this shape -- the bound
  /// check of a load whose bound has no divisibility fact, such as a
  /// descriptor's shape -- and conjunctions keep it. A copy whose mask is
  /// prefix-shaped over a vector can read the prefix and zero-fill the
  /// rest in one instruction (cp.async with a source size).
  int64_t getMaskPrefixWidth(mlir::Value mask, unsigned dim) const;
  /// Bytes one access of `op` (a tile.load or tile.store of a tile of
  /// pointers) may move: the widest vector along any dimension that the
  /// pointers' contiguity and alignment and the mask's constancy allow,
  /// before layouts (at most 16 bytes). 0 for other ops and scalar
  /// accesses.
  int64_t getAccessBytes(mlir::Operation *op) const;

private:
  int64_t getMaskPrefixWidth(mlir::Value mask, unsigned dim,
                             unsigned depth) const;

public:

private:
  mlir::DataFlowSolver solver;
};

/// Bytes of one element of pointee type `type` in memory (i1 is a byte).
int64_t getElementBytes(mlir::Type type);

} // namespace tilec

#endif // TILEC_PASSES_ANALYSIS_AXISINFO_H
