// PTX for a 2-D kernel (16 x 64 tile, masks on both dimensions, row strides
// without divisibility facts): a 2-D grid, and one predicated scalar access
// per element (8 per thread), since no two elements are provably adjacent
// and aligned in memory.
// (--version-alignment=false: the kernel as written, without its aligned
// variant; test/Passes/tile-version-alignment.mlir tests those.)
// REQUIRES: ptxas
// RUN: tilec %s --version-alignment=false --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// CHECK:       // tilec.kernel name=scale2d_kernel num_warps=4 shared=0 maxnreg=auto signature=*fp32:16,*fp32:16,i32,i32,i32,i32
// CHECK-LABEL: .visible .entry scale2d_kernel(
// CHECK:       .maxntid 128, 1, 1
// CHECK-DAG:   mov.u32 %r{{[0-9]+}}, %ctaid.x;
// CHECK-DAG:   mov.u32 %r{{[0-9]+}}, %ctaid.y;
// CHECK:       mad.lo.s32
// CHECK-NOT:   ld.global.v
// CHECK-COUNT-8: @%p{{[0-9]+}} ld.global.b32 %r{{[0-9]+}}, [ %rd{{[0-9]+}} + 0 ];
// CHECK-NOT:   ld.global
// CHECK-COUNT-8: @%p{{[0-9]+}} st.global.b32 [ %rd{{[0-9]+}} + 0 ], %r{{[0-9]+}};
// CHECK-NOT:   st.global
// CHECK:       ret;

tile.func @scale2d_kernel(%in: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                          %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                          %M: i32, %N: i32, %si: i32, %so: i32)
    attributes {tile.num_warps = 4 : i32} {
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant 64 : i32
  %pm = tile.program_id 0 : i32
  %pn = tile.program_id 1 : i32
  %m0 = arith.muli %pm, %c16 : i32
  %n0 = arith.muli %pn, %c64 : i32
  %rm = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %rn = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %m0v = tile.splat %m0 : i32 -> tensor<16xi32>
  %n0v = tile.splat %n0 : i32 -> tensor<64xi32>
  %offm = arith.addi %m0v, %rm : tensor<16xi32>
  %offn = arith.addi %n0v, %rn : tensor<64xi32>
  // rows: offm[:, None]; cols: offn[None, :]
  %rows = tile.expand_dims %offm {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols = tile.expand_dims %offn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %siv = tile.splat %si : i32 -> tensor<16x1xi32>
  %sov = tile.splat %so : i32 -> tensor<16x1xi32>
  %rin = arith.muli %rows, %siv : tensor<16x1xi32>
  %rout = arith.muli %rows, %sov : tensor<16x1xi32>
  %rinb = tile.broadcast %rin : tensor<16x1xi32> -> tensor<16x64xi32>
  %routb = tile.broadcast %rout : tensor<16x1xi32> -> tensor<16x64xi32>
  %colsb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<16x64xi32>
  %oin = arith.addi %rinb, %colsb : tensor<16x64xi32>
  %oout = arith.addi %routb, %colsb : tensor<16x64xi32>
  %Mv = tile.splat %M : i32 -> tensor<16x1xi32>
  %Nv = tile.splat %N : i32 -> tensor<1x64xi32>
  %mm = arith.cmpi slt, %rows, %Mv : tensor<16x1xi32>
  %mn = arith.cmpi slt, %cols, %Nv : tensor<1x64xi32>
  %mmb = tile.broadcast %mm : tensor<16x1xi1> -> tensor<16x64xi1>
  %mnb = tile.broadcast %mn : tensor<1x64xi1> -> tensor<16x64xi1>
  %mask = arith.andi %mmb, %mnb : tensor<16x64xi1>
  %ib = tile.splat %in : !tile.ptr<f32> -> tensor<16x64x!tile.ptr<f32>>
  %ip = tile.addptr %ib, %oin : tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>
  %v = tile.load %ip, %mask : tensor<16x64x!tile.ptr<f32>>
  %two = arith.constant dense<2.0> : tensor<16x64xf32>
  %r = arith.mulf %v, %two : tensor<16x64xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<16x64x!tile.ptr<f32>>
  %op = tile.addptr %ob, %oout : tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>
  tile.store %op, %r, %mask : tensor<16x64x!tile.ptr<f32>>
  tile.return
}
