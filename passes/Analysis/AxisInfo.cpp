//===- AxisInfo.cpp - Contiguity, divisibility and constancy ----*- C++ -*-===//
//
// Transfer functions of the axis analysis. Every fact is a power of two, so
// gcd is min. Where Triton's rules would claim a divisibility that only the
// first element of a broken run has (e.g. arange + arange), these use the
// per-element divisibility instead, so every claim holds for every run.
//
//===----------------------------------------------------------------------===//
#include "passes/Analysis/AxisInfo.h"

#include "dialects/Tile/IR/TileOps.h"
#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec;

namespace {
using DimVector = AxisInfo::DimVector;

int64_t gcd2(int64_t a, int64_t b) { return std::min(a, b); }

/// Largest power of two dividing `v` (capped; 0 gives the cap).
int64_t pow2Divisor(int64_t v) {
  if (v == 0)
    return AxisInfo::kMaxDivisor;
  uint64_t u = v < 0 ? uint64_t(-(v + 1)) + 1 : uint64_t(v);
  return std::min<int64_t>(int64_t(u & (~u + 1)), AxisInfo::kMaxDivisor);
}

int64_t capMul(int64_t a, int64_t b) {
  if (a >= AxisInfo::kMaxDivisor / std::max<int64_t>(b, 1))
    return AxisInfo::kMaxDivisor;
  return a * b;
}

SmallVector<int64_t> shapeOf(Type t) {
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    return SmallVector<int64_t>(tensor.getShape());
  return {1};
}

int64_t largestPow2Le(int64_t v) {
  return v <= 1 ? 1 : int64_t(llvm::bit_floor(uint64_t(v)));
}
} // namespace

int64_t tilec::getElementBytes(Type type) {
  unsigned bits = type.getIntOrFloatBitWidth();
  return std::max<int64_t>(1, bits / 8);
}

AxisInfo AxisInfo::getPessimistic(unsigned rank) {
  return AxisInfo(DimVector(rank, 1), DimVector(rank, 1), DimVector(rank, 1));
}

AxisInfo AxisInfo::getPessimisticValueState(Value value) {
  return getPessimistic(shapeOf(value.getType()).size());
}

AxisInfo AxisInfo::getConstant(int64_t c, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> s(shape);
  if (s.empty())
    s.push_back(1);
  return AxisInfo(DimVector(s.size(), 1), DimVector(s.size(), pow2Divisor(c)),
                  DimVector(s.begin(), s.end()), c);
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (lhs.isUninitialized())
    return rhs;
  if (rhs.isUninitialized())
    return lhs;
  if (lhs.getRank() != rhs.getRank())
    return getPessimistic(lhs.getRank());
  DimVector c, d, k;
  for (unsigned i = 0; i < lhs.getRank(); ++i) {
    c.push_back(gcd2(lhs.contiguity[i], rhs.contiguity[i]));
    d.push_back(gcd2(lhs.divisibility[i], rhs.divisibility[i]));
    k.push_back(gcd2(lhs.constancy[i], rhs.constancy[i]));
  }
  std::optional<int64_t> cst;
  if (lhs.constant && rhs.constant && *lhs.constant == *rhs.constant)
    cst = lhs.constant;
  return AxisInfo(c, d, k, cst);
}

void AxisInfo::print(raw_ostream &os) const {
  auto list = [&](const DimVector &v) {
    os << "[";
    llvm::interleaveComma(v, os);
    os << "]";
  };
  if (isUninitialized()) {
    os << "<uninitialized>";
    return;
  }
  os << "contiguity = ";
  list(contiguity);
  os << ", divisibility = ";
  list(divisibility);
  os << ", constancy = ";
  list(constancy);
  if (constant)
    os << ", constant = " << *constant;
}

//===----------------------------------------------------------------------===//
// Transfer functions
//===----------------------------------------------------------------------===//

