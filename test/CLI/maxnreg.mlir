// Register limits (Triton's maxnreg, PTX .maxnreg): a kernel's own
// tile.maxnreg wins over tilec --maxnreg, which applies to the others; no
// limit by default; out of [16, 255] is an error (the option, the
// attribute); a warp-specialized kernel refuses one (its warp groups set
// their registers with setmaxnreg).
// RUN: tilec %s --maxnreg 64 -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// RUN: tilec %s | FileCheck %s --check-prefix=NONE
// RUN: not tilec %s --maxnreg 8 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not tilec %s --maxnreg 256 2>&1 | FileCheck %s --check-prefix=OPTION256
// RUN: not tilec %S/Inputs/maxnreg-bad.mlir 2>&1 | FileCheck %s --check-prefix=ATTR
// RUN: not tilec %tilec_src/test/GPU/kernels/py/host_descriptors.py --kernel matmul_tma_kernel --signature 'tensordesc<fp16[128,64]>,tensordesc<fp16[128,64]>,tensordesc<fp16[128,128]>,i32,i32,i32' -DGROUP_M=8 -DNUM_STAGES=3 -DWARP_SPECIALIZE=True --num-warps 4 --maxnreg 128 2>&1 | FileCheck %s --check-prefix=WS

// CHECK-LABEL: .visible .entry own(
// CHECK:       .maxntid 128, 1, 1
// CHECK-NEXT:  .maxnreg 40
// CHECK-LABEL: .visible .entry other(
// CHECK:       .maxntid 128, 1, 1
// CHECK-NEXT:  .maxnreg 64

// NONE-LABEL: .visible .entry own(
// NONE:       .maxnreg 40
// NONE-LABEL: .visible .entry other(
// NONE-NOT:   .maxnreg
// NONE:       ret;

// OPTION: tilec: error: expected --maxnreg in [16, 255] (or 0: no limit), found 8
// OPTION256: tilec: error: expected --maxnreg in [16, 255] (or 0: no limit), found 256
// ATTR: maxnreg-bad.mlir:3:1: error: 'tile.func' op expected tile.maxnreg to be an integer in [16, 255] on a tile.func, found 300 : i32
// WS: error: maxnreg cannot limit a warp-specialized kernel: its warp groups set their registers with setmaxnreg

tile.func @own(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.maxnreg = 40 : i32} {
  %r = tile.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %v = tile.load %xp : tensor<512x!tile.ptr<f32>>
  tile.store %xp, %v : tensor<512x!tile.ptr<f32>>
  tile.return
}

tile.func @other(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %v = tile.load %xp : tensor<512x!tile.ptr<f32>>
  tile.store %xp, %v : tensor<512x!tile.ptr<f32>>
  tile.return
}
