// tile-assign-layouts: blocked encodings anchored on loads and stores
// (vector width from pointer divisibility and element size, order from
// contiguity), slices on expand_dims operands, broadcast sources in their
// result's layout, a gather's result in its index's, conversions only
// where two anchors disagree, num_warps.
// RUN: tilec-opt %s --tile-assign-layouts --split-input-file | FileCheck %s
// RUN: tilec-opt %s --tile-assign-layouts=num-warps=8 --split-input-file | FileCheck %s --check-prefix=W8

// Aligned f32 pointers and a 16-divisible n: 4 x f32 = 16 bytes per thread.
// CHECK-DAG:   #[[$B4:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func @add_aligned(
// CHECK-SAME:      attributes {tile.num_warps = 4 : i32}
// CHECK:         %[[R:.*]] = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #[[$B4]]>
// CHECK:         %[[SV:.*]] = tile.splat %{{.*}} : i32 -> tensor<1024xi32, #[[$B4]]>
// CHECK:         %[[OFF:.*]] = arith.addi %[[SV]], %[[R]] : tensor<1024xi32, #[[$B4]]>
// CHECK:         %[[M:.*]] = arith.cmpi slt, %[[OFF]], %{{.*}} : tensor<1024xi32, #[[$B4]]>
// CHECK:         %[[XB:.*]] = tile.splat %{{.*}} : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #[[$B4]]>
// CHECK:         %[[XP:.*]] = tile.addptr %[[XB]], %[[OFF]] : tensor<1024x!tile.ptr<f32>, #[[$B4]]>, tensor<1024xi32, #[[$B4]]>
// CHECK:         %[[V:.*]] = tile.load %[[XP]], %[[M]] : tensor<1024x!tile.ptr<f32>, #[[$B4]]>
// CHECK:         tile.store %{{.*}}, %[[V]], %[[M]] : tensor<1024x!tile.ptr<f32>, #[[$B4]]>
// CHECK-NOT:     tile.convert_layout
// CHECK:         tile.return
tile.func @add_aligned(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                       %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                       %n: i32 {tile.divisibility = 16 : i32}) {
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
  %xv = tile.load %xp, %mask : tensor<1024x!tile.ptr<f32>>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %ob, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %xv, %mask : tensor<1024x!tile.ptr<f32>>
  tile.return
}

// -----

// No divisibility facts on the pointers: one element per thread.
// CHECK-DAG:   #[[$B1:.*]] = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func @add_unaligned(
// CHECK:         %[[XP:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$B1]]>, tensor<1024xi32, #[[$B1]]>
// CHECK:         %[[V:.*]] = tile.load %[[XP]], %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$B1]]>
// CHECK:         tile.store %{{.*}}, %[[V]], %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$B1]]>
// CHECK-NOT:     tile.convert_layout
// CHECK:         tile.return
tile.func @add_unaligned(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) {
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
  %xv = tile.load %xp, %mask : tensor<1024x!tile.ptr<f32>>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %ob, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %xv, %mask : tensor<1024x!tile.ptr<f32>>
  tile.return
}

// -----

// Aligned f16 pointers: 8 x f16 = 16 bytes per thread.
// CHECK-DAG:   #[[$B8:.*]] = #tile.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func @fp16_aligned(
// CHECK:         %[[V:.*]] = tile.load %{{.*}} : tensor<1024x!tile.ptr<f16>, #[[$B8]]>
// CHECK:         tile.store %{{.*}}, %[[V]] : tensor<1024x!tile.ptr<f16>, #[[$B8]]>
// CHECK-NOT:     tile.convert_layout
// CHECK:         tile.return
tile.func @fp16_aligned(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                        %out: !tile.ptr<f16> {tile.divisibility = 16 : i32}) {
  %c1024 = arith.constant 1024 : i32
  %pid = tile.program_id 0 : i32
  %start = arith.muli %pid, %c1024 : i32
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %startv = tile.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %startv, %range : tensor<1024xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  %ap = tile.addptr %ab, %offs : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %av = tile.load %ap : tensor<1024x!tile.ptr<f16>>
  %ob = tile.splat %out : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  %op = tile.addptr %ob, %offs : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  tile.store %op, %av : tensor<1024x!tile.ptr<f16>>
  tile.return
}

// -----