namespace {
/// a + b (or a - b): runs survive where the other side is constant.
AxisInfo addLike(const AxisInfo &a, const AxisInfo &b, bool isSub,
                 int64_t bScale = 1) {
  unsigned rank = a.getRank();
  DimVector c, d, k;
  for (unsigned i = 0; i < rank; ++i) {
    int64_t contig = std::max(gcd2(a.getContiguity(i), b.getConstancy(i)),
                              isSub ? 1 : gcd2(a.getConstancy(i),
                                               b.getContiguity(i)));
    c.push_back(contig);
    int64_t bd = capMul(contig > 1 ? b.getDivisibility(i)
                                   : b.getElementDivisibility(i),
                        bScale);
    int64_t ad = contig > 1 ? a.getDivisibility(i) : a.getElementDivisibility(i);
    // Inside a run of the sum, the first elements of both operands' runs
    // line up only if the run comes from one side and the other is constant.
    d.push_back(gcd2(ad, bd));
    k.push_back(gcd2(a.getConstancy(i), b.getConstancy(i)));
  }
  std::optional<int64_t> cst;
  if (a.getConstantValue() && b.getConstantValue())
    cst = isSub ? *a.getConstantValue() - *b.getConstantValue()
                : *a.getConstantValue() + *b.getConstantValue() * bScale;
  return AxisInfo(c, d, k, cst);
}

AxisInfo mul(const AxisInfo &a, const AxisInfo &b) {
  if (b.getConstantValue() == 1)
    return a;
  if (a.getConstantValue() == 1)
    return b;
  unsigned rank = a.getRank();
  DimVector c(rank, 1), d, k;
  for (unsigned i = 0; i < rank; ++i) {
    d.push_back(capMul(a.getElementDivisibility(i), b.getElementDivisibility(i)));
    k.push_back(gcd2(a.getConstancy(i), b.getConstancy(i)));
  }
  std::optional<int64_t> cst;
  if (a.getConstantValue() && b.getConstantValue())
    cst = *a.getConstantValue() * *b.getConstantValue();
  return AxisInfo(c, d, k, cst);
}

/// a / m and a % m for a power-of-two constant m > 0. `aligned`: the
/// division rounds down (unsigned, or a dividend known non-negative), so
/// aligned runs of a stay aligned runs of the result; signed division of
/// possibly negative values truncates toward zero, and then only a's own
/// constancy survives (isKnownNonNegative).
AxisInfo divByPow2(const AxisInfo &a, int64_t m, bool aligned = true) {
  unsigned rank = a.getRank();
  DimVector c(rank, 1), d, k;
  for (unsigned i = 0; i < rank; ++i) {
    int64_t run =
        aligned ? gcd2(gcd2(a.getContiguity(i), a.getDivisibility(i)), m) : 1;
    k.push_back(std::max(a.getConstancy(i), run));
    d.push_back(a.getContiguity(i) > 1
                    ? 1
                    : std::max<int64_t>(1, a.getDivisibility(i) / m));
  }
  return AxisInfo(c, d, k);
}

AxisInfo remByPow2(const AxisInfo &a, int64_t m, bool aligned = true) {
  unsigned rank = a.getRank();
  DimVector c, d, k;
  for (unsigned i = 0; i < rank; ++i) {
    int64_t run =
        aligned ? gcd2(gcd2(a.getContiguity(i), a.getDivisibility(i)), m) : 1;
    c.push_back(run);
    d.push_back(run > 1 ? run : gcd2(a.getElementDivisibility(i), m));
    k.push_back(a.getConstancy(i));
  }
  return AxisInfo(c, d, k);
}

/// Constancy of `a < b` (and the predicates that reduce to it): aligned
/// groups of g = gcd(div a, div b) consecutive a against a constant b are all
/// below or all at-or-above b.
AxisInfo compareLess(const AxisInfo &a, const AxisInfo &b) {
  unsigned rank = a.getRank();
  DimVector c(rank, 1), d(rank, 1), k;
  for (unsigned i = 0; i < rank; ++i) {
    int64_t both = gcd2(a.getConstancy(i), b.getConstancy(i));
    int64_t run = 1;
    if (a.getContiguity(i) > 1 && b.getConstancy(i) > 1)
      run = gcd2(gcd2(a.getContiguity(i), b.getConstancy(i)),
                 gcd2(a.getDivisibility(i), b.getDivisibility(i)));
    k.push_back(std::max(both, run));
  }
  return AxisInfo(c, d, k);
}

AxisInfo compareOther(const AxisInfo &a, const AxisInfo &b) {
  unsigned rank = a.getRank();
  DimVector c(rank, 1), d(rank, 1), k;
  for (unsigned i = 0; i < rank; ++i)
    k.push_back(gcd2(a.getConstancy(i), b.getConstancy(i)));
  return AxisInfo(c, d, k);
}

std::optional<int64_t> constantOf(Value v) {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
}

/// Whether every element of `v` is provably >= 0: program ids, aranges from
/// a non-negative start, non-negative constants, loop counters of such
/// loops, and sums, products and quotients of those (offsets are assumed
/// not to wrap around, as Triton assumes; an offset that overflows i32
/// addresses the wrong element anyway). Signed division and remainder
/// truncate toward zero, so their runs are aligned only for such values.
bool isKnownNonNegative(Value v, unsigned depth = 0) {
  if (depth > 12)
    return false;
  if (std::optional<int64_t> c = constantOf(v))
    return *c >= 0;
  auto nonNeg = [&](Value x) { return isKnownNonNegative(x, depth + 1); };
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto forOp = dyn_cast_or_null<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!forOp || arg != forOp.getInductionVar())
      return false;
    std::optional<int64_t> step = constantOf(forOp.getStep());
    return step && *step > 0 && nonNeg(forOp.getLowerBound());
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (auto cst = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<DenseIntElementsAttr>(cst.getValue());
    return dense && dense.isSplat() &&
           !dense.getSplatValue<APInt>().isNegative();
  }
  return llvm::TypeSwitch<Operation *, bool>(def)
      .Case<tile::ProgramIdOp, tile::NumProgramsOp, arith::ExtUIOp>(
          [](auto) { return true; })
      // getStart() is the i32's bits as unsigned: ask the value's sign.
      .Case([](tile::MakeRangeOp r) {
        return r.getStartAttr().getValue().isNonNegative();
      })
      .Case<tile::SplatOp, tile::BroadcastOp, tile::ExpandDimsOp,
            tile::ConvertLayoutOp, tile::HintOp, arith::ExtSIOp,
            arith::IndexCastOp>(
          [&](Operation *op) { return nonNeg(op->getOperand(0)); })
      .Case<arith::AddIOp, arith::MulIOp, arith::MinSIOp>([&](Operation *op) {
        return nonNeg(op->getOperand(0)) && nonNeg(op->getOperand(1));
      })
      .Case<arith::DivSIOp, arith::RemSIOp, arith::ShRSIOp>(
          // x / m and x % m (truncating) and x >> k keep the sign of x.
          [&](Operation *op) { return nonNeg(op->getOperand(0)); })
      .Case<arith::AndIOp, arith::MaxSIOp>([&](Operation *op) {
        return nonNeg(op->getOperand(0)) || nonNeg(op->getOperand(1));
      })
      .Default([](Operation *) { return false; });
}
} // namespace

