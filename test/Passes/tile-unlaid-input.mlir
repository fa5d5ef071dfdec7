// The passes after layout assignment refuse tiles without layouts (issue 9,
// review round 4: tile-allocate-shared, tile-insert-barriers and
// tile-lower-to-simt crashed computing the scratch memory of a
// convert_layout, trans or reduce on them), including a function argument.
// RUN: not tilec-opt %s --tile-allocate-shared 2>&1 | FileCheck %s --check-prefix=ALLOC
// RUN: not tilec-opt %s --tile-insert-barriers 2>&1 | FileCheck %s --check-prefix=BAR
// RUN: not tilec-opt %s --tile-lower-to-simt 2>&1 | FileCheck %s --check-prefix=SIMT
// ALLOC: tile-unlaid-input.mlir:[[@LINE+4]]:1: error: expected every tile to have a distributed encoding (#tile.blocked, #tile.slice, #tile.mma, #tile.dot_operand) with power-of-two shape, found 'tensor<64x32xf16>' (run tile-assign-layouts first)
// BAR: tile-unlaid-input.mlir:[[@LINE+3]]:1: error: {{.*}}found 'tensor<64x32xf16>' (run tile-assign-layouts first)
// SIMT: tile-unlaid-input.mlir:[[@LINE+2]]:1: error: expected every tile to have a distributed encoding{{.*}}found 'tensor<64x32xf16>' (run tile-assign-layouts first)
#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
tile.func private @k(%v: tensor<64x32xf16>) {
  %0 = tile.convert_layout %v : tensor<64x32xf16> -> tensor<64x32xf16, #blocked>
  %1 = tile.trans %0 {order = array<i32: 1, 0>} : tensor<64x32xf16, #blocked> -> tensor<32x64xf16>
  tile.return
}
