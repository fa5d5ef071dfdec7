//===- MetadataTest.cpp - Signature and tilec.kernel line parsing -*- C++ -*-===//
//
// Unit tests of Signature::parse and the `// tilec.kernel` metadata parser:
// every type, the divisibility and equal-to-1 facts, round trips through
// str(), and the errors for malformed entries, unknown types, bad
// divisibility, wrong key order or spacing and duplicate kernels.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime.h"

#include <gtest/gtest.h>

using namespace tilec;

namespace {

Signature parseOk(std::string_view text) {
  Signature sig;
  Status s = Signature::parse(text, sig);
  EXPECT_TRUE(s.ok()) << s.message();
  return sig;
}

std::string parseError(std::string_view text) {
  Signature sig;
  Status s = Signature::parse(text, sig);
  EXPECT_FALSE(s.ok()) << "'" << text << "' parsed";
  return s.message();
}

} // namespace

TEST(Signature, VectorAdd) {
  Signature sig = parseOk("*fp32:16,*fp32:16,*fp32:16,i32:16");
  ASSERT_EQ(sig.params.size(), 4u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(sig.params[i].isPointer);
    EXPECT_EQ(sig.params[i].type, ScalarType::FP32);
    EXPECT_EQ(sig.params[i].divisibility, 16u);
    EXPECT_EQ(sig.params[i].abiSize(), 8u);
  }
  EXPECT_FALSE(sig.params[3].isPointer);
  EXPECT_EQ(sig.params[3].type, ScalarType::I32);
  EXPECT_EQ(sig.params[3].divisibility, 16u);
  EXPECT_FALSE(sig.params[3].equalToOne);
  EXPECT_EQ(sig.params[3].abiSize(), 4u);
  EXPECT_EQ(sig.str(), "*fp32:16,*fp32:16,*fp32:16,i32:16");
}

TEST(Signature, Empty) { EXPECT_TRUE(parseOk("").params.empty()); }

TEST(Signature, EveryTypeAndAbiSize) {
  struct Case {
    const char *name;
    ScalarType type;
    unsigned size;
  } cases[] = {{"i1", ScalarType::I1, 1},     {"i8", ScalarType::I8, 1},
               {"i16", ScalarType::I16, 2},   {"i32", ScalarType::I32, 4},
               {"i64", ScalarType::I64, 8},   {"u8", ScalarType::U8, 1},
               {"u16", ScalarType::U16, 2},   {"u32", ScalarType::U32, 4},
               {"u64", ScalarType::U64, 8},   {"fp16", ScalarType::FP16, 2},
               {"bf16", ScalarType::BF16, 2}, {"fp32", ScalarType::FP32, 4},
               {"fp64", ScalarType::FP64, 8}};
  for (const Case &c : cases) {
    Signature sig = parseOk(c.name);
    ASSERT_EQ(sig.params.size(), 1u) << c.name;
    EXPECT_EQ(sig.params[0].type, c.type) << c.name;
    EXPECT_EQ(sig.params[0].abiSize(), c.size) << c.name;
    EXPECT_EQ(sig.str(), c.name);
    Signature ptr = parseOk(std::string("*") + c.name);
    EXPECT_TRUE(ptr.params[0].isPointer);
    EXPECT_EQ(ptr.params[0].abiSize(), 8u);
  }
  EXPECT_EQ(parseOk("*fp8e4nv:16,*fp8e5").str(), "*fp8e4nv:16,*fp8e5");
}

TEST(Signature, Facts) {
  Signature sig = parseOk("i32:1,i64:32,u32:2,*bf16:128,*i8");
  EXPECT_TRUE(sig.params[0].equalToOne);
  EXPECT_EQ(sig.params[0].divisibility, 0u);
  EXPECT_EQ(sig.params[1].divisibility, 32u);
  EXPECT_EQ(sig.params[2].divisibility, 2u);
  EXPECT_EQ(sig.params[3].divisibility, 128u);
  EXPECT_EQ(sig.params[4].divisibility, 0u);
  EXPECT_EQ(sig.str(), "i32:1,i64:32,u32:2,*bf16:128,*i8");
}

