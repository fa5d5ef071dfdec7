//===- LaunchPlanTest.cpp - The launch path's fast checks -------*- C++ -*-===//
//
// Unit tests of the runtime's internals that Kernel::launch and Graph rest
// on (runtime/lib/Detail.h): the launch plan's parameter counts, the fast
// argument check (it may accept only what checkLaunchArgs accepts, and for
// arguments of the entry's exact kind it must decide as checkLaunchArgs
// does: a randomized comparison over every entry kind and fact), the
// streams a graph capture refuses, and how a module image is told apart.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime.h"

#include "Detail.h"

#include <gtest/gtest.h>

#include <random>

using namespace tilec;
using namespace tilec::detail;

namespace {

KernelInfo parseLine(const std::string &line) {
  KernelInfo info;
  Status s = parseKernelMetadataLine(line, info);
  EXPECT_TRUE(s.ok()) << s.message();
  return info;
}

constexpr uint64_t kBase = 0x7f0000000000ull;

} // namespace

TEST(LaunchPlan, Counts) {
  KernelInfo add = parseLine("// tilec.kernel name=add num_warps=4 shared=0 "
                             "signature=*fp32:16,*fp32:16,*fp32:16,i32:16");
  LaunchPlan p = makeLaunchPlan(add);
  EXPECT_TRUE(p.simple);
  EXPECT_EQ(p.numPtxParams, 4u);
  EXPECT_EQ(p.numExpanded, 0u);
  EXPECT_EQ(p.numMaps, 0u);
  ASSERT_EQ(p.checks.size(), 4u);
  EXPECT_EQ(p.checks[0].cls, ParamCheck::Pointer);
  EXPECT_EQ(p.checks[0].zeroBits, 15u);
  EXPECT_EQ(p.checks[3].kind, ArgKind::I32);
  EXPECT_EQ(p.checks[3].zeroBits, 15u);
  EXPECT_EQ(p.checks[3].widthMask, 0xffffffffu);

  // Two rank-2 descriptors (base, 2 sizes, 1 stride each), one with a
  // tensor map, and one launch map after every entry.
  KernelInfo desc = parseLine(
      "// tilec.kernel name=d num_warps=4 shared=0 tma=1:32x64:128 "
      "launch_maps=fp32:32x32:128:2:a3,a3:a3 "
      "signature=tensordesc<fp32[32,64]>,tensordesc<fp16[32,64]>,*fp32:16,i32");
  p = makeLaunchPlan(desc);
  EXPECT_FALSE(p.simple);
  EXPECT_EQ(p.numPtxParams, 4u + 5u + 1u + 1u + 1u);
  EXPECT_EQ(p.numExpanded, 8u);
  EXPECT_EQ(p.numMaps, 2u);

  // Launch maps alone make a kernel not simple.
  KernelInfo maps =
      parseLine("// tilec.kernel name=m num_warps=4 shared=0 "
                "launch_maps=fp32:32x32:128:0:a1,a1:a1 signature=*fp32:16,i32");
  p = makeLaunchPlan(maps);
  EXPECT_FALSE(p.simple);
  EXPECT_EQ(p.numPtxParams, 3u);
  EXPECT_EQ(p.numMaps, 1u);
}

