//===- GraphMetadataTest.cpp - The tilec.graph line and its plan -*- C++ -*-=//
//
// Unit tests of the `// tilec.graph` line (formatGraphMetadataLine and its
// parser: round trips, each malformed form) and of the host-side evaluation
// of a graph for a binding of arguments (detail::planGraph): the integer
// steps with their widths, checks, allocation sizes, grids and kernel
// arguments, and the refusals of bad bindings (counts, ranks, static sizes,
// alignment, scalar kinds, overlapping buffers, a size an i32 cannot hold).
//
//===----------------------------------------------------------------------===//

#include "Detail.h"
#include "tilec/GraphProgram.h"

#include <gtest/gtest.h>

using namespace tilec;

namespace {

// What tilec writes for test/Passes/tile-fuse-kernels.mlir's @epilogue
// (fused): rows of x decide the grid and the kernel's i32 argument; the
// output's rows must equal them.
constexpr const char *kEpilogue =
    "// tilec.graph name=epilogue params=*fp16:16[?x64],*fp16[64],*fp32[?x64] "
    "ops=dim(p0,0);ceildivu.64(v0,16);cast.32(v0);dim(p2,0);eq.64(v0,v3);"
    "check(v4,\"input 0 of the map at x.mlir:48:3: dimension 0 differs; "
    "\\\"quoted\\\"\");alloc.fp16(v0,64);"
    "launch(twice_fused,v1,1,1,p0,v2,p1,p2);launch(other,1,1,1,v6)";

KernelInfo kernel(const char *line) {
  KernelInfo k;
  Status s = parseKernelMetadataLine(line, k);
  EXPECT_TRUE(s.ok()) << s.message();
  return k;
}

GraphInfo parseOk(std::string_view line) {
  GraphInfo g;
  Status s = parseGraphMetadataLine(line, g);
  EXPECT_TRUE(s.ok()) << s.message();
  return g;
}

std::string parseError(std::string_view line) {
  GraphInfo g;
  Status s = parseGraphMetadataLine(line, g);
  EXPECT_FALSE(s.ok()) << "'" << line << "' parsed";
  return s.message();
}

struct Planned {
  Status status;
  std::vector<uint64_t> bytes;
  std::vector<GraphLaunch> launches;
};

Planned plan(const GraphInfo &g, const std::vector<GraphArg> &args) {
  std::vector<KernelInfo> kernels = {
      kernel("// tilec.kernel name=twice_fused num_warps=4 shared=0 "
             "signature=*fp16:16,i32,*fp16,*fp32"),
      kernel("// tilec.kernel name=other num_warps=4 shared=0 "
             "signature=*fp16")};
  std::vector<unsigned> kernelOfOp(g.ops.size(), 0);
  kernelOfOp.back() = 1;
  std::vector<CUdeviceptr> intermediates(g.ops.size(), 0);
  intermediates[6] = 0x7000;
  Planned p;
  p.status = detail::planGraph(g, kernels, kernelOfOp, args.data(), args.size(),
                               intermediates.data(), p.bytes, p.launches);
  return p;
}

std::vector<GraphArg> goodArgs(int64_t rows) {
  return {GraphArg::buffer(0x10000, {rows, 64}),
          GraphArg::buffer(0x90000, {64}),
          GraphArg::buffer(0x100000, {rows, 64})};
}

} // namespace

TEST(GraphMetadata, RoundTrip) {
  GraphInfo g = parseOk(kEpilogue);
  EXPECT_EQ(g.name, "epilogue");
  ASSERT_EQ(g.params.size(), 3u);
  EXPECT_TRUE(g.params[0].buffer);
  EXPECT_EQ(g.params[0].type, ScalarType::FP16);
  EXPECT_EQ(g.params[0].divisibility, 16u);
  EXPECT_EQ(g.params[0].shape, (std::vector<int64_t>{GraphInfo::kDynamic, 64}));
  EXPECT_EQ(g.params[1].shape, (std::vector<int64_t>{64}));
  ASSERT_EQ(g.ops.size(), 9u);
  EXPECT_EQ(g.ops[2].kind, GraphInfo::Op::Cast);
  EXPECT_EQ(g.ops[2].width, 32);
  EXPECT_EQ(g.ops[5].kind, GraphInfo::Op::Check);
  EXPECT_EQ(g.ops[5].text,
            "input 0 of the map at x.mlir:48:3: dimension 0 differs; "
            "\"quoted\"");
  EXPECT_EQ(g.ops[6].elementType, ScalarType::FP16);
  EXPECT_EQ(g.ops[7].text, "twice_fused");
  EXPECT_EQ(g.ops[7].operands.size(), 7u);
  EXPECT_EQ(formatGraphMetadataLine(g), kEpilogue);
}

