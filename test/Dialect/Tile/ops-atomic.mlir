// Round trip of the atomics (tile.atomic_rmw, tile.atomic_cas), the tensor
// descriptor type and ops, tile.hint, tile.assume and tile.barrier, through
// the custom and the generic syntax; canonicalization and CSE keep them.
// RUN: tilec-opt %s | tilec-opt | FileCheck %s
// RUN: tilec-opt %s --mlir-print-op-generic | tilec-opt | FileCheck %s
// RUN: tilec-opt %s --canonicalize --cse | FileCheck %s

// CHECK-LABEL: tile.func @atomics(
// CHECK-SAME:      %[[X:.*]]: !tile.ptr<f32>, %[[L:.*]]: !tile.ptr<i32>, %[[N:.*]]: i32)
// CHECK:         %[[P:.*]] = tile.addptr
// CHECK:         %[[M:.*]] = arith.cmpi
// CHECK:         %[[O:.*]] = tile.atomic_rmw fadd, acq_rel, gpu, %[[P]], %[[V:.*]], %[[M]] : tensor<64x!tile.ptr<f32>>
// CHECK:         tile.atomic_rmw max, relaxed, cta, %[[P]], %[[O]] : tensor<64x!tile.ptr<f32>>
// CHECK:         tile.atomic_rmw xchg, release, sys, %[[P]], %[[O]], %[[M]] : tensor<64x!tile.ptr<f32>>
// CHECK:         tile.atomic_rmw add, acquire, gpu, %[[L]], %[[N]] : !tile.ptr<i32>
// CHECK:         tile.atomic_rmw and, acq_rel, gpu, %[[L]], %[[N]] : !tile.ptr<i32>
// CHECK:         tile.atomic_rmw or, acq_rel, gpu, %[[L]], %[[N]] : !tile.ptr<i32>
// CHECK:         tile.atomic_rmw xor, acq_rel, gpu, %[[L]], %[[N]] : !tile.ptr<i32>
// CHECK:         tile.atomic_rmw umax, acq_rel, gpu, %[[L]], %[[N]] : !tile.ptr<i32>
// CHECK:         tile.atomic_rmw umin, acq_rel, gpu, %[[L]], %[[N]] : !tile.ptr<i32>
// CHECK:         tile.atomic_rmw min, acq_rel, gpu, %[[L]], %[[N]] : !tile.ptr<i32>
// CHECK:         tile.atomic_cas acq_rel, gpu, %[[L]], %[[C0:.*]], %[[N]] : !tile.ptr<i32>
// CHECK:         tile.atomic_cas relaxed, cta, %[[L]], %[[C0]], %[[N]] : !tile.ptr<i32>
tile.func @atomics(%x: !tile.ptr<f32>, %lock: !tile.ptr<i32>, %n: i32) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %nv = tile.splat %n : i32 -> tensor<64xi32>
  %m = arith.cmpi slt, %r, %nv : tensor<64xi32>
  %v = arith.sitofp %r : tensor<64xi32> to tensor<64xf32>
  %o = tile.atomic_rmw fadd, acq_rel, gpu, %p, %v, %m : tensor<64x!tile.ptr<f32>>
  %o2 = tile.atomic_rmw max, relaxed, cta, %p, %o : tensor<64x!tile.ptr<f32>>
  %o3 = tile.atomic_rmw xchg, release, sys, %p, %o, %m : tensor<64x!tile.ptr<f32>>
  %i0 = tile.atomic_rmw add, acquire, gpu, %lock, %n : !tile.ptr<i32>
  %i1 = tile.atomic_rmw and, acq_rel, gpu, %lock, %n : !tile.ptr<i32>
  %i2 = tile.atomic_rmw or, acq_rel, gpu, %lock, %n : !tile.ptr<i32>
  %i3 = tile.atomic_rmw xor, acq_rel, gpu, %lock, %n : !tile.ptr<i32>
  %i4 = tile.atomic_rmw umax, acq_rel, gpu, %lock, %n : !tile.ptr<i32>
  %i5 = tile.atomic_rmw umin, acq_rel, gpu, %lock, %n : !tile.ptr<i32>
  %i6 = tile.atomic_rmw min, acq_rel, gpu, %lock, %n : !tile.ptr<i32>
  %c0 = arith.constant 0 : i32
  %old = tile.atomic_cas acq_rel, gpu, %lock, %c0, %n : !tile.ptr<i32>
  %old2 = tile.atomic_cas relaxed, cta, %lock, %c0, %n : !tile.ptr<i32>
  tile.return
}

