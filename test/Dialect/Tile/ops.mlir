// Round trip of every tile op, the !tile.ptr type and both encodings
// (#tile.blocked, #tile.slice), through the custom and the generic syntax.
// RUN: tilec-opt %s | tilec-opt | FileCheck %s
// RUN: tilec-opt %s --mlir-print-op-generic | tilec-opt | FileCheck %s

#b1d = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2d = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#s0 = #tile.slice<{dim = 0, parent = #b2d}>
#s1 = #tile.slice<{dim = 1, parent = #b2d}>

// CHECK-DAG: #[[$B2D:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$B1D:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$B1D_1:.*]] = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$S1:.*]] = #tile.slice<{dim = 1, parent = #[[$B2D]]}>
// CHECK-DAG: #[[$S0:.*]] = #tile.slice<{dim = 0, parent = #[[$B2D]]}>

// A device function and an external declaration.
// CHECK-LABEL: tile.func private @helper(
// CHECK-SAME:      %[[A:.*]]: f32, %[[B:.*]]: f32) -> f32 {
// CHECK:         %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK:         tile.return %[[S]] : f32
tile.func private @helper(%a: f32, %b: f32) -> f32 {
  %s = arith.addf %a, %b : f32
  tile.return %s : f32
}

// CHECK-LABEL: tile.func private @tile_helper(
// CHECK-SAME:      %{{.*}}: tensor<16xf32>) -> tensor<16xf32>
tile.func private @tile_helper(%t: tensor<16xf32>) -> tensor<16xf32> {
  tile.return %t : tensor<16xf32>
}

// CHECK-LABEL: tile.func private @decl(f32) -> f32
tile.func private @decl(f32) -> f32

// Argument and function attributes; scalar pointer ops.
// CHECK-LABEL: tile.func @scalar_kernel(
// CHECK-SAME:      %[[X:.*]]: !tile.ptr<f32> {tile.divisibility = 16 : i32},
// CHECK-SAME:      %{{.*}}: !tile.ptr<f16>,
// CHECK-SAME:      %[[N:.*]]: i32 {tile.divisibility = 16 : i32},
// CHECK-SAME:      %{{.*}}: i32 {tile.equal_to = 1 : i32},
// CHECK-SAME:      %[[F:.*]]: f32)
// CHECK-SAME:      attributes {tile.num_stages = 2 : i32, tile.num_warps = 4 : i32}
// CHECK:         %[[PID:.*]] = tile.program_id 0 : i32
// CHECK:         tile.program_id 2 : i32
// CHECK:         tile.num_programs 1 : i32
// CHECK:         tile.call @helper(%[[F]], %[[F]]) : (f32, f32) -> f32
// CHECK:         %[[P:.*]] = tile.addptr %[[X]], %[[PID]] : !tile.ptr<f32>, i32
// CHECK:         %[[V:.*]] = tile.load %[[P]] : !tile.ptr<f32>
// CHECK:         %[[C:.*]] = arith.cmpi slt, %[[PID]], %[[N]] : i32
// CHECK:         %[[VM:.*]] = tile.load %[[P]], %[[C]], %[[F]] : !tile.ptr<f32>
// CHECK:         tile.load %[[P]], %[[C]] : !tile.ptr<f32>
// CHECK:         tile.store %[[P]], %[[V]] : !tile.ptr<f32>
// CHECK:         tile.store %[[P]], %[[VM]], %[[C]] : !tile.ptr<f32>
// CHECK:         tile.return
tile.func @scalar_kernel(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                         %h: !tile.ptr<f16>,
                         %n: i32 {tile.divisibility = 16 : i32},
                         %one: i32 {tile.equal_to = 1 : i32}, %f: f32)
    attributes {tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %pid = tile.program_id 0 : i32
  %pid2 = tile.program_id 2 : i32
  %np = tile.num_programs 1 : i32
  %r = tile.call @helper(%f, %f) : (f32, f32) -> f32
  %p = tile.addptr %x, %pid : !tile.ptr<f32>, i32
  %v = tile.load %p : !tile.ptr<f32>
  %c = arith.cmpi slt, %pid, %n : i32
  %vm = tile.load %p, %c, %f : !tile.ptr<f32>
  %vz = tile.load %p, %c : !tile.ptr<f32>
  tile.store %p, %v : !tile.ptr<f32>
  tile.store %p, %vm, %c : !tile.ptr<f32>
  tile.return
}

