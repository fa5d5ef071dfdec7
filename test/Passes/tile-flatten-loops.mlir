// RUN: tilec-opt %s --tile-flatten-loops --cse --split-input-file | FileCheck %s

// A persistent loop over tiles with a K loop inside becomes one loop over
// the nest's iterations (i64), versioned on the inner trip count: the
// prologue runs at each tile's first K step (its results carried), the
// accumulator restarts from its initial value there (select), the epilogue
// runs at the last step; with no K step, the nest runs with the inner loop
// replaced by its initial values.
// CHECK-LABEL: tile.func @persistent
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
// CHECK: %[[KN:.*]] = arith.maxsi
// CHECK: %[[TN:.*]] = arith.maxsi
// CHECK: %[[ANY:.*]] = arith.cmpi sgt, %[[KN]], %c0_i64
// CHECK: scf.if %[[ANY]] {
// CHECK:   %[[TOTAL:.*]] = arith.muli %[[TN]], %[[KN]] : i64
// CHECK:   %[[LAST:.*]] = arith.subi %[[KN]], %c1_i64
// CHECK:   scf.for %{{.*}} = %c0_i64 to %[[TOTAL]] step %c1_i64 iter_args(%[[T:.*]] = %{{.*}}, %[[K:.*]] = %c0_i32, %[[KI:.*]] = %c0_i64, %[[ACC:.*]] = %[[ZERO]], %[[P:.*]] = %c0_i32) -> (i32, i32, i64, tensor<16x16xf32>, i32)  : i64 {
// CHECK:     %[[FIRST:.*]] = arith.cmpi eq, %[[KI]], %c0_i64
// CHECK:     %[[ISLAST:.*]] = arith.cmpi eq, %[[KI]], %[[LAST]]
// CHECK:     %[[OFF:.*]] = scf.if %[[FIRST]] -> (i32) {
// CHECK:       arith.muli %[[T]], %c16_i32
// CHECK:     } else {
// CHECK:       scf.yield %[[P]] : i32
// CHECK:     %[[X:.*]] = arith.select %[[FIRST]], %[[ZERO]], %[[ACC]] : tensor<16x16xf32>
// CHECK:     %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[X]]
// CHECK:     scf.if %[[ISLAST]] {
// CHECK:       tile.store %{{.*}}, %[[D]]
// CHECK:     }
// CHECK:     %[[TN1:.*]] = arith.select %[[ISLAST]], %{{.*}}, %[[T]] : i32
// CHECK:     %[[KN1:.*]] = arith.select %[[ISLAST]], %c0_i32, %{{.*}} : i32
// CHECK:     %[[KI1:.*]] = arith.select %[[ISLAST]], %c0_i64, %{{.*}} : i64
// CHECK:     scf.yield %[[TN1]], %[[KN1]], %[[KI1]], %[[D]], %[[OFF]]
// CHECK:   } {tile.num_stages = 3 : i32}
// CHECK: } else {
// CHECK:   scf.for
// CHECK-NOT: scf.for
// CHECK:     tile.store %{{.*}}, %[[ZERO]]
// CHECK-NOT: tile.flatten
tile.func @persistent(%a: !tile.ptr<f16>, %c: !tile.ptr<f32>, %tiles: i32, %kt: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %pid = tile.program_id 0 : i32
  %np = tile.num_programs 0 : i32
  scf.for %t = %pid to %tiles step %np : i32 {
    %off = arith.muli %t, %c16 : i32
    %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%x = %zero) -> (tensor<16x16xf32>) : i32 {
      %kk = arith.addi %k, %off : i32
      %pa = tile.addptr %a, %kk : !tile.ptr<f16>, i32
      %p = tile.splat %pa : !tile.ptr<f16> -> tensor<16x16x!tile.ptr<f16>>
      %v = tile.load %p : tensor<16x16x!tile.ptr<f16>>
      %d = tile.dot %v, %v, %x : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32> -> tensor<16x16xf32>
      scf.yield %d : tensor<16x16xf32>
    } {tile.num_stages = 3 : i32}
    %pc = tile.addptr %c, %off : !tile.ptr<f32>, i32
    %qc = tile.splat %pc : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>>
    tile.store %qc, %acc : tensor<16x16x!tile.ptr<f32>>
  } {tile.flatten}
  tile.return
}

