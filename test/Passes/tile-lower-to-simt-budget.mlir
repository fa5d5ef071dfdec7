// tile-lower-to-simt refuses a kernel whose layout conversions need more
// shared memory than the budget, naming both numbers.
// RUN: tilec-opt %s --tile-lower-to-simt=shared-budget=2048 -verify-diagnostics

#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{kernel needs 4096 bytes of shared memory for layout conversions, more than the 2048 bytes available}}
tile.func @too_much_shared(%x: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #b4>
  %c = tile.convert_layout %r : tensor<1024xi32, #b4> -> tensor<1024xi32, #b1>
  tile.return
}
