// Kernels must be top-level tile.funcs: inside a nested module they got an
// internal-sounding "failed to legalize" (review of issue 9).
// RUN: not tilec %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: nested-modules.mlir:7:1: error: expected tile.func at the top level of the file, found it inside module @inner
// CHECK: nested-modules.mlir:12:1: error: expected tile.func at the top level of the file, found it inside module @inner2
module @inner {
tile.func @k(%x: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  tile.return
}
}
module @inner2 {
tile.func @k(%x: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  tile.return
}
}
