//===- LaunchChecksTest.cpp - Launch-argument and grid checks -----*- C++ -*-===//
//
// Unit tests of checkLaunchArgs, checkGrid and checkSharedMemory: the
// refusals Kernel::launch makes before calling the driver (wrong argument
// count, kind or width, null or misaligned pointers, integers that do not
// fit their type or break their divisibility or equal-to-1 fact, empty or oversized grids, too much shared
// memory), with their exact messages, and the launches they must accept.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime.h"

#include <gtest/gtest.h>

using namespace tilec;

namespace {

KernelInfo makeKernel(const char *name, const char *signature,
                      uint32_t shared = 0) {
  KernelInfo info;
  info.name = name;
  info.numWarps = 4;
  info.sharedBytes = shared;
  info.signatureText = signature;
  Status s = Signature::parse(signature, info.signature);
  EXPECT_TRUE(s.ok()) << s.message();
  return info;
}

const KernelInfo &addKernel() {
  static KernelInfo k =
      makeKernel("add_kernel", "*fp32:16,*fp32:16,*fp32:16,i32:16");
  return k;
}

constexpr CUdeviceptr kBase = 0x7f0000000000ull;

std::vector<Arg> addArgs(int32_t n) {
  return {Arg::ptr(kBase), Arg::ptr(kBase + 0x1000), Arg::ptr(kBase + 0x2000),
          Arg::i32(n)};
}

std::string refusal(const KernelInfo &k, const std::vector<Arg> &args) {
  Status s = checkLaunchArgs(k, args);
  EXPECT_FALSE(s.ok()) << "launch accepted";
  return s.message();
}

} // namespace

TEST(LaunchChecks, AcceptsGoodLaunch) {
  Status s = checkLaunchArgs(addKernel(), addArgs(98432));
  EXPECT_TRUE(s.ok()) << s.message();
  // Host pointers are just addresses to the check.
  alignas(16) static float buf[4];
  s = checkLaunchArgs(addKernel(), {Arg::ptr(buf), Arg::ptr(buf),
                                    Arg::ptr(buf), Arg::i32(0)});
  EXPECT_TRUE(s.ok()) << s.message();
}

TEST(LaunchChecks, NullAndElementAlignment) {
  std::vector<Arg> args = addArgs(16);
  args[2] = Arg::ptr(CUdeviceptr(0));
  EXPECT_EQ(refusal(addKernel(), args),
            "argument 2 of kernel 'add_kernel': a null pointer for *fp32:16");
  // Without a fact a pointer still needs its element type's alignment.
  KernelInfo k = makeKernel("k", "*fp32,*fp16,*i8,*fp64");
  EXPECT_TRUE(checkLaunchArgs(k, {Arg::ptr(kBase + 4), Arg::ptr(kBase + 2),
                                  Arg::ptr(kBase + 1), Arg::ptr(kBase + 8)})
                  .ok());
  EXPECT_EQ(refusal(k, {Arg::ptr(kBase + 2), Arg::ptr(kBase + 2),
                        Arg::ptr(kBase + 1), Arg::ptr(kBase + 8)}),
            "argument 0 of kernel 'k': pointer 0x7f0000000002 is not aligned "
            "to its element type (fp32, 4 bytes)");
  EXPECT_EQ(refusal(k, {Arg::ptr(kBase + 4), Arg::ptr(kBase + 3),
                        Arg::ptr(kBase + 1), Arg::ptr(kBase + 8)}),
            "argument 1 of kernel 'k': pointer 0x7f0000000003 is not aligned "
            "to its element type (fp16, 2 bytes)");
  EXPECT_EQ(refusal(k, {Arg::ptr(kBase + 4), Arg::ptr(kBase + 2),
                        Arg::ptr(kBase + 1), Arg::ptr(kBase + 4)}),
            "argument 3 of kernel 'k': pointer 0x7f0000000004 is not aligned "
            "to its element type (fp64, 8 bytes)");
}

