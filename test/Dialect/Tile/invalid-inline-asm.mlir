// Verifier errors of tile.elementwise_inline_asm: one chunk per message.
// RUN: tilec-opt %s -split-input-file -verify-diagnostics

tile.func private @no_result(%x: f32) {
  // expected-error @+1 {{'tile.elementwise_inline_asm' op expected at least one result (as Triton: return a dummy value if the asm needs none), found none}}
  tile.elementwise_inline_asm "", "r" pure pack 1 %x : (f32) -> ()
  tile.return
}

// -----

tile.func private @pack_three(%x: tensor<64xf32>) {
  // expected-error @+1 {{'tile.elementwise_inline_asm' op expected packed_element to be a power of two, found 3}}
  %y = tile.elementwise_inline_asm "", "=r,=r,=r,r,r,r" pure pack 3 %x : (tensor<64xf32>) -> tensor<64xf32>
  tile.return
}

// -----

tile.func private @pack_zero(%x: tensor<64xf32>) {
  // expected-error @+1 {{'tile.elementwise_inline_asm' op attribute 'packed_element' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive}}
  %y = tile.elementwise_inline_asm "", "=r,r" pure pack 0 %x : (tensor<64xf32>) -> tensor<64xf32>
  tile.return
}

// -----

tile.func private @too_few_inputs(%a: tensor<64xi8>) {
  // expected-error @+1 {{'tile.elementwise_inline_asm' op expected 4 output and 1 input constraints (1 result(s) and 1 operand(s), 4 element(s) per pack, elements under 32 bits sharing 32-bit registers), found 4 output and 4 input constraints in "=r,=r,=r,=r,r,r,r,r"}}
  %y = tile.elementwise_inline_asm "", "=r,=r,=r,=r,r,r,r,r" pure pack 4 %a : (tensor<64xi8>) -> tensor<64xi32>
  tile.return
}

// -----

tile.func private @half_pairs(%h: tensor<64xf16>) {
  // Two f16 per register: a pack of 4 is 2 registers each way.
  // expected-error @+1 {{'tile.elementwise_inline_asm' op expected 2 output and 2 input constraints (1 result(s) and 1 operand(s), 4 element(s) per pack, elements under 32 bits sharing 32-bit registers), found 1 output and 1 input constraints in "=r,r"}}
  %y = tile.elementwise_inline_asm "", "=r,r" pure pack 4 %h : (tensor<64xf16>) -> tensor<64xf16>
  tile.return
}

// -----

tile.func private @outputs_last(%x: f32) {
  // expected-error @+1 {{'tile.elementwise_inline_asm' op expected the output constraints (`=...`) before the input ones, found "r,=r"}}
  %y = tile.elementwise_inline_asm "", "r,=r" pure pack 1 %x : (f32) -> f32
  tile.return
}

// -----

tile.func private @shapes(%x: tensor<64xf32>, %y: tensor<128xf32>) {
  // expected-error @+1 {{'tile.elementwise_inline_asm' op all non-scalar operands/results must have the same shape and base type}}
  %z = tile.elementwise_inline_asm "", "=r,r,r" pure pack 1 %x, %y : (tensor<64xf32>, tensor<128xf32>) -> tensor<64xf32>
  tile.return
}

// -----

tile.func private @scalar_result_of_tile(%x: tensor<64xf32>) {
  // expected-error @+1 {{'tile.elementwise_inline_asm' op if an operand is non-scalar, then there must be at least one non-scalar result}}
  %z = tile.elementwise_inline_asm "", "=r,r" pure pack 1 %x : (tensor<64xf32>) -> f32
  tile.return
}

// -----

#a = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func private @encodings(%x: tensor<256xf32, #a>) {
  // expected-error @+1 {{'tile.elementwise_inline_asm' op expected every tile operand and result to have one encoding, found #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}> and #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}}
  %z = tile.elementwise_inline_asm "", "=r,r" pure pack 1 %x : (tensor<256xf32, #a>) -> tensor<256xf32, #b>
  tile.return
}

// -----

tile.func private @bad_constraint(%x: i32) {
  // expected-error @+1 {{'tile.elementwise_inline_asm' op expected a clobber such as '~{memory}', found '~{'}}
  %z = tile.elementwise_inline_asm "mov.b32 $0, $1;", "=r,r,~{" pure pack 1 %x : (i32) -> i32
  tile.return
}

// -----

tile.func private @bad_operand(%x: i32) {
  // expected-error @+1 {{'tile.elementwise_inline_asm' op expected operand numbers below 2 in the asm (outputs first, then inputs), found $2}}
  %z = tile.elementwise_inline_asm "mov.b32 $0, ${2};", "=r,r" pure pack 1 %x : (i32) -> i32
  tile.return
}
