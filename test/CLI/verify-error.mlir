// tilec on input that parses but fails the verifier: `file:line:col:
// error:` with the verifier's message, the source line and a caret; exit 1.
// RUN: not tilec %s 2>&1 | FileCheck %s

// CHECK: {{.*}}verify-error.mlir:[[# @LINE + 4]]:8: error: 'tile.program_id' op expected axis 0, 1 or 2, found 7
// CHECK-NEXT: {{^}}  %p = tile.program_id 7 : i32
// CHECK-NEXT: {{^       \^$}}
tile.func @k(%x: !tile.ptr<f32>) {
  %p = tile.program_id 7 : i32
  tile.return
}
