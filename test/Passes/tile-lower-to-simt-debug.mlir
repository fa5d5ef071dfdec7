// tile-lower-to-simt of tile.print and tile.assert, with explicit
// encodings: one gpu.printf per element a thread holds, in Triton's format
// (indices from the layout, padded to their dimension's digits; values
// promoted as C varargs), and the assertion as an AND of the thread's
// elements guarding a call of __assertfail, then a CTA barrier.
// RUN: tilec-opt %s --tile-lower-to-simt --split-input-file | FileCheck %s

// 64 i32 over 1 warp, 2 per thread: two printfs, index width 2; the fp16
// scalar printed as a double; hex bits of an f32 tile; a pointer as %p; a
// prefix's `%` escaped.
// CHECK-LABEL: gpu.func @prints(
// CHECK-DAG:     %[[BX:.*]] = gpu.block_id  x
// CHECK-DAG:     %[[BY:.*]] = gpu.block_id  y
// CHECK-DAG:     %[[BZ:.*]] = gpu.block_id  z
// CHECK-DAG:     %[[PX:.*]] = arith.index_castui %[[BX]] : index to i32
// CHECK:         %[[E0:.*]] = llvm.extractelement %{{.*}}[%{{.*}} : i32] : vector<2xi32>
// CHECK:         gpu.printf "pid (%u, %u, %u) idx (%2u) x: %i\0A", %[[PX]], %{{.*}}, %{{.*}}, %{{.*}}, %[[E0]] : i32, i32, i32, i32, i32
// CHECK:         gpu.printf "pid (%u, %u, %u) idx (%2u) x: %i\0A"
// CHECK-NOT:     gpu.printf "pid (%u, %u, %u) idx (%2u) x: %i\0A"
// CHECK:         %[[D:.*]] = arith.extf %{{.*}} : f16 to f64
// CHECK:         gpu.printf "pid (%u, %u, %u) idx () h: %f\0A", %{{.*}}, %{{.*}}, %{{.*}}, %[[D]] : i32, i32, i32, f64
// CHECK:         %[[B:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK:         gpu.printf "pid (%u, %u, %u) idx (%2u) bits: 0x%08x\0A", {{.*}}, %[[B]] : i32, i32, i32, i32, i32
// CHECK:         gpu.printf "pid (%u, %u, %u) idx (%2u) bits: 0x%08x\0A"
// CHECK:         gpu.printf "pid (%u, %u, %u) idx () 100%%: (operand 0) %p\0A", {{.*}} : i32, i32, i32, i64
// CHECK:         %[[U:.*]] = arith.extui %{{.*}} : i8 to i32
// CHECK:         gpu.printf "pid (%u, %u, %u) idx () 100%%: (operand 1) %u\0A", {{.*}}, %[[U]] : i32, i32, i32, i32
// CHECK:         %[[S:.*]] = arith.extsi %{{.*}} : i8 to i32
// CHECK:         gpu.printf "pid (%u, %u, %u) idx () 100%%: (operand 2) %i\0A", {{.*}}, %[[S]] : i32, i32, i32, i32
// CHECK:         gpu.printf "pid (%u, %u, %u) idx () 100%%: (operand 3) %lli\0A", {{.*}} : i32, i32, i32, i64
// CHECK:         gpu.printf "pid (%u, %u, %u) hello\0A", {{.*}} : i32, i32, i32
// CHECK-NOT:     tile.print
#b = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
tile.func @prints(%p: !tile.ptr<f32>, %h: f16, %c: i8, %l: i64) attributes {tile.num_warps = 1 : i32} {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #b>
  tile.print " x: " %r {is_signed = array<i1: true>} : tensor<64xi32, #b>
  tile.print " h: " %h {is_signed = array<i1: false>} : f16
  %f = arith.sitofp %r : tensor<64xi32, #b> to tensor<64xf32, #b>
  tile.print " bits: " hex %f {is_signed = array<i1: false>} : tensor<64xf32, #b>
  tile.print " 100%: " %p, %c, %c, %l {is_signed = array<i1: false, false, true, true>} : !tile.ptr<f32>, i8, i8, i64
  tile.print " hello" {is_signed = array<i1>}
  tile.return
}

// -----

// 8 elements per thread over 4 warps: each of the 8 elements a thread holds is checked;
// one failing element calls __assertfail with the message, the file and line
// of the op's location (the callee's in a helper) and the kernel's name.
// CHECK-LABEL: gpu.module @tilec_kernels
// CHECK-DAG:     llvm.mlir.global internal constant @assert_message_0("x must be positive\00")
// CHECK-DAG:     llvm.mlir.global internal constant @assert_file_0("k.py\00")
// CHECK-DAG:     llvm.mlir.global internal constant @assert_function_0("checks\00")
// CHECK-DAG:     llvm.mlir.global internal constant @assert_message_1("given\00")
// CHECK-DAG:     llvm.mlir.global internal constant @assert_file_1("f.py\00")
// CHECK-DAG:     llvm.mlir.global internal constant @assert_function_1("helper\00")
// CHECK-DAG:     llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64)
// CHECK:         gpu.func @checks(
// CHECK-COUNT-7: arith.andi %{{.*}}, %{{.*}} : i1
// CHECK:         %[[BAD:.*]] = arith.xori %{{.*}}, %{{.*}} : i1
// CHECK:         scf.if %[[BAD]] {
// CHECK:           %[[LINE:.*]] = arith.constant 12 : i32
// CHECK:           llvm.call @__assertfail(%{{.*}}, %{{.*}}, %[[LINE]], %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) -> ()
// CHECK:         }
// CHECK-NEXT:    gpu.barrier
// CHECK:         arith.constant 7 : i32
// CHECK:         llvm.call @__assertfail
// CHECK:         gpu.barrier
// CHECK-NOT:     tile.assert
#b8 = #tile.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @checks() attributes {tile.num_warps = 4 : i32} {
  %x = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #b8>
  %z = arith.constant dense<0> : tensor<1024xi32, #b8>
  %ok = arith.cmpi sgt, %x, %z : tensor<1024xi32, #b8>
  tile.assert %ok, "x must be positive" : tensor<1024xi1, #b8> loc(callsite("k.py":12:5 at "k.py":30:3))
  %t = arith.constant true
  tile.assert %t, "given" {file = "f.py", line = 7 : i32, function = "helper"} : i1
  tile.return
}