LogicalResult
AxisInfoAnalysis::visitOperation(Operation *op,
                                 ArrayRef<const AxisInfoLattice *> operands,
                                 ArrayRef<AxisInfoLattice *> results) {
  // Wait until every operand is known.
  for (const AxisInfoLattice *l : operands)
    if (l->getValue().isUninitialized())
      return success();
  auto in = [&](unsigned i) -> const AxisInfo & {
    return operands[i]->getValue();
  };
  auto set = [&](unsigned i, const AxisInfo &info) {
    propagateIfChanged(results[i], results[i]->join(info));
  };
  if (results.empty())
    return success();
  Type resultType = op->getResult(0).getType();
  SmallVector<int64_t> shape = shapeOf(resultType);
  unsigned rank = shape.size();

  std::optional<AxisInfo> info =
      llvm::TypeSwitch<Operation *, std::optional<AxisInfo>>(op)
          .Case([&](arith::ConstantOp c) -> std::optional<AxisInfo> {
            Attribute v = c.getValue();
            if (auto i = dyn_cast<IntegerAttr>(v))
              return AxisInfo::getConstant(i.getValue().getSExtValue(), {});
            if (auto dense = dyn_cast<DenseElementsAttr>(v))
              if (dense.isSplat()) {
                if (dense.getElementType().isIntOrIndex())
                  return AxisInfo::getConstant(
                      dense.getSplatValue<APInt>().getSExtValue(), shape);
                return AxisInfo(DimVector(rank, 1), DimVector(rank, 1),
                                DimVector(shape.begin(), shape.end()));
              }
            if (isa<FloatAttr>(v))
              return AxisInfo::getPessimistic(1);
            return std::nullopt;
          })
          .Case([&](tile::MakeRangeOp r) -> std::optional<AxisInfo> {
            return AxisInfo({shape[0]}, {pow2Divisor(r.getStart())}, {1});
          })
          .Case([&](tile::SplatOp) -> std::optional<AxisInfo> {
            return AxisInfo(DimVector(rank, 1),
                            DimVector(rank, in(0).getDivisibility(0)),
                            DimVector(shape.begin(), shape.end()),
                            in(0).getConstantValue());
          })
          .Case([&](tile::BroadcastOp b) -> std::optional<AxisInfo> {
            auto src = cast<RankedTensorType>(b.getSrc().getType());
            DimVector c, d, k;
            for (unsigned i = 0; i < rank; ++i) {
              bool stretched = src.getDimSize(i) == 1 && shape[i] > 1;
              c.push_back(stretched ? 1 : in(0).getContiguity(i));
              d.push_back(in(0).getDivisibility(i));
              k.push_back(stretched ? shape[i] : in(0).getConstancy(i));
            }
            return AxisInfo(c, d, k, in(0).getConstantValue());
          })
          .Case([&](tile::ExpandDimsOp e) -> std::optional<AxisInfo> {
            const AxisInfo &s = in(0);
            int64_t eltDiv = AxisInfo::kMaxDivisor;
            for (unsigned i = 0; i < s.getRank(); ++i)
              eltDiv = gcd2(eltDiv, s.getElementDivisibility(i));
            DimVector c(s.getContiguity()), d(s.getDivisibility()),
                k(s.getConstancy());
            unsigned axis = e.getAxis();
            c.insert(c.begin() + axis, 1);
            d.insert(d.begin() + axis, eltDiv);
            k.insert(k.begin() + axis, 1);
            return AxisInfo(c, d, k, s.getConstantValue());
          })
          .Case([&](tile::ConvertLayoutOp) -> std::optional<AxisInfo> {
            return in(0);
          })
          .Case([&](tile::HintOp h) -> std::optional<AxisInfo> {
            // A user promise (tl.multiple_of...): each given fact raised.
            DimVector c(in(0).getContiguity()), d(in(0).getDivisibility()),
                k(in(0).getConstancy());
            auto raise = [](DimVector &v,
                            std::optional<ArrayRef<int64_t>> hint) {
              if (hint && hint->size() == v.size())
                for (auto [f, h] : llvm::zip(v, *hint))
                  f = std::max(f, std::min(h, AxisInfo::kMaxDivisor));
            };
            raise(c, h.getContiguity());
            raise(d, h.getDivisibility());
            raise(k, h.getConstancy());
            return AxisInfo(c, d, k, in(0).getConstantValue());
          })
          .Case([&](tile::AddPtrOp a) -> std::optional<AxisInfo> {
            Type pointee = tile::getElementTypeOrSelf(
                tile::getPointeeTypeOf(a.getPtr().getType()));
            AxisInfo r = addLike(in(0), in(1), /*isSub=*/false,
                                 getElementBytes(pointee));
            return AxisInfo(r.getContiguity(), r.getDivisibility(),
                            r.getConstancy());
          })
          .Case([&](tile::IntToPtrOp) -> std::optional<AxisInfo> {
            // Addresses keep their divisibility (bytes) and constancy;
            // consecutive integers are not consecutive elements.
            const AxisInfo &x = in(0);
            return AxisInfo(DimVector(rank, 1), x.getDivisibility(),
                            x.getConstancy());
          })
          .Case([&](tile::PtrToIntOp) -> std::optional<AxisInfo> {
            const AxisInfo &p = in(0);
            return AxisInfo(DimVector(rank, 1), p.getDivisibility(),
                            p.getConstancy());
          })
          .Case([&](tile::LoadOp) -> std::optional<AxisInfo> {
            // Equal where the pointers are, unless a masked-off element
            // reads `other` instead: the mask and `other` bound it too.
            DimVector k(in(0).getConstancy());
            for (unsigned i = 1; i < operands.size(); ++i)
              for (unsigned d = 0; d < rank; ++d)
                k[d] = in(i).getRank() == rank
                           ? gcd2(k[d], in(i).getConstancy(d))
                           : 1;
            return AxisInfo(DimVector(rank, 1), DimVector(rank, 1), k);
          })
          .Case<arith::AddIOp>([&](auto) -> std::optional<AxisInfo> {
            return addLike(in(0), in(1), false);
          })
          .Case<arith::SubIOp>([&](auto) -> std::optional<AxisInfo> {
            return addLike(in(0), in(1), true);
          })
          .Case<arith::MulIOp>([&](auto) -> std::optional<AxisInfo> {
            return mul(in(0), in(1));
          })
          .Case<arith::ShLIOp>([&](auto s) -> std::optional<AxisInfo> {
            std::optional<int64_t> k = in(1).getConstantValue();
            if (!k || *k < 0 || *k > 30)
              return std::nullopt;
            return mul(in(0), AxisInfo::getConstant(int64_t(1) << *k, shape));
          })
          .Case<arith::DivSIOp, arith::DivUIOp>(
              [&](auto div) -> std::optional<AxisInfo> {
                std::optional<int64_t> m = in(1).getConstantValue();
                if (!m || *m <= 0 || !llvm::isPowerOf2_64(*m))
                  return std::nullopt;
                // Truncating division of negative values breaks aligned
                // runs (-8..-5 / 4 = -2, -1, -1, -1).
                bool aligned = isa<arith::DivUIOp>(div.getOperation()) ||
                               isKnownNonNegative(div.getLhs());
                return divByPow2(in(0), *m, aligned);
              })
          .Case<arith::ShRSIOp, arith::ShRUIOp>(
              [&](auto) -> std::optional<AxisInfo> {
                std::optional<int64_t> k = in(1).getConstantValue();
                if (!k || *k < 0 || *k > 30)
                  return std::nullopt;
                return divByPow2(in(0), int64_t(1) << *k);
              })
          .Case<arith::RemSIOp, arith::RemUIOp>(
              [&](auto rem) -> std::optional<AxisInfo> {
                // Truncating remainders of negative values are not runs
                // (-8..-5 % 4 = 0, -3, -2, -1).
                bool aligned = isa<arith::RemUIOp>(rem.getOperation()) ||
                               isKnownNonNegative(rem.getLhs());
                std::optional<int64_t> m = in(1).getConstantValue();
                if (m && *m > 0 && llvm::isPowerOf2_64(*m))
                  return remByPow2(in(0), *m, aligned);
                // x % M for a run-time M divisible by d (tutorial 03's
                // `(pid * BLOCK + arange) % M` with M specialized i32:16):
                // the wrap points are multiples of d, so runs aligned to d
                // survive, as for a constant divisor d.
                const AxisInfo &rhs = in(1);
                if (rhs.getRank() == 0 || rhs.getDivisibility(0) <= 1)
                  return std::nullopt;
                int64_t d = rhs.getDivisibility(0);
                for (unsigned i = 1; i < rhs.getRank(); ++i)
                  d = std::min(d, rhs.getDivisibility(i));
                return remByPow2(in(0), d, aligned);
              })
          .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
                arith::IndexCastOp>(
              [&](auto) -> std::optional<AxisInfo> { return in(0); })
          .Case([&](arith::CmpIOp c) -> std::optional<AxisInfo> {
            switch (c.getPredicate()) {
            case arith::CmpIPredicate::slt:
            case arith::CmpIPredicate::ult:
            case arith::CmpIPredicate::sge:
            case arith::CmpIPredicate::uge:
              return compareLess(in(0), in(1));
            case arith::CmpIPredicate::sgt:
            case arith::CmpIPredicate::ugt:
            case arith::CmpIPredicate::sle:
            case arith::CmpIPredicate::ule:
              return compareLess(in(1), in(0));
            default:
              return compareOther(in(0), in(1));
            }
          })
          .Case<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(
              [&](auto) -> std::optional<AxisInfo> {
                return compareOther(in(0), in(1));
              })
          .Case([&](arith::SelectOp s) -> std::optional<AxisInfo> {
            // Constant per run if the condition and both sides are.
            AxisInfo r = compareOther(in(1), in(2));
            if (!isa<RankedTensorType>(s.getCondition().getType()))
              return r;
            return compareOther(r, in(0));
          })
          .Default([&](Operation *) { return std::nullopt; });

  if (!info || info->getRank() != rank) {
    setAllToEntryStates(results);
    return success();
  }
  set(0, *info);
  for (unsigned i = 1; i < results.size(); ++i)
    setToEntryState(results[i]);
  return success();
}