// Tile forms without encodings, every pointee and shape op.
// CHECK-LABEL: tile.func @tile_kernel(
// CHECK-SAME:      %[[X:.*]]: !tile.ptr<f32>, %[[N:.*]]: i32, %[[Q:.*]]: !tile.ptr<i8>)
// CHECK:         %[[R:.*]] = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
// CHECK:         %[[R8:.*]] = tile.make_range {end = 16 : i32, start = 8 : i32} : tensor<8xi32>
// CHECK:         %[[NV:.*]] = tile.splat %[[N]] : i32 -> tensor<1024xi32>
// CHECK:         %[[M:.*]] = arith.cmpi slt, %[[R]], %[[NV]] : tensor<1024xi32>
// CHECK:         %[[XB:.*]] = tile.splat %[[X]] : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
// CHECK:         %[[XP:.*]] = tile.addptr %[[XB]], %[[R]] : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
// CHECK:         %[[A:.*]] = tile.load %[[XP]] : tensor<1024x!tile.ptr<f32>>
// CHECK:         tile.load %[[XP]], %[[M]] : tensor<1024x!tile.ptr<f32>>
// CHECK:         %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<1024xf32>
// CHECK:         %[[O:.*]] = tile.load %[[XP]], %[[M]], %[[Z]] : tensor<1024x!tile.ptr<f32>>
// CHECK:         tile.store %[[XP]], %[[A]] : tensor<1024x!tile.ptr<f32>>
// CHECK:         tile.store %[[XP]], %[[O]], %[[M]] : tensor<1024x!tile.ptr<f32>>
// CHECK:         %[[E:.*]] = tile.expand_dims %[[R8]] {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
// CHECK:         %[[BC:.*]] = tile.broadcast %[[E]] : tensor<8x1xi32> -> tensor<8x64xi32>
// CHECK:         tile.reshape %[[BC]] : tensor<8x64xi32> -> tensor<512xi32>
// CHECK:         tile.reshape %[[A]] : tensor<1024xf32> -> tensor<16x64xf32>
// CHECK:         %[[QB:.*]] = tile.splat %[[Q]] : !tile.ptr<i8> -> tensor<8x!tile.ptr<i8>>
// CHECK:         %[[QP:.*]] = tile.addptr %[[QB]], %{{.*}} : tensor<8x!tile.ptr<i8>>, tensor<8xi64>
// CHECK:         tile.load %[[QP]] : tensor<8x!tile.ptr<i8>>
tile.func @tile_kernel(%x: !tile.ptr<f32>, %n: i32, %q: !tile.ptr<i8>) {
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %range8 = tile.make_range {start = 8 : i32, end = 16 : i32} : tensor<8xi32>
  %nv = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %range, %nv : tensor<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %range : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %a = tile.load %xp : tensor<1024x!tile.ptr<f32>>
  %m = tile.load %xp, %mask : tensor<1024x!tile.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %o = tile.load %xp, %mask, %zero : tensor<1024x!tile.ptr<f32>>
  tile.store %xp, %a : tensor<1024x!tile.ptr<f32>>
  tile.store %xp, %o, %mask : tensor<1024x!tile.ptr<f32>>
  %e = tile.expand_dims %range8 {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  %b = tile.broadcast %e : tensor<8x1xi32> -> tensor<8x64xi32>
  %rs = tile.reshape %b : tensor<8x64xi32> -> tensor<512xi32>
  %rs2 = tile.reshape %a : tensor<1024xf32> -> tensor<16x64xf32>
  %qb = tile.splat %q : !tile.ptr<i8> -> tensor<8x!tile.ptr<i8>>
  %r64 = arith.extsi %range8 : tensor<8xi32> to tensor<8xi64>
  %qp = tile.addptr %qb, %r64 : tensor<8x!tile.ptr<i8>>, tensor<8xi64>
  %qv = tile.load %qp : tensor<8x!tile.ptr<i8>>
  tile.return
}

// Tiles with blocked and slice encodings, and convert_layout.
// CHECK-LABEL: tile.func @encoded(
// CHECK-SAME:      %[[X:.*]]: !tile.ptr<f32>)
// CHECK:         %[[R:.*]] = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #[[$S1]]>
// CHECK:         %[[C:.*]] = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #[[$S0]]>
// CHECK:         %[[RE:.*]] = tile.expand_dims %[[R]] {axis = 1 : i32} : tensor<16xi32, #[[$S1]]> -> tensor<16x1xi32, #[[$B2D]]>
// CHECK:         %[[CE:.*]] = tile.expand_dims %[[C]] {axis = 0 : i32} : tensor<64xi32, #[[$S0]]> -> tensor<1x64xi32, #[[$B2D]]>
// CHECK:         %[[RB:.*]] = tile.broadcast %[[RE]] : tensor<16x1xi32, #[[$B2D]]> -> tensor<16x64xi32, #[[$B2D]]>
// CHECK:         %[[CB:.*]] = tile.broadcast %[[CE]] : tensor<1x64xi32, #[[$B2D]]> -> tensor<16x64xi32, #[[$B2D]]>
// CHECK:         %[[OFF:.*]] = arith.addi %[[RB]], %[[CB]] : tensor<16x64xi32, #[[$B2D]]>
// CHECK:         %[[XB:.*]] = tile.splat %[[X]] : !tile.ptr<f32> -> tensor<16x64x!tile.ptr<f32>, #[[$B2D]]>
// CHECK:         %[[XP:.*]] = tile.addptr %[[XB]], %[[OFF]] : tensor<16x64x!tile.ptr<f32>, #[[$B2D]]>, tensor<16x64xi32, #[[$B2D]]>
// CHECK:         %[[V:.*]] = tile.load %[[XP]] : tensor<16x64x!tile.ptr<f32>, #[[$B2D]]>
// CHECK:         tile.reshape %[[V]] : tensor<16x64xf32, #[[$B2D]]> -> tensor<1024xf32, #[[$B1D]]>
// CHECK:         %[[R1:.*]] = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #[[$B1D]]>
// CHECK:         tile.convert_layout %[[R1]] : tensor<1024xi32, #[[$B1D]]> -> tensor<1024xi32, #[[$B1D_1]]>
tile.func @encoded(%x: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #s1>
  %c = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #s0>
  %re = tile.expand_dims %r {axis = 1 : i32} : tensor<16xi32, #s1> -> tensor<16x1xi32, #b2d>
  %ce = tile.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #s0> -> tensor<1x64xi32, #b2d>
  %rb = tile.broadcast %re : tensor<16x1xi32, #b2d> -> tensor<16x64xi32, #b2d>
  %cb = tile.broadcast %ce : tensor<1x64xi32, #b2d> -> tensor<16x64xi32, #b2d>
  %off = arith.addi %rb, %cb : tensor<16x64xi32, #b2d>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<16x64x!tile.ptr<f32>, #b2d>
  %xp = tile.addptr %xb, %off : tensor<16x64x!tile.ptr<f32>, #b2d>, tensor<16x64xi32, #b2d>
  %v = tile.load %xp : tensor<16x64x!tile.ptr<f32>, #b2d>
  %flat = tile.reshape %v : tensor<16x64xf32, #b2d> -> tensor<1024xf32, #b1d>
  %r1 = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #b1d>
  %cv = tile.convert_layout %r1 : tensor<1024xi32, #b1d> -> tensor<1024xi32, #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
  tile.return
}

// tile.gather along either axis, with i64 indices, of pointers, and laid
// out (the result in the index's layout).
// CHECK-LABEL: tile.func private @gather(
// CHECK:         tile.gather %{{.*}}[%{{.*}}] {axis = 1 : i32} : tensor<16x32xf32>, tensor<16x64xi32> -> tensor<16x64xf32>
// CHECK:         tile.gather %{{.*}}[%{{.*}}] {axis = 0 : i32} : tensor<16x32xf32>, tensor<8x32xi64> -> tensor<8x32xf32>
// CHECK:         tile.gather %{{.*}}[%{{.*}}] {axis = 0 : i32} : tensor<64x!tile.ptr<f16>>, tensor<64xi16> -> tensor<64x!tile.ptr<f16>>
// CHECK:         tile.gather %{{.*}}[%{{.*}}] {axis = 1 : i32} : tensor<16x64xf32, #[[$B2D]]>, tensor<16x64xi32, #[[$B2D]]> -> tensor<16x64xf32, #[[$B2D]]>
tile.func private @gather(%s: tensor<16x32xf32>, %i: tensor<16x64xi32>, %j: tensor<8x32xi64>,
                          %p: tensor<64x!tile.ptr<f16>>, %k: tensor<64xi16>,
                          %e: tensor<16x64xf32, #b2d>, %ei: tensor<16x64xi32, #b2d>) {
  %a = tile.gather %s[%i] {axis = 1 : i32} : tensor<16x32xf32>, tensor<16x64xi32> -> tensor<16x64xf32>
  %b = tile.gather %s[%j] {axis = 0 : i32} : tensor<16x32xf32>, tensor<8x32xi64> -> tensor<8x32xf32>
  %c = tile.gather %p[%k] {axis = 0 : i32} : tensor<64x!tile.ptr<f16>>, tensor<64xi16> -> tensor<64x!tile.ptr<f16>>
  %d = tile.gather %e[%ei] {axis = 1 : i32} : tensor<16x64xf32, #b2d>, tensor<16x64xi32, #b2d> -> tensor<16x64xf32, #b2d>
  tile.return
}
