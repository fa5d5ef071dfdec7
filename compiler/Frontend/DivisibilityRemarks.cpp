//===- DivisibilityRemarks.cpp - Suggest `i32:16` where it pays -*- C++ -*-===//
//
// Triton's JIT specializes an integer argument divisible by 16 by itself, so
// a kernel launched from Python gets 16-byte accesses where a stride or size
// is such a multiple. tilec compiles ahead of time from a signature, and a
// plain `i32` there keeps the accesses narrow. For each plain integer
// parameter, this re-runs the axis analysis (passes/Analysis/AxisInfo.h) as
// if the signature said `:16` and, where a load or store would then move
// more bytes per access, emits one remark at the first such access naming
// the parameter and the fix.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/CodeGen.h"
#include "passes/Analysis/AxisInfo.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::frontend;

void frontend::remarkDivisibility(ModuleOp module, tile::FuncOp func,
                                  ArrayRef<DivisibilityCandidate> params) {
  if (params.empty())
    return;
  SmallVector<Operation *> accesses;
  func.walk([&](Operation *op) {
    if (isa<tile::LoadOp, tile::StoreOp>(op))
      accesses.push_back(op);
  });
  if (accesses.empty())
    return;
  SmallVector<int64_t> before;
  {
    ModuleAxisInfo axis(module);
    for (Operation *op : accesses)
      before.push_back(axis.getAccessBytes(op));
  }
  StringAttr name = StringAttr::get(
      module.getContext(), tile::TileDialect::getDivisibilityAttrName());
  for (const DivisibilityCandidate &c : params) {
    const std::string &param = c.name;
    unsigned arg = c.arg;
    func.setArgAttr(
        arg, name,
        IntegerAttr::get(IntegerType::get(module.getContext(), 32), 16));
    {
      ModuleAxisInfo axis(module);
      for (auto [op, was] : llvm::zip_equal(accesses, before)) {
        int64_t now = axis.getAccessBytes(op);
        if (now <= was)
          continue;
        const std::string &typeName = c.type;
        emitRemark(op->getLoc())
            << "this " << (isa<tile::LoadOp>(op) ? "load" : "store")
            << " moves " << was << " bytes per access, " << now
            << " if parameter '" << param << "' were a multiple of 16: say so "
            << "in the signature ('" << typeName << ":16') where it is, as "
            << "Triton's JIT does for such arguments by itself";
        break;
      }
    }
    func.removeArgAttr(arg, name);
  }
}
