// PTX for a kernel with an scf.for loop carrying a tile (column sums): the
// loop survives as a backward branch with the masked loads inside it, and
// the accumulated tile is stored once after it.
// (--version-alignment=false: the kernel as written, without its aligned
// variant; test/Passes/tile-version-alignment.mlir tests those.)
// REQUIRES: ptxas
// RUN: tilec %s --version-alignment=false --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// CHECK:       // tilec.kernel name=colsum_kernel num_warps=4 shared=0 maxnreg=auto signature=*fp32:16,*fp32:16,i32,i32
// CHECK-LABEL: .visible .entry colsum_kernel(
// CHECK:       [[LOOP:\$L__BB0_[0-9]+]]:
// CHECK:       @%p{{[0-9]+}} ld.global.b32 %r{{[0-9]+}}, [ %rd{{[0-9]+}} + 0 ];
// CHECK:       add{{(.rn)?}}.f32
// CHECK:       @%p{{[0-9]+}} bra [[LOOP]];
// CHECK:       st.global
// CHECK:       ret;

tile.func @colsum_kernel(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                         %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                         %n: i32, %K: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c256 = arith.constant 256 : i32
  %pid = tile.program_id 0 : i32
  %start = arith.muli %pid, %c256 : i32
  %range = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %startv = tile.splat %start : i32 -> tensor<256xi32>
  %offs = arith.addi %startv, %range : tensor<256xi32>
  %nv = tile.splat %n : i32 -> tensor<256xi32>
  %mask = arith.cmpi slt, %offs, %nv : tensor<256xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<256xf32>
  %acc = scf.for %k = %c0 to %K step %c1 iter_args(%a = %zero) -> (tensor<256xf32>) : i32 {
    %row = arith.muli %k, %n : i32
    %rowv = tile.splat %row : i32 -> tensor<256xi32>
    %o = arith.addi %rowv, %offs : tensor<256xi32>
    %p = tile.addptr %xb, %o : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
    %v = tile.load %p, %mask : tensor<256x!tile.ptr<f32>>
    %s = arith.addf %a, %v : tensor<256xf32>
    scf.yield %s : tensor<256xf32>
  }
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %op = tile.addptr %ob, %offs : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  tile.store %op, %acc, %mask : tensor<256x!tile.ptr<f32>>
  tile.return
}
