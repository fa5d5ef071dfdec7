// tile-lower-to-simt errors: calls left in kernels, tiles without encodings,
// kernels needing more shared memory than the budget.
// RUN: tilec-opt %s --tile-lower-to-simt --split-input-file -verify-diagnostics

tile.func private @helper(%a: f32) -> f32 {
  tile.return %a : f32
}

tile.func @not_inlined(%x: !tile.ptr<f32>) {
  %v = tile.load %x : !tile.ptr<f32>
  // expected-error @+1 {{unimplemented: tile.call in a kernel; run the inliner first (tilec does)}}
  %w = tile.call @helper(%v) : (f32) -> f32
  tile.store %x, %w : !tile.ptr<f32>
  tile.return
}

// -----

tile.func @no_encoding(%x: !tile.ptr<f32>) {
  // expected-error @+1 {{expected every tile to have a #tile.blocked or #tile.slice encoding with power-of-two shape, found 'tensor<128xi32>' (run tile-assign-layouts first)}}
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  tile.return
}

// -----

#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @wrong_rank(%c: i32) {
  // expected-error @+1 {{expected every tile to have a #tile.blocked or #tile.slice encoding with power-of-two shape, found 'tensor<16x8xi32, #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>' (run tile-assign-layouts first)}}
  %r = tile.splat %c : i32 -> tensor<16x8xi32, #b1>
  tile.return
}
