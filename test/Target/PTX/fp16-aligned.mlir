// PTX for fp16 vector add with aligned pointers and a 16-divisible n: the 8
// halves a thread holds move as one predicated ld.global.v4.b32 per operand.
// REQUIRES: ptxas
// RUN: tilec %s --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// CHECK:       // tilec.kernel name=add_f16 num_warps=4 shared=0 maxnreg=auto signature=*fp16:16,*fp16:16,*fp16:16,i32:16
// CHECK-LABEL: .visible .entry add_f16(
// CHECK-NOT:   ld.global.b16
// CHECK-COUNT-2: @%p{{[0-9]+}} ld.global.v4.b32 { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, [ %rd{{[0-9]+}} + 0 ];
// CHECK-NOT:   ld.global
// CHECK:       add{{(.rn)?}}.f16x2
// CHECK:       @%p{{[0-9]+}} st.global.v4.b32 [ %rd{{[0-9]+}} + 0 ], { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} };
// CHECK-NOT:   st.global
// CHECK:       ret;

tile.func @add_f16(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32},
              %y: !tile.ptr<f16> {tile.divisibility = 16 : i32},
              %out: !tile.ptr<f16> {tile.divisibility = 16 : i32},
              %n: i32 {tile.divisibility = 16 : i32})
    attributes {tile.num_warps = 4 : i32} {
  %c1024 = arith.constant 1024 : i32
  %pid = tile.program_id 0 : i32
  %start = arith.muli %pid, %c1024 : i32
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %startv = tile.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %startv, %range : tensor<1024xi32>
  %nv = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %nv : tensor<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  %xp = tile.addptr %xb, %offs : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %yb = tile.splat %y : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  %yp = tile.addptr %yb, %offs : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %xv = tile.load %xp, %mask : tensor<1024x!tile.ptr<f16>>
  %yv = tile.load %yp, %mask : tensor<1024x!tile.ptr<f16>>
  %sum = arith.addf %xv, %yv : tensor<1024xf16>
  %ob = tile.splat %out : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  %op = tile.addptr %ob, %offs : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  tile.store %op, %sum, %mask : tensor<1024x!tile.ptr<f16>>
  tile.return
}