TEST(LaunchPlan, FastCheckAcceptsCommonLaunches) {
  KernelInfo add = parseLine("// tilec.kernel name=add num_warps=4 shared=0 "
                             "signature=*fp32:16,*fp32:16,*fp32:16,i32:16");
  LaunchPlan p = makeLaunchPlan(add);
  std::vector<Arg> args = {Arg::ptr(kBase), Arg::ptr(kBase + 0x1000),
                           Arg::ptr(kBase + 0x2000), Arg::i32(98432)};
  EXPECT_TRUE(launchArgsPassFast(p, add, args.data(), args.size()));
  // Refusals, and what checkLaunchArgs accepts but the fast path leaves to
  // it (a u32 for an i32 entry), go to checkLaunchArgs.
  args[3] = Arg::i32(98433);
  EXPECT_FALSE(launchArgsPassFast(p, add, args.data(), args.size()));
  args[3] = Arg::u32(16);
  EXPECT_FALSE(launchArgsPassFast(p, add, args.data(), args.size()));
  EXPECT_TRUE(checkLaunchArgs(add, args).ok());
  EXPECT_FALSE(launchArgsPassFast(p, add, args.data(), 3));
  EXPECT_FALSE(launchArgsPassFast(p, add, nullptr, 4));

  KernelInfo none = parseLine("// tilec.kernel name=n num_warps=1 shared=0 "
                              "signature=");
  EXPECT_TRUE(launchArgsPassFast(makeLaunchPlan(none), none, nullptr, 0));

  KernelInfo desc =
      parseLine("// tilec.kernel name=d num_warps=4 shared=0 tma=0:64x32:64 "
                "signature=tensordesc<fp16[64,32]>,i32");
  TensorDesc d;
  d.base = kBase;
  d.rank = 2;
  d.shape[0] = 1000;
  d.shape[1] = 3000;
  d.strides[0] = 3008;
  d.strides[1] = 1;
  args = {Arg::tensorDesc(&d), Arg::i32(5)};
  p = makeLaunchPlan(desc);
  EXPECT_TRUE(launchArgsPassFast(p, desc, args.data(), args.size()));
  d.strides[0] = 3001; // not a multiple of 16 bytes
  EXPECT_FALSE(launchArgsPassFast(p, desc, args.data(), args.size()));
  EXPECT_FALSE(checkLaunchArgs(desc, args).ok());
}

