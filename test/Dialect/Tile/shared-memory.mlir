// Round trip of the tensor-core and shared-memory IR: the #tile.mma (version
// 2 and 3), #tile.dot_operand (mma and blocked parents) and #tile.slice (of
// every distributed parent) encodings, the #tile.shared and
// #tile.nvmma_shared encodings, the !tile.memdesc type (immutable, mutable,
// multi-buffered, views), every shared-memory op, the tile.shared_offset
// attribute and laid-out tile.dot, through the custom and the generic syntax.
// RUN: tilec-opt %s | tilec-opt | FileCheck %s
// RUN: tilec-opt %s --mlir-print-op-generic | tilec-opt | FileCheck %s

#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked3 = #tile.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#mma3d = #tile.mma<{version = 2, warpsPerCTA = [1, 2, 2], instrShape = [16, 8]}>
#wgmma = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 128, 16]}>
#a16 = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#b16 = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#a8 = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 4}>
#b8 = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 4}>
#a32 = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 1}>
#b32 = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 1}>
#a3d = #tile.dot_operand<{opIdx = 0, parent = #mma3d, kWidth = 2}>
#b3d = #tile.dot_operand<{opIdx = 1, parent = #mma3d, kWidth = 2}>
#fma_a = #tile.dot_operand<{opIdx = 0, parent = #blocked, kWidth = 0}>
#fma_b = #tile.dot_operand<{opIdx = 1, parent = #blocked, kWidth = 0}>
#row_mma = #tile.slice<{dim = 1, parent = #mma}>
#col_wgmma = #tile.slice<{dim = 0, parent = #wgmma}>
#row_a = #tile.slice<{dim = 1, parent = #a16}>
#plane = #tile.slice<{dim = 0, parent = #blocked3}>
#row_plane = #tile.slice<{dim = 1, parent = #plane}>
#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared_t = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#flat = #tile.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #tile.nvmma_shared<{swizzle = 128, transposed = false}>
#nvmma_t = #tile.nvmma_shared<{swizzle = 64, transposed = true}>
#nvmma32 = #tile.nvmma_shared<{swizzle = 32, transposed = false}>

// CHECK-DAG: #[[$BLOCKED:.*]] = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$BLOCKED3:.*]] = #tile.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
// CHECK-DAG: #[[$MMA:.*]] = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-DAG: #[[$MMA3D:.*]] = #tile.mma<{version = 2, warpsPerCTA = [1, 2, 2], instrShape = [16, 8]}>
// CHECK-DAG: #[[$WGMMA:.*]] = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 128, 16]}>
// CHECK-DAG: #[[$A16:.*]] = #tile.dot_operand<{opIdx = 0, parent = #[[$MMA]], kWidth = 2}>
// CHECK-DAG: #[[$B16:.*]] = #tile.dot_operand<{opIdx = 1, parent = #[[$MMA]], kWidth = 2}>
// CHECK-DAG: #[[$A8:.*]] = #tile.dot_operand<{opIdx = 0, parent = #[[$MMA]], kWidth = 4}>
// CHECK-DAG: #[[$B8:.*]] = #tile.dot_operand<{opIdx = 1, parent = #[[$MMA]], kWidth = 4}>
// CHECK-DAG: #[[$A32:.*]] = #tile.dot_operand<{opIdx = 0, parent = #[[$MMA]], kWidth = 1}>
// CHECK-DAG: #[[$B32:.*]] = #tile.dot_operand<{opIdx = 1, parent = #[[$MMA]], kWidth = 1}>
// CHECK-DAG: #[[$A3D:.*]] = #tile.dot_operand<{opIdx = 0, parent = #[[$MMA3D]], kWidth = 2}>
// CHECK-DAG: #[[$B3D:.*]] = #tile.dot_operand<{opIdx = 1, parent = #[[$MMA3D]], kWidth = 2}>
// CHECK-DAG: #[[$FMA_A:.*]] = #tile.dot_operand<{opIdx = 0, parent = #[[$BLOCKED]], kWidth = 0}>
// CHECK-DAG: #[[$FMA_B:.*]] = #tile.dot_operand<{opIdx = 1, parent = #[[$BLOCKED]], kWidth = 0}>
// CHECK-DAG: #[[$ROW_MMA:.*]] = #tile.slice<{dim = 1, parent = #[[$MMA]]}>
// CHECK-DAG: #[[$COL_WGMMA:.*]] = #tile.slice<{dim = 0, parent = #[[$WGMMA]]}>
// CHECK-DAG: #[[$ROW_A:.*]] = #tile.slice<{dim = 1, parent = #[[$A16]]}>
// CHECK-DAG: #[[$PLANE:.*]] = #tile.slice<{dim = 0, parent = #[[$BLOCKED3]]}>
// CHECK-DAG: #[[$ROW_PLANE:.*]] = #tile.slice<{dim = 1, parent = #[[$PLANE]]}>
// CHECK-DAG: #[[$SHARED:.*]] = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #[[$SHARED_T:.*]] = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
// CHECK-DAG: #[[$FLAT:.*]] = #tile.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-DAG: #[[$NVMMA:.*]] = #tile.nvmma_shared<{swizzle = 128, transposed = false}>
// CHECK-DAG: #[[$NVMMA_T:.*]] = #tile.nvmma_shared<{swizzle = 64, transposed = true}>
// CHECK-DAG: #[[$NVMMA32:.*]] = #tile.nvmma_shared<{swizzle = 32, transposed = false}>

