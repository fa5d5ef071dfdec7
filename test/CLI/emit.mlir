// tilec --emit: each stage prints the IR of that stage (a private helper is
// inlined at `tile`, encodings appear at `layout`, gpu.func at `simt`,
// llvm.func at `llvm-dialect`, LLVM IR at `llvm`, its vectors split into
// lanes; the PTX accesses are vectors again); -o writes the file.
// RUN: tilec %s --emit=tile | FileCheck %s --check-prefix=TILE
// RUN: tilec %s --emit=layout | FileCheck %s --check-prefix=LAYOUT
// RUN: tilec %s --emit=simt | FileCheck %s --check-prefix=SIMT
// RUN: tilec %s --emit=llvm-dialect | FileCheck %s --check-prefix=LLVMD
// RUN: tilec %s --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: echo stale > %t.ptx
// RUN: tilec %s -o %t.ptx | count 0
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// RUN: tilec %s --emit=tile -o %t.tile.mlir
// RUN: tilec-opt %t.tile.mlir | FileCheck %s --check-prefix=TILE

// TILE-LABEL: tile.func @scale(
// TILE-NOT:     tile.call
// TILE-NOT:     @twice
// TILE:         %[[V:.*]] = tile.load %{{.*}} : tensor<256x!tile.ptr<f32>>
// TILE:         %[[W:.*]] = arith.addf %[[V]], %[[V]] : tensor<256xf32>
// TILE:         tile.store %{{.*}}, %[[W]] : tensor<256x!tile.ptr<f32>>

// LAYOUT:       #[[$B:.*]] = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// LAYOUT-LABEL: tile.func @scale(
// LAYOUT:         tile.load %{{.*}} : tensor<256x!tile.ptr<f32>, #[[$B]]>

// SIMT:         gpu.module @tilec_kernels
// SIMT:         gpu.func @scale(%{{.*}}: i64) kernel attributes {known_block_size = array<i32: 128, 1, 1>
// SIMT:           llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// SIMT:           arith.addf %{{.*}}, %{{.*}} : vector<2xf32>

// LLVMD:        gpu.module @tilec_kernels
// LLVMD:        llvm.func @scale(%{{.*}}: i64) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>
// LLVMD:          nvvm.read.ptx.sreg.tid.x

// LLVM:         target triple = "nvptx64-nvidia-cuda"
// LLVM:         define ptx_kernel void @scale(i64 %0)
// LLVM:           load float, ptr addrspace(1) %{{.*}}, align
// LLVM:           fadd float

// PTX:          // tilec.kernel name=scale num_warps=4 shared=0 maxnreg=auto signature=*fp32:16
// PTX:          .visible .entry scale(
// PTX:          ld.global.v2.b32

tile.func private @twice(%t: tensor<256xf32>) -> tensor<256xf32> {
  %a = arith.addf %t, %t : tensor<256xf32>
  tile.return %a : tensor<256xf32>
}

tile.func @scale(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %v = tile.load %xp : tensor<256x!tile.ptr<f32>>
  %w = tile.call @twice(%v) : (tensor<256xf32>) -> tensor<256xf32>
  tile.store %xp, %w : tensor<256x!tile.ptr<f32>>
  tile.return
}