// The fast check never accepts what checkLaunchArgs refuses, and with
// arguments of each entry's exact kind it decides the same.
TEST(LaunchPlan, FastCheckAgreesWithCheckLaunchArgs) {
  const char *signatures[] = {
      "*fp32:16,*fp16,*i8,*fp64:8,*bf16:32,*u64,*fp8e4nv:16",
      "i1,i1:1,i8,i8:2,i8:1,i16:16,u16:4,i32,i32:1,i32:16,u32:1,u32:256",
      "i64,i64:1,i64:16,u64:8,u64:1,i8:256,i32:4294967296,i64:"
      "9223372036854775808",
      "fp16,bf16,fp32,fp64,i32:16",
      "tensordesc<fp16[64,32]>,i32:16,tensordesc<fp32[16]>",
  };
  const ArgKind kinds[] = {ArgKind::Pointer, ArgKind::I1,  ArgKind::I8,
                           ArgKind::I16,     ArgKind::I32, ArgKind::I64,
                           ArgKind::U8,      ArgKind::U16, ArgKind::U32,
                           ArgKind::U64,     ArgKind::F16, ArgKind::BF16,
                           ArgKind::F32,     ArgKind::F64, ArgKind::TensorDesc};
  const uint64_t interesting[] = {0,
                                  1,
                                  2,
                                  3,
                                  16,
                                  48,
                                  256,
                                  0x7f,
                                  0x80,
                                  0xff,
                                  0x8000,
                                  0xffff,
                                  0x7fffffff,
                                  0x80000000ull,
                                  0xffffffffull,
                                  0x100000000ull,
                                  0x7fffffffffffffffull,
                                  0x8000000000000000ull,
                                  ~uint64_t(0),
                                  ~uint64_t(0) - 15,
                                  kBase,
                                  kBase + 2,
                                  kBase + 8};
  std::mt19937_64 rng(13);
  auto pick = [&](size_t n) { return size_t(rng() % n); };
  auto value = [&] {
    return pick(4) == 0 ? rng()
                        : interesting[pick(sizeof(interesting) /
                                           sizeof(interesting[0]))];
  };
  // Makes an argument of `kind` with raw bits `bits`, as Arg's constructors
  // would (integers sign- or zero-extended from their width).
  TensorDesc descs[16]; // one per argument
  auto makeArg = [&](ArgKind kind, uint64_t bits, size_t slot) {
    switch (kind) {
    case ArgKind::Pointer:
      return Arg::ptr(CUdeviceptr(bits));
    case ArgKind::I1:
      return Arg::i1(bits & 1);
    case ArgKind::I8:
      return Arg::i8(int8_t(bits));
    case ArgKind::I16:
      return Arg::i16(int16_t(bits));
    case ArgKind::I32:
      return Arg::i32(int32_t(bits));
    case ArgKind::I64:
      return Arg::i64(int64_t(bits));
    case ArgKind::U8:
      return Arg::u8(uint8_t(bits));
    case ArgKind::U16:
      return Arg::u16(uint16_t(bits));
    case ArgKind::U32:
      return Arg::u32(uint32_t(bits));
    case ArgKind::U64:
      return Arg::u64(bits);
    case ArgKind::F16:
      return Arg::f16bits(uint16_t(bits));
    case ArgKind::BF16:
      return Arg::bf16bits(uint16_t(bits));
    case ArgKind::F32:
      return Arg::f32(float(bits));
    case ArgKind::F64:
      return Arg::f64(double(bits));
    case ArgKind::TensorDesc: {
      TensorDesc &d = descs[slot];
      d = TensorDesc();
      d.base = pick(3) ? kBase + 16 * pick(4) : bits;
      d.rank = uint32_t(pick(4) ? 2 : 1 + pick(3));
      for (uint32_t k = 0; k < d.rank; ++k) {
        d.shape[k] = pick(8) ? int64_t(1 + pick(5000)) : int64_t(bits);
        d.strides[k] = k + 1 == d.rank ? (pick(8) ? 1 : 2)
                                       : int64_t(8 * pick(1000) + pick(2));
      }
      return Arg::tensorDesc(&d);
    }
    }
    return Arg::u64(bits);
  };
  size_t agreedExact = 0, acceptedFast = 0;
  for (const char *sigText : signatures) {
    KernelInfo info;
    info.name = "k";
    info.numWarps = 4;
    info.signatureText = sigText;
    ASSERT_TRUE(Signature::parse(sigText, info.signature).ok()) << sigText;
    LaunchPlan plan = makeLaunchPlan(info);
    size_t n = info.signature.params.size();
    for (int trial = 0; trial < 20000; ++trial) {
      bool exact = pick(4) != 0;
      std::vector<Arg> args;
      for (size_t i = 0; i < n; ++i) {
        ArgKind kind = exact ? plan.checks[i].kind
                             : kinds[pick(sizeof(kinds) / sizeof(kinds[0]))];
        args.push_back(makeArg(kind, value(), args.size()));
      }
      bool fast = launchArgsPassFast(plan, info, args.data(), n);
      Status slow = checkLaunchArgs(info, args);
      if (fast) {
        ASSERT_TRUE(slow.ok()) << sigText << ": fast accepted what "
                               << "checkLaunchArgs refuses: " << slow.message();
      }
      bool allExact = true;
      for (size_t i = 0; i < n; ++i)
        allExact &= args[i].kind() == plan.checks[i].kind;
      if (allExact) {
        ASSERT_EQ(fast, slow.ok()) << sigText << ": " << slow.message();
        ++agreedExact;
      }
      acceptedFast += fast;
    }
  }
  // Both outcomes were exercised.
  EXPECT_GT(agreedExact, 10000u);
  EXPECT_GT(acceptedFast, 100u);
}

TEST(GraphCapture, RefusesTheLegacyStream) {
  const std::string refusal =
      "graph capture: the legacy default stream (NULL) cannot be captured; "
      "capture on a stream made with cuStreamCreate";
  Status s = checkCaptureStream(nullptr, "graph capture");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), refusal);
  s = checkCaptureStream(CU_STREAM_LEGACY, "graph capture");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), refusal);
  EXPECT_TRUE(checkCaptureStream(CU_STREAM_PER_THREAD, "graph capture").ok());
  EXPECT_TRUE(
      checkCaptureStream(reinterpret_cast<CUstream>(0x5555aaa0), "x").ok());
}

TEST(ModuleImage, Classify) {
  EXPECT_EQ(classifyImage(std::string_view("\x7f"
                                           "ELF\x02\x01\x01",
                                           7)),
            ImageKind::Cubin);
  EXPECT_EQ(classifyImage(std::string_view("\x50\xed\x55\xba\x01\x00", 6)),
            ImageKind::Fatbin);
  EXPECT_EQ(classifyImage("//\n// Generated by tilec\n.version 8.0\n"),
            ImageKind::PTX);
  EXPECT_EQ(classifyImage("\x7f"
                          "EL"),
            ImageKind::PTX);
  EXPECT_EQ(classifyImage(""), ImageKind::PTX);
}