TEST(Signature, EmptyEntry) {
  EXPECT_EQ(parseError("*fp32:16,,i32"),
            "signature entry 1 '': malformed entry: empty (only a kernel "
            "without parameters has an empty signature)");
  EXPECT_NE(parseError("i32,").find("signature entry 1 ''"), std::string::npos);
  EXPECT_NE(parseError(",i32").find("signature entry 0 ''"), std::string::npos);
}

TEST(Signature, UnknownType) {
  EXPECT_EQ(parseError("*fp32:16,f32"),
            "signature entry 1 'f32': unknown type 'f32' (expected one of i1 "
            "i8 i16 i32 i64 u8 u16 u32 u64 fp16 bf16 fp32 fp64 fp8e4nv fp8e5)");
  EXPECT_NE(parseError("*").find("expected a type name"), std::string::npos);
  EXPECT_NE(parseError(":16").find("expected a type name"), std::string::npos);
  EXPECT_NE(parseError("**fp32").find("unknown type '*fp32'"),
            std::string::npos);
  EXPECT_NE(parseError(" i32").find("unknown type ' i32'"), std::string::npos);
  EXPECT_NE(parseError("I32").find("unknown type"), std::string::npos);
}

TEST(Signature, ConstexprIsNotAParameter) {
  EXPECT_NE(parseError("*fp32,i32,1024")
                .find("unknown type '1024' (a constexpr value is not a "
                      "kernel parameter)"),
            std::string::npos);
}

TEST(Signature, BadDivisibility) {
  EXPECT_EQ(parseError("i32:3"),
            "signature entry 0 'i32:3': bad divisibility '3': expected a "
            "power of two > 1, or 1 for equal to 1");
  EXPECT_NE(parseError("i32:0").find("bad divisibility '0'"),
            std::string::npos);
  EXPECT_NE(parseError("i32:").find("expected a fact after ':'"),
            std::string::npos);
  EXPECT_NE(parseError("i32:x").find("bad divisibility 'x'"),
            std::string::npos);
  EXPECT_NE(parseError("i32:-16").find("bad divisibility"), std::string::npos);
  EXPECT_NE(parseError("i32:16:16").find("bad divisibility '16:16'"),
            std::string::npos);
  EXPECT_NE(parseError("i32:99999999999999999999999").find("bad divisibility"),
            std::string::npos);
}

TEST(Signature, FactOnWrongType) {
  EXPECT_NE(parseError("fp32:16").find(
                "a divisibility fact applies only to pointers and integers"),
            std::string::npos);
  EXPECT_NE(parseError("*fp32:1").find(
                "':1' (equal to 1) applies only to integer scalars"),
            std::string::npos);
  EXPECT_NE(parseError("fp16:1").find("applies only to integer scalars"),
            std::string::npos);
  EXPECT_NE(parseError("i1:16").find("does not apply to i1"),
            std::string::npos);
  EXPECT_TRUE(parseOk("i1:1").params[0].equalToOne);
}