void AxisInfoAnalysis::visitNonControlFlowArguments(
    Operation *op, const RegionSuccessor &successor,
    ArrayRef<AxisInfoLattice *> argLattices, unsigned firstIndex) {
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    // The induction variable: multiples of gcd(lower bound, step).
    std::optional<int64_t> lb = constantOf(forOp.getLowerBound());
    std::optional<int64_t> step = constantOf(forOp.getStep());
    int64_t div = gcd2(lb ? pow2Divisor(*lb) : 1, step ? pow2Divisor(*step) : 1);
    for (AxisInfoLattice *l : argLattices)
      if (l->getAnchor() == forOp.getInductionVar())
        propagateIfChanged(l, l->join(AxisInfo({1}, {div}, {1})));
      else if (l->getValue().isUninitialized() &&
               !llvm::is_contained(successor.getSuccessorInputs(),
                                   l->getAnchor()))
        setToEntryState(l);
    return;
  }
  SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
      op, successor, argLattices, firstIndex);
}

void AxisInfoAnalysis::setToEntryState(AxisInfoLattice *lattice) {
  Value v = lattice->getAnchor();
  AxisInfo info = AxisInfo::getPessimisticValueState(v);
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto func = dyn_cast<tile::FuncOp>(arg.getOwner()->getParentOp());
    if (func && arg.getOwner()->isEntryBlock()) {
      unsigned i = arg.getArgNumber();
      if (auto eq = func.getArgAttrOfType<IntegerAttr>(
              i, tile::TileDialect::getEqualToAttrName()))
        info = AxisInfo::getConstant(eq.getInt(), {});
      else if (auto div = func.getArgAttrOfType<IntegerAttr>(
                   i, tile::TileDialect::getDivisibilityAttrName()))
        info = AxisInfo({1}, {std::min(div.getInt(), AxisInfo::kMaxDivisor)},
                        {1});
    }
  }
  propagateIfChanged(lattice, lattice->join(info));
}

