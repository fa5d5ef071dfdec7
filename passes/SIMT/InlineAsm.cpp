//===- InlineAsm.cpp - tile.elementwise_inline_asm lowering ----*- C++ -*-===//
//
// tl.inline_asm_elementwise as Triton 3.6 lowers it: each thread walks the
// registers its layout gives it in groups of `packed_element` (the last
// group filled with undefined values when the count is not a multiple) and
// runs one `llvm.inline_asm` per group. Per operand, the group's elements
// narrower than 32 bits travel `32 / bits` (at most the pack) to a register
// as an LLVM vector (vector<4xi8> for an `r` operand); the results come
// back the same way, in one struct when there are several registers. Which
// elements share a group is therefore a property of the layout, which
// Triton leaves unspecified too: the asm must treat the elements of a pack
// independently, as an elementwise map does. fp8 values are their bytes
// (i8) and pointers their 64-bit addresses, as everywhere in the lowering.
//
//===----------------------------------------------------------------------===//
#include "passes/SIMT/SIMTUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::simt;

namespace {

struct ElementwiseInlineAsmLowering
    : public OpConversionPattern<tile::ElementwiseInlineAsmOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::ElementwiseInlineAsmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    using AsmOp = tile::ElementwiseInlineAsmOp;
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    int64_t pack = op.getPackedElement();

    // The thread's elements: the converted results are vector<N x T> for
    // tiles (all of one layout, so one N) or scalars.
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(),
                                                resultTypes)))
      return rewriter.notifyMatchFailure(op, "unconvertible result type");
    auto elemOf = [](Type t) {
      if (auto v = dyn_cast<VectorType>(t))
        return v.getElementType();
      return t;
    };
    int64_t numElems = 1;
    if (auto v = dyn_cast<VectorType>(resultTypes[0]))
      numElems = v.getNumElements();

    // Element e of operand `x` (a scalar operand is every element); past the
    // thread's elements, an undefined value.
    auto elementOf = [&](Value x, int64_t e) -> Value {
      if (e >= numElems)
        return LLVM::UndefOp::create(b, loc, elemOf(x.getType()));
      if (isa<VectorType>(x.getType()))
        return extractElement(b, loc, x, e);
      return x;
    };

    // The asm's result registers, in order: per result, pack / perReg of
    // them, each a vector<perReg x T> when perReg > 1.
    SmallVector<Type> asmTypes;
    for (Type t : resultTypes) {
      Type elem = elemOf(t);
      int64_t perReg = AsmOp::getElementsPerRegister(elem, pack);
      Type reg = perReg > 1 ? Type(VectorType::get({perReg}, elem)) : elem;
      asmTypes.append(pack / perReg, reg);
    }
    Type asmType = asmTypes.size() == 1
                       ? asmTypes[0]
                       : Type(LLVM::LLVMStructType::getLiteral(
                             rewriter.getContext(), asmTypes));

    // results[r][e]: element e of result r.
    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (int64_t first = 0; first < numElems; first += pack) {
      SmallVector<Value> asmOperands;
      for (Value x : adaptor.getArgs()) {
        Type elem = elemOf(x.getType());
        int64_t perReg = AsmOp::getElementsPerRegister(elem, pack);
        for (int64_t j = 0; j < pack; j += perReg) {
          if (perReg == 1) {
            asmOperands.push_back(elementOf(x, first + j));
            continue;
          }
          Value reg =
              poisonValue(b, loc, VectorType::get({perReg}, elem));
          for (int64_t k = 0; k < perReg; ++k)
            reg = insertElement(b, loc, reg, elementOf(x, first + j + k), k);
          asmOperands.push_back(reg);
        }
      }
      Operation *asmOp = createInlineAsm(
          b, loc, asmType, asmOperands, op.getAsmString(), op.getConstraints(),
          /*hasSideEffects=*/!op.getPure());
      Value all = asmOp->getResult(0);
      int64_t slot = 0;
      for (auto [r, t] : llvm::enumerate(resultTypes)) {
        for (int64_t j = 0; j < pack;) {
          Value reg = asmTypes.size() == 1
                          ? all
                          : LLVM::ExtractValueOp::create(b, loc, all, slot)
                                .getResult();
          ++slot;
          if (auto v = dyn_cast<VectorType>(reg.getType())) {
            for (int64_t k = 0; k < v.getNumElements(); ++k)
              results[r].push_back(extractElement(b, loc, reg, k));
            j += v.getNumElements();
          } else {
            results[r].push_back(reg);
            ++j;
          }
        }
      }
    }

    // Reassemble each result from its first numElems elements (the padding
    // is dropped).
    SmallVector<Value> replacements;
    for (auto [r, t] : llvm::enumerate(resultTypes)) {
      if (!isa<VectorType>(t)) {
        replacements.push_back(results[r][0]);
        continue;
      }
      Value vec = poisonValue(b, loc, t);
      for (int64_t e = 0; e < numElems; ++e)
        vec = insertElement(b, loc, vec, results[r][e], e);
      replacements.push_back(vec);
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

} // namespace

void simt::populateInlineAsmToSIMTPatterns(TileTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<ElementwiseInlineAsmLowering>(converter,
                                             patterns.getContext());
}
