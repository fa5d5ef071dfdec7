// A graph for the GPU tests (GraphTests.cpp): a kernel writes 2x, then
// maps add a bias (broadcast over rows), apply ReLU and widen to f32. tilec
// fuses the maps into the kernel's store (epilogue); the _unfused build
// (--fuse-kernels=false) runs the kernel and one kernel per map.
// A kernel writing rows [16 * pid, 16 * pid + 16) of an m x 64 f16 matrix,
// masked by row: out = 2 * x.
tile.func @twice(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                 %out: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                 %m: i32) {
  %pid = tile.program_id 0 : i32
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant 64 : i32
  %row0 = arith.muli %pid, %c16 : i32
  %r = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %rs = tile.splat %row0 : i32 -> tensor<16xi32>
  %rows = arith.addi %rs, %r : tensor<16xi32>
  %cols = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %r2 = tile.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %c64t = tile.splat %c64 : i32 -> tensor<16x1xi32>
  %ro = arith.muli %r2, %c64t : tensor<16x1xi32>
  %rob = tile.broadcast %ro : tensor<16x1xi32> -> tensor<16x64xi32>
  %c2 = tile.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %cb = tile.broadcast %c2 : tensor<1x64xi32> -> tensor<16x64xi32>
  %offs = arith.addi %rob, %cb : tensor<16x64xi32>
  %ms = tile.splat %m : i32 -> tensor<16x1xi32>
  %mk = arith.cmpi slt, %r2, %ms : tensor<16x1xi32>
  %mask = tile.broadcast %mk : tensor<16x1xi1> -> tensor<16x64xi1>
  %xb = tile.splat %x : !tile.ptr<f16> -> tensor<16x64x!tile.ptr<f16>>
  %xp = tile.addptr %xb, %offs : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
  %v = tile.load %xp, %mask : tensor<16x64x!tile.ptr<f16>>
  %y = arith.addf %v, %v : tensor<16x64xf16>
  %ob = tile.splat %out : !tile.ptr<f16> -> tensor<16x64x!tile.ptr<f16>>
  %op = tile.addptr %ob, %offs : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
  tile.store %op, %y, %mask {tile.cache_modifier = ".cs"} : tensor<16x64x!tile.ptr<f16>>
  tile.return
}

// Epilogue: + bias (broadcast over rows), then ReLU and a cast to f32 (a
// chain of two maps), all at the kernel's store.
// The bias at column offs % 64, under the store's mask.
tile.graph @epilogue(%x: memref<?x64xf16> {tile.divisibility = 16 : i32},
                     %bias: memref<64xf16>, %y: memref<?x64xf32>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %x, %c0 : memref<?x64xf16>
  %t = tile.alloc(%m) : memref<?x64xf16>
  %c16 = arith.constant 16 : index
  %g = arith.ceildivui %m, %c16 : index
  %mi = arith.index_cast %m : index to i32
  tile.launch @twice grid(%g) (%x, %t, %mi) : memref<?x64xf16>, memref<?x64xf16>, i32
  %u = tile.alloc(%m) : memref<?x64xf16>
  tile.map ins(%t, %bias : memref<?x64xf16>, memref<64xf16>) outs(%u : memref<?x64xf16>) {
  ^bb0(%v: f16, %b: f16):
    %s = arith.addf %v, %b : f16
    tile.map.return %s : f16
  }
  tile.map ins(%u : memref<?x64xf16>) outs(%y : memref<?x64xf32>) {
  ^bb0(%v: f16):
    %z = arith.constant 0.0 : f16
    %r = arith.maximumf %v, %z : f16
    %e = arith.extf %r : f16 to f32
    tile.map.return %e : f32
  }
}
