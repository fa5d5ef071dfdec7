//===- NvrtcTool.cpp - Compile .cu files with NVRTC, as the runtime does --===//
//
// tilec-nvrtc [-o DIR] FILE.cu...: compiles each file with
// tilec::compileCUDAToPTX (the architecture its header names) and prints
// `FILE: ok` or the error with NVRTC's log; exit 1 if any failed. With -o,
// each PTX (with the source's metadata lines, loadable as tilec's own) is
// written to DIR/NAME.ptx. lit runs it on the CUDA C++ backend's output
// (test/Target/CUDA): NVRTC accepts less than nvcc does (no
// __builtin_memcpy, no host headers); -o compiles the GPU bundle's .cu
// files ahead of a GPU run (docs/testing.md).
//
//===----------------------------------------------------------------------===//
#include "tilec/Runtime.h"

#include <cstdio>
#include <fstream>
#include <sstream>

int main(int argc, char **argv) {
  int first = 1;
  std::string outDir;
  if (argc > 2 && std::string(argv[1]) == "-o") {
    outDir = argv[2];
    first = 3;
  }
  if (argc <= first) {
    std::fprintf(stderr, "usage: tilec-nvrtc [-o DIR] FILE.cu...\n");
    return 2;
  }
  int failed = 0;
  for (int i = first; i < argc; ++i) {
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
    if (s.ok() && !outDir.empty()) {
      std::string name(argv[i]);
      name = name.substr(name.find_last_of('/') + 1);
      if (name.size() > 3 && name.compare(name.size() - 3, 3, ".cu") == 0)
        name.resize(name.size() - 3);
      std::string path = outDir + "/" + name + ".ptx";
      std::ofstream out(path, std::ios::binary);
      out << ptx;
      if (!out) {
        std::printf("%s: cannot write %s\n", argv[i], path.c_str());
        ++failed;
        continue;
      }
    }
    if (s.ok()) {
      std::printf("%s: ok\n", argv[i]);
    } else {
      std::printf("%s\n", s.message().c_str());
      ++failed;
    }
  }
  return failed ? 1 : 0;
}