TEST(Signature, ScalarFp8IsUnimplemented) {
  EXPECT_NE(parseError("fp8e4nv").find("unimplemented: scalar fp8e4nv"),
            std::string::npos);
  EXPECT_NE(parseError("fp8e5").find("unimplemented"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// Metadata lines
//===----------------------------------------------------------------------===//

TEST(Metadata, Line) {
  KernelInfo info;
  Status s = parseKernelMetadataLine(
      "// tilec.kernel name=add_kernel num_warps=4 shared=0 "
      "signature=*fp32:16,*fp32:16,*fp32:16,i32:16",
      info);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(info.name, "add_kernel");
  EXPECT_EQ(info.numWarps, 4u);
  EXPECT_EQ(info.sharedBytes, 0u);
  EXPECT_EQ(info.signatureText, "*fp32:16,*fp32:16,*fp32:16,i32:16");
  EXPECT_EQ(info.signature.params.size(), 4u);
}

TEST(Metadata, LineWithSharedAndEmptySignature) {
  KernelInfo info;
  Status s = parseKernelMetadataLine(
      "// tilec.kernel name=noop num_warps=8 shared=98304 signature=\r", info);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(info.numWarps, 8u);
  EXPECT_EQ(info.sharedBytes, 98304u);
  EXPECT_TRUE(info.signature.params.empty());
}

namespace {
std::string lineError(std::string_view line) {
  KernelInfo info;
  Status s = parseKernelMetadataLine(line, info);
  EXPECT_FALSE(s.ok()) << "'" << line << "' parsed";
  return s.message();
}
} // namespace

TEST(Metadata, BadLines) {
  EXPECT_EQ(lineError("// tilec.kernel name=k shared=0 num_warps=4 "
                      "signature=i32"),
            "malformed tilec.kernel line: expected 'num_warps=' at ' shared=0 "
            "num_warps=4 signature=i32' in '// tilec.kernel name=k shared=0 "
            "num_warps=4 signature=i32'");
  // Double space, missing key, tab, trailing text.
  EXPECT_NE(lineError("// tilec.kernel  name=k num_warps=4 shared=0 "
                      "signature=i32")
                .find("expected 'name='"),
            std::string::npos);
  EXPECT_NE(lineError("// tilec.kernel name=k num_warps=4 shared=0")
                .find("expected 'signature='"),
            std::string::npos);
  EXPECT_NE(lineError("// tilec.kernel name=k num_warps=4 shared=0 "
                      "signature=i32 extra")
                .find("unexpected whitespace in the signature"),
            std::string::npos);
  EXPECT_NE(lineError("//tilec.kernel name=k num_warps=4 shared=0 "
                      "signature=i32")
                .find("expected it to start with '// tilec.kernel'"),
            std::string::npos);
}

TEST(Metadata, BadValues) {
  EXPECT_NE(lineError("// tilec.kernel name= num_warps=4 shared=0 "
                      "signature=i32")
                .find("bad kernel name ''"),
            std::string::npos);
  EXPECT_NE(lineError("// tilec.kernel name=9k num_warps=4 shared=0 "
                      "signature=i32")
                .find("bad kernel name '9k'"),
            std::string::npos);
  EXPECT_NE(lineError("// tilec.kernel name=k num_warps=0 shared=0 "
                      "signature=i32")
                .find("bad num_warps '0': expected an integer in [1, 32]"),
            std::string::npos);
  EXPECT_NE(lineError("// tilec.kernel name=k num_warps=64 shared=0 "
                      "signature=i32")
                .find("bad num_warps '64'"),
            std::string::npos);
  EXPECT_NE(lineError("// tilec.kernel name=k num_warps=4 shared=-1 "
                      "signature=i32")
                .find("bad shared '-1'"),
            std::string::npos);
  EXPECT_NE(lineError("// tilec.kernel name=k num_warps=4 shared=4294967296 "
                      "signature=i32")
                .find("bad shared"),
            std::string::npos);
  EXPECT_EQ(lineError("// tilec.kernel name=k num_warps=4 shared=0 "
                      "signature=i32,f32"),
            "kernel 'k': signature entry 1 'f32': unknown type 'f32' (expected "
            "one of i1 i8 i16 i32 i64 u8 u16 u32 u64 fp16 bf16 fp32 fp64 "
            "fp8e4nv fp8e5)");
}

TEST(Metadata, Module) {
  const char *ptx =
      "//\n"
      "// Generated by tilec\n"
      "// tilec.kernel name=a num_warps=4 shared=0 signature=*fp32:16,i32\n"
      "// tilec.kernel name=b num_warps=8 shared=1024 signature=\n"
      "// tilec.kernels are listed above\n"
      "\n"
      ".version 8.0\n"
      ".target sm_90a\n";
  std::vector<KernelInfo> kernels;
  Status s = parseKernelMetadata(ptx, kernels);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].name, "a");
  EXPECT_EQ(kernels[0].signature.params.size(), 2u);
  EXPECT_EQ(kernels[1].name, "b");
  EXPECT_EQ(kernels[1].sharedBytes, 1024u);
}

TEST(Metadata, ModuleWithoutMetadata) {
  std::vector<KernelInfo> kernels;
  ASSERT_TRUE(parseKernelMetadata(".version 8.0\n", kernels).ok());
  EXPECT_TRUE(kernels.empty());
  ASSERT_TRUE(parseKernelMetadata("", kernels).ok());
}

TEST(Metadata, ModuleErrorsCarryLineNumbers) {
  std::vector<KernelInfo> kernels;
  Status s = parseKernelMetadata(
      "//\n// tilec.kernel name=a num_warps=4 shared=0 signature=i32:5\n",
      kernels);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "line 2: kernel 'a': signature entry 0 'i32:5': bad "
                         "divisibility '5': expected a power of two > 1, or 1 "
                         "for equal to 1");
  s = parseKernelMetadata(
      "// tilec.kernel name=a num_warps=4 shared=0 signature=i32\r\n"
      "// tilec.kernel name=a num_warps=4 shared=0 signature=i32\r\n",
      kernels);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "line 2: kernel 'a' has a second tilec.kernel line");
  // A bare prefix line is metadata, and malformed.
  s = parseKernelMetadata("// tilec.kernel\n", kernels);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("line 1: malformed tilec.kernel line"),
            std::string::npos);
}

