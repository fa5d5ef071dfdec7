// tilec on a kernel mixing ops with nontrivial lowerings -- a tile.reduce,
// a tile.trans, a tile.dot, a tile.atomic_rmw and tensor-descriptor
// accesses: --emit=tile keeps them (the reduce's combiner survives
// canonicalization), --emit=layout gives their tiles layouts (the reduce's
// result the slice of its operand's; the descriptor accesses are masked
// loads and stores by then), and --emit=ptx lowers all of them. (Constructs
// that stop with `unimplemented:` are tested where they arise:
// Passes/tile-lower-descriptors.mlir, Passes/tile-lower-to-simt-errors.mlir.)
// RUN: tilec %s --emit=tile | FileCheck %s --check-prefix=TILE
// RUN: tilec %s --emit=layout | FileCheck %s --check-prefix=LAYOUT
// RUN: tilec %s --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --allow-empty --check-prefix=PTX
// RUN: FileCheck %s --input-file %t.ptx --check-prefix=PTXFILE

// TILE:        tile.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<16x64xf32>) -> tensor<16xf32> {
// TILE-NEXT:   ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// TILE-NEXT:     %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// TILE-NEXT:     tile.reduce.return %[[S]] : f32
// TILE:        tile.dot
// TILE:        tile.atomic_rmw fadd, acq_rel, gpu
// TILE:        tile.make_tensor_desc
// TILE:        tile.desc_load
// TILE:        tile.desc_store

// LAYOUT:      #[[S:slice[0-9]*]] = #tile.slice<{dim = 1, parent = #[[B:blocked[0-9]*]]}>
// LAYOUT:      tile.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<16x64xf32, #[[B]]>) -> tensor<16xf32, #[[S]]> {
// LAYOUT:        tile.reduce.return %{{.*}} : f32
// LAYOUT:      tile.dot %{{.*}} : tensor<16x8xf32, #{{.*}}>, tensor<8x16xf32, #{{.*}}>, tensor<16x16xf32, #{{.*}}> -> tensor<16x16xf32, #{{.*}}>
// LAYOUT:      tile.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}} : tensor<16x!tile.ptr<f32>, #{{.*}}>
// LAYOUT-NOT:  tile.desc_
// LAYOUT:      tile.load %{{.*}}, %{{.*}} : tensor<16x16x!tile.ptr<f32>, #{{.*}}>
// LAYOUT:      tile.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16x!tile.ptr<f32>, #{{.*}}>

// PTX-NOT:    error
// PTXFILE:    .entry k(
// PTXFILE:    .entry descs(
tile.func @k(%x: !tile.ptr<f32>, %w: !tile.ptr<f32>, %m: i32, %s64: i64) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %e = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %b = tile.broadcast %e : tensor<1x64xi32> -> tensor<16x64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<16x64x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %b : tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>
  %a = tile.load %xp : tensor<16x64x!tile.ptr<f32>>
  %s = tile.reduce(%a) {axis = 1 : i32} : (tensor<16x64xf32>) -> tensor<16xf32> {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    tile.reduce.return %t : f32
  }
  %at = tile.trans %a {order = array<i32: 1, 0>} : tensor<16x64xf32> -> tensor<64x16xf32>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tile.dot %a, %at, %z : tensor<16x64xf32>, tensor<64x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  %wb = tile.splat %w : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>>
  tile.store %wb, %d : tensor<16x16x!tile.ptr<f32>>
  %r16 = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %ws = tile.splat %w : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %wp = tile.addptr %ws, %r16 : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %old = tile.atomic_rmw fadd, acq_rel, gpu, %wp, %s : tensor<16x!tile.ptr<f32>>
  %c0 = arith.constant 0 : i32
  tile.return
}

tile.func @descs(%x: !tile.ptr<f32>, %w: !tile.ptr<f32>, %m: i32, %s64: i64) {
  %c0 = arith.constant 0 : i32
  %td = tile.make_tensor_desc %x, [%m, %m], [%s64, %s64] : !tile.ptr<f32>, [i32, i32], [i64, i64] -> !tile.tensordesc<tensor<16x16xf32>>
  %tw = tile.make_tensor_desc %w, [%m, %m], [%s64, %s64] : !tile.ptr<f32>, [i32, i32], [i64, i64] -> !tile.tensordesc<tensor<16x16xf32>>
  %tl = tile.desc_load %td[%c0, %c0] : !tile.tensordesc<tensor<16x16xf32>> -> tensor<16x16xf32>
  tile.desc_store %tw[%m, %c0], %tl : !tile.tensordesc<tensor<16x16xf32>>, tensor<16x16xf32>
  tile.return
}
