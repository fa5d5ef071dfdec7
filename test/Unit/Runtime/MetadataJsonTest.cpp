//===- MetadataJsonTest.cpp - Metadata lines and JSON sidecar ---*- C++ -*-===//
//
// Unit tests of formatKernelMetadataLine (the inverse of the line parser:
// lines taken from the compiler's PTX come back byte for byte, launch-map
// expressions included), of the JSON sidecar a cubin's metadata travels in
// (kernelMetadataToJson / parseKernelMetadataJson: the exact text, round
// trips, and one test per error: invalid JSON, format, version, missing and
// mistyped keys, out-of-range values, a field the line parser refuses,
// duplicate kernels) and of kernelMetadataSidecarPath.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace tilec;

namespace {

// Lines as the compiler writes them: from build/gpu-bundle/kernels/*.ptx
// (vector add, a cluster GEMM with four launch maps, host-side TMA
// descriptors, tutorial 09's descriptor GEMM, attention, the clamped maps
// of the TMA pointer loads) and ones that use the rest of the syntax.
const char *const kLines[] = {
    "// tilec.kernel name=add_kernel num_warps=4 shared=0 "
    "signature=*fp32:16,*fp32:16,*fp32:16,i32:16",
    "// tilec.kernel name=add_i8_i64_kernel num_warps=4 shared=0 "
    "signature=*i8:16,*i8:16,*i8:16,i64",
    "// tilec.kernel name=matmul_kernel num_warps=4 shared=131136 cluster=2 "
    "launch_maps=bf16:128x64:128:0:a3.c1.max32,a5.c1.max32:a6.c8.max32;"
    "bf16:64x64:128:0:a3.c1.max32,a5.c1.max32:a6.c8.max32;"
    "bf16:64x64:128:1:a5.c1.max32,a4.c1.max32:a8.c8.max32;"
    "bf16:32x64:128:1:a5.c1.max32,a4.c1.max32:a8.c8.max32 "
    "signature=*bf16:16,*bf16:16,*fp32:16,i32,i32,i32,i32:16,i32:1,i32:16,"
    "i32:1,i32:16,i32:1",
    "// tilec.kernel name=desc_arg_copy_kernel num_warps=4 shared=4096 "
    "tma=1:32x64:128 "
    "signature=tensordesc<fp32[32,64]>,tensordesc<fp16[32,64]>,i32,i32",
    "// tilec.kernel name=matmul_tma_persistent_kernel num_warps=12 "
    "shared=172112 tma=0:64x64:128;1:128x64:128;2:64x64:128 "
    "signature=tensordesc<fp16[64,64]>,tensordesc<fp16[128,64]>,"
    "tensordesc<fp16[64,64]>,i32,i32,i32",
    "// tilec.kernel name=matmul_desc_kernel num_warps=12 shared=196688 "
    "launch_maps=fp16:128x64:128:0:a3,a5:a6;fp16:64x64:128:1:a5,a4:a8;"
    "fp16:128x64:128:2:a3,a4:a10 "
    "signature=*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:1,"
    "i32:16,i32:1,i32:16,i32:1",
    "// tilec.kernel name=attn_fwd_desc_kernel num_warps=8 shared=131096 "
    "launch_maps=bf16:64x64:128:1:a6.a7.mul32.a9.mul32,c128:c128;"
    "bf16:64x64:128:2:a6.a7.mul32.a9.mul32,c128:c128 "
    "signature=*bf16:16,*bf16:16,*bf16:16,fp32,*fp32:16,*bf16:16,i32,i32,i32,"
    "i32",
    "// tilec.kernel name=matmul_epilogue_kernel num_warps=8 shared=163880 "
    "launch_maps=fp8e4nv:128x128:128:0:a7.c1.max32,a9.c1.max32:a10.c16.max32;"
    "fp8e4nv:128x128:128:1:a8.c1.max32,a9.c1.max32:a13.c16.max32 "
    "signature=*fp8e4nv:16,*fp8e4nv:16,*fp16:16,*fp32:16,*fp16:16,*fp32,*fp32,"
    "i32,i32,i32,i32:16,i32:1,i32:1,i32:16,i32:16,i32:1",
    // The rest of the syntax: NaN fill, 64-bit and mixed-width tokens, a
    // negative constant, a rank-1 launch map (no strides), no parameters.
    "// tilec.kernel name=mm num_warps=8 shared=147480 "
    "tma=0:128x64:128;2:64x32:64:nan "
    "signature=tensordesc<fp16[128,64]>,i32,tensordesc<bf16[64,64]>",
    "// tilec.kernel name=k num_warps=4 shared=0 "
    "launch_maps=fp16:128x64:128:0:a1,c-1.a1.add32:a1.sext.c16.mul64.a2.sub64;"
    "fp32:32:128:3:a2.trunc.zext:;"
    "bf16:64x32:64:4:a1.a2.trunc.sub32,a1.c1.max32:a2.a2.max64.a2.add64:nan "
    "signature=*fp16:16,i32,i64,*fp32,*bf16:16",
    "// tilec.kernel name=$odd.name_1 num_warps=32 shared=4294967295 "
    "signature=",
    // A kernel with its aligned variant (tile-version-alignment).
    "// tilec.kernel name=layer_norm_fwd_kernel num_warps=8 shared=32 "
    "aligned=layer_norm_fwd_kernel__aligned signature=*fp16:16,*fp16:16,"
    "*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32,i32,fp32",
    "// tilec.kernel name=layer_norm_fwd_kernel__aligned num_warps=8 shared=32 "
    "signature=*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32:8,"
    "i32:8,fp32",
    // Register budgets the loader chooses, with and without a variant.
    "// tilec.kernel name=ln num_warps=8 shared=32 aligned=ln__aligned "
    "maxnreg=auto signature=*fp16,i32",
    "// tilec.kernel name=ln__aligned num_warps=8 shared=32 maxnreg=auto "
    "tma=0:64:128 signature=tensordesc<fp16[64]>,i32:8",
};

KernelInfo parseLine(const std::string &line) {
  KernelInfo info;
  Status s = parseKernelMetadataLine(line, info);
  EXPECT_TRUE(s.ok()) << s.message();
  return info;
}

std::vector<KernelInfo> parseJsonOk(const std::string &json) {
  std::vector<KernelInfo> kernels;
  Status s = parseKernelMetadataJson(json, kernels);
  EXPECT_TRUE(s.ok()) << s.message();
  return kernels;
}

std::string jsonError(const std::string &json) {
  std::vector<KernelInfo> kernels;
  Status s = parseKernelMetadataJson(json, kernels);
  EXPECT_FALSE(s.ok()) << json << " parsed";
  return s.message();
}

/// A sidecar of one kernel with `fields` (a JSON object's members).
std::string oneKernel(const std::string &fields) {
  return R"({"format": "tilec-kernels", "version": 1, "kernels": [{)" + fields +
         "}]}";
}

const std::string kAddFields =
    R"("name": "add", "num_warps": 4, "shared": 0, "signature": "*fp32:16,i32")";

} // namespace