TEST(Signature, TensorDescriptors) {
  Signature sig = parseOk("tensordesc<fp16[64,32]>,i32,tensordesc<fp8e4nv[2,4,16]>");
  ASSERT_EQ(sig.params.size(), 3u);
  const ParamType &d = sig.params[0];
  EXPECT_TRUE(d.isTensorDesc);
  EXPECT_FALSE(d.isPointer);
  EXPECT_EQ(d.type, ScalarType::FP16);
  EXPECT_EQ(d.block, (std::vector<int64_t>{64, 32}));
  // Base, two sizes, one stride.
  EXPECT_EQ(d.numPtxParams(), 4u);
  EXPECT_EQ(d.ptxParamSize(0), 8u);
  EXPECT_EQ(d.ptxParamSize(1), 4u);
  EXPECT_EQ(d.ptxParamSize(2), 4u);
  EXPECT_EQ(d.ptxParamSize(3), 8u);
  EXPECT_EQ(sig.params[1].numPtxParams(), 1u);
  EXPECT_EQ(sig.params[2].numPtxParams(), 6u);
  EXPECT_EQ(sig.str(), "tensordesc<fp16[64,32]>,i32,tensordesc<fp8e4nv[2,4,16]>");
  // Triton's spelling, a Python list: spaces after the commas.
  Signature spaced = parseOk("tensordesc<bf16[128, 64]>");
  EXPECT_EQ(spaced.params[0].block, (std::vector<int64_t>{128, 64}));
  EXPECT_EQ(spaced.str(), "tensordesc<bf16[128,64]>");
}

TEST(Signature, TensorDescriptorErrors) {
  EXPECT_EQ(parseError("tensordesc<fp16>"),
            "signature entry 0 'tensordesc<fp16>': malformed entry: expected "
            "tensordesc<TYPE[B0,B1,...]>");
  EXPECT_EQ(parseError("tensordesc<i1[64]>"),
            "signature entry 0 'tensordesc<i1[64]>': a descriptor's elements "
            "cannot be i1");
  EXPECT_EQ(parseError("i32,tensordesc<fp32[48,16]>"),
            "signature entry 1 'tensordesc<fp32[48,16]>': bad block size "
            "'48': expected a power of two up to 256 (a TMA box)");
  EXPECT_EQ(parseError("tensordesc<fp32[16,]>"),
            "signature entry 0 'tensordesc<fp32[16,]>': bad block size '': "
            "expected a power of two up to 256 (a TMA box)");
  EXPECT_EQ(parseError("tensordesc<fp32[1,1,1,1,1,4]>"),
            "signature entry 0 'tensordesc<fp32[1,1,1,1,1,4]>': a block of "
            "rank 6: expected rank 1 to 5 (a TMA box)");
  EXPECT_EQ(parseError("tensordesc<fp32[16,2]>"),
            "signature entry 0 'tensordesc<fp32[16,2]>': expected at least "
            "16 bytes in the block's last dimension");
}