TEST(GraphMetadata, ScalarsAndEmpty) {
  GraphInfo g = parseOk("// tilec.graph name=g params=fp32,i32:16 ops=");
  ASSERT_EQ(g.params.size(), 2u);
  EXPECT_FALSE(g.params[0].buffer);
  EXPECT_EQ(g.params[1].divisibility, 16u);
  EXPECT_TRUE(g.ops.empty());
  GraphInfo rank0 = parseOk("// tilec.graph name=g params=*fp32[] ops=");
  EXPECT_TRUE(rank0.params[0].buffer);
  EXPECT_TRUE(rank0.params[0].shape.empty());
  EXPECT_EQ(formatGraphMetadataLine(rank0),
            "// tilec.graph name=g params=*fp32[] ops=");
}

TEST(GraphMetadata, ParseErrors) {
  EXPECT_NE(parseError("// tilec.kernel name=g params= ops=")
                .find("expected it to start with '// tilec.graph'"),
            std::string::npos);
  EXPECT_NE(parseError("// tilec.graph name=g params=*fp32 ops=")
                .find("expected a buffer parameter"),
            std::string::npos);
  EXPECT_NE(parseError("// tilec.graph name=g params=f33 ops=")
                .find("unknown type 'f33'"),
            std::string::npos);
  EXPECT_NE(parseError("// tilec.graph name=g params=i32:3 ops=")
                .find("bad divisibility"),
            std::string::npos);
  EXPECT_NE(parseError("// tilec.graph name=g params=i32 ops=add.64(p0)")
                .find("op 0 ('add.64(p0)'): expected 2 operands, found 1"),
            std::string::npos);
  EXPECT_NE(parseError("// tilec.graph name=g params=i32 ops=add.7(p0,p0)")
                .find("expected a width"),
            std::string::npos);
  EXPECT_NE(parseError("// tilec.graph name=g params=i32 ops=add.64(p0,v0)")
                .find("operand 'v0' names no earlier op"),
            std::string::npos);
  EXPECT_NE(parseError("// tilec.graph name=g params=i32 ops=add.64(p0,p1)")
                .find("operand 'p1' names no parameter"),
            std::string::npos);
  EXPECT_NE(parseError("// tilec.graph name=g params=*fp32[4] ops=add.64(p0,1)")
                .find("operand 0 must be an integer"),
            std::string::npos);
  EXPECT_NE(parseError("// tilec.graph name=g params=i32 ops=dim(p0,0)")
                .find("operand 0 must be a buffer"),
            std::string::npos);
  EXPECT_NE(parseError("// tilec.graph name=g params=i32 ops=frob.64(p0,p0)")
                .find("unknown op 'frob'"),
            std::string::npos);
  EXPECT_NE(parseError("// tilec.graph name=g params=i32 ops=check(p0,\"x)")
                .find("unterminated op"),
            std::string::npos);
  EXPECT_NE(parseError("// tilec.graph name=g params=i32 ops=launch(k,1,1)")
                .find("expected a grid of 3 sizes"),
            std::string::npos);
}

TEST(GraphPlan, Evaluates) {
  GraphInfo g = parseOk(kEpilogue);
  Planned p = plan(g, goodArgs(1000));
  ASSERT_TRUE(p.status.ok()) << p.status.message();
  EXPECT_EQ(p.bytes[6], 1000u * 64 * 2);
  ASSERT_EQ(p.launches.size(), 2u);
  const GraphLaunch &l = p.launches[0];
  EXPECT_EQ(l.kernel, 0u);
  EXPECT_EQ(l.grid.x, 63u); // ceil(1000 / 16)
  EXPECT_EQ(l.grid.y, 1u);
  ASSERT_EQ(l.args.size(), 4u);
  EXPECT_EQ(l.args[0].kind(), ArgKind::Pointer);
  EXPECT_EQ(l.args[0].bits(), 0x10000u);
  EXPECT_EQ(l.args[1].kind(), ArgKind::I32);
  EXPECT_EQ(l.args[1].bits(), 1000u);
  EXPECT_EQ(l.args[3].bits(), 0x100000u);
  EXPECT_EQ(p.launches[1].args[0].bits(), 0x7000u);
}