TEST(MetadataFormat, LinesRoundTrip) {
  for (const char *line : kLines) {
    KernelInfo info = parseLine(line);
    std::string formatted = formatKernelMetadataLine(info);
    EXPECT_EQ(formatted, line);
    // And the printed line parses to the same metadata.
    KernelInfo again = parseLine(formatted);
    EXPECT_EQ(again.name, info.name);
    EXPECT_EQ(again.numWarps, info.numWarps);
    EXPECT_EQ(again.sharedBytes, info.sharedBytes);
    EXPECT_EQ(again.clusterSize, info.clusterSize);
    EXPECT_EQ(again.alignedVariant, info.alignedVariant);
    EXPECT_EQ(again.launchMaps.size(), info.launchMaps.size());
    EXPECT_EQ(formatKernelMetadataLine(again), formatted);
  }
}

TEST(MetadataFormat, TokensAndDefaults) {
  KernelInfo info = parseLine(kLines[9]);
  ASSERT_EQ(info.launchMaps.size(), 3u);
  using Token = LaunchMap::Token;
  const LaunchMap::Expr &e = info.launchMaps[0].strides[0];
  ASSERT_EQ(e.size(), 6u);
  EXPECT_EQ(e[1].kind, Token::SExt);
  EXPECT_EQ(e[3].kind, Token::Mul);
  EXPECT_EQ(e[3].width, 64);
  EXPECT_EQ(info.launchMaps[0].shape[1][0].value, -1);
  EXPECT_TRUE(info.launchMaps[1].strides.empty());
  EXPECT_TRUE(info.launchMaps[2].param.tmaNanFill);

  // Metadata built in code: the canonical signature when signatureText is
  // empty, no cluster= for 1.
  KernelInfo made;
  made.name = "k";
  made.numWarps = 2;
  made.sharedBytes = 16;
  ASSERT_TRUE(Signature::parse("*fp16:16,i32:1", made.signature).ok());
  EXPECT_EQ(formatKernelMetadataLine(made),
            "// tilec.kernel name=k num_warps=2 shared=16 "
            "signature=*fp16:16,i32:1");
}

