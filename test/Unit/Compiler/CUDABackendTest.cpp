//===- CUDABackendTest.cpp - The CUDA C++ printer on hand-written SIMT IR ---===//
//
// Ops the lowering does not make today (or makes only in some kernels)
// printed from SIMT IR written here, against the PTX ISA: special
// registers, bf16 arithmetic before sm_90, shared::cluster accesses, and
// NVVM ops whose attributes upstream's PTX builder would drop (an error,
// never wrong code). lit (test/Target/CUDA) covers what the pipeline makes.
//
//===----------------------------------------------------------------------===//
#include "compiler/InitAll.h"
#include "compiler/Target/CUDA/CUDABackend.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

/// `body` as the one kernel `k(%arg0: i64, %arg1: i32)` of a SIMT module
/// (with the tilec_shared global), printed for `arch`. Returns the C++, or
/// "error: " and the diagnostics.
std::string print(const std::string &body, const char *arch = "sm_90a") {
  DialectRegistry registry;
  tilec::registerAllDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  std::string text =
      "module attributes {gpu.container_module} {\n"
      "gpu.module @tilec_kernels {\n"
      "llvm.mlir.global external @tilec_shared() {addr_space = 3 : i32, "
      "alignment = 1024 : i64} : !llvm.array<0 x i8>\n"
      "gpu.func @k(%arg0: i64, %arg1: i32) kernel attributes "
      "{known_block_size = array<i32: 128, 1, 1>, tile.num_warps = 4 : i32, "
      "tile.shared = 0 : i32, tile.signature = \"*i32:16,i32\"} {\n"
      "%p = llvm.inttoptr %arg0 : i64 to !llvm.ptr<1>\n"
      "%s = llvm.mlir.addressof @tilec_shared : !llvm.ptr<3>\n" +
      body + "\ngpu.return\n}\n}\n}\n";
  std::string errors;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    errors += d.str() + "\n";
    return success();
  });
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(text, &ctx);
  if (!m)
    return "error: parse: " + errors;
  std::string out;
  llvm::raw_string_ostream os(out);
  if (failed(tilec::emitCUDA(*m, arch, os, /*autoMaxNReg=*/true,
                             /*fpFusion=*/true)))
    return "error: " + errors;
  return out;
}

bool has(const std::string &text, const char *what) {
  return text.find(what) != std::string::npos;
}

TEST(CUDABackend, SpecialRegistersByTheirPTXNames) {
  std::string c = print(R"(
    %a = nvvm.read.ptx.sreg.lanemask.lt : i32
    %b = nvvm.read.ptx.sreg.warpsize : i32
    %c = nvvm.read.ptx.sreg.dynamic.smem.size : i32
    %d = nvvm.read.ptx.sreg.cluster.ctaid.x : i32
    %e = nvvm.read.ptx.sreg.clock : i32
    %f = nvvm.read.ptx.sreg.globaltimer : i64
    %s1 = arith.addi %a, %b : i32
    %s2 = arith.addi %s1, %c : i32
    %s3 = arith.addi %s2, %d : i32
    %s4 = arith.addi %s3, %e : i32
    llvm.store %s4, %p : i32, !llvm.ptr<1>
    llvm.store %f, %p : i64, !llvm.ptr<1>)");
  EXPECT_TRUE(has(c, "asm(\"mov.u32 %0, %%lanemask_lt;\"")) << c;
  EXPECT_TRUE(has(c, "asm(\"mov.u32 %0, WARP_SZ;\"")) << c;
  EXPECT_TRUE(has(c, "asm(\"mov.u32 %0, %%dynamic_smem_size;\"")) << c;
  EXPECT_TRUE(has(c, "asm(\"mov.u32 %0, %%cluster_ctaid.x;\"")) << c;
  // Clocks and timers are read anew each time: volatile.
  EXPECT_TRUE(has(c, "asm volatile(\"mov.u32 %0, %%clock;\"")) << c;
  EXPECT_TRUE(has(c, "asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\""))
      << c;
}

