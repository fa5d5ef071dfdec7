// bf16 atomic_add is atom.add.noftz.bf16, an sm_90 instruction: on sm_90a
// ptxas accepts it; --arch sm_80 / sm_89 is a located refusal (no PTX that
// ptxas would reject). fp16 atomic_add (sm_70+) works on sm_80.
// REQUIRES: ptxas
// RUN: tilec %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: not tilec %s --arch=sm_80 -o %t80.ptx 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not tilec %s --arch=sm_89 -o %t89.ptx 2>&1 | FileCheck %s --check-prefix=SM89

// CHECK: atom.global.relaxed.gpu.add.noftz.bf16
// CHECK: atom.global.relaxed.gpu.add.noftz.f16
// SM80: atomics-bf16-add.mlir:[[@LINE+8]]:8: error: unimplemented: bf16 atomic_add needs sm_90 or newer (atom.add.bf16), found --arch sm_80
// SM89: error: unimplemented: bf16 atomic_add needs sm_90 or newer (atom.add.bf16), found --arch sm_89
tile.func @add16(%x: !tile.ptr<bf16>, %h: !tile.ptr<f16>) {
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %f = arith.sitofp %r : tensor<128xi32> to tensor<128xbf16>
  %g = arith.sitofp %r : tensor<128xi32> to tensor<128xf16>
  %xb = tile.splat %x : !tile.ptr<bf16> -> tensor<128x!tile.ptr<bf16>>
  %xp = tile.addptr %xb, %r : tensor<128x!tile.ptr<bf16>>, tensor<128xi32>
  %o = tile.atomic_rmw fadd, relaxed, gpu, %xp, %f : tensor<128x!tile.ptr<bf16>>
  %hb = tile.splat %h : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>>
  %hp = tile.addptr %hb, %r : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
  %p = tile.atomic_rmw fadd, relaxed, gpu, %hp, %g : tensor<128x!tile.ptr<f16>>
  tile.return
}
