// tile-lower-to-simt (after tile-assign-layouts): kernels become gpu.func
// kernels in a gpu.module with their launch metadata; tiles become the
// per-thread vectors their encodings give; loads and stores become vector
// LLVM loads/stores or predicated inline PTX; layout conversions go through
// shared memory between barriers.
// RUN: tilec-opt %s --tile-assign-layouts --tile-allocate-shared --tile-insert-barriers --tile-lower-to-simt --split-input-file | FileCheck %s

// Vector add, masked: 1024 elements over 4 warps are 8 f32 per thread,
// accessed as two 16-byte chunks, each predicated on its mask element.
// The mask is constant over aligned blocks of 16 (n is a multiple of 16),
// so each thread computes it once per run of 4 registers: the shuffle
// hands register 0's compare to registers 1-3 and register 4's to 5-7.
// CHECK-LABEL: gpu.module @tilec_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx84">] {
// CHECK:         llvm.mlir.global external @tilec_shared() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK:         gpu.func @add_kernel(%[[X:.*]]: i64, %[[Y:.*]]: i64, %[[OUT:.*]]: i64, %[[N:.*]]: i32) kernel
// CHECK-SAME:        known_block_size = array<i32: 128, 1, 1>
// CHECK-SAME:        tile.num_warps = 4 : i32, tile.shared = 0 : i32, tile.signature = "*fp32:16,*fp32:16,*fp32:16,i32:16"
// CHECK:           gpu.block_id  x
// CHECK:           gpu.thread_id  x
// CHECK:           %[[MASK:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK-NEXT:      llvm.shufflevector %[[MASK]], %[[MASK]] [0, 0, 0, 0, 4, 4, 4, 4] : vector<8xi1>
// CHECK-NOT:       llvm.load
// CHECK-COUNT-4:   llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, 0;\0A\09mov.b32 $1, 0;\0A\09mov.b32 $2, 0;\0A\09mov.b32 $3, 0;\0A\09@$4 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $5 + 0 ];", "=r,=r,=r,=r,b,l" %{{.*}}, %{{.*}} : (i1, i64) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK:           %[[SUM:.*]] = arith.addf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK:           llvm.shufflevector %[[SUM]], %[[SUM]] [0, 1, 2, 3] : vector<8xf32>
// CHECK:           llvm.inline_asm has_side_effects asm_dialect = att "@$0 st.global.v4.b32 [ $1 + 0 ], { $2, $3, $4, $5 };", "b,l,r,r,r,r"
// CHECK:           llvm.shufflevector %[[SUM]], %[[SUM]] [4, 5, 6, 7] : vector<8xf32>
// CHECK:           llvm.inline_asm has_side_effects asm_dialect = att "@$0 st.global.v4.b32 [ $1 + 0 ], { $2, $3, $4, $5 };", "b,l,r,r,r,r"
// CHECK-NOT:       llvm.store
// CHECK:           gpu.return
// CHECK-NOT:     tile.
tile.func @add_kernel(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
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

// -----

// The same compare against an n with no divisibility fact is computed for
// every register: nothing proves two elements' masks equal.
// CHECK-LABEL: gpu.func @ragged_mask(
// CHECK:           %[[MASK:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK-NOT:       llvm.shufflevector %[[MASK]]
// CHECK:           gpu.return
tile.func @ragged_mask(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                       %n: i32)
    attributes {tile.num_warps = 4 : i32} {
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %nv = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %range, %nv : tensor<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %range : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %xv = tile.load %xp, %mask : tensor<1024x!tile.ptr<f32>>
  %one = arith.constant dense<1.0> : tensor<1024xf32>
  %y = arith.addf %xv, %one : tensor<1024xf32>
  tile.store %xp, %y, %mask : tensor<1024x!tile.ptr<f32>>
  tile.return
}

// -----

// Values that are not constant over blocks keep every register: `(r - 1024)
// / 4` truncates toward zero (-1024..-1021 / 4 is -256, -255, -255, -255),
// and a load through one pointer reads `other` where its mask is off. The
// same quotient of a non-negative dividend is shared over runs of 4.
// CHECK-LABEL: gpu.func @not_blocks(
// CHECK:           %[[Q:.*]] = arith.divsi %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK-NOT:       llvm.shufflevector %[[Q]], %[[Q]] [0, 0
// CHECK:           %[[P:.*]] = arith.divsi %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK-NEXT:      llvm.shufflevector %[[P]], %[[P]] [0, 0, 0, 0, 4, 4, 4, 4] : vector<8xi32>
// CHECK:           %[[Y:.*]] = arith.addi %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK-NOT:       llvm.shufflevector %[[Y]], %[[Y]] [0, 0
// CHECK:           gpu.return
tile.func @not_blocks(%out: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                      %n: i32)
    attributes {tile.num_warps = 4 : i32} {
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %c1024 = arith.constant dense<1024> : tensor<1024xi32>
  %neg = arith.subi %range, %c1024 : tensor<1024xi32>
  %c4 = arith.constant dense<4> : tensor<1024xi32>
  %q = arith.divsi %neg, %c4 : tensor<1024xi32>
  %ob = tile.splat %out : !tile.ptr<i32> -> tensor<1024x!tile.ptr<i32>>
  %op = tile.addptr %ob, %range : tensor<1024x!tile.ptr<i32>>, tensor<1024xi32>
  tile.store %op, %q : tensor<1024x!tile.ptr<i32>>
  %p = arith.divsi %range, %c4 : tensor<1024xi32>
  tile.store %op, %p : tensor<1024x!tile.ptr<i32>>
  %nv = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %range, %nv : tensor<1024xi32>
  %m1 = arith.constant dense<-1> : tensor<1024xi32>
  %x = tile.load %ob, %mask, %m1 : tensor<1024x!tile.ptr<i32>>
  %one = arith.constant dense<1> : tensor<1024xi32>
  %y = arith.addi %x, %one : tensor<1024xi32>
  tile.store %op, %y : tensor<1024x!tile.ptr<i32>>
  tile.return
}

// -----

// Unmasked, 16-byte aligned: plain vector loads and stores, alignment 16.
// CHECK-LABEL: gpu.func @copy(
// CHECK-SAME:        tile.signature = "*fp32:16,*fp32:16"
// CHECK-NOT:       llvm.inline_asm
// CHECK-COUNT-2:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT:       llvm.inline_asm
// CHECK-COUNT-2:   llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK-NOT:       llvm.inline_asm
// CHECK:           gpu.return
tile.func @copy(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %range : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %xv = tile.load %xp : tensor<1024x!tile.ptr<f32>>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %ob, %range : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %xv : tensor<1024x!tile.ptr<f32>>
  tile.return
}

// -----

// Masked with `other`, no alignment facts: one element per thread, the
// destination first takes `other` ($3), then the predicated load.
// CHECK-LABEL: gpu.func @masked_other(
// CHECK-SAME:        tile.signature = "*fp32,i32"
// CHECK:           %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<1xf32>
// CHECK:           %[[O:.*]] = llvm.extractelement %[[ONE]][%{{.*}} : i32] : vector<1xf32>
// CHECK:           %[[OW:.*]] = llvm.bitcast %[[O]] : f32 to i32
// CHECK:           llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $3;\0A\09@$1 ld.global.b32 $0, [ $2 + 0 ];", "=r,b,l,r" %{{.*}}, %{{.*}}, %[[OW]] : (i1, i64, i32) -> i32
// CHECK:           llvm.inline_asm has_side_effects asm_dialect = att "@$0 st.global.b32 [ $1 + 0 ], $2;", "b,l,r" %{{.*}}, %{{.*}}, %{{.*}} : (i1, i64, i32) -> ()
// CHECK:           gpu.return
tile.func @masked_other(%x: !tile.ptr<f32>, %n: i32) {
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %nv = tile.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %nv : tensor<128xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %v = tile.load %xp, %m, %one : tensor<128x!tile.ptr<f32>>
  tile.store %xp, %v, %m : tensor<128x!tile.ptr<f32>>
  tile.return
}

// -----

// A conversion between two encodings across warps: every thread writes its
// elements to shared memory (its four consecutive ones as one 16-byte
// store), a barrier, every thread reads the elements of the other layout.
// 512 x f32 = 2048 bytes of shared memory, recorded on the kernel.
// CHECK-LABEL: gpu.func @cvt(
// CHECK-SAME:        tile.shared = 2048 : i32
// CHECK:           llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK:           %[[SMEM:.*]] = llvm.mlir.addressof @tilec_shared : !llvm.ptr<3>
// CHECK-NOT:       gpu.barrier
// CHECK:           llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NOT:       llvm.store
// CHECK:           gpu.barrier
// CHECK-COUNT-4:   llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT:       gpu.barrier
// CHECK-COUNT-4:   llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK:           gpu.return
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

// -----

// Scalars: grid ids, scalar loads/stores with the element's alignment; a
// device function not inlined into a kernel is dropped.
// CHECK-LABEL: gpu.func @scalar(
// CHECK-SAME:        %[[X:.*]]: i64) kernel
// CHECK-SAME:        known_block_size = array<i32: 256, 1, 1>
// CHECK-SAME:        tile.num_warps = 8 : i32
// CHECK:           %[[BY:.*]] = gpu.block_id  y
// CHECK:           %[[PID:.*]] = arith.index_castui %[[BY]] : index to i32
// CHECK:           %[[GZ:.*]] = gpu.grid_dim  z
// CHECK:           arith.index_castui %[[GZ]] : index to i32
// CHECK:           %[[OFF:.*]] = arith.extsi %[[PID]] : i32 to i64
// CHECK:           %[[C4:.*]] = arith.constant 4 : i64
// CHECK:           %[[BYTES:.*]] = arith.muli %[[OFF]], %[[C4]] : i64
// CHECK:           %[[ADDR:.*]] = arith.addi %[[X]], %[[BYTES]] : i64
// CHECK:           %[[P:.*]] = llvm.inttoptr %[[ADDR]] : i64 to !llvm.ptr<1>
// CHECK:           %[[V:.*]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// A scalar store is done by thread 0 only: predicated inline PTX.
// CHECK:           %[[T:.*]] = gpu.thread_id  x
// CHECK:           arith.cmpi eq
// CHECK:           llvm.inline_asm has_side_effects {{.*}}"@$0 st.global.b32 [ $1 + 0 ], $2;"
// CHECK:           gpu.return
// CHECK-NOT:     @unused
tile.func private @unused(%a: f32) -> f32 {
  tile.return %a : f32
}

tile.func @scalar(%x: !tile.ptr<f32>) attributes {tile.num_warps = 8 : i32} {
  %pid = tile.program_id 1 : i32
  %np = tile.num_programs 2 : i32
  %p = tile.addptr %x, %pid : !tile.ptr<f32>, i32
  %v = tile.load %p : !tile.ptr<f32>
  %q = tile.addptr %x, %np : !tile.ptr<f32>, i32
  tile.store %q, %v : !tile.ptr<f32>
  tile.return
}

// -----

// tile.hint lowers to its operand, tile.assume to llvm.intr.assume and
// tile.barrier to gpu.barrier; the hinted pointers (16-byte aligned by the
// hint, nothing known of %x) are accessed as 16-byte vectors.
// CHECK-LABEL: gpu.func @hints(
// CHECK-SAME:        %[[X:.*]]: i64, %[[N:.*]]: i32) kernel
// CHECK-NOT:       tile.hint
// CHECK:           %[[POS:.*]] = arith.cmpi sgt, %[[N]], %{{.*}} : i32
// CHECK:           llvm.intr.assume %[[POS]] : i1
// CHECK:           llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK:           gpu.barrier
// CHECK:           llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK:           gpu.return
tile.func @hints(%x: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %pos = arith.cmpi sgt, %n, %c0 : i32
  tile.assume %pos : i1
  %r = tile.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %xh = tile.hint %xp {divisibility = array<i64: 16>} : tensor<512x!tile.ptr<f32>>
  %v = tile.load %xh : tensor<512x!tile.ptr<f32>>
  tile.barrier
  tile.store %xh, %v : tensor<512x!tile.ptr<f32>>
  tile.return
}
