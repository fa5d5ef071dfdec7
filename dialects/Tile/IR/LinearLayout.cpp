//===- LinearLayout.cpp - Layouts as linear maps over GF(2) -----*- C++ -*-===//
//
// Implements LinearLayout (see LinearLayout.h): application, flattening,
// and the GF(2) elimination behind invertAndCompose.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/IR/LinearLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cassert>

using namespace tilec::tile;

LinearLayout::LinearLayout(llvm::ArrayRef<int64_t> shape)
    : outShape(shape.begin(), shape.end()) {}

LinearLayout::LinearLayout(Bases b, llvm::ArrayRef<int64_t> shape)
    : outShape(shape.begin(), shape.end()), bases(std::move(b)) {
  for (auto &in : bases)
    for (Coord &c : in)
      reduceModuloShape(c);
}

void LinearLayout::reduceModuloShape(Coord &c) const {
  assert(c.size() == outShape.size() && "basis rank differs from the shape");
  for (unsigned d = 0; d < c.size(); ++d)
    c[d] &= outShape[d] - 1;
}

void LinearLayout::addBasis(InDim in, Coord c) {
  reduceModuloShape(c);
  bases[in].push_back(std::move(c));
}

unsigned LinearLayout::getNumOutBits() const {
  unsigned n = 0;
  for (int64_t s : outShape)
    n += llvm::Log2_64(s);
  return n;
}

unsigned LinearLayout::getNumInBits() const {
  return getNumBits(kRegister) + getNumBits(kLane) + getNumBits(kWarp);
}

unsigned LinearLayout::getInBitOffset(InDim in) const {
  unsigned off = 0;
  for (unsigned i = 0; i < in; ++i)
    off += bases[i].size();
  return off;
}

LinearLayout::Coord LinearLayout::applyIn(InDim in, int64_t value) const {
  Coord c(outShape.size(), 0);
  for (unsigned bit = 0; bit < bases[in].size(); ++bit)
    if (value >> bit & 1)
      for (unsigned d = 0; d < c.size(); ++d)
        c[d] ^= bases[in][bit][d];
  return c;
}

LinearLayout::Coord LinearLayout::apply(int64_t reg, int64_t lane,
                                        int64_t warp) const {
  Coord c = applyIn(kRegister, reg);
  Coord l = applyIn(kLane, lane);
  Coord w = applyIn(kWarp, warp);
  for (unsigned d = 0; d < c.size(); ++d)
    c[d] ^= l[d] ^ w[d];
  return c;
}

uint64_t LinearLayout::flatten(llvm::ArrayRef<int64_t> coord) const {
  uint64_t bits = 0;
  unsigned shift = 0;
  for (unsigned d = 0; d < outShape.size(); ++d) {
    bits |= uint64_t(coord[d]) << shift;
    shift += llvm::Log2_64(outShape[d]);
  }
  return bits;
}

LinearLayout::Coord LinearLayout::unflatten(uint64_t bits) const {
  Coord c;
  for (int64_t s : outShape) {
    c.push_back(int64_t(bits & uint64_t(s - 1)));
    bits >>= llvm::Log2_64(s);
  }
  return c;
}

llvm::SmallVector<uint64_t> LinearLayout::getColumns() const {
  llvm::SmallVector<uint64_t> cols;
  for (const auto &in : bases)
    for (const Coord &c : in)
      cols.push_back(flatten(c));
  return cols;
}

uint64_t LinearLayout::getFreeMask(InDim in) const {
  uint64_t mask = 0;
  for (unsigned bit = 0; bit < bases[in].size(); ++bit)
    if (llvm::all_of(bases[in][bit], [](int64_t v) { return v == 0; }))
      mask |= uint64_t(1) << bit;
  return mask;
}

uint64_t LinearLayout::getMaskWithinBlock(InDim in,
                                          llvm::ArrayRef<int64_t> block) const {
  assert(block.size() == getRank() && "one block size per tile dimension");
  uint64_t mask = 0;
  for (unsigned bit = 0; bit < bases[in].size(); ++bit) {
    bool inside = true;
    for (unsigned d = 0; d < block.size() && inside; ++d)
      inside = block[d] > 0 && llvm::isPowerOf2_64(block[d]) &&
               (bases[in][bit][d] & ~(block[d] - 1)) == 0;
    if (inside)
      mask |= uint64_t(1) << bit;
  }
  return mask;
}