// CHECK-LABEL: tile.func @descriptors(
// CHECK-SAME:      %[[B:.*]]: !tile.ptr<f16>, %[[M:.*]]: i32, %[[K:.*]]: i64, %[[S:.*]]: i64)
// CHECK:         %[[D:.*]] = tile.make_tensor_desc %[[B]], [%[[M]], %[[K]]], [%[[S]], %[[S]]] : !tile.ptr<f16>, [i32, i64], [i64, i64] -> !tile.tensordesc<tensor<64x32xf16>>
// CHECK:         %[[T:.*]] = tile.desc_load %[[D]][%[[I:.*]], %[[J:.*]]] : !tile.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
// CHECK:         tile.desc_store %[[D]][%[[J]], %[[I]]], %[[T]] : !tile.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
// CHECK:         tile.make_tensor_desc %{{.*}}, [%[[M]]], [%{{.*}}] : !tile.ptr<f32>, [i32], [i32] -> !tile.tensordesc<tensor<128xf32>>
tile.func @descriptors(%base: !tile.ptr<f16>, %m: i32, %k: i64, %s: i64) {
  %d = tile.make_tensor_desc %base, [%m, %k], [%s, %s] : !tile.ptr<f16>, [i32, i64], [i64, i64] -> !tile.tensordesc<tensor<64x32xf16>>
  %i = tile.program_id 0 : i32
  %j = tile.program_id 1 : i32
  %t = tile.desc_load %d[%i, %j] : !tile.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  tile.desc_store %d[%j, %i], %t : !tile.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  %c1 = arith.constant 1 : i32
  %f = tile.call @f32_base() : () -> !tile.ptr<f32>
  %d1 = tile.make_tensor_desc %f, [%m], [%c1] : !tile.ptr<f32>, [i32], [i32] -> !tile.tensordesc<tensor<128xf32>>
  %t1 = tile.desc_load %d1[%i] : !tile.tensordesc<tensor<128xf32>> -> tensor<128xf32>
  tile.desc_store %d1[%j], %t1 : !tile.tensordesc<tensor<128xf32>>, tensor<128xf32>
  tile.return
}
tile.func private @f32_base() -> !tile.ptr<f32>

// CHECK-LABEL: tile.func @hints(
// CHECK-SAME:      %[[X:.*]]: !tile.ptr<f32>, %[[N:.*]]: i32)
// CHECK:         %[[HN:.*]] = tile.hint %[[N]] {divisibility = array<i64: 16>} : i32
// CHECK:         %[[HR:.*]] = tile.hint %{{.*}} {constancy = array<i64: 1, 1>, contiguity = array<i64: 1, 64>, divisibility = array<i64: 1, 64>} : tensor<16x64xi32>
// CHECK:         tile.hint %{{.*}} {divisibility = array<i64: 16, 16>} : tensor<16x64x!tile.ptr<f32>>
// CHECK:         tile.hint %[[X]] : !tile.ptr<f32>
// CHECK:         %[[C:.*]] = arith.cmpi sgt, %[[HN]], %{{.*}} : i32
// CHECK:         tile.assume %[[C]] : i1
// CHECK:         tile.barrier
tile.func @hints(%x: !tile.ptr<f32>, %n: i32) {
  %hn = tile.hint %n {divisibility = array<i64: 16>} : i32
  %s = tile.splat %hn : i32 -> tensor<16x64xi32>
  %hr = tile.hint %s {divisibility = array<i64: 1, 64>, contiguity = array<i64: 1, 64>, constancy = array<i64: 1, 1>} : tensor<16x64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<16x64x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %hr : tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>
  %hp = tile.hint %xp {divisibility = array<i64: 16, 16>} : tensor<16x64x!tile.ptr<f32>>
  %hx = tile.hint %x : !tile.ptr<f32>
  %v = tile.load %hp : tensor<16x64x!tile.ptr<f32>>
  %c0 = arith.constant 0 : i32
  %pos = arith.cmpi sgt, %hn, %c0 : i32
  tile.assume %pos : i1
  tile.barrier
  tile.store %hp, %v : tensor<16x64x!tile.ptr<f32>>
  %sv = tile.load %hx : !tile.ptr<f32>
  tile.store %hx, %sv : !tile.ptr<f32>
  tile.return
}

// tile.histogram, with and without a mask.
// CHECK-LABEL: tile.func private @histogram(
// CHECK:         %[[H:.*]] = tile.histogram %{{.*}}, %{{.*}} : tensor<256xi32>, tensor<256xi1> -> tensor<64xi32>
// CHECK:         %{{.*}} = tile.histogram %{{.*}} : tensor<256xi8> -> tensor<16xi32>
tile.func private @histogram(%x: tensor<256xi32>, %m: tensor<256xi1>, %y: tensor<256xi8>) -> (tensor<64xi32>, tensor<16xi32>) {
  %h = tile.histogram %x, %m : tensor<256xi32>, tensor<256xi1> -> tensor<64xi32>
  %g = tile.histogram %y : tensor<256xi8> -> tensor<16xi32>
  tile.return %h, %g : tensor<64xi32>, tensor<16xi32>
}
