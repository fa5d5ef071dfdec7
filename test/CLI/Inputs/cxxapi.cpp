// A C++ host program against the installed runtime (install.test).
#include "tilec/Runtime.h"

#include <cstdio>
#include <memory>

int main() {
  std::shared_ptr<tilec::Context> ctx;
  tilec::Status s = tilec::Context::create(0, ctx);
  std::printf("%s\n", s.ok() ? "context created" : s.message().c_str());
  return 0;
}
