//===- StatusTest.cpp - Status message formatting -----------------*- C++ -*-===//
//
// Checks the shape of runtime error messages: a driver failure names the
// call, the cuGetErrorName text (with the description in parentheses) and
// the kernel or module, and keeps the call and CUresult for callers that
// must tell "no driver" apart from other failures.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime.h"

#include <gtest/gtest.h>

using namespace tilec;

TEST(Status, DefaultIsOk) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_TRUE(bool(s));
  EXPECT_EQ(s.message(), "");
  EXPECT_EQ(s.driverCall(), "");
  EXPECT_EQ(s.driverResult(), 0);
}

TEST(Status, Error) {
  Status s = Status::error("something broke");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "something broke");
  EXPECT_EQ(s.driverCall(), "");
}

TEST(Status, DriverErrorNamesCallResultAndKernel) {
  Status s = Status::formatDriverError("cuLaunchKernel", 1,
                                       "CUDA_ERROR_INVALID_VALUE",
                                       "invalid argument",
                                       "kernel 'add_kernel'");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "cuLaunchKernel failed for kernel 'add_kernel': "
                         "CUDA_ERROR_INVALID_VALUE (invalid argument)");
  EXPECT_EQ(s.driverCall(), "cuLaunchKernel");
  EXPECT_EQ(s.driverResult(), 1);
}

TEST(Status, DriverErrorWithoutContext) {
  Status s = Status::formatDriverError("cuInit", 100, "CUDA_ERROR_NO_DEVICE",
                                       "no CUDA-capable device is detected");
  EXPECT_EQ(s.message(), "cuInit failed: CUDA_ERROR_NO_DEVICE (no "
                         "CUDA-capable device is detected)");
}

TEST(Status, DriverErrorUnknownResult) {
  Status s = Status::formatDriverError("cuInit", 12345, "", "");
  EXPECT_EQ(s.message(), "cuInit failed: CUresult 12345");
}

// A failed device assertion (CUDA_ERROR_ASSERT, sticky) says what happened
// and that the context is gone.
TEST(Status, DriverErrorAssertExplainsStickyContext) {
  Status s = Status::formatDriverError("cuCtxSynchronize", 710,
                                       "CUDA_ERROR_ASSERT",
                                       "device-side assert triggered",
                                       "device 0");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.driverResult(), 710);
  EXPECT_EQ(s.message().rfind("cuCtxSynchronize failed for device 0: "
                              "CUDA_ERROR_ASSERT (device-side assert "
                              "triggered); a device-side assertion failed",
                              0),
            0u);
  EXPECT_NE(s.message().find("the CUDA context is unusable"),
            std::string::npos);
}

TEST(Status, AppendToMessage) {
  Status s = Status::error("cuModuleLoadDataEx failed");
  s.appendToMessage("\nJIT error log:\nline 3: syntax error");
  EXPECT_EQ(s.message(),
            "cuModuleLoadDataEx failed\nJIT error log:\nline 3: syntax error");
  Status ok;
  ok.appendToMessage("ignored");
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.message(), "");
}
