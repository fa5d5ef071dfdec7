//===- PointerLoadsToDescriptors.cpp - dot operand loads as TMA -*- C++ -*-===//
//
// tile-pointer-loads-to-descriptors: a GEMM's masked operand loads
// (tutorial 03's `tl.load(a_ptrs, mask=..., other=0)`, the pointers advanced
// each K step) become loads of blocks of a tensor descriptor, which the
// later passes copy with TMA. The pass's description (Passes.td) gives the
// form matched and its conditions; this file is the matcher.
//
// Integer values are read as polynomials with integer coefficients over
// "leaves" (i32 values not computed by addi / subi / muli of others, such as
// arguments, program ids, loop induction variables and quotients): two
// values with equal polynomials are equal in wrapping i32 arithmetic, so a
// bound or coordinate rebuilt from its polynomial is the program's own. A
// tile of i32 is a polynomial plus, per dimension, a polynomial times that
// dimension's arange; a pointer tile is a base pointer plus such an offset.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "passes/LayoutUtils.h"

#include "dialects/Tile/IR/TileDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

#include <map>
#include <optional>

namespace tilec {
#define GEN_PASS_DEF_TILEPOINTERLOADSTODESCRIPTORSPASS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// Leaves are numbered in the kernel's order (block arguments, then op
/// results, as a pre-order walk meets them), so that rebuilt expressions
/// come out the same on every run.
class Leaves {
public:
  explicit Leaves(FuncOp func) {
    auto number = [&](Value v) {
      index.try_emplace(v, unsigned(values.size()));
      values.push_back(v);
    };
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      for (Region &r : op->getRegions())
        for (Block &b : r)
          for (BlockArgument a : b.getArguments())
            number(a);
      for (Value v : op->getResults())
        number(v);
    });
  }
  std::optional<unsigned> of(Value v) const {
    auto it = index.find(v);
    if (it == index.end())
      return std::nullopt;
    return it->second;
  }
  Value operator[](unsigned i) const { return values[i]; }

private:
  llvm::DenseMap<Value, unsigned> index;
  SmallVector<Value> values;
};

/// A polynomial with int64 coefficients (kept modulo 2^32, as i32 wraps)
/// over leaves: monomial (sorted leaf numbers) -> coefficient.
struct Poly {
  using Mono = SmallVector<unsigned, 2>;
  std::map<Mono, int64_t> terms;

  static Poly constant(int64_t c) {
    Poly p;
    p.add({}, c);
    return p;
  }
  static Poly leaf(unsigned l) {
    Poly p;
    p.add({l}, 1);
    return p;
  }
  void add(const Mono &m, int64_t c) {
    int64_t v = int64_t(int32_t(uint32_t(terms[m]) + uint32_t(c)));
    if (v == 0)
      terms.erase(m);
    else
      terms[m] = v;
  }
  Poly operator+(const Poly &o) const {
    Poly r = *this;
    for (auto &[m, c] : o.terms)
      r.add(m, c);
    return r;
  }
  Poly operator-(const Poly &o) const { return *this + o * Poly::constant(-1); }
  Poly operator*(const Poly &o) const {
    Poly r;
    for (auto &[m1, c1] : terms)
      for (auto &[m2, c2] : o.terms) {
        Mono m = m1;
        m.append(m2.begin(), m2.end());
        llvm::sort(m);
        r.add(m, int64_t(int32_t(uint32_t(c1) * uint32_t(c2))));
      }
    return r;
  }
  bool operator==(const Poly &o) const { return terms == o.terms; }
  bool isZero() const { return terms.empty(); }
  std::optional<int64_t> getConstant() const {
    if (terms.empty())
      return 0;
    if (terms.size() == 1 && terms.begin()->first.empty())
      return terms.begin()->second;
    return std::nullopt;
  }
  size_t size() const { return terms.size(); }
};

/// An i32 tile: `scalar` + sum_d coef[d] * arange along dimension d.
struct Affine {
  Poly scalar;
  SmallVector<Poly> coef;
  bool isUniform() const {
    return llvm::all_of(coef, [](const Poly &p) { return p.isZero(); });
  }
};

/// A pointer tile: `base` + `offset` elements.
struct PtrAffine {
  Value base;
  Affine offset;
};

/// One conjunct of a mask: `lhs` (a tile varying along `dim` with
/// coefficient 1) < `bound` (upper), or >= `bound` (lower).
struct Bound {
  unsigned dim;
  Poly start; // lhs's scalar part
  Poly bound;
  bool upper;
};