TEST(Metadata, TensorMaps) {
  KernelInfo info;
  Status s = parseKernelMetadataLine(
      "// tilec.kernel name=mm num_warps=8 shared=147480 "
      "tma=0:128x64:128;2:64x32:64:nan "
      "signature=tensordesc<fp16[128,64]>,i32,tensordesc<bf16[64,64]>",
      info);
  ASSERT_TRUE(s.ok()) << s.message();
  const auto &p = info.signature.params;
  ASSERT_EQ(p.size(), 3u);
  EXPECT_TRUE(p[0].hasTensorMap());
  EXPECT_EQ(p[0].tmaBox, (std::vector<int64_t>{128, 64}));
  EXPECT_EQ(p[0].tmaSwizzle, 128u);
  EXPECT_FALSE(p[0].tmaNanFill);
  EXPECT_FALSE(p[1].hasTensorMap());
  EXPECT_EQ(p[2].tmaBox, (std::vector<int64_t>{64, 32}));
  EXPECT_EQ(p[2].tmaSwizzle, 64u);
  EXPECT_TRUE(p[2].tmaNanFill);
  // Base, two sizes, one stride, the 128-byte tensor map.
  EXPECT_EQ(p[0].numPtxParams(), 5u);
  EXPECT_EQ(p[0].ptxParamSize(3), 8u);
  EXPECT_EQ(p[0].ptxParamSize(4), 128u);
  // Without tma= the descriptor takes no map (older PTX still loads).
  ASSERT_TRUE(parseKernelMetadataLine(
                  "// tilec.kernel name=mm num_warps=4 shared=0 "
                  "signature=tensordesc<fp16[128,64]>",
                  info)
                  .ok());
  EXPECT_FALSE(info.signature.params[0].hasTensorMap());
  EXPECT_EQ(info.signature.params[0].numPtxParams(), 4u);
}

TEST(Metadata, BadTensorMaps) {
  auto error = [](const std::string &tma, const std::string &sig) {
    KernelInfo info;
    Status s = parseKernelMetadataLine(
        "// tilec.kernel name=k num_warps=4 shared=0 tma=" + tma +
            " signature=" + sig,
        info);
    return s.ok() ? std::string("ok") : s.message();
  };
  const std::string sig = "tensordesc<fp16[128,64]>,i32";
  EXPECT_EQ(error("0:128x64:128", sig), "ok");
  EXPECT_NE(error("1:128x64:128", sig).find(
                "'1' is not the index of a tensordesc signature entry"),
            std::string::npos);
  EXPECT_NE(error("2:128x64:128", sig).find("not the index"), std::string::npos);
  EXPECT_NE(error("0:128x64:96", sig).find("expected a swizzle of 32, 64 or 128"),
            std::string::npos);
  EXPECT_NE(error("0:128x32:128", sig).find("innermost extent is 64 bytes"),
            std::string::npos);
  EXPECT_NE(error("0:96x64:128", sig).find("does not divide block size 128"),
            std::string::npos);
  EXPECT_NE(error("0:512x64:128", sig).find("box sizes in [1, 256]"),
            std::string::npos);
  EXPECT_NE(error("0:64:128", sig).find("a box of rank 1"), std::string::npos);
  EXPECT_NE(error("0:128x64:128;0:128x64:128", sig).find("has two maps"),
            std::string::npos);
  EXPECT_NE(error("0:128x64:128;", sig).find("a trailing ';'"),
            std::string::npos);
  EXPECT_NE(error("0:128x64:128:zero", sig).find("expected P:B0xB1"),
            std::string::npos);
  EXPECT_NE(error("0:128xx64:128", sig).find("box sizes"), std::string::npos);
  EXPECT_NE(error("", sig).find("bad tma"), std::string::npos);
}

