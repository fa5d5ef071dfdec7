//===- NvrtcTool.cpp - Compile .cu files with NVRTC, as the runtime does --===//
//
// tilec-nvrtc FILE.cu...: compiles each file with tilec::compileCUDAToPTX
// (the architecture its header names) and prints `FILE: ok` or the error
// with NVRTC's log; exit 1 if any failed. lit runs it on the CUDA C++
// backend's output (test/Target/CUDA): NVRTC accepts less than nvcc does
// (no __builtin_memcpy, no host headers).
//
//===----------------------------------------------------------------------===//
#include "tilec/Runtime.h"

#include <cstdio>
#include <fstream>
#include <sstream>

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: tilec-nvrtc FILE.cu...\n");
    return 2;
  }
  int failed = 0;
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s: cannot read\n", argv[i]);
      ++failed;
      continue;
    }
    std::stringstream text;
    text << in.rdbuf();
    std::string ptx;
    tilec::Status s = tilec::compileCUDAToPTX(text.str(), "", ptx, argv[i]);
    if (s.ok()) {
      std::printf("%s: ok\n", argv[i]);
    } else {
      std::printf("%s\n", s.message().c_str());
      ++failed;
    }
  }
  return failed ? 1 : 0;
}