// Distributed encodings on tensors: mma accumulators (2-D, batched, wgmma),
// dot operands of every kWidth and of a blocked parent (FMA), and slices of
// mma, dot_operand and slice parents.
// CHECK-LABEL: tile.func private @encodings(
// CHECK-SAME:      %{{.*}}: tensor<64x64xf32, #[[$MMA]]>,
// CHECK-SAME:      %{{.*}}: tensor<2x32x32xf32, #[[$MMA3D]]>,
// CHECK-SAME:      %{{.*}}: tensor<64x128xf32, #[[$WGMMA]]>,
// CHECK-SAME:      %{{.*}}: tensor<64x32xf16, #[[$A16]]>,
// CHECK-SAME:      %{{.*}}: tensor<32x64xf16, #[[$B16]]>,
// CHECK-SAME:      %{{.*}}: tensor<64x64xi8, #[[$A8]]>,
// CHECK-SAME:      %{{.*}}: tensor<16x64xf32, #[[$B32]]>,
// CHECK-SAME:      %{{.*}}: tensor<64x16xf32, #[[$FMA_A]]>,
// CHECK-SAME:      %{{.*}}: tensor<16x64xf32, #[[$FMA_B]]>,
// CHECK-SAME:      %{{.*}}: tensor<64xf32, #[[$ROW_MMA]]>,
// CHECK-SAME:      %{{.*}}: tensor<128xf32, #[[$COL_WGMMA]]>,
// CHECK-SAME:      %{{.*}}: tensor<64xf16, #[[$ROW_A]]>,
// CHECK-SAME:      %{{.*}}: tensor<4x32xf32, #[[$PLANE]]>,
// CHECK-SAME:      %{{.*}}: tensor<16xf32, #[[$ROW_PLANE]]>)
tile.func private @encodings(%m: tensor<64x64xf32, #mma>,
                             %m3: tensor<2x32x32xf32, #mma3d>,
                             %w: tensor<64x128xf32, #wgmma>,
                             %a: tensor<64x32xf16, #a16>,
                             %b: tensor<32x64xf16, #b16>,
                             %a8: tensor<64x64xi8, #a8>,
                             %b32: tensor<16x64xf32, #b32>,
                             %fa: tensor<64x16xf32, #fma_a>,
                             %fb: tensor<16x64xf32, #fma_b>,
                             %r: tensor<64xf32, #row_mma>,
                             %c: tensor<128xf32, #col_wgmma>,
                             %ra: tensor<64xf16, #row_a>,
                             %p: tensor<4x32xf32, #plane>,
                             %rp: tensor<16xf32, #row_plane>) {
  tile.return
}

