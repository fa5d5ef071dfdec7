// Round trip of tile.elementwise_inline_asm (tl.inline_asm_elementwise)
// through the custom and the generic syntax: one and several results, a
// pack of 4 bytes, scalars, no operands, a clobber. Canonicalization and CSE
// merge identical pure asm and drop unused pure asm; asm without `pure` has
// side effects and stays, each copy.
// RUN: tilec-opt %s | tilec-opt | FileCheck %s
// RUN: tilec-opt %s --mlir-print-op-generic | tilec-opt | FileCheck %s
// RUN: tilec-opt %s --canonicalize --cse | FileCheck %s --check-prefix=CSE

// CHECK-LABEL: tile.func private @asm(
// CHECK-SAME:      %[[X:.*]]: tensor<256xf32>, %[[A:.*]]: tensor<256xi8>, %[[N:.*]]: i32)
// CHECK:         %[[T:.*]] = tile.elementwise_inline_asm "tanh.approx.f32 $0, $1;", "=r,r" pure pack 1 %[[X]] : (tensor<256xf32>) -> tensor<256xf32>
// CHECK:         %{{.*}}:2 = tile.elementwise_inline_asm "{{.*}}", "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r" pure pack 4 %[[A]], %[[T]] : (tensor<256xi8>, tensor<256xf32>) -> (tensor<256xi32>, tensor<256xf32>)
// CHECK:         tile.elementwise_inline_asm "mov.u32 $0, %clock;", "=r" pack 1 : () -> i32
// CHECK:         tile.elementwise_inline_asm "add.s32 $0, $1, $2;", "=r,r,r,~{memory}" pack 1 %[[N]], %[[N]] : (i32, i32) -> i32

// CSE-LABEL: tile.func private @asm(
// CSE:         tile.elementwise_inline_asm "tanh.approx.f32 $0, $1;"
// CSE-NOT:     tile.elementwise_inline_asm "tanh.approx.f32 $0, $1;"
// CSE-NOT:     "never used"
// CSE-COUNT-2: tile.elementwise_inline_asm "mov.u32 $0, %clock;"
tile.func private @asm(%x: tensor<256xf32>, %a: tensor<256xi8>, %n: i32) -> (tensor<256xf32>, tensor<256xi32>, tensor<256xf32>, i32, i32, i32) {
  %t = tile.elementwise_inline_asm "tanh.approx.f32 $0, $1;", "=r,r" pure pack 1 %x : (tensor<256xf32>) -> tensor<256xf32>
  %t2 = tile.elementwise_inline_asm "tanh.approx.f32 $0, $1;", "=r,r" pure pack 1 %x : (tensor<256xf32>) -> tensor<256xf32>
  %s = arith.addf %t, %t2 : tensor<256xf32>
  %i, %m = tile.elementwise_inline_asm "{ .reg .b8 b<4>; mov.b32 {b0, b1, b2, b3}, $8; cvt.u32.u8 $0, b0; cvt.u32.u8 $1, b1; cvt.u32.u8 $2, b2; cvt.u32.u8 $3, b3; } mov.b32 $4, $9; mov.b32 $5, $10; mov.b32 $6, $11; mov.b32 $7, $12;", "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r" pure pack 4 %a, %t : (tensor<256xi8>, tensor<256xf32>) -> (tensor<256xi32>, tensor<256xf32>)
  %unused = tile.elementwise_inline_asm "never used", "=r,r" pure pack 1 %x : (tensor<256xf32>) -> tensor<256xf32>
  %c0 = tile.elementwise_inline_asm "mov.u32 $0, %clock;", "=r" pack 1 : () -> i32
  %c1 = tile.elementwise_inline_asm "mov.u32 $0, %clock;", "=r" pack 1 : () -> i32
  %k = tile.elementwise_inline_asm "add.s32 $0, $1, $2;", "=r,r,r,~{memory}" pack 1 %n, %n : (i32, i32) -> i32
  tile.return %s, %i, %m, %c0, %c1, %k : tensor<256xf32>, tensor<256xi32>, tensor<256xf32>, i32, i32, i32
}