// Launch maps: tensor maps the launch encodes from the arguments, for a
// tl.make_tensor_descriptor of a pointer argument (docs/runtime.md).
TEST(Metadata, LaunchMaps) {
  KernelInfo info;
  Status s = parseKernelMetadataLine(
      "// tilec.kernel name=mm num_warps=8 shared=0 "
      "launch_maps=fp16:128x64:128:0:a2,a3:a4;"
      "bf16:64x32:64:1:a2.a3.mul32,c64:a4.sext.c2.mul64:nan "
      "signature=*fp16:16,*bf16:16,i32,i32,i32:16",
      info);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(info.launchMaps.size(), 2u);
  const LaunchMap &m0 = info.launchMaps[0];
  EXPECT_EQ(m0.param.type, ScalarType::FP16);
  EXPECT_EQ(m0.param.tmaBox, (std::vector<int64_t>{128, 64}));
  EXPECT_EQ(m0.param.tmaSwizzle, 128u);
  EXPECT_FALSE(m0.param.tmaNanFill);
  EXPECT_EQ(m0.base, 0u);
  ASSERT_EQ(m0.shape.size(), 2u);
  ASSERT_EQ(m0.strides.size(), 1u);
  const LaunchMap &m1 = info.launchMaps[1];
  EXPECT_TRUE(m1.param.tmaNanFill);
  EXPECT_EQ(m1.shape[0].size(), 3u);
  EXPECT_EQ(m1.strides[0].size(), 4u);
  // The signature's entries take no extra parameter for them.
  EXPECT_EQ(info.signature.params.size(), 5u);

  // Evaluated as the kernel computes them: 32-bit products wrap, then
  // sign-extend.
  std::vector<Arg> args = {Arg::ptr(uintptr_t(0x10000)),
                           Arg::ptr(uintptr_t(0x20000)), Arg::i32(1000),
                           Arg::i32(3000), Arg::i32(4096)};
  TensorDesc d;
  s = evaluateLaunchMap(info, m0, args.data(), d);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(d.base, 0x10000u);
  EXPECT_EQ(d.rank, 2u);
  EXPECT_EQ(d.shape[0], 1000);
  EXPECT_EQ(d.shape[1], 3000);
  EXPECT_EQ(d.strides[0], 4096);
  EXPECT_EQ(d.strides[1], 1);
  s = evaluateLaunchMap(info, m1, args.data(), d);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(d.shape[0], 3000000);
  EXPECT_EQ(d.shape[1], 64);
  EXPECT_EQ(d.strides[0], 8192);
  // 65536 * 65536 wraps to 0 in 32 bits: a size TMA cannot take.
  args[2] = Arg::i32(65536);
  args[3] = Arg::i32(65536);
  s = evaluateLaunchMap(info, m1, args.data(), d);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "launch map 1 of kernel 'mm' (the tensor descriptor of argument "
            "1): tensor descriptor size 0 of dimension 0: expected 1 to "
            "2^31 - 1");
  // TMA's stride rule: 4000 fp16 elements are 8000 bytes, a multiple of 16;
  // 1001 are not.
  args[4] = Arg::i32(1001);
  s = evaluateLaunchMap(info, m0, args.data(), d);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("stride 1001 of dimension 0"), std::string::npos)
      << s.message();
}

// max32 / max64: a signed maximum (tile-pointer-loads-to-descriptors
// clamps a guarded map's sizes to 1, so that the launch can always encode
// it).
TEST(Metadata, LaunchMapMax) {
  KernelInfo info;
  Status s = parseKernelMetadataLine(
      "// tilec.kernel name=mm num_warps=4 shared=0 "
      "launch_maps=fp16:64x64:128:0:a1.c1.max32,a2.sext.c1.max64:a3.c8.max32 "
      "signature=*fp16:16,i32,i32,i32:16",
      info);
  ASSERT_TRUE(s.ok()) << s.message();
  std::vector<Arg> args = {Arg::ptr(uintptr_t(0x10000)), Arg::i32(0),
                           Arg::i32(-5), Arg::i32(-16)};
  TensorDesc d;
  s = evaluateLaunchMap(info, info.launchMaps[0], args.data(), d);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(d.shape[0], 1);
  EXPECT_EQ(d.shape[1], 1);
  EXPECT_EQ(d.strides[0], 8);
  args[1] = Arg::i32(300);
  args[2] = Arg::i32(7);
  args[3] = Arg::i32(64);
  s = evaluateLaunchMap(info, info.launchMaps[0], args.data(), d);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(d.shape[0], 300);
  EXPECT_EQ(d.shape[1], 7);
  EXPECT_EQ(d.strides[0], 64);
  s = parseKernelMetadataLine(
      "// tilec.kernel name=mm num_warps=4 shared=0 "
      "launch_maps=fp16:64x64:128:0:a1.a2.sext.max32,a2:a3 "
      "signature=*fp16:16,i32,i32,i32:16",
      info);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("'max32' takes 32-bit operands"), std::string::npos)
      << s.message();
}