// The memdesc type: immutable and mutable, multi-buffered (a buffer count
// that is not a power of two), views with their allocation shape, both
// shared encodings, 16- and 8-bit elements.
// CHECK-LABEL: tile.func private @memdescs(
// CHECK-SAME:      %{{.*}}: !tile.memdesc<128x64xf16, #[[$SHARED]]>,
// CHECK-SAME:      %{{.*}}: !tile.memdesc<128x64xf16, #[[$SHARED]], mutable>,
// CHECK-SAME:      %{{.*}}: !tile.memdesc<3x128x64xf16, #[[$SHARED]], mutable>,
// CHECK-SAME:      %{{.*}}: !tile.memdesc<17x512xi8, #[[$FLAT]], mutable>,
// CHECK-SAME:      %{{.*}}: !tile.memdesc<128x16xf16, #[[$SHARED]], mutable, alloc = 128x64>,
// CHECK-SAME:      %{{.*}}: !tile.memdesc<64x16xf16, #[[$SHARED]], alloc = 128x64>,
// CHECK-SAME:      %{{.*}}: !tile.memdesc<64x64xf16, #[[$NVMMA]], mutable>,
// CHECK-SAME:      %{{.*}}: !tile.memdesc<64x64xbf16, #[[$NVMMA_T]]>,
// CHECK-SAME:      %{{.*}}: !tile.memdesc<2x64x16xf8E4M3FN, #[[$NVMMA32]], mutable>)
tile.func private @memdescs(%s: !tile.memdesc<128x64xf16, #shared>,
                            %sm: !tile.memdesc<128x64xf16, #shared, mutable>,
                            %buf: !tile.memdesc<3x128x64xf16, #shared, mutable>,
                            %odd: !tile.memdesc<17x512xi8, #flat, mutable>,
                            %view: !tile.memdesc<128x16xf16, #shared, mutable, alloc = 128x64>,
                            %iview: !tile.memdesc<64x16xf16, #shared, alloc = 128x64>,
                            %n: !tile.memdesc<64x64xf16, #nvmma, mutable>,
                            %nt: !tile.memdesc<64x64xbf16, #nvmma_t>,
                            %n8: !tile.memdesc<2x64x16xf8E4M3FN, #nvmma32, mutable>) {
  tile.return
}

