// tilec when a pass rejects the input (a tile shape that is not a power of
// two): the pass's `unimplemented:` error at the op's line, with the source
// line and a caret; exit 1 and no output file.
// RUN: not tilec %s -o %t.ptx 2>&1 | FileCheck %s
// RUN: not tilec %s --emit=layout 2>&1 | FileCheck %s
// RUN: tilec %s --emit=tile | FileCheck %s --check-prefix=TILE

// CHECK: {{.*}}pass-error.mlir:[[# @LINE + 7]]:8: error: unimplemented: tile shape [1000] is not a power of two in every dimension; pad the tile to a power of two and mask the extra elements
// CHECK-NEXT: {{^}}  %r = tile.make_range {start = 0 : i32, end = 1000 : i32} : tensor<1000xi32>
// CHECK-NEXT: {{^       \^$}}

// The tile stage runs no layout pass, so it accepts the kernel.
// TILE: tile.make_range {end = 1000 : i32, start = 0 : i32} : tensor<1000xi32>
tile.func @k(%x: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 1000 : i32} : tensor<1000xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<1000x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<1000x!tile.ptr<f32>>, tensor<1000xi32>
  %v = tile.load %xp : tensor<1000x!tile.ptr<f32>>
  tile.store %xp, %v : tensor<1000x!tile.ptr<f32>>
  tile.return
}
