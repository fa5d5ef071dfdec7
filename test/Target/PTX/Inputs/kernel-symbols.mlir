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
