//===- SharedMemoryUtils.h - Shared-memory facts for passes -----*- C++ -*-===//
//
// What tile-allocate-shared and tile-insert-barriers both need to know
// about shared memory: a buffer's size, the allocation behind a memdesc
// view, and each chip's budget.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PASSES_SHAREDMEMORYUTILS_H
#define TILEC_PASSES_SHAREDMEMORYUTILS_H

#include "dialects/Tile/IR/TileOps.h"

namespace tilec {

/// Bytes of the allocation a memdesc type describes (its allocShape).
int64_t getMemDescBytes(tile::MemDescType type);

/// The tile.local_alloc a memdesc (or a view of one: memdesc_index,
/// memdesc_subview, memdesc_trans) comes from; null for anything else
/// (a block argument).
mlir::Operation *getMemDescAllocation(mlir::Value memdesc);

/// Calls `fn` for every op that uses the buffer `memdesc` through it or a
/// view of it (memdesc_index, memdesc_subview, memdesc_trans: followed,
/// not reported), with the value it uses.
void forEachBufferUser(
    mlir::Value memdesc,
    llvm::function_ref<void(mlir::Operation *user, mlir::Value view)> fn);

/// Whether the bytes behind `memdesc` (its whole allocation) are written
/// through the generic proxy -- tile.local_store, tile.local_alloc with a
/// source, or an async_copy marked kGenericProxyWriteAttr into it, or into
/// another buffer or a scratch area
/// tile-allocate-shared placed on overlapping bytes -- rather than only by
/// TMA or cp.async copies, so that an async-proxy reader (wgmma) needs
/// `fence.proxy.async` first (PTX ISA 9.7.13.4.2). cp.async writes need
/// none after their wait, as CUTLASS's and Triton's sm90 cp.async + wgmma
/// loops rely on. Another buffer's or scratch area's writes count only
/// where they may run before `reader` (earlier in program order, or in a
/// loop around both; all of them without a reader). True when the
/// allocation or its offset is not known.
bool isWrittenByGenericProxy(mlir::Value memdesc,
                             mlir::Operation *reader = nullptr);

/// Marks a tile.async_copy whose chunks are under 4 bytes (stores from
/// registers, not cp.async: tile-lower-to-simt sets it before lowering).
inline constexpr llvm::StringLiteral kGenericProxyWriteAttr =
    "tile.generic_proxy_write";

/// The most dynamic shared memory one CTA may use on `chip`, in bytes (the
/// opt-in maximum: 227 KiB on sm_90 and sm_90a, 163 KiB on sm_80, 99 KiB
/// on sm_89).
unsigned getSharedBudget(llvm::StringRef chip);

} // namespace tilec

#endif // TILEC_PASSES_SHAREDMEMORYUTILS_H
