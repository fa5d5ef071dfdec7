// tile.aligned_variant names another kernel by a PTX identifier (it is
// written into the PTX's metadata line).
// RUN: tilec-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{expected tile.aligned_variant to be a string attribute of a kernel naming another kernel (a PTX identifier: its aligned variant), found "a b"}}
tile.func @k() attributes {tile.aligned_variant = "a b"} {
  tile.return
}

// -----

// expected-error @+1 {{naming another kernel}}
tile.func @k() attributes {tile.aligned_variant = "k"} {
  tile.return
}

// -----

// expected-error @+1 {{naming another kernel}}
tile.func @k() attributes {tile.aligned_variant = 7 : i32} {
  tile.return
}

// -----

// expected-error @+1 {{naming another kernel}}
tile.func @k() attributes {tile.aligned_variant = "9k"} {
  tile.return
}