TEST(LaunchChecks, Count) {
  std::vector<Arg> args = addArgs(16);
  args.pop_back();
  EXPECT_EQ(refusal(addKernel(), args),
            "kernel 'add_kernel' expects 4 arguments (signature "
            "'*fp32:16,*fp32:16,*fp32:16,i32:16'), found 3");
  args = addArgs(16);
  args.push_back(Arg::i32(1));
  EXPECT_NE(refusal(addKernel(), args).find("expects 4 arguments"),
            std::string::npos);
  KernelInfo one = makeKernel("one", "i32");
  EXPECT_EQ(refusal(one, {}),
            "kernel 'one' expects 1 argument (signature 'i32'), found 0");
  KernelInfo none = makeKernel("none", "");
  EXPECT_TRUE(checkLaunchArgs(none, nullptr, 0).ok());
}

TEST(LaunchChecks, NullArrayWithCount) {
  Status s = checkLaunchArgs(addKernel(), nullptr, 4);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "kernel 'add_kernel': the argument array is null");
}

TEST(LaunchChecks, Kinds) {
  std::vector<Arg> args = addArgs(16);
  args[3] = Arg::f32(16.0f);
  EXPECT_EQ(refusal(addKernel(), args),
            "argument 3 of kernel 'add_kernel': expected i32, found f32");
  args = addArgs(16);
  args[3] = Arg::i64(16);
  EXPECT_EQ(refusal(addKernel(), args),
            "argument 3 of kernel 'add_kernel': expected i32, found i64");
  args = addArgs(16);
  args[1] = Arg::i64(int64_t(kBase));
  EXPECT_EQ(refusal(addKernel(), args),
            "argument 1 of kernel 'add_kernel': expected *fp32, found i64");
  args = addArgs(16);
  args[3] = Arg::ptr(kBase);
  EXPECT_EQ(refusal(addKernel(), args),
            "argument 3 of kernel 'add_kernel': expected i32, found pointer");
}

TEST(LaunchChecks, IntegersMustFitTheirTypeWidthMustMatch) {
  KernelInfo k = makeKernel("k", "i32,u32,i64,u64,i16,u16,i8,u8,i1");
  std::vector<Arg> args = {Arg::u32(7),  Arg::i32(7),  Arg::u64(7),
                           Arg::i64(7),  Arg::u16(7),  Arg::i16(7),
                           Arg::u8(7),   Arg::i8(7),   Arg::i1(true)};
  Status s = checkLaunchArgs(k, args);
  EXPECT_TRUE(s.ok()) << s.message();
  // Values past the other signedness's range would be reinterpreted.
  std::vector<Arg> bad = args;
  bad[0] = Arg::u32(0xFFFFFFFFu);
  EXPECT_EQ(refusal(k, bad),
            "argument 0 of kernel 'k': 4294967295 (u32) does not fit in i32");
  bad = args;
  bad[1] = Arg::i32(-7);
  EXPECT_EQ(refusal(k, bad),
            "argument 1 of kernel 'k': -7 (i32) does not fit in u32");
  bad = args;
  bad[3] = Arg::i64(-1);
  EXPECT_EQ(refusal(k, bad),
            "argument 3 of kernel 'k': -1 (i64) does not fit in u64");
  bad = args;
  bad[2] = Arg::u64(uint64_t(1) << 63);
  EXPECT_EQ(refusal(k, bad), "argument 2 of kernel 'k': 9223372036854775808 "
                             "(u64) does not fit in i64");
  bad = args;
  bad[7] = Arg::i8(-128);
  EXPECT_EQ(refusal(k, bad),
            "argument 7 of kernel 'k': -128 (i8) does not fit in u8");
  bad = args;
  bad[6] = Arg::u8(200);
  EXPECT_EQ(refusal(k, bad),
            "argument 6 of kernel 'k': 200 (u8) does not fit in i8");
  // Within range either way is fine: u32 7 for i32, i32 7 for u32.
  args[0] = Arg::u32(0x7FFFFFFFu);
  args[1] = Arg::i32(0x7FFFFFFF);
  EXPECT_TRUE(checkLaunchArgs(k, args).ok());
  args[8] = Arg::i8(1);
  EXPECT_EQ(refusal(k, args), "argument 8 of kernel 'k': expected i1, found i8");
  args[8] = Arg::i1(false);
  args[6] = Arg::i16(1);
  EXPECT_EQ(refusal(k, args), "argument 6 of kernel 'k': expected i8, found i16");
}

