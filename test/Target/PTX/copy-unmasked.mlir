// PTX for an unmasked copy with 16-byte aligned pointers: plain (unpredicated)
// ld.global.v4 / st.global.v4 selected by NVPTX from aligned vector accesses;
// the thread's second chunk, 512 elements on, is the first's address plus an
// immediate (the lanes are scalars before O3, so LLVM sees base + constant).
// REQUIRES: ptxas
// RUN: tilec %s --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// CHECK:       // tilec.kernel name=copy num_warps=4 shared=0 maxnreg=auto signature=*fp32:16,*fp32:16
// CHECK-LABEL: .visible .entry copy(
// CHECK-NOT:   @%p
// CHECK:       {{^}}	ld.global.v4.b32 	{%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%[[X:rd[0-9]+]]];
// CHECK-NEXT:  {{^}}	ld.global.v4.b32 	{%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%[[X]]+2048];
// CHECK:       {{^}}	st.global.v4.b32 	[%[[O:rd[0-9]+]]], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK-NEXT:  {{^}}	st.global.v4.b32 	[%[[O]]+2048], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK-NOT:   @%p
// CHECK:       ret;

tile.func @copy(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %range : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %xv = tile.load %xp : tensor<1024x!tile.ptr<f32>>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %ob, %range : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %xv : tensor<1024x!tile.ptr<f32>>
  tile.return
}
