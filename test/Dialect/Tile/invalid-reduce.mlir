// Verifier errors of tile.reduce, tile.scan, tile.dot and tile.trans: one
// chunk per error message.
// RUN: tilec-opt %s -split-input-file -verify-diagnostics

tile.func private @reduce_axis(%a: tensor<16x64xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'tile.reduce' op expected axis in [0, 2), found 2}}
  %s = tile.reduce(%a) {axis = 2 : i32} : (tensor<16x64xf32>) -> tensor<16xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    tile.reduce.return %r : f32
  }
  tile.return %s : tensor<16xf32>
}

// -----

tile.func private @reduce_shapes(%a: tensor<16xf32>, %b: tensor<32xi32>) -> f32 {
  // expected-error @+1 {{'tile.reduce' op expected every operand of shape [16], found [32] for operand 1}}
  %s:2 = tile.reduce(%a, %b) {axis = 0 : i32} : (tensor<16xf32>, tensor<32xi32>) -> (f32, i32) {
  ^bb0(%x: f32, %i: i32, %y: f32, %j: i32):
    tile.reduce.return %x, %i : f32, i32
  }
  tile.return %s#0 : f32
}

// -----

tile.func private @reduce_result(%a: tensor<16x64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'tile.reduce' op expected result 0 of type 'tensor<16xf32>' (operand 0 without axis 1), found 'tensor<64xf32>'}}
  %s = tile.reduce(%a) {axis = 1 : i32} : (tensor<16x64xf32>) -> tensor<64xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    tile.reduce.return %r : f32
  }
  tile.return %s : tensor<64xf32>
}

// -----

tile.func private @reduce_1d_scalar(%a: tensor<16xf32>) -> tensor<1xf32> {
  // expected-error @+1 {{'tile.reduce' op expected result 0 of type 'f32' (operand 0 without axis 0), found 'tensor<1xf32>'}}
  %s = tile.reduce(%a) {axis = 0 : i32} : (tensor<16xf32>) -> tensor<1xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    tile.reduce.return %r : f32
  }
  tile.return %s : tensor<1xf32>
}

// -----

tile.func private @reduce_num_results(%a: tensor<16xf32>) -> f32 {
  // expected-error @+1 {{'tile.reduce' op expected 1 results (one per operand), found 2}}
  %s:2 = tile.reduce(%a) {axis = 0 : i32} : (tensor<16xf32>) -> (f32, f32) {
  ^bb0(%x: f32, %y: f32):
    tile.reduce.return %x : f32
  }
  tile.return %s#0 : f32
}

// -----

tile.func private @reduce_arg_count(%a: tensor<16xf32>) -> f32 {
  // expected-error @+1 {{'tile.reduce' op expected 2 combiner arguments (2 per operand), found 1}}
  %s = tile.reduce(%a) {axis = 0 : i32} : (tensor<16xf32>) -> f32 {
  ^bb0(%x: f32):
    tile.reduce.return %x : f32
  }
  tile.return %s : f32
}

// -----

tile.func private @reduce_arg_type(%a: tensor<16xf32>) -> f32 {
  // expected-error @+1 {{'tile.reduce' op expected combiner argument 1 of type 'f32' (the element type of operand 0), found 'f16'}}
  %s = tile.reduce(%a) {axis = 0 : i32} : (tensor<16xf32>) -> f32 {
  ^bb0(%x: f32, %y: f16):
    tile.reduce.return %x : f32
  }
  tile.return %s : f32
}

// -----

tile.func private @reduce_return_count(%a: tensor<16xf32>) -> f32 {
  // expected-error @+1 {{'tile.reduce' op expected the combiner to return 1 values (one per operand), found 2}}
  %s = tile.reduce(%a) {axis = 0 : i32} : (tensor<16xf32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    // expected-note @+1 {{returned here}}
    tile.reduce.return %x, %y : f32, f32
  }
  tile.return %s : f32
}

// -----

tile.func private @reduce_return_type(%a: tensor<16xf32>) -> f32 {
  // expected-error @+1 {{'tile.reduce' op expected combined value 0 of type 'f32' (the element type of operand 0), found 'f16'}}
  %s = tile.reduce(%a) {axis = 0 : i32} : (tensor<16xf32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    %t = arith.truncf %x : f32 to f16
    // expected-note @+1 {{returned here}}
    tile.reduce.return %t : f16
  }
  tile.return %s : f32
}

// -----

tile.func private @reduce_empty(%a: tensor<16xf32>) -> f32 {
  // expected-error @+1 {{'tile.reduce' op region #0 ('combine_op') failed to verify constraint: region with 1 blocks}}
  %s = "tile.reduce"(%a) ({}) {axis = 0 : i32} : (tensor<16xf32>) -> f32
  tile.return %s : f32
}

