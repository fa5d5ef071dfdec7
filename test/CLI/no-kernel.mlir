// An input with no kernel (here: empty) has nothing to compile to PTX: an
// error, not an empty PTX file.
// RUN: not tilec %s -o %t.ptx 2>&1 | FileCheck %s
// CHECK: error: no kernel to compile: expected at least one public tile.func
