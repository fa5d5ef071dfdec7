//===- WarpSpecialize.h - Split a kernel into producer/consumer -*- C++ -*-===//
//
// The partitioning step of warp specialization (WarpSpecialize.cpp), which
// tile-pipeline applies to a loop it rewrites for a producer warp.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PASSES_WARPSPECIALIZE_H
#define TILEC_PASSES_WARPSPECIALIZE_H

#include "dialects/Tile/IR/TileOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <string>

namespace tilec {

/// The loop attribute of `tl.range(..., warp_specialize=True)`.
inline constexpr llvm::StringLiteral kWarpSpecializeAttr =
    "tile.warp_specialize";

/// Registers per thread of the two partitions of a warp-specialized kernel
/// of `numWarps` consumer warps and one producer warpgroup, at one CTA per
/// multiprocessor (64K registers, sm_90+): the producer keeps 40, the
/// consumers get the rest, rounded down to 8, at most 240 (CUTLASS's
/// 40/232 for two consumer warpgroups).
struct PartitionRegisters {
  int32_t producer, consumer;
};
PartitionRegisters getPartitionRegisters(unsigned numWarps);

/// Whether a producer partition can run `stage0` (a loop's copies and the
/// side-effect-free slice that computes their operands, in `loop`'s body):
/// the loop is not nested in another loop, and every value it needs from
/// outside the body -- its bounds, the initial values of the iteration
/// arguments the slice reads, the conditions of the ifs around it, and
/// what computes them -- comes from scalar, side-effect-free ops or the
/// kernel's arguments. Otherwise `why` says what is in the way.
bool canSplitProducer(mlir::scf::ForOp loop,
                      llvm::ArrayRef<mlir::Operation *> stage0,
                      std::string &why);

/// Splits kernel `func`: the ops from `consumerStart` (in the body's block)
/// to the end become the consumer region of a new tile.warp_specialize, a
/// copy of them pruned to `producerOps` (and what they need: their
/// operands' slices, the loops and ifs around them) its producer region,
/// and the consumer loses `producerOps`. Both regions are then cleaned of
/// dead code (unused iteration arguments included). Fails, with an error
/// on `func`, when the result does not verify (a producer keeping a
/// tensor: canSplitProducer rules that out beforehand).
mlir::LogicalResult
splitPartitions(tile::FuncOp func, mlir::Operation *consumerStart,
                llvm::ArrayRef<mlir::Operation *> producerOps,
                PartitionRegisters regs);

} // namespace tilec

#endif // TILEC_PASSES_WARPSPECIALIZE_H