// 2-D, rows of stride %s (16-divisible): dimension 1 is contiguous, so it
// comes first in the order; expand_dims operands get slices of the 2-D
// layout and broadcast sources the layout of their results.
// CHECK-DAG:   #[[$B2D:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[$ROWS:.*]] = #tile.slice<{dim = 1, parent = #[[$B2D]]}>
// CHECK-DAG:   #[[$COLS:.*]] = #tile.slice<{dim = 0, parent = #[[$B2D]]}>
// CHECK-LABEL: tile.func @copy2d(
// CHECK:         %[[RM:.*]] = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #[[$ROWS]]>
// CHECK:         %[[RN:.*]] = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #[[$COLS]]>
// CHECK:         %[[ROW:.*]] = tile.expand_dims %[[RM]] {axis = 1 : i32} : tensor<32xi32, #[[$ROWS]]> -> tensor<32x1xi32, #[[$B2D]]>
// CHECK:         %[[COL:.*]] = tile.expand_dims %[[RN]] {axis = 0 : i32} : tensor<64xi32, #[[$COLS]]> -> tensor<1x64xi32, #[[$B2D]]>
// CHECK:         %[[RO:.*]] = arith.muli %[[ROW]], %{{.*}} : tensor<32x1xi32, #[[$B2D]]>
// CHECK:         %[[ROB:.*]] = tile.broadcast %[[RO]] : tensor<32x1xi32, #[[$B2D]]> -> tensor<32x64xi32, #[[$B2D]]>
// CHECK:         %[[CB:.*]] = tile.broadcast %[[COL]] : tensor<1x64xi32, #[[$B2D]]> -> tensor<32x64xi32, #[[$B2D]]>
// CHECK:         %[[OFF:.*]] = arith.addi %[[ROB]], %[[CB]] : tensor<32x64xi32, #[[$B2D]]>
// CHECK:         %[[V:.*]] = tile.load %{{.*}} : tensor<32x64x!tile.ptr<f32>, #[[$B2D]]>
// CHECK:         tile.store %{{.*}}, %[[V]] : tensor<32x64x!tile.ptr<f32>, #[[$B2D]]>
// CHECK-NOT:     tile.convert_layout
// CHECK:         tile.return
tile.func @copy2d(%in: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                  %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                  %s: i32 {tile.divisibility = 16 : i32}) {
  %rm = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %rn = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rows = tile.expand_dims %rm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %cols = tile.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %sv = tile.splat %s : i32 -> tensor<32x1xi32>
  %ro = arith.muli %rows, %sv : tensor<32x1xi32>
  %rob = tile.broadcast %ro : tensor<32x1xi32> -> tensor<32x64xi32>
  %cb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<32x64xi32>
  %off = arith.addi %rob, %cb : tensor<32x64xi32>
  %ib = tile.splat %in : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %ip = tile.addptr %ib, %off : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
  %v = tile.load %ip : tensor<32x64x!tile.ptr<f32>>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %op = tile.addptr %ob, %off : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
  tile.store %op, %v : tensor<32x64x!tile.ptr<f32>>
  tile.return
}

// -----