bool LinearLayout::hasSingleDimBases() const {
  for (const auto &in : bases)
    for (const Coord &c : in) {
      unsigned nonZero = 0;
      for (int64_t v : c) {
        if (v == 0)
          continue;
        if (!llvm::isPowerOf2_64(v))
          return false;
        ++nonZero;
      }
      if (nonZero > 1)
        return false;
    }
  return true;
}

uint64_t LinearLayout::getMaskAlong(InDim in, unsigned dim) const {
  uint64_t mask = 0;
  for (unsigned bit = 0; bit < bases[in].size(); ++bit)
    if (bases[in][bit][dim] != 0)
      mask |= uint64_t(1) << bit;
  return mask;
}

int64_t LinearLayout::getContiguousRegisters(unsigned dim) const {
  // Registers 0..2^k-1 must step by 1, 2, 4, ... along `dim` alone.
  unsigned k = 0;
  const auto &regs = bases[kRegister];
  while (k < regs.size()) {
    const Coord &c = regs[k];
    bool ok = c[dim] == (int64_t(1) << k);
    for (unsigned d = 0; d < c.size() && ok; ++d)
      if (d != dim && c[d] != 0)
        ok = false;
    if (!ok)
      break;
    ++k;
  }
  // No other bit may touch the low k bits of `dim`: the run then starts at
  // a multiple of 2^k in every thread.
  while (k > 0) {
    int64_t low = (int64_t(1) << k) - 1;
    bool clean = true;
    for (unsigned in = 0; in < kNumInDims && clean; ++in)
      for (unsigned bit = 0; bit < bases[in].size() && clean; ++bit) {
        if (in == kRegister && bit < k)
          continue;
        if (bases[in][bit][dim] & low)
          clean = false;
      }
    if (clean)
      break;
    --k;
  }
  return int64_t(1) << k;
}

std::optional<llvm::SmallVector<uint64_t>>
LinearLayout::invertAndCompose(const LinearLayout &other) const {
  if (other.outShape != outShape)
    return std::nullopt;
  // Gaussian elimination over GF(2): each pivot row is a flattened tile
  // coordinate (highest set bit = pivot) with the hardware bits of this
  // layout that XOR to it. Columns are taken registers first, so a
  // coordinate reachable from registers alone is expressed by registers.
  struct Pivot {
    uint64_t value;
    uint64_t combo;
  };
  llvm::SmallVector<Pivot> pivots;
  auto reduce = [&](uint64_t &value, uint64_t &combo) {
    bool changed = true;
    while (value && changed) {
      changed = false;
      for (const Pivot &p : pivots) {
        uint64_t top = uint64_t(1) << llvm::Log2_64(p.value);
        if (value & top) {
          value ^= p.value;
          combo ^= p.combo;
          changed = true;
        }
      }
    }
  };
  llvm::SmallVector<uint64_t> cols = getColumns();
  for (unsigned j = 0; j < cols.size(); ++j) {
    uint64_t value = cols[j], combo = uint64_t(1) << j;
    reduce(value, combo);
    if (value)
      pivots.push_back({value, combo});
    // Keep pivots with distinct top bits, sorted by decreasing top bit, so
    // one pass of `reduce` clears each top bit for good.
    llvm::sort(pivots, [](const Pivot &a, const Pivot &b) {
      return a.value > b.value;
    });
  }
  llvm::SmallVector<uint64_t> result;
  for (uint64_t col : other.getColumns()) {
    uint64_t value = col, combo = 0;
    reduce(value, combo);
    if (value)
      return std::nullopt;
    result.push_back(combo);
  }
  return result;
}

LinearLayout LinearLayout::dropOutDim(unsigned dim) const {
  LinearLayout r;
  r.outShape = outShape;
  r.outShape.erase(r.outShape.begin() + dim);
  for (unsigned in = 0; in < kNumInDims; ++in)
    for (Coord c : bases[in]) {
      c.erase(c.begin() + dim);
      r.bases[in].push_back(std::move(c));
    }
  return r;
}

