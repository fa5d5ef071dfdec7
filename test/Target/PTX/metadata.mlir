// PTX metadata: one `// tilec.kernel` line per kernel with its num_warps,
// shared memory bytes and signature (divisibility and equal_to facts), and
// .maxntid from num_warps; a layout conversion uses shared memory and
// bar.sync between its stores and loads (no barrier before: nothing used
// the bytes earlier).
// REQUIRES: ptxas
// RUN: tilec %s --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// CHECK:       // tilec.kernel name=scalar num_warps=2 shared=0 maxnreg=auto signature=*fp32,i32:1,i64:16,fp16,bf16,fp32{{$}}
// CHECK-NEXT:  // tilec.kernel name=cvt num_warps=4 shared=2048 maxnreg=auto signature=*fp32:16{{$}}
// CHECK-NEXT:  // tilec.kernel name=unsigned_args num_warps=4 shared=0 maxnreg=auto signature=*u32:16,u32,u8:1,*i32{{$}}
// CHECK:       .extern .shared .align 1024 .b8 tilec_shared[];
// CHECK-LABEL: .visible .entry scalar(
// CHECK:       .maxntid 64, 1, 1
// CHECK-LABEL: .visible .entry cvt(
// CHECK:       .maxntid 128, 1, 1
// CHECK-NOT:   bar.sync
// CHECK:       st.shared.v4.b32
// CHECK:       bar.sync 0;
// CHECK:       ld.shared.b32
// CHECK:       ret;

tile.func @scalar(%x: !tile.ptr<f32>, %one: i32 {tile.equal_to = 1 : i32},
                  %n: i64 {tile.divisibility = 16 : i32}, %h: f16, %b: bf16,
                  %f: f32) attributes {tile.num_warps = 2 : i32} {
  %p = tile.addptr %x, %one : !tile.ptr<f32>, i32
  %v = tile.load %p : !tile.ptr<f32>
  %w = arith.addf %v, %f : f32
  %q = tile.addptr %x, %n : !tile.ptr<f32>, i64
  tile.store %q, %w : !tile.ptr<f32>
  tile.return
}

#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @cvt(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #b4>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #b4>
  %xp = tile.addptr %xb, %r : tensor<512x!tile.ptr<f32>, #b4>, tensor<512xi32, #b4>
  %v = tile.load %xp : tensor<512x!tile.ptr<f32>, #b4>
  %c = tile.convert_layout %v : tensor<512xf32, #b4> -> tensor<512xf32, #b1>
  %r1 = tile.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #b1>
  %xb1 = tile.splat %x : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #b1>
  %xp1 = tile.addptr %xb1, %r1 : tensor<512x!tile.ptr<f32>, #b1>, tensor<512xi32, #b1>
  tile.store %xp1, %c : tensor<512x!tile.ptr<f32>, #b1>
  tile.return
}

// `tile.unsigned` arguments keep u32 / *u32 in the signature (the IR's
// integers stay signless).
tile.func @unsigned_args(%p: !tile.ptr<i32> {tile.divisibility = 16 : i32, tile.unsigned},
                         %n: i32 {tile.unsigned}, %b: i8 {tile.equal_to = 1 : i32, tile.unsigned},
                         %q: !tile.ptr<i32>) attributes {tile.num_warps = 4 : i32} {
  %v = tile.load %p : !tile.ptr<i32>
  %w = arith.divui %v, %n : i32
  tile.store %q, %w : !tile.ptr<i32>
  tile.return
}
