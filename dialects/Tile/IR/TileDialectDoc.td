//===- TileDialectDoc.td - the tile dialect's documentation -*- tablegen -*-===//
//
// Only for docs/dialects/TileDialect.md: the kernel-level and graph-level
// operations on one page.
//
//===----------------------------------------------------------------------===//
include "dialects/Tile/IR/TileOps.td"
include "dialects/Tile/IR/TileGraphOps.td"
