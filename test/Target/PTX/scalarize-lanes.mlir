// Kernels off the tensor cores reach O3 as scalars (PTXBackend.cpp,
// ScalarizeLanes): a masked row of 4096 fp32 elements on 4 warps is 32
// registers a thread, 8 vectorized accesses; the mask `cols < n` is then one
// compare per access (NVPTX packed a <32 x i1> vector into 16-bit integers,
// selp.b16 / shl.b16 / or.b16, when it reached SelectionDAG whole), and the
// `where` on it one compare and select per element. The kernel has no
// tensor-core instruction, so its LLVM IR has no vector arithmetic left.
// REQUIRES: ptxas
// RUN: tilec %s --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: tilec %s --emit=llvm | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: .visible .entry masked_where(
// CHECK-NOT:   selp.b16
// CHECK-NOT:   shl.b16
// CHECK-COUNT-8: @%p{{[0-9]+}} ld.global.v4.b32
// CHECK-NOT:   ld.global
// CHECK-COUNT-8: @%p{{[0-9]+}} st.global.v4.b32
// CHECK-NOT:   selp.b16
// CHECK:       ret;

// LLVM-LABEL: define ptx_kernel void @masked_where(
// LLVM-NOT:   icmp {{.*}}<{{[0-9]+}} x i32>
// LLVM-NOT:   select <{{[0-9]+}} x i1>
// LLVM-NOT:   fsub <{{[0-9]+}} x float>
// LLVM:       ret void

tile.func @masked_where(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                        %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                        %n: i32 {tile.divisibility = 16 : i32},
                        %mean: f32)
    attributes {tile.num_warps = 4 : i32} {
  %cols = tile.make_range {start = 0 : i32, end = 4096 : i32} : tensor<4096xi32>
  %nv = tile.splat %n : i32 -> tensor<4096xi32>
  %mask = arith.cmpi slt, %cols, %nv : tensor<4096xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<4096x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %cols : tensor<4096x!tile.ptr<f32>>, tensor<4096xi32>
  %zero = arith.constant dense<0.0> : tensor<4096xf32>
  %v = tile.load %xp, %mask, %zero : tensor<4096x!tile.ptr<f32>>
  %m = tile.splat %mean : f32 -> tensor<4096xf32>
  %d = arith.subf %v, %m : tensor<4096xf32>
  %w = arith.select %mask, %d, %zero : tensor<4096xi1>, tensor<4096xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<4096x!tile.ptr<f32>>
  %op = tile.addptr %ob, %cols : tensor<4096x!tile.ptr<f32>>, tensor<4096xi32>
  tile.store %op, %w, %mask : tensor<4096x!tile.ptr<f32>>
  tile.return
}