// Allocation with and without a source (with offsets from
// tile-allocate-shared), loads and stores, one buffer of a multi-buffered
// allocation, aligned views and a transposed memdesc.
// CHECK-LABEL: tile.func private @local(
// CHECK-SAME:      %[[V:.*]]: tensor<128x64xf16, #[[$BLOCKED]]>, %[[I:.*]]: i32)
// CHECK:         %[[M:.*]] = tile.local_alloc %[[V]] : (tensor<128x64xf16, #[[$BLOCKED]]>) -> !tile.memdesc<128x64xf16, #[[$SHARED]]>
// CHECK:         tile.local_alloc %[[V]] {tile.shared_offset = 16384 : i32} : (tensor<128x64xf16, #[[$BLOCKED]]>) -> !tile.memdesc<128x64xf16, #[[$SHARED]]>
// CHECK:         %[[BUF:.*]] = tile.local_alloc : () -> !tile.memdesc<3x128x64xf16, #[[$SHARED]], mutable>
// CHECK:         tile.local_alloc {tile.shared_offset = 0 : i32} : () -> !tile.memdesc<64x64xf16, #[[$NVMMA]], mutable>
// CHECK:         %[[X:.*]] = tile.local_load %[[M]] : !tile.memdesc<128x64xf16, #[[$SHARED]]> -> tensor<128x64xf16, #[[$BLOCKED]]>
// CHECK:         %[[S:.*]] = tile.memdesc_index %[[BUF]][%[[I]]] : !tile.memdesc<3x128x64xf16, #[[$SHARED]], mutable> -> !tile.memdesc<128x64xf16, #[[$SHARED]], mutable>
// CHECK:         tile.local_store %[[X]], %[[S]] : tensor<128x64xf16, #[[$BLOCKED]]>, !tile.memdesc<128x64xf16, #[[$SHARED]], mutable>
// CHECK:         %[[K1:.*]] = tile.memdesc_subview %[[M]][0, 16] : !tile.memdesc<128x64xf16, #[[$SHARED]]> -> !tile.memdesc<128x16xf16, #[[$SHARED]], alloc = 128x64>
// CHECK:         tile.memdesc_subview %[[S]][64, 48] : !tile.memdesc<128x64xf16, #[[$SHARED]], mutable> -> !tile.memdesc<64x16xf16, #[[$SHARED]], mutable, alloc = 128x64>
// CHECK:         %[[K2:.*]] = tile.memdesc_subview %[[BUF]][2, 0, 32] : !tile.memdesc<3x128x64xf16, #[[$SHARED]], mutable> -> !tile.memdesc<1x128x32xf16, #[[$SHARED]], mutable, alloc = 3x128x64>
// CHECK:         %[[T:.*]] = tile.memdesc_trans %[[M]] {order = array<i32: 1, 0>} : !tile.memdesc<128x64xf16, #[[$SHARED]]> -> !tile.memdesc<64x128xf16, #[[$SHARED_T]]>
// CHECK:         tile.local_load %[[K1]] : !tile.memdesc<128x16xf16, #[[$SHARED]], alloc = 128x64> -> tensor<128x16xf16, #[[$A16]]>
// CHECK:         tile.local_load %[[T]] : !tile.memdesc<64x128xf16, #[[$SHARED_T]]> -> tensor<64x128xf16, #[[$B16]]>
// CHECK:         tile.return
tile.func private @local(%v: tensor<128x64xf16, #blocked>, %i: i32) attributes {tile.num_warps = 4 : i32} {
  %m = tile.local_alloc %v : (tensor<128x64xf16, #blocked>) -> !tile.memdesc<128x64xf16, #shared>
  %mo = tile.local_alloc %v {tile.shared_offset = 16384 : i32} : (tensor<128x64xf16, #blocked>) -> !tile.memdesc<128x64xf16, #shared>
  %buf = tile.local_alloc : () -> !tile.memdesc<3x128x64xf16, #shared, mutable>
  %n = tile.local_alloc {tile.shared_offset = 0 : i32} : () -> !tile.memdesc<64x64xf16, #nvmma, mutable>
  %x = tile.local_load %m : !tile.memdesc<128x64xf16, #shared> -> tensor<128x64xf16, #blocked>
  %s = tile.memdesc_index %buf[%i] : !tile.memdesc<3x128x64xf16, #shared, mutable> -> !tile.memdesc<128x64xf16, #shared, mutable>
  tile.local_store %x, %s : tensor<128x64xf16, #blocked>, !tile.memdesc<128x64xf16, #shared, mutable>
  %k1 = tile.memdesc_subview %m[0, 16] : !tile.memdesc<128x64xf16, #shared> -> !tile.memdesc<128x16xf16, #shared, alloc = 128x64>
  %k3 = tile.memdesc_subview %s[64, 48] : !tile.memdesc<128x64xf16, #shared, mutable> -> !tile.memdesc<64x16xf16, #shared, mutable, alloc = 128x64>
  %k2 = tile.memdesc_subview %buf[2, 0, 32] : !tile.memdesc<3x128x64xf16, #shared, mutable> -> !tile.memdesc<1x128x32xf16, #shared, mutable, alloc = 3x128x64>
  %t = tile.memdesc_trans %m {order = array<i32: 1, 0>} : !tile.memdesc<128x64xf16, #shared> -> !tile.memdesc<64x128xf16, #shared_t>
  %y = tile.local_load %k1 : !tile.memdesc<128x16xf16, #shared, alloc = 128x64> -> tensor<128x16xf16, #a16>
  %z = tile.local_load %t : !tile.memdesc<64x128xf16, #shared_t> -> tensor<64x128xf16, #b16>
  tile.return
}

// Asynchronous copies into two buffers, without and with a mask, their
// groups and the waits.
// CHECK-LABEL: tile.func private @async(
// CHECK-SAME:      %[[P:.*]]: tensor<128x64x!tile.ptr<f16>, #[[$BLOCKED]]>, %[[MASK:.*]]: tensor<128x64xi1, #[[$BLOCKED]]>)
// CHECK:         %[[BUF:.*]] = tile.local_alloc : () -> !tile.memdesc<2x128x64xf16, #[[$SHARED]], mutable>
// CHECK:         %[[S0:.*]] = tile.memdesc_index %[[BUF]][%{{.*}}] : !tile.memdesc<2x128x64xf16, #[[$SHARED]], mutable> -> !tile.memdesc<128x64xf16, #[[$SHARED]], mutable>
// CHECK:         %[[S1:.*]] = tile.memdesc_index %[[BUF]][%{{.*}}] : !tile.memdesc<2x128x64xf16, #[[$SHARED]], mutable> -> !tile.memdesc<128x64xf16, #[[$SHARED]], mutable>
// CHECK:         tile.async_copy %[[P]], %[[S0]] : tensor<128x64x!tile.ptr<f16>, #[[$BLOCKED]]>, !tile.memdesc<128x64xf16, #[[$SHARED]], mutable>
// CHECK-NEXT:    tile.async_commit_group
// CHECK-NEXT:    tile.async_copy %[[P]], %[[S1]], %[[MASK]] : tensor<128x64x!tile.ptr<f16>, #[[$BLOCKED]]>, !tile.memdesc<128x64xf16, #[[$SHARED]], mutable>
// CHECK-NEXT:    tile.async_commit_group
// CHECK-NEXT:    tile.async_wait {num = 1 : i32}
// CHECK-NEXT:    tile.async_wait {num = 0 : i32}
// CHECK-NEXT:    tile.local_load %[[S0]] : !tile.memdesc<128x64xf16, #[[$SHARED]], mutable> -> tensor<128x64xf16, #[[$A16]]>
tile.func private @async(%p: tensor<128x64x!tile.ptr<f16>, #blocked>, %mask: tensor<128x64xi1, #blocked>) attributes {tile.num_warps = 4 : i32} {
  %buf = tile.local_alloc : () -> !tile.memdesc<2x128x64xf16, #shared, mutable>
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %s0 = tile.memdesc_index %buf[%i0] : !tile.memdesc<2x128x64xf16, #shared, mutable> -> !tile.memdesc<128x64xf16, #shared, mutable>
  %s1 = tile.memdesc_index %buf[%i1] : !tile.memdesc<2x128x64xf16, #shared, mutable> -> !tile.memdesc<128x64xf16, #shared, mutable>
  tile.async_copy %p, %s0 : tensor<128x64x!tile.ptr<f16>, #blocked>, !tile.memdesc<128x64xf16, #shared, mutable>
  tile.async_commit_group
  tile.async_copy %p, %s1, %mask : tensor<128x64x!tile.ptr<f16>, #blocked>, !tile.memdesc<128x64xf16, #shared, mutable>
  tile.async_commit_group
  tile.async_wait {num = 1 : i32}
  tile.async_wait {num = 0 : i32}
  %a = tile.local_load %s0 : !tile.memdesc<128x64xf16, #shared, mutable> -> tensor<128x64xf16, #a16>
  tile.return
}

// Laid-out dots: mma.sync operands of each kWidth (f16: 2, i8 and fp8: 4,
// tf32: 1), a batched mma dot, and the FMA path (operands of a blocked
// parent).
// CHECK-LABEL: tile.func private @dots(
// CHECK:         tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf16, #[[$A16]]>, tensor<32x64xf16, #[[$B16]]>, tensor<64x64xf32, #[[$MMA]]> -> tensor<64x64xf32, #[[$MMA]]>
// CHECK:         tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64xi8, #[[$A8]]>, tensor<64x64xi8, #[[$B8]]>, tensor<64x64xi32, #[[$MMA]]> -> tensor<64x64xi32, #[[$MMA]]>
// CHECK:         tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64xf8E4M3FN, #[[$A8]]>, tensor<64x64xf8E5M2, #[[$B8]]>, tensor<64x64xf32, #[[$MMA]]> -> tensor<64x64xf32, #[[$MMA]]>
// CHECK:         tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x16xf32, #[[$A32]]>, tensor<16x64xf32, #[[$B32]]>, tensor<64x64xf32, #[[$MMA]]> -> tensor<64x64xf32, #[[$MMA]]>
// CHECK:         tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x32x16xbf16, #[[$A3D]]>, tensor<2x16x32xbf16, #[[$B3D]]>, tensor<2x32x32xf32, #[[$MMA3D]]> -> tensor<2x32x32xf32, #[[$MMA3D]]>
// CHECK:         tile.dot %{{.*}}, %{{.*}}, %{{.*}} {input_precision = "ieee"} : tensor<64x16xf32, #[[$FMA_A]]>, tensor<16x64xf32, #[[$FMA_B]]>, tensor<64x64xf32, #[[$BLOCKED]]> -> tensor<64x64xf32, #[[$BLOCKED]]>
tile.func private @dots(%a: tensor<64x32xf16, #a16>, %b: tensor<32x64xf16, #b16>,
                        %c: tensor<64x64xf32, #mma>,
                        %a8: tensor<64x64xi8, #a8>, %b8: tensor<64x64xi8, #b8>,
                        %c8: tensor<64x64xi32, #mma>,
                        %e4: tensor<64x64xf8E4M3FN, #a8>, %e5: tensor<64x64xf8E5M2, #b8>,
                        %t: tensor<64x16xf32, #a32>, %u: tensor<16x64xf32, #b32>,
                        %ba: tensor<2x32x16xbf16, #a3d>, %bb: tensor<2x16x32xbf16, #b3d>,
                        %bc: tensor<2x32x32xf32, #mma3d>,
                        %fa: tensor<64x16xf32, #fma_a>, %fb: tensor<16x64xf32, #fma_b>,
                        %fc: tensor<64x64xf32, #blocked>) {
  %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a16>, tensor<32x64xf16, #b16>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %d8 = tile.dot %a8, %b8, %c8 : tensor<64x64xi8, #a8>, tensor<64x64xi8, #b8>, tensor<64x64xi32, #mma> -> tensor<64x64xi32, #mma>
  %df8 = tile.dot %e4, %e5, %c : tensor<64x64xf8E4M3FN, #a8>, tensor<64x64xf8E5M2, #b8>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %dt = tile.dot %t, %u, %c : tensor<64x16xf32, #a32>, tensor<16x64xf32, #b32>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %db = tile.dot %ba, %bb, %bc : tensor<2x32x16xbf16, #a3d>, tensor<2x16x32xbf16, #b3d>, tensor<2x32x32xf32, #mma3d> -> tensor<2x32x32xf32, #mma3d>
  %f = tile.dot %fa, %fb, %fc {input_precision = "ieee"} : tensor<64x16xf32, #fma_a>, tensor<16x64xf32, #fma_b>, tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked>
  tile.return
}