// -----

tile.func private @reduce_no_operands() {
  // expected-error @+1 {{'tile.reduce' op expected at least one operand, found none}}
  "tile.reduce"() ({
  ^bb0:
    tile.reduce.return
  }) {axis = 0 : i32} : () -> ()
  tile.return
}

// -----

tile.func private @reduce_wrong_terminator(%a: tensor<16xf32>) -> tensor<16xf32> {
  %s = tile.scan(%a) {axis = 0 : i32} : (tensor<16xf32>) -> tensor<16xf32> {
  ^bb0(%x: f32, %y: f32):
    // expected-error @+1 {{'tile.reduce.return' op expects parent op 'tile.reduce'}}
    tile.reduce.return %x : f32
  }
  tile.return %s : tensor<16xf32>
}

// -----

tile.func private @scan_axis(%a: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'tile.scan' op expected axis in [0, 1), found -1}}
  %s = tile.scan(%a) {axis = -1 : i32} : (tensor<16xf32>) -> tensor<16xf32> {
  ^bb0(%x: f32, %y: f32):
    tile.scan.return %x : f32
  }
  tile.return %s : tensor<16xf32>
}

// -----

tile.func private @scan_result(%a: tensor<16xf32>) -> tensor<16xf16> {
  // expected-error @+1 {{'tile.scan' op expected result 0 of type 'tensor<16xf32>' (the type of operand 0), found 'tensor<16xf16>'}}
  %s = tile.scan(%a) {axis = 0 : i32} : (tensor<16xf32>) -> tensor<16xf16> {
  ^bb0(%x: f32, %y: f32):
    tile.scan.return %x : f32
  }
  tile.return %s : tensor<16xf16>
}

// -----

tile.func private @scan_return_type(%a: tensor<16xi32>) -> tensor<16xi32> {
  // expected-error @+1 {{'tile.scan' op expected combined value 0 of type 'i32' (the element type of operand 0), found 'i64'}}
  %s = tile.scan(%a) {axis = 0 : i32} : (tensor<16xi32>) -> tensor<16xi32> {
  ^bb0(%x: i32, %y: i32):
    %e = arith.extsi %x : i32 to i64
    // expected-note @+1 {{returned here}}
    tile.scan.return %e : i64
  }
  tile.return %s : tensor<16xi32>
}

// -----

tile.func private @dot_rank(%a: tensor<64xf16>, %b: tensor<64xf16>, %c: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'tile.dot' op expected a 2-D or 3-D (batched) operand a, found rank 1}}
  %d = tile.dot %a, %b, %c : tensor<64xf16>, tensor<64xf16>, tensor<64xf32> -> tensor<64xf32>
  tile.return %d : tensor<64xf32>
}

// -----

tile.func private @dot_ranks(%a: tensor<16x16xf16>, %b: tensor<2x16x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // expected-error @+1 {{'tile.dot' op expected a, b and c of one rank, found 2, 3 and 2}}
  %d = tile.dot %a, %b, %c : tensor<16x16xf16>, tensor<2x16x16xf16>, tensor<16x16xf32> -> tensor<16x16xf32>
  tile.return %d : tensor<16x16xf32>
}

// -----

tile.func private @dot_k(%a: tensor<64x32xf16>, %b: tensor<16x128xf16>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{'tile.dot' op expected b with 32 rows (the columns of a), found 16}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf16>, tensor<16x128xf16>, tensor<64x128xf32> -> tensor<64x128xf32>
  tile.return %d : tensor<64x128xf32>
}

// -----

tile.func private @dot_c(%a: tensor<64x32xf16>, %b: tensor<32x128xf16>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // expected-error @+1 {{'tile.dot' op expected c of shape 64x128, found 'tensor<128x64xf32>'}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf16>, tensor<32x128xf16>, tensor<128x64xf32> -> tensor<128x64xf32>
  tile.return %d : tensor<128x64xf32>
}

// -----

tile.func private @dot_batch(%a: tensor<2x16x16xf16>, %b: tensor<4x16x16xf16>, %c: tensor<2x16x16xf32>) -> tensor<2x16x16xf32> {
  // expected-error @+1 {{'tile.dot' op expected batch dimension 2 in a, b and c, found [2, 16, 16], [4, 16, 16] and [2, 16, 16]}}
  %d = tile.dot %a, %b, %c : tensor<2x16x16xf16>, tensor<4x16x16xf16>, tensor<2x16x16xf32> -> tensor<2x16x16xf32>
  tile.return %d : tensor<2x16x16xf32>
}

// -----

