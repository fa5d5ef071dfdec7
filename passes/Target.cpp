//===- Target.cpp - The NVIDIA GPUs tilec compiles for --------------------===//

#include "passes/Target.h"

#include "tilec/Runtime.h"

#include <algorithm>

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

unsigned TargetInfo::maxWarpsPerSM() const {
  bool full = computeCapability == 80 ||
              (computeCapability >= 90 && computeCapability < 120);
  return full ? 64 : 48;
}

unsigned TargetInfo::maxCTAsPerSM() const {
  if (computeCapability >= 86 && computeCapability <= 88)
    return 16;
  return computeCapability == 89 ? 24 : 32;
}

unsigned TargetInfo::residentCTAs(unsigned numWarps, unsigned regsPerThread,
                                  unsigned sharedBytesPerCTA) const {
  if (numWarps == 0 || numWarps > maxWarpsPerSM() || regsPerThread > 255)
    return 0;
  unsigned ctas = std::min(maxCTAsPerSM(), maxWarpsPerSM() / numWarps);
  // Registers: the runtime's allocation rule (the inverse of the budget's).
  ctas = std::min(ctas, registerLimitedCTAs(std::max(regsPerThread, 1u),
                                            numWarps, registersPerSM()));
  // Shared memory: the SM's carve-out is the opt-in maximum plus the 1 KiB
  // every CTA reserves.
  constexpr unsigned kReserved = 1024;
  if (sharedBytesPerCTA > sharedBytes)
    return 0;
  ctas = std::min(ctas,
                  (sharedBytes + kReserved) / (sharedBytesPerCTA + kReserved));
  return ctas;
}

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
