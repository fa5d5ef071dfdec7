// tilec --num-warps overrides tile.num_warps on every kernel: the layouts,
// the launch bounds and the metadata all follow it.
// RUN: tilec %s --num-warps 8 --emit=layout | FileCheck %s --check-prefix=LAYOUT
// RUN: tilec %s --num-warps=8 -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// LAYOUT: #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// LAYOUT: tile.func @k({{.*}}) attributes {tile.num_warps = 8 : i32}

// CHECK: // tilec.kernel name=k num_warps=8 shared=0 maxnreg=auto signature=*fp32:16
// CHECK: .maxntid 256, 1, 1

tile.func @k(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.num_warps = 2 : i32} {
  %r = tile.make_range {start = 0 : i32, end = 2048 : i32} : tensor<2048xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<2048x!tile.ptr<f32>>, tensor<2048xi32>
  %v = tile.load %xp : tensor<2048x!tile.ptr<f32>>
  tile.store %xp, %v : tensor<2048x!tile.ptr<f32>>
  tile.return
}
