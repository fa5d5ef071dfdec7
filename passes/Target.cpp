//===- Target.cpp - The NVIDIA GPUs tilec compiles for --------------------===//

#include "passes/Target.h"

using namespace tilec;

namespace {
constexpr unsigned KiB = 1024;
// PTX ISA versions: sm_80..sm_90a since 8.0 and earlier (tilec declares
// 8.4, its long-standing baseline), sm_100/100a 8.6, sm_120/120a 8.7,
// sm_101/103/121 and the 'f' families 8.8, sm_88 and sm_110 9.0.
const TargetInfo kTargets[] = {
    {"sm_80", 80, 84, 163 * KiB},   {"sm_86", 86, 84, 99 * KiB},
    {"sm_87", 87, 84, 163 * KiB},   {"sm_88", 88, 90, 99 * KiB},
    {"sm_89", 89, 84, 99 * KiB},    {"sm_90", 90, 84, 227 * KiB},
    {"sm_90a", 90, 84, 227 * KiB},  {"sm_100", 100, 86, 227 * KiB},
    {"sm_100a", 100, 86, 227 * KiB}, {"sm_100f", 100, 88, 227 * KiB},
    {"sm_103", 103, 88, 227 * KiB}, {"sm_103a", 103, 88, 227 * KiB},
    {"sm_103f", 103, 88, 227 * KiB}, {"sm_110", 110, 90, 227 * KiB},
    {"sm_110a", 110, 90, 227 * KiB}, {"sm_110f", 110, 90, 227 * KiB},
    {"sm_120", 120, 87, 99 * KiB},  {"sm_120a", 120, 87, 99 * KiB},
    {"sm_120f", 120, 88, 99 * KiB}, {"sm_121", 121, 88, 99 * KiB},
    {"sm_121a", 121, 88, 99 * KiB}, {"sm_121f", 121, 88, 99 * KiB},
};
} // namespace

llvm::ArrayRef<TargetInfo> tilec::getSupportedTargets() { return kTargets; }

const TargetInfo *tilec::lookupTarget(llvm::StringRef name) {
  for (const TargetInfo &t : kTargets)
    if (t.name == name)
      return &t;
  return nullptr;
}

const TargetInfo &tilec::getTarget(llvm::StringRef name) {
  if (const TargetInfo *t = lookupTarget(name))
    return *t;
  return *lookupTarget("sm_90a");
}

std::string tilec::getSupportedTargetNames() {
  std::string names;
  for (const TargetInfo &t : kTargets)
    names += (names.empty() ? "" : ", ") + t.name.str();
  return names;
}