LinearLayout LinearLayout::removeZeroBases(InDim in) const {
  LinearLayout r = *this;
  llvm::erase_if(r.bases[in], [](const Coord &c) {
    return llvm::all_of(c, [](int64_t x) { return x == 0; });
  });
  return r;
}

LinearLayout LinearLayout::insertOutDim(unsigned dim) const {
  LinearLayout r;
  r.outShape = outShape;
  r.outShape.insert(r.outShape.begin() + dim, 1);
  for (unsigned in = 0; in < kNumInDims; ++in)
    for (Coord c : bases[in]) {
      c.insert(c.begin() + dim, 0);
      r.bases[in].push_back(std::move(c));
    }
  return r;
}

LinearLayout LinearLayout::permuteOuts(llvm::ArrayRef<int32_t> perm) const {
  LinearLayout r;
  for (int32_t p : perm)
    r.outShape.push_back(outShape[p]);
  for (unsigned in = 0; in < kNumInDims; ++in)
    for (const Coord &c : bases[in]) {
      Coord n;
      for (int32_t p : perm)
        n.push_back(c[p]);
      r.bases[in].push_back(std::move(n));
    }
  return r;
}

LinearLayout LinearLayout::reshapeModulo(llvm::ArrayRef<int64_t> shape) const {
  return LinearLayout(bases, shape);
}

void LinearLayout::print(llvm::raw_ostream &os) const {
  static const char *names[] = {"register", "lane", "warp"};
  os << "[";
  llvm::interleaveComma(outShape, os);
  os << "] <- ";
  for (unsigned in = 0; in < kNumInDims; ++in) {
    if (in)
      os << ", ";
    os << names[in] << " {";
    llvm::interleaveComma(bases[in], os, [&](const Coord &c) {
      os << "(";
      llvm::interleaveComma(c, os);
      os << ")";
    });
    os << "}";
  }
}

std::string LinearLayout::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}

//===----------------------------------------------------------------------===//
// OffsetMap
//===----------------------------------------------------------------------===//

OffsetMap::OffsetMap(llvm::ArrayRef<int64_t> shape,
                     llvm::SmallVector<llvm::SmallVector<int64_t>> bits,
                     int64_t span)
    : shape(shape.begin(), shape.end()), bitOffsets(std::move(bits)),
      span(span) {}

OffsetMap OffsetMap::dense(llvm::ArrayRef<int64_t> shape,
                           llvm::ArrayRef<unsigned> order) {
  llvm::SmallVector<llvm::SmallVector<int64_t>> bits(shape.size());
  int64_t stride = 1;
  for (unsigned d : order) {
    for (int64_t s = 1; s < shape[d]; s <<= 1)
      bits[d].push_back(stride * s);
    stride *= shape[d];
  }
  return OffsetMap(shape, std::move(bits));
}

OffsetMap OffsetMap::rowMajor(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<unsigned> order;
  for (unsigned d = shape.size(); d-- > 0;)
    order.push_back(d);
  return dense(shape, order);
}

int64_t OffsetMap::getSize() const {
  if (span)
    return span;
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

int64_t OffsetMap::apply(llvm::ArrayRef<int64_t> coord) const {
  int64_t off = 0;
  for (unsigned d = 0; d < shape.size(); ++d)
    for (unsigned i = 0; i < bitOffsets[d].size(); ++i)
      if (coord[d] >> i & 1)
        off ^= bitOffsets[d][i];
  return off;
}

LinearLayout OffsetMap::compose(const LinearLayout &dist) const {
  assert(dist.getOutShape() == llvm::ArrayRef<int64_t>(shape) &&
         "offset map and layout of different shapes");
  LinearLayout l(llvm::ArrayRef<int64_t>{getSize()});
  for (unsigned in = 0; in < LinearLayout::kNumInDims; ++in)
    for (const LinearLayout::Coord &c : dist.getBases(LinearLayout::InDim(in)))
      l.addBasis(LinearLayout::InDim(in), {apply(c)});
  return l;
}