TEST(MetadataJson, ExactText) {
  std::vector<KernelInfo> kernels = {parseLine(kLines[0]),
                                     parseLine(kLines[3])};
  EXPECT_EQ(kernelMetadataToJson(kernels),
            R"({
  "format": "tilec-kernels",
  "version": 1,
  "kernels": [
    {
      "name": "add_kernel",
      "num_warps": 4,
      "shared": 0,
      "cluster": 1,
      "signature": "*fp32:16,*fp32:16,*fp32:16,i32:16",
      "tma": "",
      "launch_maps": ""
    },
    {
      "name": "desc_arg_copy_kernel",
      "num_warps": 4,
      "shared": 4096,
      "cluster": 1,
      "signature": "tensordesc<fp32[32,64]>,tensordesc<fp16[32,64]>,i32,i32",
      "tma": "1:32x64:128",
      "launch_maps": ""
    }
  ]
}
)");
  EXPECT_EQ(kernelMetadataToJson({}),
            "{\n  \"format\": \"tilec-kernels\",\n  \"version\": 1,\n"
            "  \"kernels\": []\n}\n");
  EXPECT_TRUE(parseJsonOk(kernelMetadataToJson({})).empty());
}

TEST(MetadataJson, RoundTripsEveryLine) {
  std::vector<KernelInfo> kernels;
  for (const char *line : kLines)
    if (KernelInfo info = parseLine(line);
        std::none_of(kernels.begin(), kernels.end(),
                     [&](const KernelInfo &k) { return k.name == info.name; }))
      kernels.push_back(info);
  std::vector<KernelInfo> back = parseJsonOk(kernelMetadataToJson(kernels));
  ASSERT_EQ(back.size(), kernels.size());
  for (size_t i = 0; i < kernels.size(); ++i) {
    EXPECT_EQ(formatKernelMetadataLine(back[i]),
              formatKernelMetadataLine(kernels[i]));
    EXPECT_EQ(back[i].signatureText, kernels[i].signatureText);
    EXPECT_EQ(back[i].signature.params.size(),
              kernels[i].signature.params.size());
  }
}