TEST(CUDABackend, Bf16ArithmeticBeforeSm90IsFma) {
  const char *body = R"(
    %x = llvm.load %p : !llvm.ptr<1> -> bf16
    %a = arith.addf %x, %x : bf16
    %m = arith.mulf %a, %x : bf16
    %d = arith.subf %m, %x : bf16
    llvm.store %d, %p : bf16, !llvm.ptr<1>)";
  std::string c80 = print(body, "sm_80");
  // add.bf16/sub.bf16/mul.bf16 are sm_90's: a + b = b * 1.0 + a,
  // a - b = b * -1.0 + a, a * b = a * b + -0.0.
  EXPECT_TRUE(has(c80, "mov.b16 tilec_k, 0x3F80; fma.rn.bf16 %0, %2, tilec_k, %1;"))
      << c80;
  EXPECT_TRUE(has(c80, "mov.b16 tilec_k, 0xBF80; fma.rn.bf16 %0, %2, tilec_k, %1;"))
      << c80;
  EXPECT_TRUE(has(c80, "mov.b16 tilec_k, 0x8000; fma.rn.bf16 %0, %1, %2, tilec_k;"))
      << c80;
  EXPECT_FALSE(has(c80, "add.bf16")) << c80;
  std::string c90 = print(body, "sm_90a");
  EXPECT_TRUE(has(c90, "asm(\"add.bf16 %0, %1, %2;\"")) << c90;
  EXPECT_TRUE(has(c90, "asm(\"mul.bf16 %0, %1, %2;\"")) << c90;
}

TEST(CUDABackend, SharedClusterAccesses) {
  std::string c = print(R"(
    %r = nvvm.mapa %s, %arg1 : !llvm.ptr<3> -> !llvm.ptr<7>
    %g = llvm.getelementptr %r[%arg1] : (!llvm.ptr<7>, i32) -> !llvm.ptr<7>, f32
    %v = llvm.load %g : !llvm.ptr<7> -> f32
    llvm.store %v, %g : f32, !llvm.ptr<7>)");
  EXPECT_TRUE(has(c, "mapa.shared::cluster.u32 %0, %1, %2;")) << c;
  EXPECT_TRUE(has(c, "asm volatile(\"ld.shared::cluster.b32 %0, [%1];\" : \"=f\"("))
      << c;
  EXPECT_TRUE(has(c, "asm volatile(\"st.shared::cluster.b32 [%0], %1;\" :  : \"r\"("))
      << c;
  // Types the window access cannot move as one register: an error at the
  // op (never a crash, never invalid PTX).
  EXPECT_TRUE(has(print(R"(
    %r = nvvm.mapa %s, %arg1 : !llvm.ptr<3> -> !llvm.ptr<7>
    %b = llvm.load %r : !llvm.ptr<7> -> i1
    %bi = arith.extui %b : i1 to i32
    llvm.store %bi, %p : i32, !llvm.ptr<1>)"),
                  "'llvm.load' is not supported by the CUDA C++ backend yet"));
  EXPECT_TRUE(has(print(R"(
    %r = nvvm.mapa %s, %arg1 : !llvm.ptr<3> -> !llvm.ptr<7>
    %v = llvm.load %r : !llvm.ptr<7> -> !llvm.ptr<1>
    %x = llvm.load %v : !llvm.ptr<1> -> i32
    llvm.store %x, %p : i32, !llvm.ptr<1>)"),
                  "'llvm.load' is not supported by the CUDA C++ backend yet"));
}

TEST(CUDABackend, PtxBuilderFormsItsTextDoesNotSayAreErrors) {
  // The default form through upstream's PTX builder.
  std::string c = print("nvvm.mbarrier.arrive.expect_tx %s, %arg1 : "
                        "!llvm.ptr<3>, i32");
  EXPECT_TRUE(has(c, "mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;")) << c;
  // A scope and relaxed order, or a shared::cluster barrier, would print
  // as the default form: refused.
  EXPECT_TRUE(has(print("nvvm.mbarrier.arrive.expect_tx %s, %arg1 {scope = "
                        "#nvvm.mem_scope<cluster>, relaxed = true} : "
                        "!llvm.ptr<3>, i32"),
                  "'nvvm.mbarrier.arrive.expect_tx' is not supported"));
  EXPECT_TRUE(has(print(R"(
    %r = nvvm.mapa %s, %arg1 : !llvm.ptr<3> -> !llvm.ptr<7>
    nvvm.mbarrier.arrive.expect_tx %r, %arg1 : !llvm.ptr<7>, i32)"),
                  "'nvvm.mbarrier.arrive.expect_tx' is not supported"));
}

} // namespace
