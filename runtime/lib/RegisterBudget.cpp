//===- RegisterBudget.cpp - The register limit that keeps occupancy -*- C++ -*-===//
//
// The pure half of the loader's register budget (Module::loadPTX applies
// it with the driver's occupancy figures; tilec's assembleCubin with the
// architecture's): the `.maxnreg` that keeps the number of CTAs per SM a
// kernel reaches without a limit, and the edit that puts the directive on
// one PTX entry. docs/runtime.md, "Register budget", says why.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime.h"

#include "Guard.h"

#include <algorithm>
#include <cstdint>
#include <string>

using namespace tilec;

namespace {
// Registers are allocated per warp in units of 256 (8 a thread), and a
// warp's all come from one of the SM's four sub-partitions (one per
// scheduler), cuda_occupancy.h's rule.
constexpr unsigned kUnit = 8, kPartitions = 4;
constexpr unsigned kMaxRegsPerCTA = 65536;
} // namespace

unsigned tilec::registerLimitedCTAs(unsigned regsPerThread, unsigned numWarps,
                                    unsigned regsPerSM) {
  if (regsPerThread == 0 || numWarps == 0)
    return 0;
  uint64_t perWarp = uint64_t(regsPerThread + kUnit - 1) / kUnit * kUnit * 32;
  if (perWarp * numWarps > kMaxRegsPerCTA)
    return 0;
  return unsigned(kPartitions * (regsPerSM / kPartitions / perWarp) / numWarps);
}

unsigned tilec::occupancyRegisterBudget(unsigned numRegs, unsigned numWarps,
                                        unsigned ctasPerSM, unsigned regsPerSM,
                                        unsigned maxRegsPerThread) {
  if (numRegs == 0 || numWarps == 0 || ctasPerSM == 0 || regsPerSM == 0)
    return 0;
  // `ctasPerSM` CTAs need ceil(warps / 4) warps' registers in each
  // sub-partition.
  uint64_t warps = uint64_t(numWarps) * ctasPerSM;
  uint64_t perPartition = (warps + kPartitions - 1) / kPartitions;
  uint64_t perWarp = regsPerSM / kPartitions / perPartition;
  uint64_t budget = perWarp / (32 * kUnit) * kUnit;
  budget = std::min<uint64_t>(budget, maxRegsPerThread);
  // Not rounded: 60 registers occupy 64 a thread already, but ptxas told
  // 64 schedules for 64.
  return budget > numRegs ? unsigned(budget) : 0;
}

Status tilec::setEntryMaxNReg(std::string &ptx, std::string_view kernel,
                              unsigned maxnreg) {
  return detail::guarded([&]() -> Status {
    std::string what = "entry '" + std::string(kernel) + "'";
    if (maxnreg < 16 || maxnreg > 255)
      return Status::error("cannot set .maxnreg " + std::to_string(maxnreg) +
                           " on " + what + ": expected 16 to 255 registers");
    std::string head = ".entry " + std::string(kernel) + "(";
    size_t at = ptx.find(head);
    while (at != std::string::npos && at > 0 && ptx[at - 1] != ' ' &&
           ptx[at - 1] != '\t' && ptx[at - 1] != '\n')
      at = ptx.find(head, at + 1);
    if (at == std::string::npos)
      return Status::error("no PTX " + what + " (expected '" + head + "')");
    // A parameter list has no parentheses of its own.
    size_t close = ptx.find(')', at + head.size());
    size_t body = close == std::string::npos ? close : ptx.find('{', close);
    size_t semi = close == std::string::npos ? close : ptx.find(';', close);
    if (body == std::string::npos || (semi != std::string::npos && semi < body))
      return Status::error("PTX " + what + " has no body");
    std::string_view directives(ptx.data() + close, body - close);
    for (const char *d : {".maxnreg", ".minnctapersm", ".maxnctapersm"})
      if (directives.find(d) != std::string_view::npos)
        return Status::error("PTX " + what + " already has " + d);
    ptx.insert(body, ".maxnreg " + std::to_string(maxnreg) + "\n");
    return Status::success();
  });
}
