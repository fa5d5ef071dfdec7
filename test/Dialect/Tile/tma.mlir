// The TMA and mbarrier IR: !tile.tensormap kernel arguments (after a host
// descriptor's strides, with their tile.tma box and swizzle) and the
// mbarrier / async_tma_load ops round-trip, through the custom and the
// generic syntax; the verifier's errors follow (split-input-file).
// RUN: tilec-opt %s --split-input-file --verify-diagnostics | FileCheck %s

#flat = #tile.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #tile.nvmma_shared<{swizzle = 128, transposed = false}>

// CHECK-LABEL: tile.func @tma(
// CHECK-SAME: %{{.*}}: !tile.tensormap {tile.tma = {box = array<i64: 128, 64>, swizzle = 128 : i32}}
// CHECK: tile.mbarrier_init %{{.*}} {count = 1 : i32} : !tile.memdesc<2x1xi64, #{{.*}}, mutable>
// CHECK: tile.mbarrier_expect %{{.*}}, %{{.*}} {bytes = 16384 : i32} : !tile.memdesc<1xi64, #{{.*}}, mutable>
// CHECK: tile.async_tma_load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}}, %{{.*}} : !tile.tensormap, !tile.memdesc<128x64xf16, #{{.*}}, mutable>, !tile.memdesc<1xi64, #{{.*}}, mutable>
// CHECK: tile.mbarrier_wait %{{.*}}, %{{.*}} : !tile.memdesc<1xi64, #{{.*}}, mutable>
// CHECK: tile.mbarrier_inval %{{.*}} : !tile.memdesc<2x1xi64, #{{.*}}, mutable>
tile.func @tma(%b: !tile.ptr<f16> {tile.tensordesc = tensor<128x64xf16>}, %m: i32, %n: i32, %s: i64, %map: !tile.tensormap {tile.tma = {box = array<i64: 128, 64>, swizzle = 128 : i32}}, %i: i32, %p: i1) {
  %c0 = arith.constant 0 : i32
  %bars = tile.local_alloc : () -> !tile.memdesc<2x1xi64, #flat, mutable>
  tile.mbarrier_init %bars {count = 1 : i32} : !tile.memdesc<2x1xi64, #flat, mutable>
  %bar = tile.memdesc_index %bars[%c0] : !tile.memdesc<2x1xi64, #flat, mutable> -> !tile.memdesc<1xi64, #flat, mutable>
  %buf = tile.local_alloc : () -> !tile.memdesc<128x64xf16, #nvmma, mutable>
  tile.mbarrier_expect %bar, %p {bytes = 16384 : i32} : !tile.memdesc<1xi64, #flat, mutable>
  tile.async_tma_load %map[%i, %c0], %buf, %bar, %p : !tile.tensormap, !tile.memdesc<128x64xf16, #nvmma, mutable>, !tile.memdesc<1xi64, #flat, mutable>
  tile.mbarrier_wait %bar, %c0 : !tile.memdesc<1xi64, #flat, mutable>
  tile.mbarrier_inval %bars : !tile.memdesc<2x1xi64, #flat, mutable>
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected the !tile.tensormap argument 1 to follow the strides of a tile.tensordesc argument}}
tile.func @map_alone(%x: i32, %map: !tile.tensormap {tile.tma = {box = array<i64: 64, 64>, swizzle = 128 : i32}}) {
  tile.return
}

// -----

// The innermost box extent (32 fp16 = 64 bytes) must be the swizzle's.
// expected-error @+1 {{'tile.func' op expected the !tile.tensormap argument 4}}
tile.func @map_box(%b: !tile.ptr<f16> {tile.tensordesc = tensor<128x64xf16>}, %m: i32, %n: i32, %s: i64, %map: !tile.tensormap {tile.tma = {box = array<i64: 64, 32>, swizzle = 128 : i32}}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected the !tile.tensormap argument 4}}
tile.func @map_no_attr(%b: !tile.ptr<f16> {tile.tensordesc = tensor<128x64xf16>}, %m: i32, %n: i32, %s: i64, %map: !tile.tensormap) {
  tile.return
}

// -----

#flat = #tile.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @tma_not_nvmma(%b: !tile.ptr<f16> {tile.tensordesc = tensor<128x64xf16>}, %m: i32, %n: i32, %s: i64, %map: !tile.tensormap {tile.tma = {box = array<i64: 128, 64>, swizzle = 128 : i32}}, %bar: !tile.memdesc<1xi64, #flat, mutable>, %buf: !tile.memdesc<128x64xf16, #shared, mutable>, %i: i32) {
  // expected-error @+1 {{'tile.async_tma_load' op expected a mutable 2-D #tile.nvmma_shared destination}}
  tile.async_tma_load %map[%i, %i], %buf, %bar : !tile.tensormap, !tile.memdesc<128x64xf16, #shared, mutable>, !tile.memdesc<1xi64, #flat, mutable>
  tile.return
}