//===----------------------------------------------------------------------===//
// ModuleAxisInfo
//===----------------------------------------------------------------------===//

ModuleAxisInfo::ModuleAxisInfo(Operation *module) {
  dataflow::loadBaselineAnalyses(solver);
  solver.load<AxisInfoAnalysis>();
  (void)solver.initializeAndRun(module);
}

AxisInfo ModuleAxisInfo::getAxisInfo(Value value) const {
  if (auto *l = solver.lookupState<AxisInfoLattice>(value))
    if (!l->getValue().isUninitialized())
      return l->getValue();
  return AxisInfo::getPessimisticValueState(value);
}

int64_t ModuleAxisInfo::getPtrVectorWidth(Value ptr, unsigned dim,
                                          int64_t perThread) const {
  Type pointee =
      tile::getElementTypeOrSelf(tile::getPointeeTypeOf(ptr.getType()));
  int64_t bytes = getElementBytes(pointee);
  AxisInfo info = getAxisInfo(ptr);
  if (dim >= info.getRank())
    return 1;
  int64_t w = std::min({perThread, info.getContiguity(dim),
                        std::max<int64_t>(1, info.getDivisibility(dim) / bytes),
                        std::max<int64_t>(1, 16 / bytes)});
  return largestPow2Le(w);
}

