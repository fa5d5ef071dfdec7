// tile.hint (tl.multiple_of / tl.max_contiguous) on pointers whose kernel
// arguments carry no divisibility fact: the hinted copy gets 16-byte
// ld.global.v4 / st.global.v4, the same copy without hints scalar accesses.
// tile.barrier is a bar.sync and tile.assume leaves no instruction.
// REQUIRES: ptxas
// RUN: tilec %s --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// CHECK-LABEL: .visible .entry copy_hinted(
// CHECK-NOT:   ld.global.b32
// CHECK:       ld.global.v4.b32
// CHECK:       bar.sync 0;
// CHECK:       st.global.v4.b32
// CHECK-NOT:   st.global.b32
// CHECK:       ret;
tile.func @copy_hinted(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %pos = arith.cmpi sgt, %n, %c0 : i32
  tile.assume %pos : i1
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %range : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %xh = tile.hint %xp {divisibility = array<i64: 16>} : tensor<1024x!tile.ptr<f32>>
  %v = tile.load %xh : tensor<1024x!tile.ptr<f32>>
  tile.barrier
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %ob, %range : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %oh = tile.hint %op {divisibility = array<i64: 16>, contiguity = array<i64: 1024>} : tensor<1024x!tile.ptr<f32>>
  tile.store %oh, %v : tensor<1024x!tile.ptr<f32>>
  tile.return
}

// CHECK-LABEL: .visible .entry copy_unhinted(
// CHECK-NOT:   ld.global.v4
// CHECK:       ld.global.b32
// CHECK-NOT:   st.global.v4
// CHECK:       st.global.b32
// CHECK:       ret;
tile.func @copy_unhinted(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) {
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %range : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %v = tile.load %xp : tensor<1024x!tile.ptr<f32>>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %ob, %range : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %v : tensor<1024x!tile.ptr<f32>>
  tile.return
}
