// tile-lower-to-simt lowers tile.gather through its scratch: the first
// replica of each source element stores it at its row-major offset, a
// barrier, then one shared load per result element at the offset of its
// coordinates with the axis coordinate replaced by the index, clamped as
// an unsigned number to n - 1 (i64 indices before truncation, narrower ones
// sign-extended first). Two gathers share the scratch, with the barrier
// tile-insert-barriers puts between them. i1 travels as a byte, pointers as
// i64. Explicit encodings (no tile-assign-layouts).
// RUN: tilec-opt %s --tile-allocate-shared --tile-insert-barriers --tile-lower-to-simt --split-input-file | FileCheck %s

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// A 32 x 16 f32 source, 4 elements per thread: one 16-byte store each.
// Along axis 1 (i32 index, 16 result elements per thread): min with 15,
// plus row * 16. Along axis 0 (i64 index): min with 31, then truncation.
// CHECK-LABEL: gpu.func @gather2d(
// CHECK-SAME:      tile.shared = 2048 : i32
// CHECK:         %[[BASE:.*]] = llvm.mlir.addressof @tilec_shared : !llvm.ptr<3>
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NEXT:    gpu.barrier
// CHECK:         %[[I0:.*]] = llvm.extractelement %{{.*}}[%{{.*}} : i32] : vector<16xi32>
// CHECK:         %[[C0:.*]] = arith.minui %[[I0]], %{{.*}} : i32
// CHECK:         %[[ROW:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK:         %[[OFF:.*]] = arith.addi %[[C0]], %[[ROW]] : i32
// CHECK:         %[[P:.*]] = llvm.getelementptr %[[BASE]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK:         llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-COUNT-15: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT:     llvm.load %{{.*}} : !llvm.ptr<3>
// CHECK:         gpu.barrier
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NEXT:    gpu.barrier
// CHECK:         %[[J:.*]] = arith.minui %{{.*}}, %{{.*}} : i64
// CHECK:         arith.trunci %[[J]] : i64 to i32
// CHECK:         llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK:         gpu.return
tile.func @gather2d(%x: !tile.ptr<f32>, %i: !tile.ptr<i32>, %j: !tile.ptr<i64>, %out: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<32x16x!tile.ptr<f32>, #b>
  %v = tile.load %xb : tensor<32x16x!tile.ptr<f32>, #b>
  %ib = tile.splat %i : !tile.ptr<i32> -> tensor<32x64x!tile.ptr<i32>, #c>
  %ix = tile.load %ib : tensor<32x64x!tile.ptr<i32>, #c>
  %g = tile.gather %v[%ix] {axis = 1 : i32} : tensor<32x16xf32, #b>, tensor<32x64xi32, #c> -> tensor<32x64xf32, #c>
  %jb = tile.splat %j : !tile.ptr<i64> -> tensor<8x16x!tile.ptr<i64>, #b>
  %jx = tile.load %jb : tensor<8x16x!tile.ptr<i64>, #b>
  %h = tile.gather %v[%jx] {axis = 0 : i32} : tensor<32x16xf32, #b>, tensor<8x16xi64, #b> -> tensor<8x16xf32, #b>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>, #c>
  tile.store %ob, %g : tensor<32x64x!tile.ptr<f32>, #c>
  %ob2 = tile.splat %out : !tile.ptr<f32> -> tensor<8x16x!tile.ptr<f32>, #b>
  tile.store %ob2, %h : tensor<8x16x!tile.ptr<f32>, #b>
  tile.return
}

// -----

#r = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// A 16-element source on 128 threads: only the first replica stores. A
// bool source goes through shared memory as bytes; a pointer source as
// i64. The i8 index is sign-extended before the clamp.
// CHECK-LABEL: gpu.func @gather_bool_ptr(
// CHECK-SAME:      tile.shared = 128 : i32
// CHECK:         arith.extui %{{.*}} : vector<1xi1> to vector<1xi8>
// CHECK:         scf.if %{{.*}} {
// CHECK:           llvm.store %{{.*}}, %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<3>
// CHECK:         }
// CHECK-NEXT:    gpu.barrier
// CHECK:         %[[I:.*]] = arith.extsi %{{.*}} : i8 to i32
// CHECK:         arith.minui %[[I]], %{{.*}} : i32
// CHECK:         %[[B:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK:         arith.trunci %[[B]] : i8 to i1
// CHECK:         gpu.barrier
// CHECK:         scf.if %{{.*}} {
// CHECK:           llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : i64, !llvm.ptr<3>
// CHECK:         }
// CHECK-NEXT:    gpu.barrier
// CHECK:         llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> i64
// CHECK:         gpu.return
tile.func @gather_bool_ptr(%x: !tile.ptr<i8>, %i: !tile.ptr<i8>, %p: !tile.ptr<f32>, %out: !tile.ptr<i8>, %fout: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %xb = tile.splat %x : !tile.ptr<i8> -> tensor<16x!tile.ptr<i8>, #r>
  %v8 = tile.load %xb : tensor<16x!tile.ptr<i8>, #r>
  %v = arith.trunci %v8 : tensor<16xi8, #r> to tensor<16xi1, #r>
  %ib = tile.splat %i : !tile.ptr<i8> -> tensor<128x!tile.ptr<i8>, #r>
  %ix = tile.load %ib : tensor<128x!tile.ptr<i8>, #r>
  %g = tile.gather %v[%ix] {axis = 0 : i32} : tensor<16xi1, #r>, tensor<128xi8, #r> -> tensor<128xi1, #r>
  %g8 = arith.extui %g : tensor<128xi1, #r> to tensor<128xi8, #r>
  %ob = tile.splat %out : !tile.ptr<i8> -> tensor<128x!tile.ptr<i8>, #r>
  tile.store %ob, %g8 : tensor<128x!tile.ptr<i8>, #r>
  %pb = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>, #r>
  %pg = tile.gather %pb[%ix] {axis = 0 : i32} : tensor<16x!tile.ptr<f32>, #r>, tensor<128xi8, #r> -> tensor<128x!tile.ptr<f32>, #r>
  %f = tile.load %pg : tensor<128x!tile.ptr<f32>, #r>
  %fb = tile.splat %fout : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #r>
  tile.store %fb, %f : tensor<128x!tile.ptr<f32>, #r>
  tile.return
}