class Matcher {
public:
  explicit Matcher(FuncOp func) : func(func), leaves(func) {}

  /// The polynomial of the i32 scalar `v` (memoized: shared
  /// subexpressions are read once, so a chain of `s = s * s + s` costs its
  /// length, not 2^length).
  std::optional<Poly> scalar(Value v, unsigned depth = 0) {
    if (auto it = scalars.find(v); it != scalars.end())
      return it->second;
    std::optional<Poly> r = computeScalar(v, depth);
    scalars[v] = r;
    return r;
  }
  std::optional<Poly> computeScalar(Value v, unsigned depth) {
    if (!v.getType().isInteger(32) || depth > kMaxDepth)
      return std::nullopt;
    APInt c;
    if (matchPattern(v, m_ConstantInt(&c)))
      return Poly::constant(c.getSExtValue());
    Operation *def = v.getDefiningOp();
    if (isa_and_nonnull<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
      auto x = scalar(def->getOperand(0), depth + 1);
      auto y = scalar(def->getOperand(1), depth + 1);
      if (!x || !y)
        return std::nullopt;
      Poly r = isa<arith::AddIOp>(def)   ? *x + *y
               : isa<arith::SubIOp>(def) ? *x - *y
                                         : *x * *y;
      if (!isSmall(r))
        return std::nullopt;
      return r;
    }
    std::optional<unsigned> l = leaves.of(v);
    if (!l)
      return std::nullopt;
    return Poly::leaf(*l);
  }

