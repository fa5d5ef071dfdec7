//===- Target.h - The NVIDIA GPUs tilec compiles for ------------*- C++ -*-===//
//
// One description per target (--arch, the passes' chip= options): what the
// passes and the PTX backend ask of a GPU is a query here, not a comparison
// of strings.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PASSES_TARGET_H
#define TILEC_PASSES_TARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tilec {

/// A GPU target: every sm_XY from sm_80 that both LLVM 22's NVPTX backend
/// and ptxas 13 accept.
struct TargetInfo {
  /// The --arch spelling: "sm_90a".
  llvm::StringLiteral name;
  /// Compute capability times ten plus minor: 80, 86, 90, 100, 120, ...
  unsigned computeCapability;
  /// The PTX ISA version the PTX declares (84 = 8.4): the oldest that
  /// supports the target, so the PTX loads on the oldest driver that can
  /// run it (PTX ISA, "Release notes").
  unsigned ptxVersion;
  /// The opt-in maximum of dynamic shared memory per CTA, in bytes
  /// (CUDA C++ Programming Guide, "Technical Specifications per Compute
  /// Capability").
  unsigned sharedBytes;

  /// fp8 (e4m3, e5m2) mma.sync and cvt forms: sm_89 and later.
  bool hasFp8() const { return computeCapability >= 89; }
  /// atom.add.noftz.bf16: sm_90 and later.
  bool hasBf16AtomicAdd() const { return computeCapability >= 90; }
  /// add, sub and mul on .bf16 (PTX ISA 9.7.4): sm_90 and later (before,
  /// fma.rn.bf16 with 1.0, -1.0 or -0.0, as NVPTX selects them).
  bool hasBf16Arithmetic() const { return computeCapability >= 90; }
  /// wgmma (warpgroup MMA, PTX ISA 9.7.15): sm_90a only (the `a` targets
  /// of later chips drop it for tcgen05).
  bool hasWgmma() const { return name == "sm_90a"; }
  /// setmaxnreg (PTX ISA 9.7.19.6): the arch-specific (`a`) and family
  /// (`f`) targets from sm_90a on.
  bool hasSetMaxNReg() const {
    return computeCapability >= 90 &&
           (name.ends_with("a") || name.ends_with("f"));
  }
  /// Resident warps per SM at most: 64 on sm_80, sm_90 and sm_100 to
  /// sm_110, 48 on the others (CUDA C++ Programming Guide, "Technical
  /// Specifications per Compute Capability").
  unsigned maxWarpsPerSM() const;
  /// Resident CTAs per SM at most (the same table): 32, 16 on sm_86 to
  /// sm_88, 24 on sm_89.
  unsigned maxCTAsPerSM() const;
  /// 32-bit registers per SM: 65536 on every target.
  unsigned registersPerSM() const { return 65536; }
  /// The CTAs of `numWarps` warps, `regsPerThread` registers a thread and
  /// `sharedBytes` of shared memory each (static and dynamic) that fit on
  /// one SM at once: the CUDA occupancy calculator's rule (registers
  /// allocated per warp in units of 256, 1 KiB of shared memory reserved
  /// per CTA). 0 when one does not fit.
  unsigned residentCTAs(unsigned numWarps, unsigned regsPerThread,
                        unsigned sharedBytes) const;
  /// The NVPTX subtarget feature of ptxVersion: "+ptx84".
  std::string ptxFeature() const { return "+ptx" + std::to_string(ptxVersion); }
};

/// Every supported target, in order of compute capability.
llvm::ArrayRef<TargetInfo> getSupportedTargets();
/// The target named `name`, or null.
const TargetInfo *lookupTarget(llvm::StringRef name);
/// The target named `name`, which the caller has validated (a pass after
/// checkChipOption, the backend after --arch was checked); sm_90a's
/// description for an unknown name.
const TargetInfo &getTarget(llvm::StringRef name);
/// "sm_80, sm_86, ..., sm_121f", for messages.
std::string getSupportedTargetNames();

} // namespace tilec

#endif // TILEC_PASSES_TARGET_H