int64_t ModuleAxisInfo::getMaskConstancy(Value mask, unsigned dim) const {
  if (!mask)
    return AxisInfo::kMaxDivisor;
  AxisInfo info = getAxisInfo(mask);
  if (dim >= info.getRank())
    return 1;
  return largestPow2Le(info.getConstancy(dim));
}

int64_t ModuleAxisInfo::getAccessBytes(Operation *op) const {
  Value ptr, mask;
  if (auto load = dyn_cast<tile::LoadOp>(op)) {
    ptr = load.getPtr();
    mask = load.getMask();
  } else if (auto store = dyn_cast<tile::StoreOp>(op)) {
    ptr = store.getPtr();
    mask = store.getMask();
  }
  auto type = ptr ? dyn_cast<RankedTensorType>(ptr.getType()) : nullptr;
  if (!type)
    return 0;
  int64_t bytes = getElementBytes(
      cast<tile::PtrType>(type.getElementType()).getPointeeType());
  int64_t best = 1;
  for (unsigned d = 0; d < unsigned(type.getRank()); ++d)
    best = std::max(best, std::min(getPtrVectorWidth(ptr, d, 16),
                                   getMaskConstancy(mask, d)));
  return best * bytes;
}

int64_t ModuleAxisInfo::getMaskPrefixWidth(Value mask, unsigned dim) const {
  return getMaskPrefixWidth(mask, dim, /*depth=*/0);
}