  /// The decomposition of the i32 tile `v` (memoized, as scalar).
  std::optional<Affine> tile(Value v, unsigned depth = 0) {
    if (auto it = tiles.find(v); it != tiles.end())
      return it->second;
    std::optional<Affine> r = computeTile(v, depth);
    tiles[v] = r;
    return r;
  }
  std::optional<Affine> computeTile(Value v, unsigned depth) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.getElementType().isInteger(32) || depth > kMaxDepth)
      return std::nullopt;
    unsigned rank = type.getRank();
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    auto uniform = [&](Poly p) {
      Affine a;
      a.scalar = std::move(p);
      a.coef.assign(rank, Poly());
      return a;
    };
    std::optional<Affine> r;
    Attribute attr;
    if (matchPattern(v, m_Constant(&attr))) {
      auto splat = dyn_cast<SplatElementsAttr>(attr);
      if (!splat)
        return std::nullopt;
      r = uniform(Poly::constant(splat.getSplatValue<APInt>().getSExtValue()));
    } else if (auto range = dyn_cast<MakeRangeOp>(def)) {
      r = uniform(Poly::constant(range.getStart()));
      r->coef[0] = Poly::constant(1);
    } else if (auto splat = dyn_cast<SplatOp>(def)) {
      auto s = scalar(splat.getSrc(), depth + 1);
      if (!s)
        return std::nullopt;
      r = uniform(*s);
    } else if (auto expand = dyn_cast<ExpandDimsOp>(def)) {
      r = tile(expand.getSrc(), depth + 1);
      if (!r)
        return std::nullopt;
      r->coef.insert(r->coef.begin() + expand.getAxis(), Poly());
    } else if (isa<BroadcastOp, ConvertLayoutOp, HintOp>(def)) {
      r = tile(def->getOperand(0), depth + 1);
    } else if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
      auto x = tile(def->getOperand(0), depth + 1);
      auto y = tile(def->getOperand(1), depth + 1);
      if (!x || !y)
        return std::nullopt;
      if (isa<arith::MulIOp>(def)) {
        if (!x->isUniform())
          std::swap(x, y);
        if (!x->isUniform())
          return std::nullopt;
        r = *y;
        r->scalar = r->scalar * x->scalar;
        for (Poly &c : r->coef)
          c = c * x->scalar;
      } else {
        bool sub = isa<arith::SubIOp>(def);
        r = *x;
        r->scalar = sub ? r->scalar - y->scalar : r->scalar + y->scalar;
        for (unsigned d = 0; d < rank; ++d)
          r->coef[d] = sub ? r->coef[d] - y->coef[d] : r->coef[d] + y->coef[d];
      }
    }
    if (!r || r->coef.size() != rank)
      return std::nullopt;
    // A dimension of size 1 does not vary.
    for (unsigned d = 0; d < rank; ++d)
      if (type.getDimSize(d) == 1)
        r->coef[d] = Poly();
    if (!isSmall(r->scalar) || !llvm::all_of(r->coef, isSmall))
      return std::nullopt;
    return r;
  }

  /// Polynomials past these bounds are not followed (a load stays).
  static bool isSmall(const Poly &p) {
    return p.size() <= kMaxTerms &&
           llvm::all_of(p.terms, [](const auto &t) {
             return t.first.size() <= kMaxDegree;
           });
  }

  /// The decomposition of the pointer tile `v`.
  std::optional<PtrAffine> pointers(Value v, unsigned depth = 0) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || depth > kMaxDepth)
      return std::nullopt;
    unsigned rank = type.getRank();
    if (auto arg = dyn_cast<BlockArgument>(v))
      return carried(arg, depth);
    Operation *def = v.getDefiningOp();
    std::optional<PtrAffine> r;
    if (auto splat = dyn_cast_or_null<SplatOp>(def)) {
      // The scalar pointer: an argument, advanced by scalar i32 offsets.
      Value p = splat.getSrc();
      Poly off;
      while (auto add = p.getDefiningOp<AddPtrOp>()) {
        auto o = scalar(add.getOffset(), depth + 1);
        if (!o)
          return std::nullopt;
        off = off + *o;
        p = add.getPtr();
      }
      auto arg = dyn_cast<BlockArgument>(p);
      if (!arg || arg.getOwner() != &func.getBody().front())
        return std::nullopt;
      r = PtrAffine{p, Affine{off, SmallVector<Poly>(rank, Poly())}};
    } else if (auto expand = dyn_cast_or_null<ExpandDimsOp>(def)) {
      r = pointers(expand.getSrc(), depth + 1);
      if (!r)
        return std::nullopt;
      r->offset.coef.insert(r->offset.coef.begin() + expand.getAxis(), Poly());
    } else if (isa_and_nonnull<BroadcastOp, ConvertLayoutOp, HintOp>(def)) {
      r = pointers(def->getOperand(0), depth + 1);
    } else if (auto add = dyn_cast_or_null<AddPtrOp>(def)) {
      r = pointers(add.getPtr(), depth + 1);
      auto o = tile(add.getOffset(), depth + 1);
      if (!r || !o)
        return std::nullopt;
      r->offset.scalar = r->offset.scalar + o->scalar;
      for (unsigned d = 0; d < rank; ++d)
        r->offset.coef[d] = r->offset.coef[d] + o->coef[d];
    }
    if (!r || r->offset.coef.size() != rank)
      return std::nullopt;
    for (unsigned d = 0; d < rank; ++d)
      if (type.getDimSize(d) == 1)
        r->offset.coef[d] = Poly();
    return r;
  }

  /// A loop-carried pointer tile advanced by the same uniform amount each
  /// iteration (`ptrs += BLOCK_K * stride`): its initial value plus the
  /// iteration number times the step.
  std::optional<PtrAffine> carried(BlockArgument arg, unsigned depth) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg.getArgNumber() == 0)
      return std::nullopt;
    unsigned k = arg.getArgNumber() - 1;
    auto next = loop.getBody()->getTerminator()->getOperand(k);
    auto add = next.getDefiningOp<AddPtrOp>();
    if (!add || add.getPtr() != arg)
      return std::nullopt;
    auto step = tile(add.getOffset(), depth + 1);
    if (!step || !step->isUniform() || !definedOutside(step->scalar, loop))
      return std::nullopt;
    auto init = pointers(loop.getInitArgs()[k], depth + 1);
    auto n = iteration(loop);
    if (!init || !n)
      return std::nullopt;
    init->offset.scalar = init->offset.scalar + *n * step->scalar;
    return init;
  }

  /// The iteration number (iv - lb) / step of `loop`, for a unit step.
  std::optional<Poly> iteration(scf::ForOp loop) {
    APInt step;
    if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) || !step.isOne())
      return std::nullopt;
    auto iv = scalar(loop.getInductionVar());
    auto lb = scalar(loop.getLowerBound());
    if (!iv || !lb)
      return std::nullopt;
    return *iv - *lb;
  }

  bool definedOutside(const Poly &p, Operation *region) {
    for (auto &[m, c] : p.terms)
      for (unsigned l : m)
        if (region->isAncestor(leaves[l].getParentRegion()->getParentOp()))
          return false;
    return true;
  }

  /// Whether `p` is surely >= 0 (ignoring wrap): non-negative coefficients
  /// over leaves that are (program ids, the induction variable of a loop
  /// counting up from a non-negative bound).
  bool isNonNegative(const Poly &p, unsigned depth = 0) {
    for (auto &[mono, c] : p.terms) {
      if (c < 0)
        return false;
      for (unsigned l : mono)
        if (!isNonNegativeLeaf(leaves[l], depth))
          return false;
    }
    return true;
  }
  bool isNonNegativeLeaf(Value v, unsigned depth) {
    if (depth > 8)
      return false;
    if (v.getDefiningOp<ProgramIdOp>() || v.getDefiningOp<NumProgramsOp>())
      return true;
    auto arg = dyn_cast<BlockArgument>(v);
    auto loop = arg ? dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp())
                    : scf::ForOp();
    if (!loop || arg != loop.getInductionVar())
      return false;
    APInt step;
    auto lb = scalar(loop.getLowerBound());
    return matchPattern(loop.getStep(), m_ConstantInt(&step)) &&
           step.isStrictlyPositive() && lb && isNonNegative(*lb, depth + 1);
  }

  /// Whether every leaf of `p` is a scalar argument of the kernel.
  bool ofArguments(const Poly &p) {
    for (auto &[m, c] : p.terms)
      for (unsigned l : m) {
        auto arg = dyn_cast<BlockArgument>(leaves[l]);
        if (!arg || arg.getOwner() != &func.getBody().front())
          return false;
      }
    return true;
  }

  /// The conjuncts of `mask` appended to `out`; false if it is not an AND
  /// of bounds. (A conjunct reached twice counts once.)
  bool bounds(Value mask, SmallVectorImpl<Bound> &out) {
    llvm::SmallPtrSet<Value, 8> seen;
    return bounds(mask, out, seen, 0);
  }
  bool bounds(Value mask, SmallVectorImpl<Bound> &out,
              llvm::SmallPtrSetImpl<Value> &seen, unsigned depth) {
    if (depth > kMaxDepth)
      return false;
    if (!seen.insert(mask).second)
      return true;
    Operation *def = mask.getDefiningOp();
    if (!def)
      return false;
    if (isa<arith::AndIOp>(def))
      return bounds(def->getOperand(0), out, seen, depth + 1) &&
             bounds(def->getOperand(1), out, seen, depth + 1);
    if (isa<BroadcastOp, ConvertLayoutOp>(def))
      return bounds(def->getOperand(0), out, seen, depth + 1);
    auto cmp = dyn_cast<arith::CmpIOp>(def);
    if (!cmp)
      return false;
    auto lhs = tile(cmp.getLhs()), rhs = tile(cmp.getRhs());
    if (!lhs || !rhs)
      return false;
    arith::CmpIPredicate pred = cmp.getPredicate();
    if (lhs->isUniform()) {
      // bound OP tile: the tile on the left, the predicate mirrored.
      std::swap(lhs, rhs);
      switch (pred) {
      case arith::CmpIPredicate::sgt: pred = arith::CmpIPredicate::slt; break;
      case arith::CmpIPredicate::sge: pred = arith::CmpIPredicate::sle; break;
      case arith::CmpIPredicate::slt: pred = arith::CmpIPredicate::sgt; break;
      case arith::CmpIPredicate::sle: pred = arith::CmpIPredicate::sge; break;
      default: return false;
      }
    }
    if (!rhs->isUniform())
      return false;
    // lhs varies along one dimension, with coefficient 1.
    std::optional<unsigned> dim;
    for (unsigned d = 0; d < lhs->coef.size(); ++d) {
      if (lhs->coef[d].isZero())
        continue;
      if (dim || lhs->coef[d].getConstant() != 1)
        return false;
      dim = d;
    }
    if (!dim)
      return false;
    switch (pred) {
    case arith::CmpIPredicate::slt:
      out.push_back({*dim, lhs->scalar, rhs->scalar, true});
      return true;
    case arith::CmpIPredicate::sle:
      out.push_back({*dim, lhs->scalar, rhs->scalar + Poly::constant(1), true});
      return true;
    case arith::CmpIPredicate::sge:
      out.push_back({*dim, lhs->scalar, rhs->scalar, false});
      return true;
    case arith::CmpIPredicate::sgt:
      out.push_back({*dim, lhs->scalar, rhs->scalar + Poly::constant(1), false});
      return true;
    default:
      return false;
    }
  }

  /// `p` as i32 arithmetic at `b`'s insertion point.
  Value build(OpBuilder &b, Location loc, const Poly &p) {
    auto cst = [&](int64_t c) -> Value {
      return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int32_t(c)));
    };
    Value sum;
    for (auto &[m, c] : p.terms) {
      Value term;
      for (unsigned l : m)
        term = term ? arith::MulIOp::create(b, loc, term, leaves[l]).getResult()
                    : leaves[l];
      if (!term)
        term = cst(c);
      else if (c != 1)
        term = arith::MulIOp::create(b, loc, term, cst(c));
      sum = sum ? arith::AddIOp::create(b, loc, sum, term).getResult() : term;
    }
    return sum ? sum : cst(0);
  }