TEST(MetadataJson, OptionalAndUnknownKeys) {
  // cluster, tma and launch_maps default; unknown keys (here and at the top
  // level) are ignored; key order does not matter.
  std::vector<KernelInfo> k = parseJsonOk(
      R"({"kernels": [{"signature": "*fp32:16,i32", "shared": 64, "name": "add",
           "num_warps": 8, "compiler": "tilec 0.1"}],
          "version": 1, "format": "tilec-kernels", "arch": "sm_90a"})");
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].name, "add");
  EXPECT_EQ(k[0].numWarps, 8u);
  EXPECT_EQ(k[0].sharedBytes, 64u);
  EXPECT_EQ(k[0].clusterSize, 1u);
  EXPECT_EQ(k[0].signature.params.size(), 2u);
  EXPECT_TRUE(k[0].launchMaps.empty());
  k = parseJsonOk(oneKernel(kAddFields + R"(, "cluster": 2, "tma": "",
                                            "launch_maps": "")"));
  EXPECT_EQ(k[0].clusterSize, 2u);
  EXPECT_TRUE(k[0].alignedVariant.empty());
  k = parseJsonOk(oneKernel(kAddFields + R"(, "aligned": "add__aligned")"));
  EXPECT_EQ(k[0].alignedVariant, "add__aligned");
}

TEST(MetadataFormat, AlignedVariant) {
  const size_t n = std::size(kLines);
  // The layer norm and its variant, before the two `maxnreg=auto` lines.
  KernelInfo info = parseLine(kLines[n - 4]),
             variant = parseLine(kLines[n - 3]);
  EXPECT_EQ(info.alignedVariant, "layer_norm_fwd_kernel__aligned");
  EXPECT_TRUE(variant.alignedVariant.empty());
  // The sidecar carries it, last, only for the kernel that has one.
  std::string json = kernelMetadataToJson({info, variant});
  EXPECT_NE(json.find("\"launch_maps\": \"\",\n      \"aligned\": "
                      "\"layer_norm_fwd_kernel__aligned\"\n    }"),
            std::string::npos)
      << json;
  EXPECT_EQ(json.find("\"aligned\"", json.find("\"aligned\"") + 1),
            std::string::npos)
      << json;
  KernelInfo bad;
  Status s = parseKernelMetadataLine(
      "// tilec.kernel name=k num_warps=4 shared=0 aligned=2k signature=i32",
      bad);
  EXPECT_EQ(s.message(), "malformed tilec.kernel line: bad aligned '2k': "
                         "expected a kernel name in '// tilec.kernel name=k "
                         "num_warps=4 shared=0 aligned=2k signature=i32'");
  EXPECT_EQ(jsonError(oneKernel(kAddFields + R"(, "aligned": "a b")")),
            "kernel metadata JSON: kernel 0 'add': 'aligned' must not contain "
            "whitespace, found \"a b\"");
  EXPECT_EQ(jsonError(oneKernel(kAddFields + R"(, "aligned": "9")")),
            "kernel metadata JSON: kernel 0 'add': 'aligned' must be a kernel "
            "name (a PTX identifier), found \"9\"");
}

TEST(MetadataJson, AutoMaxNReg) {
  KernelInfo info = parseLine("// tilec.kernel name=k num_warps=4 shared=0 "
                              "maxnreg=auto signature=i32");
  EXPECT_TRUE(info.autoMaxNReg);
  EXPECT_EQ(info.appliedMaxNReg, 0u);
  EXPECT_FALSE(parseLine("// tilec.kernel name=k num_warps=4 shared=0 "
                         "signature=i32")
                   .autoMaxNReg);
  std::string json = kernelMetadataToJson({info});
  EXPECT_NE(json.find("\"launch_maps\": \"\",\n      \"maxnreg\": \"auto\"\n"),
            std::string::npos)
      << json;
  std::vector<KernelInfo> back = parseJsonOk(json);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_TRUE(back[0].autoMaxNReg);
  EXPECT_FALSE(parseJsonOk(oneKernel(kAddFields))[0].autoMaxNReg);
  // A number is the PTX's own .maxnreg, never a metadata value.
  KernelInfo bad;
  Status s = parseKernelMetadataLine(
      "// tilec.kernel name=k num_warps=4 shared=0 maxnreg=64 signature=i32",
      bad);
  EXPECT_EQ(s.message(),
            "malformed tilec.kernel line: bad maxnreg '64': expected 'auto' (a "
            "kernel's own limit is its PTX's .maxnreg) in '// tilec.kernel "
            "name=k num_warps=4 shared=0 maxnreg=64 signature=i32'");
  // Out of order: after tma= it is not a key the line has.
  EXPECT_FALSE(parseKernelMetadataLine("// tilec.kernel name=k num_warps=4 "
                                       "shared=0 tma=0:64:128 maxnreg=auto "
                                       "signature=tensordesc<fp16[64]>",
                                       bad)
                   .ok());
  EXPECT_EQ(jsonError(oneKernel(kAddFields + R"(, "maxnreg": "64")")),
            "kernel metadata JSON: kernel 0 'add': 'maxnreg' must be \"auto\" "
            "(or absent), found \"64\"");
  EXPECT_EQ(jsonError(oneKernel(kAddFields + R"(, "maxnreg": 64)")),
            "kernel metadata JSON: kernel 0 'add': 'maxnreg' must be a string, "
            "found 64");
}

