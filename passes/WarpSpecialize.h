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
#include "mlir/IR/IRMapping.h"

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

/// Adapts consumer group `group`'s copy of the kernel (`map`: from the
/// ops and values of group 0's, the original, to the copy's; the identity
/// for group 0) to that group's share of the work; see splitPartitions.
using GroupRewrite =
    llvm::function_ref<mlir::LogicalResult(mlir::IRMapping &map,
                                           unsigned group)>;

/// Splits kernel `func`: the ops from `consumerStart` (in the body's block)
/// to the end become the consumer region of a new tile.warp_specialize, a
/// copy of them pruned to `producerOps` (and what they need: their
/// operands' slices, the loops and ifs around them) its producer region,
/// and the consumer loses `producerOps`. With `groups` > 1 the consumer is
/// copied into `more_consumers` regions (ping-pong), and `rewriteGroup` is
/// called for each group, 0 included, after all copies are made and before
/// the producer ops leave them. All regions are then cleaned of dead code
/// (unused iteration arguments included). Fails, with an error on `func`,
/// when the result does not verify (a producer keeping a tensor:
/// canSplitProducer rules that out beforehand) or `rewriteGroup` fails.
mlir::LogicalResult
splitPartitions(tile::FuncOp func, mlir::Operation *consumerStart,
                llvm::ArrayRef<mlir::Operation *> producerOps,
                PartitionRegisters regs, unsigned groups = 1,
                GroupRewrite rewriteGroup = {});

} // namespace tilec

#endif // TILEC_PASSES_WARPSPECIALIZE_H
