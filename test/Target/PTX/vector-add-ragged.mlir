// PTX for vector add with a ragged n (no divisibility fact): each 16-byte
// chunk is one ld.global.v4 predicated on "the whole chunk is in", followed
// by scalar ld.global.b32 / st.global.b32 for the lanes of a partial chunk.
// (--version-alignment=false: the kernel as written, without its aligned
// variant; test/Passes/tile-version-alignment.mlir tests those.)
// REQUIRES: ptxas
// RUN: tilec %s --version-alignment=false --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// CHECK:       // tilec.kernel name=add_kernel_ragged num_warps=4 shared=0 maxnreg=auto signature=*fp32:16,*fp32:16,*fp32:16,i32
// CHECK-LABEL: .visible .entry add_kernel_ragged(
// CHECK:       @%[[ALL:p[0-9]+]] ld.global.v4.b32 { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, [ %[[A0:rd[0-9]+]] + 0 ];
// CHECK:       xor.pred %[[TAIL:p[0-9]+]], %p{{[0-9]+}}, %[[ALL]];
// CHECK:       @%[[TAIL]] ld.global.b32 %r{{[0-9]+}}, [ %[[A0]] + 0 ];
// CHECK:       selp.b32
// CHECK:       @%p{{[0-9]+}} st.global.v4.b32 [ %[[O0:rd[0-9]+]] + 0 ], { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} };
// CHECK:       @%p{{[0-9]+}} st.global.b32 [ %[[O0]] + 0 ], %r{{[0-9]+}};
// CHECK:       ret;

tile.func @add_kernel_ragged(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
              %y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
              %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
              %n: i32)
    attributes {tile.num_warps = 4 : i32} {
  %c1024 = arith.constant 1024 : i32
  %pid = tile.program_id 0 : i32
  %start = arith.muli %pid, %c1024 : i32
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %startv = tile.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %startv, %range : tensor<1024xi32>
  %nv = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %nv : tensor<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %yb = tile.splat %y : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %yp = tile.addptr %yb, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %xv = tile.load %xp, %mask : tensor<1024x!tile.ptr<f32>>
  %yv = tile.load %yp, %mask : tensor<1024x!tile.ptr<f32>>
  %sum = arith.addf %xv, %yv : tensor<1024xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %ob, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %sum, %mask : tensor<1024x!tile.ptr<f32>>
  tile.return
}