TEST(GraphPlan, Refusals) {
  GraphInfo g = parseOk(kEpilogue);
  auto error = [&](std::vector<GraphArg> args) {
    Planned p = plan(g, args);
    EXPECT_FALSE(p.status.ok());
    return p.status.message();
  };
  // The map's size contract.
  std::vector<GraphArg> a = goodArgs(1000);
  a[2].shape[0] = 999;
  EXPECT_EQ(error(a), "graph 'epilogue': input 0 of the map at x.mlir:48:3: "
                      "dimension 0 differs; \"quoted\"");
  a = goodArgs(1000);
  a.pop_back();
  EXPECT_EQ(error(a), "graph 'epilogue': expected 3 arguments, found 2");
  a = goodArgs(1000);
  a[1].shape = {65};
  EXPECT_EQ(error(a), "graph 'epilogue': argument 1: expected size 64 in "
                      "dimension 0, found 65");
  a = goodArgs(1000);
  a[1].shape = {64, 1};
  EXPECT_EQ(error(a), "graph 'epilogue': argument 1: expected a buffer of "
                      "rank 1, found rank 2");
  a = goodArgs(1000);
  a[0].ptr += 8;
  EXPECT_EQ(error(a), "graph 'epilogue': argument 0: expected an address "
                      "that is a multiple of 16 bytes");
  a = goodArgs(1000);
  a[1].ptr = 0x10000 + 64 * 2 * 999; // inside x's last row
  EXPECT_EQ(error(a), "graph 'epilogue': arguments 0 and 1 overlap (graph "
                      "buffers must not)");
  a = goodArgs(1000);
  a[0] = GraphArg::scalar(Arg::i32(3));
  EXPECT_EQ(error(a), "graph 'epilogue': argument 0: expected a buffer, "
                      "found a scalar");
  // Rows past 2^31: the kernel's i32 cannot hold them.
  a = goodArgs(int64_t(1) << 31);
  a[0].ptr = 0x1000000000000;
  a[2].ptr = 0x2000000000000;
  EXPECT_EQ(error(a), "graph 'epilogue': step 2 (cast): 2147483648 does not "
                      "fit in 32 bits");
}

TEST(GraphPlan, Widths) {
  // i32 arithmetic wraps; unsigned division sees the 32-bit pattern; a
  // scalar of the wrong kind is refused; an integer of the same width but
  // other signedness is taken.
  GraphInfo g =
      parseOk("// tilec.graph name=w params=i32,fp32 ops=add.32(p0,2147483647);"
              "divu.32(v0,2);slt.32(v0,0);select.32(v2,v1,7);cast.64(v3);"
              "launch(k,1,1,1,v4,v0,p1)");
  std::vector<KernelInfo> none = {
      kernel("// tilec.kernel name=k num_warps=4 shared=0 "
             "signature=i64,i32,fp32")};
  std::vector<unsigned> kernelOfOp(g.ops.size(), 0);
  std::vector<uint64_t> bytes;
  std::vector<GraphLaunch> launches;
  std::vector<GraphArg> args = {GraphArg::scalar(Arg::u32(1)),
                                GraphArg::scalar(Arg::f32(1.5f))};
  Status s = detail::planGraph(g, none, kernelOfOp, args.data(), args.size(),
                               nullptr, bytes, launches);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(launches.size(), 1u);
  // 1 + (2^31 - 1) wraps to -2^31; as unsigned, halved: 2^30; the select
  // takes it (the wrapped sum is negative).
  EXPECT_EQ(int64_t(launches[0].args[0].bits()), int64_t(1) << 30);
  EXPECT_EQ(launches[0].args[1].kind(), ArgKind::I32);
  EXPECT_EQ(int32_t(launches[0].args[1].bits()), INT32_MIN);
  EXPECT_EQ(launches[0].args[2].kind(), ArgKind::F32);
  EXPECT_EQ(launches[0].args[2].bits(), Arg::f32(1.5f).bits());
  args[1] = GraphArg::scalar(Arg::i32(1));
  s = detail::planGraph(g, none, kernelOfOp, args.data(), args.size(), nullptr,
                        bytes, launches);
  EXPECT_EQ(s.message(), "graph 'w': argument 1: expected fp32, found i32");
  GraphInfo div =
      parseOk("// tilec.graph name=d params=i64 ops=ceildivs.64(p0,0)");
  args = {GraphArg::scalar(Arg::i64(5))};
  s = detail::planGraph(div, none, kernelOfOp, args.data(), args.size(),
                        nullptr, bytes, launches);
  EXPECT_EQ(s.message(), "graph 'd': step 0 (ceildivs): division by zero");
}