// -----

// A prologue that touches memory: the nest stays (the hint is dropped).
// CHECK-LABEL: tile.func @prologue_loads
// CHECK: scf.for
// CHECK: tile.load
// CHECK: scf.for
// CHECK-NOT: tile.flatten
tile.func @prologue_loads(%a: !tile.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %t = %c0 to %n step %c1 : i32 {
    %p = tile.addptr %a, %t : !tile.ptr<i32>, i32
    %m = tile.load %p : !tile.ptr<i32>
    scf.for %k = %c0 to %n step %c1 : i32 {
      %q = tile.addptr %a, %k : !tile.ptr<i32>, i32
      tile.store %q, %m : !tile.ptr<i32>
    }
  } {tile.flatten}
  tile.return
}

// -----

// Inner bounds that depend on the outer loop (a triangular nest): stays.
// CHECK-LABEL: tile.func @triangular
// CHECK: scf.for %[[T:.*]] =
// CHECK: scf.for %{{.*}} = %c0_i32 to %[[T]]
tile.func @triangular(%a: !tile.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %t = %c0 to %n step %c1 : i32 {
    scf.for %k = %c0 to %t step %c1 : i32 {
      %q = tile.addptr %a, %k : !tile.ptr<i32>, i32
      tile.store %q, %t : !tile.ptr<i32>
    }
  } {tile.flatten}
  tile.return
}

// -----

// An outer loop that carries a value (a count of its tiles, yielded from a
// prologue value): carried through the flat loop, updated at each tile's
// last step.
// CHECK-LABEL: tile.func @outer_carried
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK:   %[[F:.*]]:5 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %c0_i32, %{{.*}} = %c0_i64, %[[N:.*]] = %c0_i32, %{{.*}} = %c0_i32) -> (i32, i32, i64, i32, i32)  : i64 {
// CHECK:     %[[P:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK:       arith.addi %[[N]], %c1_i32
// CHECK:     %[[E:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK:       scf.yield %[[P]] : i32
// CHECK:     } else {
// CHECK:       scf.yield %[[N]] : i32
// CHECK:   scf.yield %[[F]]#3 : i32
// CHECK: } else {
// CHECK: tile.store %{{.*}}, %[[R]]
tile.func @outer_carried(%a: !tile.ptr<i32>, %n: i32, %m: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %t = %c0 to %n step %c1 iter_args(%count = %c0) -> (i32) : i32 {
    %next = arith.addi %count, %c1 : i32
    scf.for %k = %c0 to %m step %c1 : i32 {
      %q = tile.addptr %a, %k : !tile.ptr<i32>, i32
      tile.store %q, %t : !tile.ptr<i32>
    }
    scf.yield %next : i32
  } {tile.flatten}
  tile.store %a, %r : !tile.ptr<i32>
  tile.return
}

// -----

// An inner bound written inside the outer loop (`tl.range(0, tl.cdiv(K,
// 64))`) is hoisted first (it is invariant), then the nest flattens.
// CHECK-LABEL: tile.func @inline_bound
// CHECK: arith.divsi %{{.*}}, %c64_i32 : i32
// CHECK: scf.if
// CHECK: scf.for {{.*}} : i64 {
tile.func @inline_bound(%a: !tile.ptr<i32>, %n: i32, %kk: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c63 = arith.constant 63 : i32
  %c64 = arith.constant 64 : i32
  scf.for %t = %c0 to %n step %c1 : i32 {
    %s = arith.addi %kk, %c63 : i32
    %kt = arith.divsi %s, %c64 : i32
    scf.for %k = %c0 to %kt step %c1 : i32 {
      %q = tile.addptr %a, %k : !tile.ptr<i32>, i32
      tile.store %q, %t : !tile.ptr<i32>
    }
  } {tile.flatten}
  tile.return
}
