// Verifier errors of the atomics, the tensor descriptor type and ops,
// tile.hint and tile.assume: one chunk per error message.
// RUN: tilec-opt %s -split-input-file -verify-diagnostics

tile.func @rmw_fadd_int(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+1 {{'tile.atomic_rmw' op expected an f16, bf16, f32 or f64 element type for fadd, found 'i32'}}
  %o = tile.atomic_rmw fadd, acq_rel, gpu, %p, %v : !tile.ptr<i32>
  tile.return
}

// -----

tile.func @rmw_add_float(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'tile.atomic_rmw' op expected an i32 or i64 element type for add, found 'f32'}}
  %o = tile.atomic_rmw add, acq_rel, gpu, %p, %v : !tile.ptr<f32>
  tile.return
}

// -----

tile.func @rmw_and_i8(%p: !tile.ptr<i8>, %v: i8) {
  // expected-error @+1 {{'tile.atomic_rmw' op expected an i32 or i64 element type for and, found 'i8'}}
  %o = tile.atomic_rmw and, acq_rel, gpu, %p, %v : !tile.ptr<i8>
  tile.return
}

// -----

tile.func @rmw_max_i1(%p: !tile.ptr<i1>, %v: i1) {
  // expected-error @+1 {{'tile.atomic_rmw' op expected an i32, i64, f16, bf16, f32 or f64 element type for max, found 'i1'}}
  %o = tile.atomic_rmw max, acq_rel, gpu, %p, %v : !tile.ptr<i1>
  tile.return
}

// -----

tile.func @rmw_bad_kind(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error @+2 {{expected ::tilec::tile::RMWKind to be one of: add, fadd, max, min, umax, umin, and, or, xor, xchg}}
  // expected-error @+1 {{failed to parse Tile_RMWKindAttr parameter 'value'}}
  %o = tile.atomic_rmw fmul, acq_rel, gpu, %p, %v : !tile.ptr<f32>
  tile.return
}

// -----

tile.func @rmw_bad_sem(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error @+2 {{expected ::tilec::tile::MemSemantic to be one of: relaxed, acquire, release, acq_rel}}
  // expected-error @+1 {{failed to parse Tile_MemSemanticAttr parameter 'value'}}
  %o = tile.atomic_rmw fadd, seq_cst, gpu, %p, %v : !tile.ptr<f32>
  tile.return
}

// -----

