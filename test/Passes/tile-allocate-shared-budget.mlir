// tile-allocate-shared refuses a kernel over the chip's (or the given)
// budget, naming the total, the budget and, in notes, every buffer.
// RUN: tilec-opt %s --tile-allocate-shared=shared-budget=2048 --split-input-file -verify-diagnostics

#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{kernel 'too_much_shared' needs 4096 bytes of shared memory, more than the 2048 bytes allowed; use smaller tiles or fewer stages}}
tile.func @too_much_shared(%x: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #b4>
  // expected-note @+1 {{scratch of 'tile.convert_layout': 4096 bytes}}
  %c = tile.convert_layout %r : tensor<1024xi32, #b4> -> tensor<1024xi32, #b1>
  tile.return
}
