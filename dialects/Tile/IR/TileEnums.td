//===- TileEnums.td - tile dialect enumerations ------------*- tablegen -*-===//
//
// Enumerations of the tile dialect's atomic operations: the read-modify-write
// kind, the memory-ordering semantics and the scope of an atomic. Each is an
// `EnumAttr` of the dialect, so it prints as a bare keyword inside an op's
// syntax (`tile.atomic_rmw fadd, acq_rel, gpu, ...`) and as
// `#tile<mem_scope gpu>` in the generic syntax. Values follow Triton's
// `RMWOp`, `MemSemantic` and `MemSyncScope`. C++ names are UpperCamel
// (`RMWKind::And`: `and` is a C++ keyword); the syntax uses the lowercase
// strings.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_ENUMS_TD
#define TILE_ENUMS_TD

include "dialects/Tile/IR/TileBase.td"
include "mlir/IR/EnumAttr.td"

def Tile_RMWKind : I32EnumAttr<"RMWKind",
    "the operation of an atomic read-modify-write", [
      I32EnumAttrCase<"Add", 0, "add">,
      I32EnumAttrCase<"FAdd", 1, "fadd">,
      I32EnumAttrCase<"Max", 2, "max">,
      I32EnumAttrCase<"Min", 3, "min">,
      I32EnumAttrCase<"UMax", 4, "umax">,
      I32EnumAttrCase<"UMin", 5, "umin">,
      I32EnumAttrCase<"And", 6, "and">,
      I32EnumAttrCase<"Or", 7, "or">,
      I32EnumAttrCase<"Xor", 8, "xor">,
      I32EnumAttrCase<"Xchg", 9, "xchg">
    ]> {
  let cppNamespace = "::tilec::tile";
  let genSpecializedAttr = 0;
}
def Tile_RMWKindAttr : EnumAttr<Tile_Dialect, Tile_RMWKind, "rmw_kind">;

def Tile_MemSemantic : I32EnumAttr<"MemSemantic",
    "the memory ordering of an atomic (PTX .relaxed/.acquire/.release/.acq_rel)", [
      I32EnumAttrCase<"Relaxed", 0, "relaxed">,
      I32EnumAttrCase<"Acquire", 1, "acquire">,
      I32EnumAttrCase<"Release", 2, "release">,
      I32EnumAttrCase<"AcqRel", 3, "acq_rel">
    ]> {
  let cppNamespace = "::tilec::tile";
  let genSpecializedAttr = 0;
}
def Tile_MemSemanticAttr : EnumAttr<Tile_Dialect, Tile_MemSemantic, "mem_semantic">;

def Tile_MemScope : I32EnumAttr<"MemScope",
    "the threads an atomic is atomic with respect to (PTX .cta/.gpu/.sys)", [
      I32EnumAttrCase<"CTA", 0, "cta">,
      I32EnumAttrCase<"GPU", 1, "gpu">,
      I32EnumAttrCase<"System", 2, "sys">
    ]> {
  let cppNamespace = "::tilec::tile";
  let genSpecializedAttr = 0;
}
def Tile_MemScopeAttr : EnumAttr<Tile_Dialect, Tile_MemScope, "mem_scope">;

#endif // TILE_ENUMS_TD