TEST(Metadata, BadLaunchMaps) {
  auto error = [](const std::string &maps) {
    KernelInfo info;
    Status s = parseKernelMetadataLine(
        "// tilec.kernel name=k num_warps=4 shared=0 launch_maps=" + maps +
            " signature=*fp16:16,i32,i64,fp32,*fp32",
        info);
    return s.ok() ? std::string("ok") : s.message();
  };
  auto has = [&](const std::string &maps, const std::string &what) {
    std::string e = error(maps);
    return e.find(what) != std::string::npos ? std::string("found")
                                             : "'" + e + "' lacks '" + what + "'";
  };
  EXPECT_EQ(error("fp16:128x64:128:0:a1,a1:a2.trunc"), "ok");
  EXPECT_EQ(error("fp16:128x64:128:0:c-1,a1:a2.c16.add64"), "ok");
  EXPECT_EQ(has("fp16:128x64:128:1:a1,a1:a1", "not the signature entry of a pointer to fp16"), "found");
  EXPECT_EQ(has("fp16:128x64:128:4:a1,a1:a1", "not the signature entry of a pointer to fp16"), "found");
  EXPECT_EQ(has("fp16:128x64:128:0:a3,a1:a1", "'a3' is not a 32- or 64-bit integer signature entry"), "found");
  EXPECT_EQ(has("fp16:128x64:128:0:a9,a1:a1", "'a9' is not"), "found");
  EXPECT_EQ(has("fp16:128x64:128:0:a1.a2.add32,a1:a1", "'add32' takes 32-bit operands"), "found");
  EXPECT_EQ(has("fp16:128x64:128:0:a1.sext.sext,a1:a1", "'sext' takes 32-bit operands"), "found");
  EXPECT_EQ(has("fp16:128x64:128:0:a1.add32,a1:a1", "'add32' lacks an operand"), "found");
  EXPECT_EQ(has("fp16:128x64:128:0:a1.a1,a1:a1", "expected one value, found 2"), "found");
  EXPECT_EQ(has("fp16:128x64:128:0:a1.pow,a1:a1", "unknown token 'pow'"), "found");
  EXPECT_EQ(has("fp16:128x64:128:0:cx,a1:a1", "bad constant 'cx'"), "found");
  EXPECT_EQ(has("fp16:128x64:128:0:,a1:a1", "unknown token ''"), "found");
  EXPECT_EQ(has("fp16:128x64:128:0:a1:a1", "expected 2 sizes and 1 strides"), "found");
  EXPECT_EQ(has("fp16:128x64:128:0:a1,a1:a1,a1", "expected 2 sizes and 1 strides"), "found");
  EXPECT_EQ(has("fp16:128x64:96:0:a1,a1:a1", "expected a swizzle of 32, 64 or 128"), "found");
  EXPECT_EQ(has("fp16:128x32:128:0:a1,a1:a1", "innermost extent is 64 bytes"), "found");
  EXPECT_EQ(has("fp16:128x64:128:0:a1,a1:a1:zero", "expected T:B0xB1"), "found");
  EXPECT_EQ(has("i32:128x32:128:0:a1,a1:a1:nan", "NaN fill of i32"), "found");
  EXPECT_EQ(has("fp9:128x64:128:0:a1,a1:a1", "expected an element type and a box"), "found");
  EXPECT_EQ(has("fp16:128x64:128:0:a1,a1:a1;", "expected T:B0xB1"), "found");
}

// The compiler's front end parses entries with ParamType::parse and splits a
// tilec --signature (which may hold tuple constexpr values) with splitEntries.
TEST(Signature, SplitEntriesAndParamTypeParse) {
  using V = std::vector<std::string_view>;
  EXPECT_EQ(tilec::Signature::splitEntries(""), V{});
  EXPECT_EQ(tilec::Signature::splitEntries("*fp32:16,i32"),
            (V{"*fp32:16", "i32"}));
  EXPECT_EQ(tilec::Signature::splitEntries("tensordesc<fp16[64, 64]>,(64, 2),i32,"),
            (V{"tensordesc<fp16[64, 64]>", "(64, 2)", "i32", ""}));
  EXPECT_EQ(tilec::Signature::splitEntries("(1,(2,3)"), (V{"(1,(2,3)"}));
  tilec::ParamType p;
  ASSERT_TRUE(tilec::ParamType::parse("*bf16:16", p).ok());
  EXPECT_TRUE(p.isPointer);
  EXPECT_EQ(p.type, tilec::ScalarType::BF16);
  EXPECT_EQ(p.divisibility, 16u);
  EXPECT_EQ(p.str(), "*bf16:16");
  tilec::Status s = tilec::ParamType::parse("u8:3", p);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "bad divisibility '3': expected a power of two > 1, "
                         "or 1 for equal to 1");
  tilec::ScalarType t;
  EXPECT_TRUE(tilec::parseScalarType("fp8e4nv", t));
  EXPECT_EQ(t, tilec::ScalarType::FP8E4NV);
  EXPECT_FALSE(tilec::parseScalarType("f32", t));
}
