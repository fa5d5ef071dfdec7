// tile-assign-layouts errors: tile shapes that are not powers of two.
// RUN: tilec-opt %s --tile-assign-layouts --split-input-file -verify-diagnostics

tile.func @ragged(%x: !tile.ptr<f32>) {
  // expected-error @+1 {{unimplemented: tile shape [1000] is not a power of two in every dimension; pad the tile to a power of two and mask the extra elements}}
  %range = tile.make_range {start = 0 : i32, end = 1000 : i32} : tensor<1000xi32>
  tile.return
}

// -----

tile.func @ragged_2d(%t: i32) {
  // expected-error @+1 {{unimplemented: tile shape [16, 24] is not a power of two in every dimension}}
  %s = tile.splat %t : i32 -> tensor<16x24xi32>
  tile.return
}

// -----

// An encoding that is not a layout tilec understands is refused, not replaced
// (by the tile.func verifier, before any pass).
tile.func @foreign_encoding(%x: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.make_range' op expected a distributed encoding (#tile.blocked, #tile.slice, #tile.mma, #tile.dot_operand) on a tile, found 'tensor<128xi32, "foo">'}}
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, "foo">
  tile.return
}

// -----

#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// A blocked encoding of the wrong rank (the tile.func verifier).
tile.func @rank_mismatch(%x: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.splat' op expected an encoding of rank 2 on 'tensor<1x128x!tile.ptr<f32>, #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>', found one of rank 1}}
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<1x128x!tile.ptr<f32>, #b1>
  tile.return
}
