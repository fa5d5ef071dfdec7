// Kernels whose symbols are not PTX identifiers (kernel-symbols.test).

tile.func @"a.b"() attributes {tile.num_warps = 4 : i32} {
  tile.return
}

tile.func @"1k"() attributes {tile.num_warps = 4 : i32} {
  tile.return
}

tile.func @""() attributes {tile.num_warps = 4 : i32} {
  tile.return
}

tile.func @tilec_shared() attributes {tile.num_warps = 4 : i32} {
  tile.return
}

tile.func @__nv_logf() attributes {tile.num_warps = 4 : i32} {
  tile.return
}

tile.func @f80_param(%p: !tile.ptr<f32>, %n: f80) attributes {tile.num_warps = 4 : i32} {
  tile.return
}

tile.func @i7_pointer(%p: !tile.ptr<i7>) attributes {tile.num_warps = 4 : i32} {
  tile.return
}

tile.func @WARP_SZ() attributes {tile.num_warps = 4 : i32} {
  tile.return
}