TEST(LaunchChecks, FloatsMatchByFormat) {
  KernelInfo k = makeKernel("f", "fp16,bf16,fp32,fp64");
  std::vector<Arg> args = {Arg::f16bits(0x3c00), Arg::bf16bits(0x3f80),
                           Arg::f32(1.0f), Arg::f64(1.0)};
  Status s = checkLaunchArgs(k, args);
  EXPECT_TRUE(s.ok()) << s.message();
  std::swap(args[0], args[1]);
  EXPECT_EQ(refusal(k, args),
            "argument 0 of kernel 'f': expected fp16, found bf16");
  args = {Arg::f16bits(0), Arg::bf16bits(0), Arg::f64(1.0), Arg::f64(1.0)};
  EXPECT_EQ(refusal(k, args),
            "argument 2 of kernel 'f': expected fp32, found f64");
  args = {Arg::f16bits(0), Arg::bf16bits(0), Arg::i32(1), Arg::f64(1.0)};
  EXPECT_EQ(refusal(k, args),
            "argument 2 of kernel 'f': expected fp32, found i32");
}

TEST(LaunchChecks, PointerAlignment) {
  std::vector<Arg> args = addArgs(16);
  args[0] = Arg::ptr(kBase + 4);
  EXPECT_EQ(refusal(addKernel(), args),
            "argument 0 of kernel 'add_kernel': pointer 0x7f0000000004 is not "
            "16-byte aligned as the signature *fp32:16 requires");
  args = addArgs(16);
  args[2] = Arg::ptr(kBase + 8);
  EXPECT_NE(refusal(addKernel(), args).find("argument 2 of kernel"),
            std::string::npos);
  // Without the fact any element-aligned address is fine; with :128 a
  // 16-aligned one is not.
  KernelInfo k = makeKernel("k", "*fp32,*fp16:128");
  EXPECT_TRUE(
      checkLaunchArgs(k, {Arg::ptr(kBase + 4), Arg::ptr(kBase + 128)}).ok());
  EXPECT_EQ(refusal(k, {Arg::ptr(kBase + 4), Arg::ptr(kBase + 16)}),
            "argument 1 of kernel 'k': pointer 0x7f0000000010 is not "
            "128-byte aligned as the signature *fp16:128 requires");
}

TEST(LaunchChecks, Divisibility) {
  EXPECT_EQ(refusal(addKernel(), addArgs(98433)),
            "argument 3 of kernel 'add_kernel': 98433 is not divisible by 16 "
            "as the signature i32:16 requires");
  EXPECT_TRUE(checkLaunchArgs(addKernel(), addArgs(0)).ok());
  EXPECT_TRUE(checkLaunchArgs(addKernel(), addArgs(-32)).ok());
  EXPECT_EQ(refusal(addKernel(), addArgs(-8)),
            "argument 3 of kernel 'add_kernel': -8 is not divisible by 16 as "
            "the signature i32:16 requires");
  KernelInfo k = makeKernel("k", "i64:16,u32:8,u64:16,i16:2");
  EXPECT_TRUE(checkLaunchArgs(k, {Arg::i64(INT64_MIN), Arg::u32(0xfffffff8u),
                                  Arg::u64(1ull << 63), Arg::i16(-2)})
                  .ok());
  EXPECT_EQ(refusal(k, {Arg::i64((1ll << 40) + 8), Arg::u32(8), Arg::u64(16),
                        Arg::i16(2)}),
            "argument 0 of kernel 'k': 1099511627784 is not divisible by 16 "
            "as the signature i64:16 requires");
  EXPECT_EQ(refusal(k, {Arg::i64(16), Arg::u32(0xfffffffcu), Arg::u64(16),
                        Arg::i16(2)}),
            "argument 1 of kernel 'k': 4294967292 is not divisible by 8 as "
            "the signature u32:8 requires");
  // A negative i32 argument does not fit a u32 parameter.
  EXPECT_EQ(refusal(k, {Arg::i64(16), Arg::i32(-4), Arg::u64(16),
                        Arg::i16(2)}),
            "argument 1 of kernel 'k': -4 (i32) does not fit in u32");
}