int64_t ModuleAxisInfo::getMaskPrefixWidth(Value mask, unsigned dim,
                                           unsigned depth) const {
  if (!mask)
    return AxisInfo::kMaxDivisor;
  int64_t constancy = getMaskConstancy(mask, dim);
  // A mask reusing a value in both operands of each `and` would make the
  // walk exponential: past a bounded depth, the constancy alone.
  if (depth >= 16)
    return constancy;
  auto fact = [&](Value v, bool contiguity) -> int64_t {
    AxisInfo info = getAxisInfo(v);
    if (dim >= info.getRank())
      return 1;
    return largestPow2Le(contiguity ? info.getContiguity(dim)
                                    : info.getConstancy(dim));
  };
  Operation *def = mask.getDefiningOp();
  int64_t prefix = 1;
  if (auto andOp = dyn_cast_or_null<arith::AndIOp>(def)) {
    prefix = std::min(getMaskPrefixWidth(andOp.getLhs(), dim, depth + 1),
                      getMaskPrefixWidth(andOp.getRhs(), dim, depth + 1));
  } else if (auto cmp = dyn_cast_or_null<arith::CmpIOp>(def)) {
    // Signed only: an unsigned compare of a run through -1 -> 0 is not
    // monotone.
    Value x, y;
    switch (cmp.getPredicate()) {
    case arith::CmpIPredicate::slt:
    case arith::CmpIPredicate::sle:
      x = cmp.getLhs(), y = cmp.getRhs();
      break;
    case arith::CmpIPredicate::sgt:
    case arith::CmpIPredicate::sge:
      x = cmp.getRhs(), y = cmp.getLhs();
      break;
    default:
      break;
    }
    if (x)
      prefix = std::min(fact(x, /*contiguity=*/true), fact(y, false));
  } else if (auto cvt = dyn_cast_or_null<tile::ConvertLayoutOp>(def)) {
    prefix = getMaskPrefixWidth(cvt.getSrc(), dim, depth + 1);
  } else if (auto bc = dyn_cast_or_null<tile::BroadcastOp>(def)) {
    // A broadcast dimension is constant (the constancy above); the others
    // are the source's.
    auto src = cast<RankedTensorType>(bc.getSrc().getType());
    if (dim < src.getRank() && src.getDimSize(dim) != 1)
      prefix = getMaskPrefixWidth(bc.getSrc(), dim, depth + 1);
  } else if (auto ed = dyn_cast_or_null<tile::ExpandDimsOp>(def)) {
    unsigned axis = ed.getAxis();
    if (dim != axis)
      prefix = getMaskPrefixWidth(ed.getSrc(), dim < axis ? dim : dim - 1,
                                  depth + 1);
  }
  return std::max(constancy, prefix);
}