tile.func private @dot_result(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf16> {
  // expected-error @+1 {{'tile.dot' op expected a result of the type of c 'tensor<16x16xf32>', found 'tensor<16x16xf16>'}}
  %d = tile.dot %a, %b, %c : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32> -> tensor<16x16xf16>
  tile.return %d : tensor<16x16xf16>
}

// -----

tile.func private @dot_kinds(%a: tensor<16x16xi8>, %b: tensor<16x16xi8>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // expected-error @+1 {{'tile.dot' op expected a, b and c all float or all integer, found 'i8', 'i8' and 'f32'}}
  %d = tile.dot %a, %b, %c : tensor<16x16xi8>, tensor<16x16xi8>, tensor<16x16xf32> -> tensor<16x16xf32>
  tile.return %d : tensor<16x16xf32>
}

// -----

// tl.dot's element types: no fp8 accumulator, no bf16 one, no mixed 16-bit
// operands, int8 only into i32.
tile.func private @dot_fp8_acc(%a: tensor<16x32xf8E4M3FN>, %c: tensor<16x16xf8E4M3FN>) {
  %b = arith.constant dense<1.0> : tensor<32x16xf8E4M3FN>
  // expected-error @+1 {{'tile.dot' op expected i8 x i8 into i32, f16/bf16/f32 (both the same) or fp8 x fp8 into f32, f16 or fp8 into f16, or f64 into f64, found 'f8E4M3FN' x 'f8E4M3FN' into 'f8E4M3FN'}}
  %d = tile.dot %a, %b, %c : tensor<16x32xf8E4M3FN>, tensor<32x16xf8E4M3FN>, tensor<16x16xf8E4M3FN> -> tensor<16x16xf8E4M3FN>
  tile.return
}

// -----

tile.func private @dot_bf16_acc(%a: tensor<16x16xbf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xbf16>) {
  // expected-error @+1 {{found 'bf16' x 'bf16' into 'bf16'}}
  %d = tile.dot %a, %b, %c : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xbf16>
  tile.return
}

// -----

tile.func private @dot_mixed(%a: tensor<16x16xf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{found 'f16' x 'bf16' into 'f32'}}
  %d = tile.dot %a, %b, %c : tensor<16x16xf16>, tensor<16x16xbf16>, tensor<16x16xf32> -> tensor<16x16xf32>
  tile.return
}

// -----

tile.func private @dot_i16(%a: tensor<16x16xi16>, %c: tensor<16x16xi32>) {
  // expected-error @+1 {{found 'i16' x 'i16' into 'i32'}}
  %d = tile.dot %a, %a, %c : tensor<16x16xi16>, tensor<16x16xi16>, tensor<16x16xi32> -> tensor<16x16xi32>
  tile.return
}

// -----

tile.func private @dot_precision(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // expected-error @+1 {{'tile.dot' op expected input_precision "tf32", "tf32x3" or "ieee", found "bf16x3"}}
  %d = tile.dot %a, %b, %c {input_precision = "bf16x3"} : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  tile.return %d : tensor<16x16xf32>
}

// -----

tile.func private @dot_ptrs(%a: tensor<16x16x!tile.ptr<f32>>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // expected-error @+1 {{'tile.dot' op operand #0 must be ranked tensor of}}
  %d = tile.dot %a, %b, %c : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  tile.return %d : tensor<16x16xf32>
}

// -----

tile.func private @trans_not_perm(%x: tensor<16x64xf32>) -> tensor<64x16xf32> {
  // expected-error @+1 {{'tile.trans' op expected order to be a permutation of [0, 2), found [1, 1]}}
  %t = tile.trans %x {order = array<i32: 1, 1>} : tensor<16x64xf32> -> tensor<64x16xf32>
  tile.return %t : tensor<64x16xf32>
}

// -----

tile.func private @trans_rank(%x: tensor<16x64xf32>) -> tensor<64x16xf32> {
  // expected-error @+1 {{'tile.trans' op expected order to be a permutation of [0, 2), found [1, 0, 2]}}
  %t = tile.trans %x {order = array<i32: 1, 0, 2>} : tensor<16x64xf32> -> tensor<64x16xf32>
  tile.return %t : tensor<64x16xf32>
}

// -----

tile.func private @trans_result(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'tile.trans' op expected result 'tensor<64x16xf32>', found 'tensor<16x64xf32>'}}
  %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<16x64xf32> -> tensor<16x64xf32>
  tile.return %t : tensor<16x64xf32>
}

// -----

tile.func private @dot_imprecise_acc_negative(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // expected-error @+1 {{'tile.dot' op attribute 'max_num_imprecise_acc' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  %d = tile.dot %a, %b, %c {max_num_imprecise_acc = -1 : i32} : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32> -> tensor<16x16xf32>
  tile.return %d : tensor<16x16xf32>
}