// A transpose: the load is contiguous along dimension 1, the store along
// dimension 0. Each keeps its own layout and the one conversion left is of
// the loaded value (everything else is recomputed in the layout it needs).
// CHECK-DAG:   #[[$COLMAJOR:.*]] = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG:   #[[$ROWMAJOR:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tile.func @transpose(
// CHECK-NOT:     tile.convert_layout
// CHECK:         %[[IP:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<32x32x!tile.ptr<f32>, #[[$ROWMAJOR]]>, tensor<32x32xi32, #[[$ROWMAJOR]]>
// CHECK:         %[[V:.*]] = tile.load %[[IP]] : tensor<32x32x!tile.ptr<f32>, #[[$ROWMAJOR]]>
// CHECK-NOT:     tile.convert_layout
// CHECK:         %[[OP:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<32x32x!tile.ptr<f32>, #[[$COLMAJOR]]>, tensor<32x32xi32, #[[$COLMAJOR]]>
// CHECK:         %[[C:.*]] = tile.convert_layout %[[V]] : tensor<32x32xf32, #[[$ROWMAJOR]]> -> tensor<32x32xf32, #[[$COLMAJOR]]>
// CHECK-NEXT:    tile.store %[[OP]], %[[C]] : tensor<32x32x!tile.ptr<f32>, #[[$COLMAJOR]]>
// CHECK-NOT:     tile.convert_layout
// CHECK:         tile.return
tile.func @transpose(%in: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                     %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %c32 = arith.constant dense<32> : tensor<32x1xi32>
  %c32r = arith.constant dense<32> : tensor<1x32xi32>
  %rows = tile.expand_dims %r {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %cols = tile.expand_dims %r {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rs = arith.muli %rows, %c32 : tensor<32x1xi32>
  %cs = arith.muli %cols, %c32r : tensor<1x32xi32>
  %rsb = tile.broadcast %rs : tensor<32x1xi32> -> tensor<32x32xi32>
  %csb = tile.broadcast %cs : tensor<1x32xi32> -> tensor<32x32xi32>
  %rb = tile.broadcast %rows : tensor<32x1xi32> -> tensor<32x32xi32>
  %cb = tile.broadcast %cols : tensor<1x32xi32> -> tensor<32x32xi32>
  // in[i, j] at i*32 + j (row-major), out[j, i] at j*32 + i
  %ioff = arith.addi %rsb, %cb : tensor<32x32xi32>
  %ooff = arith.addi %csb, %rb : tensor<32x32xi32>
  %ib = tile.splat %in : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %ip = tile.addptr %ib, %ioff : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  %v = tile.load %ip : tensor<32x32x!tile.ptr<f32>>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %op = tile.addptr %ob, %ooff : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  tile.store %op, %v : tensor<32x32x!tile.ptr<f32>>
  tile.return
}

// -----

// Scalars only: nothing to lay out; only the default num_warps is recorded.
// CHECK-LABEL: tile.func @scalar_only(
// CHECK-SAME:      %[[X:.*]]: !tile.ptr<f32>, %{{.*}}: i32) attributes {tile.num_warps = 4 : i32} {
// CHECK-NEXT:    %[[PID:.*]] = tile.program_id 0 : i32
// CHECK-NEXT:    %[[P:.*]] = tile.addptr %[[X]], %[[PID]] : !tile.ptr<f32>, i32
// CHECK-NEXT:    %[[V:.*]] = tile.load %[[P]] : !tile.ptr<f32>
// CHECK-NEXT:    %[[W:.*]] = arith.addf %[[V]], %[[V]] : f32
// CHECK-NEXT:    tile.store %[[P]], %[[W]] : !tile.ptr<f32>
// CHECK-NEXT:    tile.return
// W8-LABEL:    tile.func @scalar_only(
// W8-SAME:         attributes {tile.num_warps = 8 : i32}
tile.func @scalar_only(%x: !tile.ptr<f32>, %n: i32) {
  %pid = tile.program_id 0 : i32
  %p = tile.addptr %x, %pid : !tile.ptr<f32>, i32
  %v = tile.load %p : !tile.ptr<f32>
  %w = arith.addf %v, %v : f32
  tile.store %p, %w : !tile.ptr<f32>
  tile.return
}

// -----

// tile.num_warps on the kernel wins over the pass option.
// CHECK-DAG:   #[[$W2:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK-LABEL: tile.func @kept(
// CHECK-SAME:      attributes {tile.num_warps = 2 : i32}
// CHECK:         tile.load %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$W2]]>
// W8-DAG:      #[[$W2:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// W8-LABEL:    tile.func @kept(
// W8-SAME:         attributes {tile.num_warps = 2 : i32}
// W8:            tile.load %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$W2]]>
tile.func @kept(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.num_warps = 2 : i32} {
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %range : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %xv = tile.load %xp : tensor<1024x!tile.ptr<f32>>
  tile.store %xp, %xv : tensor<1024x!tile.ptr<f32>>
  tile.return
}

// -----

// Without tile.num_warps: 4 warps by default, or the num-warps option.
// CHECK-DAG:   #[[$W4:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func @defaulted(
// CHECK-SAME:      attributes {tile.num_warps = 4 : i32}
// CHECK:         tile.load %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$W4]]>
// W8-DAG:      #[[$W8:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// W8-LABEL:    tile.func @defaulted(
// W8-SAME:         attributes {tile.num_warps = 8 : i32}
// W8:            tile.load %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$W8]]>
tile.func @defaulted(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %range : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %xv = tile.load %xp : tensor<1024x!tile.ptr<f32>>
  tile.store %xp, %xv : tensor<1024x!tile.ptr<f32>>
  tile.return
}

// -----

// A tile smaller than the CTA (64 elements, 128 threads): one element per
// thread, however aligned the pointers.
// CHECK-DAG:   #[[$SMALL:.*]] = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func @small(
// CHECK:         tile.load %{{.*}} : tensor<64x!tile.ptr<f32>, #[[$SMALL]]>
tile.func @small(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %range = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %range : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %xv = tile.load %xp : tensor<64x!tile.ptr<f32>>
  tile.store %xp, %xv : tensor<64x!tile.ptr<f32>>
  tile.return
}

// -----

// A gather's result takes its index's layout (here one the input fixed),
// converted back for a user that wants its shape's; its source keeps its
// own.
// CHECK-DAG:   #[[$ONE:.*]] = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG:   #[[$TWO:.*]] = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func @gather_layout(
// CHECK:         %[[S:.*]] = tile.load %{{.*}} : tensor<32x!tile.ptr<f32>, #[[$ONE]]>
// CHECK:         %[[I:.*]] = tile.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #[[$TWO]]>
// CHECK:         %[[G:.*]] = tile.gather %[[S]][%[[I]]] {axis = 0 : i32} : tensor<32xf32, #[[$ONE]]>, tensor<256xi32, #[[$TWO]]> -> tensor<256xf32, #[[$TWO]]>
// CHECK:         %[[C:.*]] = tile.convert_layout %[[G]] : tensor<256xf32, #[[$TWO]]> -> tensor<256xf32, #[[$ONE]]>
// CHECK:         tile.store %{{.*}}, %[[C]] : tensor<256x!tile.ptr<f32>, #[[$ONE]]>
#x = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @gather_layout(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %s = tile.load %xp : tensor<32x!tile.ptr<f32>>
  %i = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #x>
  %g = tile.gather %s[%i] {axis = 0 : i32} : tensor<32xf32>, tensor<256xi32, #x> -> tensor<256xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  tile.store %ob, %g : tensor<256x!tile.ptr<f32>>
  tile.return
}
