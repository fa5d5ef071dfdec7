// tile-version-alignment: a kernel whose accesses would widen if some
// arguments were multiples of a power of two gets an aligned variant: a
// copy whose arguments carry those facts, named by the kernel's
// tile.aligned_variant; the runtime launches it where the arguments have
// them. Each argument gets the smallest divisor that keeps every access as
// wide as all arguments at 16 would.
// RUN: tilec-opt %s --tile-version-alignment="remarks=true" 2>/dev/null | FileCheck %s
// RUN: tilec-opt %s --tile-version-alignment="remarks=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: tilec-opt %s --tile-version-alignment="max-operations=8 remarks=true" 2>&1 | FileCheck %s --check-prefix=BUDGET
// Once per kernel: a second run adds nothing (a kernel with a variant, and
// the variant, are left as they are).
// RUN: tilec-opt %s --tile-version-alignment --tile-version-alignment 2>/dev/null | FileCheck %s --check-prefix=TWICE
// TWICE-COUNT-2: tile.aligned_variant
// TWICE-NOT: tile.aligned_variant
// TWICE-NOT: __aligned2
// Down to PTX, both kernels, the first naming the second.
// RUN: tilec %s -o - | FileCheck %s --check-prefix=PTX

// Rows of fp16: the row stride and the length need 8 (16 bytes), the
// unaligned output pointer 16 bytes; `scale` (an i32 that only feeds the
// values) gets no fact.
// REMARK: remark: kernel 'copy_rows' gets an aligned variant 'copy_rows__aligned', which the launch runs where argument #1 (address) % 16 == 0 and argument #2 % 8 == 0 and argument #3 % 8 == 0, 1 load(s) and 1 store(s) move up to 16 bytes per access instead of 2; elsewhere the kernel runs as written
// CHECK-LABEL: tile.func @copy_rows(
// CHECK-SAME:    %{{.*}}: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %{{.*}}: !tile.ptr<f16>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32)
// CHECK-SAME:    attributes {tile.aligned_variant = "copy_rows__aligned", tile.num_warps = 4 : i32}
// CHECK-NOT:     tile.hint
// CHECK:         tile.return
// CHECK-LABEL: tile.func @copy_rows__aligned(
// CHECK-SAME:    %{{.*}}: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %{{.*}}: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %{{.*}}: i32 {tile.divisibility = 8 : i32}, %{{.*}}: i32 {tile.divisibility = 8 : i32}, %{{.*}}: i32)
// CHECK-SAME:    attributes {tile.num_warps = 4 : i32}
// CHECK:         tile.load
// CHECK:         tile.store
// CHECK:         tile.return
// PTX: // tilec.kernel name=copy_rows num_warps=4 shared=0 aligned=copy_rows__aligned maxnreg=auto signature=*fp16:16,*fp16,i32,i32,i32
// PTX: // tilec.kernel name=copy_rows__aligned num_warps=4 shared=0 maxnreg=auto signature=*fp16:16,*fp16:16,i32:8,i32:8,i32
// PTX: .visible .entry copy_rows(
// PTX-NOT: ld.global.v4
// PTX: .visible .entry copy_rows__aligned(
// PTX: ld.global.v4.b32
// PTX: st.global.v4.b32
tile.func @copy_rows(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                     %y: !tile.ptr<f16>, %stride: i32, %n: i32, %scale: i32)
    attributes {tile.num_warps = 4 : i32} {
  %0 = tile.program_id 0 : i32
  %1 = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %2 = arith.muli %0, %stride : i32
  %3 = tile.addptr %x, %2 : !tile.ptr<f16>, i32
  %4 = tile.splat %3 : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  %5 = tile.addptr %4, %1 : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %6 = tile.splat %n : i32 -> tensor<1024xi32>
  %7 = arith.cmpi slt, %1, %6 : tensor<1024xi32>
  %8 = tile.load %5, %7 : tensor<1024x!tile.ptr<f16>>
  %k = arith.sitofp %scale : i32 to f16
  %ks = tile.splat %k : f16 -> tensor<1024xf16>
  %v = arith.mulf %8, %ks : tensor<1024xf16>
  %9 = tile.addptr %y, %2 : !tile.ptr<f16>, i32
  %10 = tile.splat %9 : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  %11 = tile.addptr %10, %1 : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  tile.store %11, %v, %7 : tensor<1024x!tile.ptr<f16>>
  tile.return
}

