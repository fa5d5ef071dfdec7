// Inputs the layout pass and the SIMT lowering refuse (found by a newcomer's
// review; they used to crash or lower silently to wrong code): a rank-0 tile,
// an encoding over more warps than the kernel has, arithmetic on fp8, and
// fragments too large to unroll.
// RUN: tilec-opt %s --tile-assign-layouts --tile-allocate-shared --tile-insert-barriers --tile-lower-to-simt --split-input-file -verify-diagnostics

tile.func @rank0(%x: !tile.ptr<f32>) {
  // expected-error @+1 {{unimplemented: a tile of rank 0 ('tensor<!tile.ptr<f32>>'); use a scalar}}
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<!tile.ptr<f32>>
  tile.return
}

// -----

#b8 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
tile.func @wrong_warps(%x: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  // expected-error @+1 {{expected encodings over the kernel's 4 warps (tile.num_warps), found warpsPerCTA with 8}}
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #b8>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #b8>
  %xp = tile.addptr %xb, %r : tensor<1024x!tile.ptr<f32>, #b8>, tensor<1024xi32, #b8>
  %v = tile.load %xp : tensor<1024x!tile.ptr<f32>, #b8>
  tile.store %xp, %v : tensor<1024x!tile.ptr<f32>, #b8>
  tile.return
}

// -----

tile.func @fp8(%x: !tile.ptr<f8E4M3FN>) {
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %xb = tile.splat %x : !tile.ptr<f8E4M3FN> -> tensor<128x!tile.ptr<f8E4M3FN>>
  %xp = tile.addptr %xb, %r : tensor<128x!tile.ptr<f8E4M3FN>>, tensor<128xi32>
  %v = tile.load %xp : tensor<128x!tile.ptr<f8E4M3FN>>
  // fp8 may be loaded, stored and converted, not computed with.
  // expected-error @+1 {{unimplemented: arithmetic on fp8 values (arith.addf); convert them to fp16 or fp32 first}}
  %w = arith.addf %v, %v : tensor<128xf8E4M3FN>
  tile.store %xp, %w : tensor<128x!tile.ptr<f8E4M3FN>>
  tile.return
}

// -----

tile.func @too_big(%x: !tile.ptr<f32>) attributes {tile.num_warps = 1 : i32} {
  // expected-error @+1 {{needs 2048 elements per thread (more than 1024); use more warps or a smaller tile}}
  %r = tile.make_range {start = 0 : i32, end = 65536 : i32} : tensor<65536xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<65536x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<65536x!tile.ptr<f32>>, tensor<65536xi32>
  %v = tile.load %xp : tensor<65536x!tile.ptr<f32>>
  tile.store %xp, %v : tensor<65536x!tile.ptr<f32>>
  tile.return
}