TEST(MetadataJson, DocumentErrors) {
  // The rest of the message is nlohmann-json's own (it varies with its
  // version): where the text breaks, and why.
  auto startsWith = [](const std::string &s, const std::string &prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
  };
  EXPECT_PRED2(startsWith, jsonError("{\"format\": "),
               "kernel metadata JSON: not valid JSON: parse error at line 1, "
               "column 12: ");
  EXPECT_PRED2(
      startsWith,
      jsonError("{\n  \"format\": \"tilec-kernels\",\n  \"version\" 1}"),
      "kernel metadata JSON: not valid JSON: parse error at line 3, "
      "column 13: syntax error while parsing object separator");
  EXPECT_EQ(jsonError(" \n"),
            "kernel metadata JSON: the text is empty (expected an object with "
            "\"format\": \"tilec-kernels\")");
  EXPECT_EQ(jsonError("[1, 2]"),
            "kernel metadata JSON: expected an object at the top level, "
            "found [1,2]");
  EXPECT_EQ(jsonError(R"({"version": 1, "kernels": []})"),
            "kernel metadata JSON: missing 'format' (expected "
            "\"tilec-kernels\")");
  EXPECT_EQ(jsonError(R"({"format": "triton", "version": 1, "kernels": []})"),
            "kernel metadata JSON: 'format' must be \"tilec-kernels\", found "
            "\"triton\"");
  EXPECT_EQ(jsonError(R"({"format": "tilec-kernels", "kernels": []})"),
            "kernel metadata JSON: missing 'version' (expected 1)");
  EXPECT_EQ(
      jsonError(R"({"format": "tilec-kernels", "version": 2, "kernels": []})"),
      "kernel metadata JSON: unsupported 'version' 2: this runtime "
      "reads version 1");
  EXPECT_EQ(
      jsonError(
          R"({"format": "tilec-kernels", "version": "1", "kernels": []})"),
      "kernel metadata JSON: unsupported 'version' \"1\": this runtime "
      "reads version 1");
  EXPECT_EQ(jsonError(R"({"format": "tilec-kernels", "version": 1})"),
            "kernel metadata JSON: missing 'kernels'");
  EXPECT_EQ(
      jsonError(R"({"format": "tilec-kernels", "version": 1, "kernels": {}})"),
      "kernel metadata JSON: 'kernels' must be an array, found {}");
  EXPECT_EQ(
      jsonError(R"({"format": "tilec-kernels", "version": 1, "kernels": [3]})"),
      "kernel metadata JSON: kernel 0: expected an object, found 3");
  EXPECT_EQ(jsonError(R"({"format": "tilec-kernels", "version": 1,
                          "kernels": [{)" +
                      kAddFields + "}, {" + kAddFields + "}]}"),
            "kernel metadata JSON: kernel 1 'add': a second kernel of that "
            "name (kernel 0)");
}

TEST(MetadataJson, FieldErrors) {
  EXPECT_EQ(jsonError(oneKernel(R"("num_warps": 4, "shared": 0,
                                   "signature": "")")),
            "kernel metadata JSON: kernel 0: missing 'name'");
  EXPECT_EQ(jsonError(oneKernel(R"("name": 7)")),
            "kernel metadata JSON: kernel 0: 'name' must be a string, found 7");
  EXPECT_EQ(jsonError(oneKernel(R"("name": "1st", "num_warps": 4)")),
            "kernel metadata JSON: kernel 0: 'name' must be a kernel name (a "
            "PTX identifier), found \"1st\"");
  EXPECT_EQ(jsonError(oneKernel(R"("name": "k", "shared": 0)")),
            "kernel metadata JSON: kernel 0 'k': missing 'num_warps'");
  EXPECT_EQ(jsonError(oneKernel(R"("name": "k", "num_warps": "x")")),
            "kernel metadata JSON: kernel 0 'k': 'num_warps' must be an "
            "integer in [1, 32], found \"x\"");
  EXPECT_EQ(jsonError(oneKernel(R"("name": "k", "num_warps": 4.0)")),
            "kernel metadata JSON: kernel 0 'k': 'num_warps' must be an "
            "integer in [1, 32], found 4.0");
  EXPECT_EQ(jsonError(oneKernel(R"("name": "k", "num_warps": 33)")),
            "kernel metadata JSON: kernel 0 'k': 'num_warps' must be an "
            "integer in [1, 32], found 33");
  EXPECT_EQ(jsonError(oneKernel(R"("name": "k", "num_warps": 4,
                                   "shared": -1)")),
            "kernel metadata JSON: kernel 0 'k': 'shared' must be a byte "
            "count in [0, 2^32 - 1], found -1");
  EXPECT_EQ(jsonError(oneKernel(R"("name": "k", "num_warps": 4,
                                   "shared": 4294967296)")),
            "kernel metadata JSON: kernel 0 'k': 'shared' must be a byte "
            "count in [0, 2^32 - 1], found 4294967296");
  EXPECT_EQ(jsonError(oneKernel(R"("name": "k", "num_warps": 4,
                                   "shared": 18446744073709551615)")),
            "kernel metadata JSON: kernel 0 'k': 'shared' must be a byte "
            "count in [0, 2^32 - 1], found 18446744073709551615");
  EXPECT_EQ(jsonError(oneKernel(kAddFields + R"(, "cluster": 4)")),
            "kernel metadata JSON: kernel 0 'add': 'cluster' must be 1 or 2 "
            "(CTAs per cluster), found 4");
  EXPECT_EQ(jsonError(oneKernel(R"("name": "k", "num_warps": 4,
                                   "shared": 0)")),
            "kernel metadata JSON: kernel 0 'k': missing 'signature'");
  EXPECT_EQ(jsonError(oneKernel(R"("name": "k", "num_warps": 4, "shared": 0,
                                   "signature": ["i32"])")),
            "kernel metadata JSON: kernel 0 'k': 'signature' must be a "
            "string, found [\"i32\"]");
  // What the line cannot hold, the sidecar refuses too.
  EXPECT_EQ(jsonError(oneKernel(R"("name": "k", "num_warps": 4, "shared": 0,
                                   "signature": "tensordesc<fp16[64, 64]>")")),
            "kernel metadata JSON: kernel 0 'k': 'signature' must not contain "
            "whitespace, found \"tensordesc<fp16[64, 64]>\"");
  EXPECT_EQ(jsonError(oneKernel(kAddFields + R"(, "tma": null)")),
            "kernel metadata JSON: kernel 0 'add': 'tma' must be a string, "
            "found null");
  // The line parser's own messages for the signature and map fields.
  EXPECT_EQ(jsonError(oneKernel(R"("name": "k", "num_warps": 4, "shared": 0,
                                   "signature": "f32")")),
            "kernel metadata JSON: kernel 0 'k': signature entry 0 'f32': "
            "unknown type 'f32' (expected one of i1 i8 i16 i32 i64 u8 u16 u32 "
            "u64 fp16 bf16 fp32 fp64 fp8e4nv fp8e5)");
  EXPECT_EQ(
      jsonError(oneKernel(R"("name": "k", "num_warps": 4, "shared": 0,
                             "signature": "tensordesc<fp16[128,64]>,i32",
                             "tma": "0:128x32:128")")),
      "kernel metadata JSON: kernel 0 'k': bad tma '0:128x32:128': the box's "
      "innermost extent is 64 bytes, not the swizzle's 128");
  EXPECT_EQ(
      jsonError(oneKernel(R"("name": "k", "num_warps": 4, "shared": 0,
                             "signature": "*fp16:16,i32",
                             "launch_maps": "fp16:128x64:128:0:a1.add32,a1:a1")")),
      "kernel metadata JSON: kernel 0 'k': bad launch_maps "
      "'fp16:128x64:128:0:a1.add32,a1:a1': size 'a1.add32': 'add32' lacks an "
      "operand");
}

// A field the line parser refuses, the sidecar refuses with the same words.
TEST(MetadataJson, SameValidationAsTheLine) {
  struct Case {
    const char *tma, *launchMaps, *signature;
  } cases[] = {
      {"1:128x64:128", "", "tensordesc<fp16[128,64]>,i32"},
      {"0:128x64:128;0:128x64:128", "", "tensordesc<fp16[128,64]>,i32"},
      {"0:128x64:128;", "", "tensordesc<fp16[128,64]>,i32"},
      {"0:96x64:128", "", "tensordesc<fp16[128,64]>,i32"},
      {"", "fp16:128x64:128:1:a1,a1:a1", "*fp16:16,i32,i64,fp32,*fp32"},
      {"", "fp16:128x64:128:0:a3,a1:a1", "*fp16:16,i32,i64,fp32,*fp32"},
      {"", "fp16:128x64:128:0:a1.sext.sext,a1:a1", "*fp16:16,i32,i64,fp32"},
      {"", "i32:128x32:128:0:a1,a1:a1:nan", "*i32:16,i32"},
      {"", "fp16:128x64:128:0:a1,a1:a1;", "*fp16:16,i32"},
  };
  for (const Case &c : cases) {
    std::string line =
        std::string("// tilec.kernel name=k num_warps=4 shared=0") +
        (*c.tma ? std::string(" tma=") + c.tma : "") +
        (*c.launchMaps ? std::string(" launch_maps=") + c.launchMaps : "") +
        " signature=" + c.signature;
    KernelInfo info;
    Status lineStatus = parseKernelMetadataLine(line, info);
    ASSERT_FALSE(lineStatus.ok()) << line;
    // "malformed tilec.kernel line: <why> in '<line>'"
    std::string why = lineStatus.message();
    why = why.substr(std::string("malformed tilec.kernel line: ").size());
    why = why.substr(0, why.rfind(" in '"));
    std::string json = oneKernel(
        std::string(R"("name": "k", "num_warps": 4, "shared": 0, "tma": ")") +
        c.tma + R"(", "launch_maps": ")" + c.launchMaps +
        R"(", "signature": ")" + c.signature + "\"");
    EXPECT_EQ(jsonError(json), "kernel metadata JSON: kernel 0 'k': " + why);
  }
}

TEST(MetadataJson, SidecarPath) {
  EXPECT_EQ(kernelMetadataSidecarPath("kernels/add.cubin"), "kernels/add.json");
  EXPECT_EQ(kernelMetadataSidecarPath("add.sm_90a.cubin"), "add.sm_90a.json");
  EXPECT_EQ(kernelMetadataSidecarPath("add"), "add.json");
  EXPECT_EQ(kernelMetadataSidecarPath(".cubin"), ".json");
}