// fp32 rows: 4 elements make 16 bytes, so a stride that is a multiple of 4
// is enough.
// REMARK: remark: kernel 'scale_rows_f32' gets an aligned variant 'scale_rows_f32__aligned', which the launch runs where argument #2 % 4 == 0, 1 load(s) and 1 store(s) move up to 16 bytes per access instead of 4
// CHECK-LABEL: tile.func @scale_rows_f32(
// CHECK-SAME:    tile.aligned_variant = "scale_rows_f32__aligned"
// CHECK-LABEL: tile.func @scale_rows_f32__aligned(
// CHECK-SAME:    %{{.*}}: i32 {tile.divisibility = 4 : i32})
tile.func @scale_rows_f32(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                          %y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                          %stride: i32) {
  %0 = tile.program_id 0 : i32
  %1 = tile.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %2 = arith.muli %0, %stride : i32
  %3 = tile.addptr %x, %2 : !tile.ptr<f32>, i32
  %4 = tile.splat %3 : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %5 = tile.addptr %4, %1 : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %6 = tile.load %5 : tensor<256x!tile.ptr<f32>>
  %7 = tile.addptr %y, %2 : !tile.ptr<f32>, i32
  %8 = tile.splat %7 : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %9 = tile.addptr %8, %1 : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  tile.store %9, %6 : tensor<256x!tile.ptr<f32>>
  tile.return
}

// The signature already says enough: no variant, no remark.
// REMARK-NOT: remark: kernel 'aligned_rows'
// CHECK-LABEL: tile.func @aligned_rows(
// CHECK-NOT:     tile.aligned_variant
// CHECK:         tile.return
tile.func @aligned_rows(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                        %stride: i32 {tile.divisibility = 16 : i32}) {
  %0 = tile.program_id 0 : i32
  %1 = tile.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %2 = arith.muli %0, %stride : i32
  %3 = tile.addptr %x, %2 : !tile.ptr<f32>, i32
  %4 = tile.splat %3 : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %5 = tile.addptr %4, %1 : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %6 = tile.load %5 : tensor<256x!tile.ptr<f32>>
  tile.store %5, %6 : tensor<256x!tile.ptr<f32>>
  tile.return
}

// A kernel with a dot is a GEMM, whose operand loops are versioned by
// tile-pointer-loads-to-descriptors: left as it is, and said why.
// REMARK: remark: kernel 'with_dot' is not versioned on alignment: it has a 'tile.dot'
// CHECK-LABEL: tile.func @with_dot(
// CHECK-NOT:     tile.aligned_variant
// CHECK-NOT:   tile.func @with_dot__aligned
tile.func @with_dot(%a: !tile.ptr<f16>, %stride: i32) {
  %0 = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %1 = tile.expand_dims %0 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %s = tile.splat %stride : i32 -> tensor<16x1xi32>
  %2 = arith.muli %1, %s : tensor<16x1xi32>
  %3 = tile.expand_dims %0 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %4 = tile.broadcast %2 : tensor<16x1xi32> -> tensor<16x16xi32>
  %5 = tile.broadcast %3 : tensor<1x16xi32> -> tensor<16x16xi32>
  %6 = arith.addi %4, %5 : tensor<16x16xi32>
  %7 = tile.splat %a : !tile.ptr<f16> -> tensor<16x16x!tile.ptr<f16>>
  %8 = tile.addptr %7, %6 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
  %9 = tile.load %8 : tensor<16x16x!tile.ptr<f16>>
  %acc = arith.constant dense<0.0> : tensor<16x16xf32>
  %10 = tile.dot %9, %9, %acc : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32> -> tensor<16x16xf32>
  %11 = arith.truncf %10 : tensor<16x16xf32> to tensor<16x16xf16>
  tile.store %8, %11 : tensor<16x16x!tile.ptr<f16>>
  tile.return
}

// Over the operation budget: one version, and the remark says so.
// BUDGET: remark: kernel 'copy_rows' is not versioned on alignment: its {{[0-9]+}} operations exceed the budget of 8 (max-operations)
// BUDGET: remark: kernel 'scale_rows_f32' is not versioned on alignment: its {{[0-9]+}} operations exceed the budget of 8 (max-operations)
// BUDGET-NOT: tile.aligned_variant