TEST(LaunchChecks, EqualToOne) {
  KernelInfo k = makeKernel("strided", "*fp32:16,i32:1,i64:1,i1:1");
  std::vector<Arg> args = {Arg::ptr(kBase), Arg::i32(1), Arg::i64(1),
                           Arg::i1(true)};
  EXPECT_TRUE(checkLaunchArgs(k, args).ok());
  args[1] = Arg::i32(5);
  EXPECT_EQ(refusal(k, args),
            "argument 1 of kernel 'strided': 5 is not equal to 1 as the "
            "signature i32:1 requires");
  args[1] = Arg::i32(1);
  args[2] = Arg::i64(-1);
  EXPECT_EQ(refusal(k, args),
            "argument 2 of kernel 'strided': -1 is not equal to 1 as the "
            "signature i64:1 requires");
  args[2] = Arg::i64(1);
  args[3] = Arg::i1(false);
  EXPECT_EQ(refusal(k, args),
            "argument 3 of kernel 'strided': 0 is not equal to 1 as the "
            "signature i1:1 requires");
}

TEST(LaunchChecks, ArgStorage) {
  // The driver reads the low bytes of the value (little-endian).
  Arg a = Arg::i32(-2);
  EXPECT_EQ(*static_cast<const int32_t *>(a.data()), -2);
  Arg f = Arg::f32(1.75f);
  EXPECT_EQ(*static_cast<const float *>(f.data()), 1.75f);
  Arg d = Arg::f64(-0.5);
  EXPECT_EQ(*static_cast<const double *>(d.data()), -0.5);
  Arg h = Arg::f16bits(0x3c00);
  EXPECT_EQ(*static_cast<const uint16_t *>(h.data()), 0x3c00);
  Arg p = Arg::ptr(kBase);
  EXPECT_EQ(*static_cast<const uint64_t *>(p.data()), kBase);
  Arg b = Arg::i1(true);
  EXPECT_EQ(*static_cast<const uint8_t *>(b.data()), 1);
  EXPECT_STREQ(toString(Arg::bf16bits(0).kind()), "bf16");
  EXPECT_STREQ(toString(Arg::u64(0).kind()), "u64");
}

TEST(LaunchChecks, Grid) {
  EXPECT_TRUE(checkGrid("k", Grid{97, 1, 1}).ok());
  EXPECT_TRUE(checkGrid("k", Grid{2147483647u, 65535, 65535}).ok());
  Status s = checkGrid("add_kernel", Grid{0, 1, 1});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "kernel 'add_kernel': grid (0, 1, 1) is empty: every "
                         "dimension must be > 0");
  s = checkGrid("k", Grid{1, 0, 1});
  EXPECT_FALSE(s.ok());
  s = checkGrid("k", Grid{1, 1, 0});
  EXPECT_FALSE(s.ok());
  s = checkGrid("k", Grid{1, 65536, 1});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "kernel 'k': grid (1, 65536, 1) exceeds the device "
                         "limit: y must be <= 65535");
  s = checkGrid("k", Grid{1, 1, 70000});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("z must be <= 65535"), std::string::npos);
  s = checkGrid("k", Grid{2147483648u, 1, 1});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("x must be <= 2147483647"), std::string::npos);
  s = checkGrid("k", Grid{10, 1, 1}, GridLimits{8, 8, 8});
  EXPECT_FALSE(s.ok());
}