private:
  static constexpr unsigned kMaxDepth = 64;
  static constexpr size_t kMaxTerms = 32;
  static constexpr size_t kMaxDegree = 8;
  FuncOp func;
  Leaves leaves;
  llvm::DenseMap<Value, std::optional<Poly>> scalars;
  llvm::DenseMap<Value, std::optional<Affine>> tiles;
};

struct TilePointerLoadsToDescriptorsPass
    : tilec::impl::TilePointerLoadsToDescriptorsPassBase<
          TilePointerLoadsToDescriptorsPass> {
  void runOnOperation() override {
    getOperation().walk([&](FuncOp func) {
      if (func.isKernel())
        runOnKernel(func);
    });
  }

  void runOnKernel(FuncOp func) {
    SmallVector<LoadOp> loads;
    func.walk([&](LoadOp load) {
      if (isCandidate(load))
        loads.push_back(load);
    });
    if (loads.empty())
      return;
    // Kernel arguments stored to (or of unknown origin: counted as all).
    llvm::SmallPtrSet<Value, 4> written;
    bool unknownWrite = false;
    func.walk([&](Operation *op) {
      if (!isa<StoreOp, AtomicRMWOp, AtomicCASOp, DescStoreOp>(op))
        return;
      Value root = pointerBase(op->getOperand(0));
      if (root)
        written.insert(root);
      else
        unknownWrite = true;
    });
    Matcher matcher(func);
    // A loop's dot operands all move with TMA or all stay (one kind of
    // pipeline per loop).
    llvm::MapVector<scf::ForOp, SmallVector<Plan, 2>> plans;
    llvm::DenseSet<Operation *> planned, mixed;
    for (LoadOp load : loads) {
      auto loop = cast<scf::ForOp>(load->getParentOp());
      if (std::optional<Plan> p = plan(matcher, load, written, unknownWrite)) {
        plans[loop].push_back(std::move(*p));
        planned.insert(load);
      }
    }
    // (Any other load in the loop body -- one that feeds a dot through a
    // conversion, or none -- keeps the loop's loads as they are.)
    func.walk([&](LoadOp load) {
      auto loop = dyn_cast<scf::ForOp>(load->getParentOp());
      if (loop && !planned.contains(load))
        mixed.insert(loop);
    });
    for (auto &[loop, loopPlans] : plans) {
      if (mixed.contains(loop))
        continue;
      // The guard is computed before the loop: assumed coordinates must
      // not change in it.
      if (llvm::any_of(loopPlans, [&](const Plan &p) {
            return llvm::any_of(p.assumed, [&](const Poly &c) {
              return !matcher.definedOutside(c, loop);
            });
          }))
        continue;
      version(matcher, loop, loopPlans);
      // The pointer tiles the replaced loads were carried in.
      llvm::SmallPtrSet<Value, 4> pointerArgs;
      for (Plan &p : loopPlans)
        collectCarried(loop, p.load.getPtr(), pointerArgs);
      for (Plan &p : loopPlans)
        apply(func, matcher, p);
      dropDeadCarriedValues(loop, pointerArgs);
    }
  }

  /// A 2-D masked load directly in a loop body whose block only feeds
  /// tl.dot operands (A or B, not the accumulator).
  static bool isCandidate(LoadOp load) {
    auto type = dyn_cast<RankedTensorType>(load.getType());
    if (!type || type.getRank() != 2 || !load.getMask() ||
        load->hasAttr(TileDialect::getVolatileAttrName()) ||
        !isa<scf::ForOp>(load->getParentOp()) || load->use_empty() ||
        !isPositiveZero(load.getOther()))
      return false;
    auto isDotOperand = [](OpOperand &use) {
      return isa<DotOp>(use.getOwner()) && use.getOperandNumber() < 2;
    };
    // (tl.trans(b) or b.T of the block, as tutorial 09 reads a B stored
    // [N, K], counts: TMA fills the buffer, the dot reads it transposed.)
    return llvm::all_of(load->getUses(), [&](OpOperand &use) {
      if (isDotOperand(use))
        return true;
      auto trans = dyn_cast<TransOp>(use.getOwner());
      return trans && !trans->use_empty() &&
             llvm::all_of(trans->getUses(), isDotOperand);
    });
  }

  /// What replaces a load: the block at [y, x] of the tensor [rows, cols]
  /// with row stride `stride` at `base` (transposed for a column-major
  /// block).
  struct Plan {
    LoadOp load;
    Value base;
    Poly y, x, rows, cols, stride;
    bool transposed; // the load is the transpose of the block at [y, x]
    /// Coordinates that are the mask's own indices, checked >= 0 by the
    /// loop's guard.
    SmallVector<Poly> assumed;
  };

  std::optional<Plan> plan(Matcher &m, LoadOp load,
                           const llvm::SmallPtrSetImpl<Value> &written,
                           bool unknownWrite) {
    auto type = cast<RankedTensorType>(load.getType());
    auto ptrs = m.pointers(load.getPtr());
    if (!ptrs || unknownWrite || written.contains(ptrs->base))
      return std::nullopt;
    auto ptrType = cast<PtrType>(ptrs->base.getType());
    if (ptrType.getPointeeType() != type.getElementType())
      return std::nullopt;
    // One dimension contiguous (`inner`), the other (`outer`) `stride`
    // apart: a row-major block, or a column-major one (a K-major B), which
    // is the transpose of a row-major block of the tensor read the other
    // way round.
    unsigned inner = ptrs->offset.coef[1].getConstant() == 1   ? 1
                     : ptrs->offset.coef[0].getConstant() == 1 ? 0
                                                               : 2;
    if (inner == 2)
      return std::nullopt;
    unsigned outer = 1 - inner;
    const Poly &stride = ptrs->offset.coef[outer];
    if (stride.isZero() || !m.ofArguments(stride))
      return std::nullopt;
    SmallVector<Bound> conj;
    if (!m.bounds(load.getMask(), conj))
      return std::nullopt;
    std::optional<Bound> upper[2];
    for (const Bound &c : conj) {
      if (c.upper) {
        if (upper[c.dim])
          return std::nullopt;
        upper[c.dim] = c;
      }
    }
    if (!upper[0] || !upper[1])
      return std::nullopt;
    const Bound &rowBound = *upper[outer], &colBound = *upper[inner];
    const Poly &s = ptrs->offset.scalar;
    // Coordinates TMA can use in place of the mask: y * stride + x = s,
    // and bounds of arguments alone. TMA also zero-fills coordinates below
    // 0, which the mask does not test: each coordinate must be one the
    // mask bounds from below at 0 too, or provably >= 0, or the block's
    // own row / column index as the mask writes it (offs_m, offs_n), which
    // the loop's guard then checks (`assumed`).
    SmallVector<Poly> assumed;
    auto tryCoordinates = [&](const Poly &y, const Poly &x)
        -> std::optional<std::array<Poly, 4>> {
      if (!(y * stride + x == s))
        return std::nullopt;
      Poly rows = rowBound.bound - rowBound.start + y;
      Poly cols = colBound.bound - colBound.start + x;
      if (!m.ofArguments(rows) || !m.ofArguments(cols))
        return std::nullopt;
      // (A size that is a constant below 1 is no tensor.)
      for (const Poly *size : {&rows, &cols})
        if (std::optional<int64_t> c = size->getConstant(); c && *c < 1)
          return std::nullopt;
      bool boundedBelow[2] = {false, false};
      for (const Bound &c : conj) {
        if (c.upper)
          continue;
        const Poly &coord = c.dim == outer ? y : x;
        if ((c.bound - c.start + coord).isZero())
          boundedBelow[c.dim] = true; // start + i >= bound  <=>  coord + i >= 0
        else if (!m.isNonNegative(c.start - c.bound))
          return std::nullopt; // a lower bound TMA does not apply
      }
      auto covered = [&](unsigned dim, const Poly &coord) {
        if (boundedBelow[dim] || m.isNonNegative(coord))
          return true;
        if (!(coord == upper[dim]->start))
          return false;
        assumed.push_back(coord);
        return true;
      };
      assumed.clear();
      if (!covered(outer, y) || !covered(inner, x))
        return std::nullopt;
      return std::array<Poly, 4>{y, x, rows, cols};
    };
    // The split: first by the terms of s divisible by the stride's
    // monomial, then as the row bound's start says.
    std::optional<std::array<Poly, 4>> found;
    if (stride.size() == 1 && !stride.terms.begin()->first.empty()) {
      auto &[mono, coefficient] = *stride.terms.begin();
      Poly y, x;
      for (auto &[mt, c] : s.terms) {
        Poly::Mono rest;
        bool divides = c % coefficient == 0 &&
                       std::includes(mt.begin(), mt.end(), mono.begin(),
                                     mono.end());
        if (divides) {
          std::set_difference(mt.begin(), mt.end(), mono.begin(), mono.end(),
                              std::back_inserter(rest));
          y.add(rest, c / coefficient);
        } else {
          x.add(mt, c);
        }
      }
      found = tryCoordinates(y, x);
    }
    if (!found)
      found = tryCoordinates(rowBound.start, s - rowBound.start * stride);
    if (!found)
      return std::nullopt;
    auto &[y, x, rows, cols] = *found;
    // The launch must be able to encode the map: checked on the descriptor
    // itself, built at the kernel's entry and erased again.
    OpBuilder b(load.getContext());
    b.setInsertionPointToStart(&load->getParentOfType<FuncOp>().getBody().front());
    bool transposed = inner == 0;
    // (A transposed box read through the program's own transpose would be
    // transposed twice; such loads stay.)
    if (transposed && llvm::any_of(load->getUsers(),
                                   [](Operation *u) { return isa<TransOp>(u); }))
      return std::nullopt;
    auto desc = buildDescriptor(b, m, load, transposed, ptrs->base, rows, cols,
                                stride);
    bool encodable = hasTensorMapSource(desc);
    desc->erase(); // (its dead operands go with canonicalization)
    if (!encodable)
      return std::nullopt;
    return Plan{load, ptrs->base, y, x, rows, cols, stride, transposed,
                assumed};
  }

  /// The block the descriptor reads: the load's, transposed if
  /// `transposed`.
  static RankedTensorType blockType(LoadOp load, bool transposed) {
    auto type = cast<RankedTensorType>(load.getType());
    SmallVector<int64_t> shape(type.getShape());
    if (transposed)
      std::swap(shape[0], shape[1]);
    return RankedTensorType::get(shape, type.getElementType());
  }

  static MakeTensorDescOp buildDescriptor(OpBuilder &b, Matcher &m, LoadOp load,
                                          bool transposed, Value base,
                                          const Poly &rows, const Poly &cols,
                                          const Poly &stride) {
    Location loc = load.getLoc();
    // Clamped to what a tensor map can hold (sizes >= 1, a stride of at
    // least 16 bytes), so that the launch can always encode the map: where
    // the clamp changes anything the loop's guard takes the masked loads.
    auto atLeast = [&](Value v, int64_t least) -> Value {
      Value c = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(least));
      return arith::MaxSIOp::create(b, loc, v, c);
    };
    auto elem = cast<RankedTensorType>(load.getType()).getElementType();
    int64_t bytes = std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
    Value r = atLeast(m.build(b, loc, rows), 1);
    Value c = atLeast(m.build(b, loc, cols), 1);
    Value st = atLeast(m.build(b, loc, stride), std::max<int64_t>(1, 16 / bytes));
    Value one = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1));
    auto descType =
        TensorDescType::get(b.getContext(), blockType(load, transposed));
    return MakeTensorDescOp::create(b, loc, descType, base, ValueRange{r, c},
                                    ValueRange{st, one},
                                    /*nan_padding=*/false);
  }

  void apply(FuncOp func, Matcher &m, Plan &p) {
    LoadOp load = p.load;

    // The descriptor, at the kernel's entry.
    OpBuilder b(func.getContext());
    b.setInsertionPointToStart(&func.getBody().front());
    auto desc = buildDescriptor(b, m, load, p.transposed, p.base, p.rows,
                                p.cols, p.stride);
    b.setInsertionPoint(load);
    Location loc = load.getLoc();
    Value coords[] = {m.build(b, loc, p.y), m.build(b, loc, p.x)};
    Value block = DescLoadOp::create(b, loc, blockType(load, p.transposed),
                                     desc, coords);
    if (p.transposed)
      block = TransOp::create(b, loc, block, ArrayRef<int32_t>{1, 0});
    load.replaceAllUsesWith(block);
    load->erase();
  }

  /// `loop` under `scf.if (guard)`, a copy of it with the masked loads in
  /// the else branch. The guard holds where the TMA copies read what the
  /// masked loads read: every assumed coordinate >= 0, every tensor size
  /// >= 1 and every row stride >= 1 (the launch's maps, clamped to encode,
  /// are then the tensors themselves).
  static void version(Matcher &m, scf::ForOp loop, ArrayRef<Plan> loopPlans) {
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    Value guard;
    auto require = [&](const Poly &p, int64_t least) {
      if (std::optional<int64_t> c = p.getConstant(); c && *c >= least)
        return;
      Value v = m.build(b, loc, p);
      Value c = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(least));
      Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, v, c);
      guard = guard ? arith::AndIOp::create(b, loc, guard, ok).getResult() : ok;
    };
    for (const Plan &p : loopPlans) {
      for (const Poly &c : p.assumed)
        require(c, 0);
      require(p.rows, 1);
      require(p.cols, 1);
      require(p.stride, 1);
    }
    if (!guard)
      return;
    // The if yields the loop results used after it (not the pointer tiles,
    // which the TMA loop then stops carrying).
    SmallVector<unsigned> used;
    SmallVector<Type> types;
    for (OpResult r : loop->getResults())
      if (!r.use_empty()) {
        used.push_back(r.getResultNumber());
        types.push_back(r.getType());
      }
    auto ifOp = scf::IfOp::create(b, loc, types, guard, /*withElseRegion=*/true);
    for (auto [k, i] : llvm::enumerate(used))
      loop->getResult(i).replaceAllUsesWith(ifOp.getResult(k));
    Operation *masked = loop->clone();
    // (The copy is not in a block yet, the loop is.)
    auto fill = [&](Block *block, Operation *op) {
      Block::iterator at = used.empty() ? Block::iterator(block->getTerminator())
                                        : block->end();
      if (op->getBlock())
        op->moveBefore(block, at);
      else
        block->getOperations().insert(at, op);
      if (!used.empty()) {
        SmallVector<Value> results;
        for (unsigned i : used)
          results.push_back(op->getResult(i));
        OpBuilder in = OpBuilder::atBlockEnd(block);
        scf::YieldOp::create(in, loc, results);
      }
    };
    fill(ifOp.thenBlock(), loop);
    fill(ifOp.elseBlock(), masked);
  }

  /// The iteration arguments of `loop` that `v` is computed from inside
  /// its body.
  static void collectCarried(scf::ForOp loop, Value v,
                             llvm::SmallPtrSetImpl<Value> &args) {
    SmallVector<Value> work = {v};
    llvm::SmallPtrSet<Value, 16> seen;
    while (!work.empty()) {
      Value x = work.pop_back_val();
      if (!seen.insert(x).second)
        continue;
      if (auto arg = dyn_cast<BlockArgument>(x)) {
        if (arg.getOwner() == loop.getBody() && arg.getArgNumber() > 0)
          args.insert(arg);
        continue;
      }
      Operation *def = x.getDefiningOp();
      if (def && def->getBlock() == loop.getBody())
        for (Value operand : def->getOperands())
          work.push_back(operand);
    }
  }

  /// The replaced loads' pointer tiles (`candidates`) the loop no longer
  /// needs: a result without uses whose argument only feeds pure ops that
  /// in the end only compute its own next value. The yield is pointed at
  /// the argument itself, which canonicalization then drops with the ops.
  static void dropDeadCarriedValues(scf::ForOp loop,
                                    const llvm::SmallPtrSetImpl<Value> &candidates) {
    Operation *yield = loop.getBody()->getTerminator();
    for (unsigned k = 0; k < loop.getNumRegionIterArgs(); ++k) {
      BlockArgument arg = loop.getRegionIterArgs()[k];
      if (!candidates.contains(arg) || !loop.getResult(k).use_empty())
        continue;
      llvm::SmallPtrSet<Operation *, 8> slice;
      SmallVector<Value> work = {arg};
      bool closed = true;
      while (!work.empty() && closed) {
        Value v = work.pop_back_val();
        for (OpOperand &use : v.getUses()) {
          Operation *user = use.getOwner();
          if (user == yield) {
            if (use.getOperandNumber() != k) {
              closed = false; // it (or what it computes) is another slot's
              break;
            }
            continue;
          }
          if (!isMemoryEffectFree(user) || user->getNumRegions() != 0 ||
              user->getBlock() != loop.getBody()) {
            closed = false;
            break;
          }
          if (slice.insert(user).second)
            for (Value r : user->getResults())
              work.push_back(r);
        }
      }
      if (closed)
        yield->setOperand(k, arg);
    }
  }
};

} // namespace
