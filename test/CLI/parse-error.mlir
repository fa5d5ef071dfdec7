// tilec on a parse error: `file:line:col: error:`, the source line and a
// caret under the column, exit code 1.
// RUN: not tilec %s 2>&1 | FileCheck %s
// RUN: not tilec %s --emit=tile -o %t.out

// CHECK: {{.*}}parse-error.mlir:[[# @LINE + 5]]:8: error: custom op 'tile.bogus' is unknown
// CHECK-NEXT: {{^}}  %q = tile.bogus %p : i32
// CHECK-NEXT: {{^       \^$}}
tile.func @k(%x: !tile.ptr<f32>) {
  %p = tile.program_id 0 : i32
  %q = tile.bogus %p : i32
  tile.return
}