TEST(LaunchChecks, SharedMemory) {
  KernelInfo k = makeKernel("gemm", "*fp16:16", 200 * 1024);
  EXPECT_TRUE(checkSharedMemory(k, 0, 227 * 1024).ok());
  Status s = checkSharedMemory(k, 30 * 1024, 227 * 1024);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "kernel 'gemm' needs 204800 bytes of dynamic shared "
                         "memory but the device allows at most 201728 "
                         "(opt-in maximum 232448 bytes per block, 30720 used "
                         "by static shared memory)");
  EXPECT_FALSE(checkSharedMemory(k, 300 * 1024, 227 * 1024).ok());
}

TEST(LaunchChecks, TensorDescriptors) {
  KernelInfo k = makeKernel("copy", "tensordesc<fp16[64,32]>,i32");
  TensorDesc d;
  d.base = kBase;
  d.rank = 2;
  d.shape[0] = 1000;
  d.shape[1] = 77;
  d.strides[0] = 80; // 160 bytes
  d.strides[1] = 1;
  Status s = checkLaunchArgs(k, {Arg::tensorDesc(&d), Arg::i32(3)});
  EXPECT_TRUE(s.ok()) << s.message();

  auto refuse = [&](TensorDesc bad) {
    return refusal(k, {Arg::tensorDesc(&bad), Arg::i32(3)});
  };
  TensorDesc bad = d;
  bad.rank = 3;
  EXPECT_EQ(refuse(bad), "argument 0 of kernel 'copy': a tensor descriptor of "
                         "rank 3 for tensordesc<fp16[64,32]> (rank 2)");
  bad = d;
  bad.base = kBase + 8;
  EXPECT_EQ(refuse(bad), "argument 0 of kernel 'copy': tensor descriptor base "
                         "0x7f0000000008 is not 16-byte aligned (as TMA "
                         "requires)");
  bad = d;
  bad.shape[1] = 0;
  EXPECT_EQ(refuse(bad), "argument 0 of kernel 'copy': tensor descriptor size "
                         "0 of dimension 1: expected 1 to 2^31 - 1");
  bad = d;
  bad.strides[1] = 2;
  EXPECT_EQ(refuse(bad), "argument 0 of kernel 'copy': tensor descriptor "
                         "stride 2 of dimension 1 (the last): expected 1 (the "
                         "innermost dimension contiguous)");
  bad = d;
  bad.strides[0] = 81; // 162 bytes
  EXPECT_EQ(refuse(bad), "argument 0 of kernel 'copy': tensor descriptor "
                         "stride 81 of dimension 0 (fp16 elements): expected "
                         "a positive multiple of 16 bytes below 2^40 bytes "
                         "(as TMA requires)");
  bad = d;
  bad.strides[0] = int64_t(1) << 40;
  EXPECT_NE(refuse(bad).find("below 2^40 bytes"), std::string::npos);
  EXPECT_EQ(refusal(k, {Arg::tensorDesc(nullptr), Arg::i32(3)}),
            "argument 0 of kernel 'copy': a null tensor descriptor for "
            "tensordesc<fp16[64,32]>");
  // Kinds: a pointer for the descriptor, a descriptor for the integer.
  EXPECT_EQ(refusal(k, {Arg::ptr(kBase), Arg::i32(3)}),
            "argument 0 of kernel 'copy': expected a tensor descriptor for "
            "tensordesc<fp16[64,32]>, found pointer");
  EXPECT_EQ(refusal(k, {Arg::tensorDesc(&d), Arg::tensorDesc(&d)}),
            "argument 1 of kernel 'copy': expected i32, found tensor "
            "descriptor");
}