// -----

#flat = #tile.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #tile.nvmma_shared<{swizzle = 128, transposed = false}>
tile.func private @tma_bad_barrier(%b: !tile.ptr<f16> {tile.tensordesc = tensor<128x64xf16>}, %m: i32, %n: i32, %s: i64, %map: !tile.tensormap {tile.tma = {box = array<i64: 128, 64>, swizzle = 128 : i32}}, %bar: !tile.memdesc<2xi64, #flat, mutable>, %buf: !tile.memdesc<128x64xf16, #nvmma, mutable>, %i: i32) {
  // expected-error @+1 {{'tile.async_tma_load' op expected one mbarrier (a mutable 1-element i64 buffer)}}
  tile.async_tma_load %map[%i, %i], %buf, %bar : !tile.tensormap, !tile.memdesc<128x64xf16, #nvmma, mutable>, !tile.memdesc<2xi64, #flat, mutable>
  tile.return
}

// -----

#flat = #tile.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tile.func private @expect_too_many(%bar: !tile.memdesc<1xi64, #flat, mutable>) {
  // expected-error @+1 {{'tile.mbarrier_expect' op expected a transaction count below 2^20, found 1048576}}
  tile.mbarrier_expect %bar {bytes = 1048576 : i32} : !tile.memdesc<1xi64, #flat, mutable>
  tile.return
}

// -----

#flat = #tile.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tile.func private @init_i32(%bars: !tile.memdesc<2xi32, #flat, mutable>) {
  // expected-error @+1 {{'tile.mbarrier_init' op expected a mutable buffer of i64 mbarriers}}
  tile.mbarrier_init %bars {count = 1 : i32} : !tile.memdesc<2xi32, #flat, mutable>
  tile.return
}

// -----

#flat = #tile.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #tile.nvmma_shared<{swizzle = 128, transposed = false}>
tile.func private @tma_box_mismatch(%b: !tile.ptr<f16> {tile.tensordesc = tensor<128x64xf16>}, %m: i32, %n: i32, %s: i64, %map: !tile.tensormap {tile.tma = {box = array<i64: 128, 64>, swizzle = 128 : i32}}, %bar: !tile.memdesc<1xi64, #flat, mutable>, %buf: !tile.memdesc<64x64xf16, #nvmma, mutable>, %i: i32) {
  // expected-error @+1 {{'tile.async_tma_load' op expected the tensor map's box [64, 64] and swizzle 128 (the destination's)}}
  tile.async_tma_load %map[%i, %i], %buf, %bar : !tile.tensormap, !tile.memdesc<64x64xf16, #nvmma, mutable>, !tile.memdesc<1xi64, #flat, mutable>
  tile.return
}

// -----

#flat = #tile.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #tile.nvmma_shared<{swizzle = 128, transposed = false}>
tile.func private @tma_narrow(%b: !tile.ptr<f16> {tile.tensordesc = tensor<128x64xf16>}, %m: i32, %n: i32, %s: i64, %map: !tile.tensormap {tile.tma = {box = array<i64: 128, 64>, swizzle = 128 : i32}}, %bar: !tile.memdesc<1xi64, #flat, mutable>, %buf: !tile.memdesc<128x32xf16, #nvmma, mutable>, %i: i32) {
  // expected-error @+1 {{'tile.async_tma_load' op expected a destination of at most 256 rows of a multiple of the 128-byte swizzle}}
  tile.async_tma_load %map[%i, %i], %buf, %bar : !tile.tensormap, !tile.memdesc<128x32xf16, #nvmma, mutable>, !tile.memdesc<1xi64, #flat, mutable>
  tile.return
}

// -----

// A map chosen at run time: the copy's box could not be checked against it.
#flat = #tile.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #tile.nvmma_shared<{swizzle = 128, transposed = false}>
tile.func private @tma_selected_map(%b: !tile.ptr<f16> {tile.tensordesc = tensor<128x64xf16>}, %m: i32, %n: i32, %s: i64, %map: !tile.tensormap {tile.tma = {box = array<i64: 128, 64>, swizzle = 128 : i32}}, %b2: !tile.ptr<f16> {tile.tensordesc = tensor<64x64xf16>}, %m2: i32, %n2: i32, %s2: i64, %map2: !tile.tensormap {tile.tma = {box = array<i64: 64, 32>, swizzle = 64 : i32}}, %bar: !tile.memdesc<1xi64, #flat, mutable>, %buf: !tile.memdesc<128x64xf16, #nvmma, mutable>, %i: i32, %p: i1) {
  %mm = arith.select %p, %map, %map2 : !tile.tensormap
  // expected-error @+1 {{'tile.async_tma_load' op expected the tensor map to be an argument of the enclosing tile.func}}
  tile.async_tma_load %mm[%i, %i], %buf, %bar : !tile.tensormap, !tile.memdesc<128x64xf16, #nvmma, mutable>, !tile.memdesc<1xi64, #flat, mutable>
  tile.return
}

