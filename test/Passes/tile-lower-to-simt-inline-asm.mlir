// tile-lower-to-simt lowers tile.elementwise_inline_asm to one
// llvm.inline_asm per pack of each thread's registers (explicit encodings
// in): narrow elements packed into 32-bit registers as vectors, several
// result registers in a struct, the last pack padded with undefined values,
// `has_side_effects` without `pure`, scalars once per thread.
// RUN: tilec-opt %s --tile-lower-to-simt --split-input-file | FileCheck %s

// 512 elements, 4 per thread (sizePerThread 4): one pack of 4 per thread;
// the four i8 are one vector<4xi8> operand, the f32 four operands, the
// results eight registers in a struct; results rebuilt as vector<4 x T>.
// CHECK-LABEL: gpu.func @pack4(
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<1> -> vector<4xi8>
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-4: llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<4xi8>
// CHECK-NOT:     llvm.inline_asm asm_dialect = att "unpack
// CHECK:         %[[R:.*]] = llvm.inline_asm asm_dialect = att "unpack", "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r" %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (vector<4xi8>, f32, f32, f32, f32) -> !llvm.struct<(i32, i32, i32, i32, f32, f32, f32, f32)>
// CHECK-COUNT-8: llvm.extractvalue %[[R]]
// CHECK-NOT:     llvm.inline_asm asm_dialect = att "unpack
// CHECK:         gpu.return
#b4 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @pack4(%a: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                 %c: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %d: !tile.ptr<f32> {tile.divisibility = 16 : i32})
    attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #b4>
  %ab = tile.splat %a : !tile.ptr<i8> -> tensor<512x!tile.ptr<i8>, #b4>
  %ap = tile.addptr %ab, %r : tensor<512x!tile.ptr<i8>, #b4>, tensor<512xi32, #b4>
  %av = tile.load %ap : tensor<512x!tile.ptr<i8>, #b4>
  %bb = tile.splat %b : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #b4>
  %bp = tile.addptr %bb, %r : tensor<512x!tile.ptr<f32>, #b4>, tensor<512xi32, #b4>
  %bv = tile.load %bp : tensor<512x!tile.ptr<f32>, #b4>
  %i, %f = tile.elementwise_inline_asm "unpack", "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r" pure pack 4 %av, %bv : (tensor<512xi8, #b4>, tensor<512xf32, #b4>) -> (tensor<512xi32, #b4>, tensor<512xf32, #b4>)
  %cb = tile.splat %c : !tile.ptr<i32> -> tensor<512x!tile.ptr<i32>, #b4>
  %cp = tile.addptr %cb, %r : tensor<512x!tile.ptr<i32>, #b4>, tensor<512xi32, #b4>
  tile.store %cp, %i : tensor<512x!tile.ptr<i32>, #b4>
  %db = tile.splat %d : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #b4>
  %dp = tile.addptr %db, %r : tensor<512x!tile.ptr<f32>, #b4>, tensor<512xi32, #b4>
  tile.store %dp, %f : tensor<512x!tile.ptr<f32>, #b4>
  tile.return
}

// -----

// 128 i8 on 4 warps with one element per thread: a pack of 4 is that
// element and three undefined ones; the side-effecting asm (no `pure`) is
// has_side_effects; the scalar operand %n is the same in every element.
// CHECK-LABEL: gpu.func @padded(
// CHECK-COUNT-3: llvm.mlir.undef : i8
// CHECK:         %[[R:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "bytes", "=r,r,r,r,r,r" %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (vector<4xi8>, i32, i32, i32, i32) -> vector<4xi8>
// CHECK:         llvm.extractelement %[[R]][%{{.*}} : i32] : vector<4xi8>
// CHECK-NOT:     llvm.inline_asm {{.*}} "bytes"
// CHECK:         gpu.return
#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @padded(%a: !tile.ptr<i8>, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #b1>
  %ab = tile.splat %a : !tile.ptr<i8> -> tensor<128x!tile.ptr<i8>, #b1>
  %ap = tile.addptr %ab, %r : tensor<128x!tile.ptr<i8>, #b1>, tensor<128xi32, #b1>
  %av = tile.load %ap : tensor<128x!tile.ptr<i8>, #b1>
  %y = tile.elementwise_inline_asm "bytes", "=r,r,r,r,r,r" pack 4 %av, %n : (tensor<128xi8, #b1>, i32) -> tensor<128xi8, #b1>
  tile.store %ap, %y : tensor<128x!tile.ptr<i8>, #b1>
  tile.return
}

// -----

// Scalars: one asm per thread, the result a scalar; an unused pure asm is
// still lowered here (tile-lower-to-simt does not erase ops).
// CHECK-LABEL: gpu.func @scalar(
// CHECK:         %[[T:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "mov.u32 $0, %clock;", "=r"  : () -> i32
// CHECK:         llvm.inline_asm asm_dialect = att "add.s32 $0, $1, $2;", "=r,r,r" %[[T]], %{{.*}} : (i32, i32) -> i32
tile.func @scalar(%p: !tile.ptr<i32>, %n: i32) attributes {tile.num_warps = 1 : i32} {
  %t = tile.elementwise_inline_asm "mov.u32 $0, %clock;", "=r" pack 1 : () -> i32
  %s = tile.elementwise_inline_asm "add.s32 $0, $1, $2;", "=r,r,r" pure pack 1 %t, %n : (i32, i32) -> i32
  tile.store %p, %s : !tile.ptr<i32>
  tile.return
}