tile.func @rmw_val_type(%p: !tile.ptr<f32>, %v: f16) {
  // expected-error @+1 {{'tile.atomic_rmw' op failed to verify that val has the element type of the pointee of ptr}}
  %o = "tile.atomic_rmw"(%p, %v) <{kind = #tile<rmw_kind fadd>, sem = #tile<mem_semantic acq_rel>, scope = #tile<mem_scope gpu>}> : (!tile.ptr<f32>, f16) -> f16
  tile.return
}

// -----

tile.func private @rmw_mask_shape(%p: tensor<64x!tile.ptr<f32>>, %v: tensor<64xf32>, %m: tensor<32xi1>) {
  // expected-error @+1 {{'tile.atomic_rmw' op failed to verify that mask has the shape of ptr with i1 elements}}
  %o = "tile.atomic_rmw"(%p, %v, %m) <{kind = #tile<rmw_kind fadd>}> : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>, tensor<32xi1>) -> tensor<64xf32>
  tile.return
}

// -----

tile.func @cas_i8(%p: !tile.ptr<i8>, %c: i8) {
  // expected-error @+1 {{'tile.atomic_cas' op expected a 16-, 32- or 64-bit element type, found 'i8'}}
  %o = tile.atomic_cas acq_rel, gpu, %p, %c, %c : !tile.ptr<i8>
  tile.return
}

// -----

tile.func @cas_cmp_type(%p: !tile.ptr<i32>, %c: i64, %v: i32) {
  // expected-error @+1 {{'tile.atomic_cas' op failed to verify that cmp has the element type of the pointee of ptr}}
  %o = "tile.atomic_cas"(%p, %c, %v) : (!tile.ptr<i32>, i64, i32) -> i32
  tile.return
}

// -----

// expected-error @+1 {{expected a block of static shape and rank >= 1, found 'tensor<?x64xf16>'}}
tile.func private @desc_dynamic(!tile.tensordesc<tensor<?x64xf16>>)

// -----

#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{expected a block type without encoding, found 'tensor<128xf16, #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>'}}
tile.func private @desc_encoded(!tile.tensordesc<tensor<128xf16, #b>>)

// -----

// expected-error @+1 {{expected an integer or float block element type, found '!tile.ptr<f16>'}}
tile.func private @desc_ptrs(!tile.tensordesc<tensor<128x!tile.ptr<f16>>>)

// -----

tile.func @desc_base_type(%b: !tile.ptr<f32>, %m: i32, %s: i64) {
  // expected-error @+1 {{'tile.make_tensor_desc' op expected a base pointer to the block's element type 'f16', found 'f32'}}
  %d = tile.make_tensor_desc %b, [%m, %m], [%s, %s] : !tile.ptr<f32>, [i32, i32], [i64, i64] -> !tile.tensordesc<tensor<64x64xf16>>
  tile.return
}

// -----

tile.func @desc_rank(%b: !tile.ptr<f16>, %m: i32, %s: i64) {
  // expected-error @+1 {{'tile.make_tensor_desc' op expected 2 shape and stride values (the block's rank), found 1}}
  %d = tile.make_tensor_desc %b, [%m], [%s] : !tile.ptr<f16>, [i32], [i64] -> !tile.tensordesc<tensor<64x64xf16>>
  tile.return
}

// -----

tile.func @desc_shape_type(%b: !tile.ptr<f16>, %m: i16, %s: i64) {
  // expected-error @+1 {{'tile.make_tensor_desc' op operand #1 must be variadic of 32-bit signless integer or 64-bit signless integer, but got 'i16'}}
  %d = tile.make_tensor_desc %b, [%m], [%s] : !tile.ptr<f16>, [i16], [i64] -> !tile.tensordesc<tensor<64xf16>>
  tile.return
}

// -----

tile.func @desc_nan_int(%b: !tile.ptr<i32>, %m: i32, %s: i64) {
  // expected-error @+1 {{'tile.make_tensor_desc' op expected a float block for nan_padding, found 'i32'}}
  %d = tile.make_tensor_desc %b, [%m], [%s] {nan_padding} : !tile.ptr<i32>, [i32], [i64] -> !tile.tensordesc<tensor<64xi32>>
  tile.return
}

// -----

tile.func private @desc_load_indices(%d: !tile.tensordesc<tensor<64x64xf16>>, %i: i32) -> tensor<64x64xf16> {
  // expected-error @+1 {{'tile.desc_load' op expected 2 indices (the block's rank), found 1}}
  %t = tile.desc_load %d[%i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  tile.return %t : tensor<64x64xf16>
}

// -----

tile.func private @desc_load_type(%d: !tile.tensordesc<tensor<64x64xf16>>, %i: i32) -> tensor<64x32xf16> {
  // expected-error @+1 {{'tile.desc_load' op expected a result of the block type 'tensor<64x64xf16>', found 'tensor<64x32xf16>'}}
  %t = tile.desc_load %d[%i, %i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x32xf16>
  tile.return %t : tensor<64x32xf16>
}

// -----

tile.func private @desc_store_type(%d: !tile.tensordesc<tensor<64x64xf16>>, %i: i32, %v: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.desc_store' op expected a stored value of the block type 'tensor<64x64xf16>', found 'tensor<64x64xf32>'}}
  tile.desc_store %d[%i, %i], %v : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf32>
  tile.return
}

// -----

tile.func private @desc_index_type(%d: !tile.tensordesc<tensor<64xf16>>, %i: i64) -> tensor<64xf16> {
  // expected-error @+1 {{'tile.desc_load' op operand #1 must be variadic of 32-bit signless integer, but got 'i64'}}
  %t = "tile.desc_load"(%d, %i) : (!tile.tensordesc<tensor<64xf16>>, i64) -> tensor<64xf16>
  tile.return %t : tensor<64xf16>
}

// -----

tile.func private @hint_rank(%x: tensor<16x64xi32>) -> tensor<16x64xi32> {
  // expected-error @+1 {{'tile.hint' op expected 2 contiguity values (the value's rank; 1 for a scalar), found 1}}
  %h = tile.hint %x {contiguity = array<i64: 64>} : tensor<16x64xi32>
  tile.return %h : tensor<16x64xi32>
}

// -----

tile.func private @hint_pow2(%x: i32) -> i32 {
  // expected-error @+1 {{'tile.hint' op expected divisibility values to be powers of two, found 12}}
  %h = tile.hint %x {divisibility = array<i64: 12>} : i32
  tile.return %h : i32
}

// -----

tile.func private @hint_zero(%x: tensor<64xi32>) -> tensor<64xi32> {
  // expected-error @+1 {{'tile.hint' op expected constancy values to be powers of two, found 0}}
  %h = tile.hint %x {constancy = array<i64: 0>} : tensor<64xi32>
  tile.return %h : tensor<64xi32>
}

// -----

tile.func private @hint_float(%x: f32) -> f32 {
  // expected-error @+1 {{'tile.hint' op operand #0 must be}}
  %h = tile.hint %x {divisibility = array<i64: 16>} : f32
  tile.return %h : f32
}

// -----

tile.func private @assume_i32(%x: i32) {
  // expected-error @+1 {{'tile.assume' op operand #0 must be 1-bit signless integer, but got 'i32'}}
  tile.assume %x : i32
  tile.return
}

// -----

tile.func private @histogram_float(%x: tensor<256xf32>) {
  // expected-error @+1 {{'tile.histogram' op expected a 1-D tile of integers, found 'tensor<256xf32>'}}
  %h = tile.histogram %x : tensor<256xf32> -> tensor<64xi32>
  tile.return
}

// -----

tile.func private @histogram_result(%x: tensor<256xi32>) {
  // expected-error @+1 {{'tile.histogram' op expected a 1-D i32 result (one count per bin), found 'tensor<64xi64>'}}
  %h = tile.histogram %x : tensor<256xi32> -> tensor<64xi64>
  tile.return
}

// -----

tile.func private @histogram_mask(%x: tensor<256xi32>, %m: tensor<128xi1>) {
  // expected-error @+1 {{'tile.histogram' op expected a mask of i1 with the shape of the source, found 'tensor<128xi1>'}}
  %h = tile.histogram %x, %m : tensor<256xi32>, tensor<128xi1> -> tensor<64xi32>
  tile.return
}