// -----

// A launch map: after every other argument, its source the launch
// evaluates (the base is signature entry 0; sizes and strides are postfix
// expressions of entries 1 and 2).
// CHECK-LABEL: tile.func @launch_map(
// CHECK-SAME: !tile.tensormap {tile.tma = {box = array<i64: 128, 64>, swizzle = 128 : i32}, tile.tma_source = {base = 0 : i32, element = f16, shape = ["a1", "a2"], strides = ["a2"]}}
tile.func @launch_map(%p: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %map: !tile.tensormap {tile.tma = {box = array<i64: 128, 64>, swizzle = 128 : i32}, tile.tma_source = {element = f16, base = 0 : i32, shape = ["a1", "a2"], strides = ["a2"]}}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected the launch map argument 1 to come after every other argument}}
tile.func @launch_map_not_last(%p: !tile.ptr<f16>, %map: !tile.tensormap {tile.tma = {box = array<i64: 128, 64>, swizzle = 128 : i32}, tile.tma_source = {element = f16, base = 0 : i32, shape = ["c8", "c64"], strides = ["c64"]}}, %m: i32) {
  tile.return
}

// -----

// The base must be a pointer entry of the signature (entry 1 is an i32).
// expected-error @+1 {{'tile.func' op expected the launch map argument 2 to come after every other argument and carry tile.tma_source}}
tile.func @launch_map_base(%p: !tile.ptr<f16>, %m: i32, %map: !tile.tensormap {tile.tma = {box = array<i64: 128, 64>, swizzle = 128 : i32}, tile.tma_source = {element = f16, base = 1 : i32, shape = ["a1", "a1"], strides = ["a1"]}}) {
  tile.return
}

// -----

// One stride fewer than sizes.
// expected-error @+1 {{'tile.func' op expected the launch map argument 2}}
tile.func @launch_map_strides(%p: !tile.ptr<f16>, %m: i32, %map: !tile.tensormap {tile.tma = {box = array<i64: 128, 64>, swizzle = 128 : i32}, tile.tma_source = {element = f16, base = 0 : i32, shape = ["a1", "a1"], strides = ["a1", "c1"]}}) {
  tile.return
}

// -----

// The box's innermost extent (32 fp16 = 64 bytes) is not the swizzle's.
// expected-error @+1 {{'tile.func' op expected the !tile.tensormap argument 2}}
tile.func @launch_map_box(%p: !tile.ptr<f16>, %m: i32, %map: !tile.tensormap {tile.tma = {box = array<i64: 128, 32>, swizzle = 128 : i32}, tile.tma_source = {element = f16, base = 0 : i32, shape = ["a1", "a1"], strides = ["a1"]}}) {
  tile.return
}

// -----

// The element type must be the base's pointee.
// expected-error @+1 {{'tile.func' op expected the launch map argument 3}}
tile.func @launch_map_element(%p: !tile.ptr<f32>, %m: i32, %n: i32, %map: !tile.tensormap {tile.tma = {box = array<i64: 128, 64>, swizzle = 128 : i32}, tile.tma_source = {element = f16, base = 0 : i32, shape = ["a1", "a2"], strides = ["a2"]}}) {
  tile.return
}

// -----

// Expressions: known tokens over integer entries, one value.
// expected-error @+1 {{'tile.func' op expected the launch map argument 3}}
tile.func @launch_map_expression(%p: !tile.ptr<f16>, %m: i32, %n: i32, %map: !tile.tensormap {tile.tma = {box = array<i64: 128, 64>, swizzle = 128 : i32}, tile.tma_source = {element = f16, base = 0 : i32, shape = ["garbage", "a7.a0.add32"], strides = ["a1"]}}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected the launch map argument 3}}
tile.func @launch_map_two_values(%p: !tile.ptr<f16>, %m: i32, %n: i32, %map: !tile.tensormap {tile.tma = {box = array<i64: 128, 64>, swizzle = 128 : i32}, tile.tma_source = {element = f16, base = 0 : i32, shape = ["a1.a2", "a2"], strides = ["a2:a1"]}}) {
  tile.return
}
