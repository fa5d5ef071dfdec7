//===- LaunchChecks.cpp - Argument and grid checks before a launch -*- C++ -*-===//
//
// The checks Kernel::launch runs before it calls cuLaunchKernel: the argument
// count, each argument's kind against its signature entry, the
// specialization facts the compiler relied on (pointer alignment, integer
// divisibility, equal to 1), pointers that are null or not aligned to their
// element type, integers that do not fit the signature's type, the grid against the device limits and the
// dynamic shared memory against the opt-in maximum. A kernel compiled for
// `*fp32:16` may use 16-byte vector loads; launched with a misaligned pointer
// it would fault or read wrong data, so the runtime refuses instead. These
// functions are pure (no driver calls) so they are unit-tested without a GPU.
// Kernel::launch runs them after a fast path (launchArgsPassFast over the
// kernel's precomputed LaunchPlan, Detail.h) that accepts the common launch
// with a few compares per argument and no allocation; anything it does not
// accept goes through checkLaunchArgs, so the refusals and their messages
// are this file's alone. On their success paths the checks build no
// strings either.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime.h"

#include "Detail.h"
#include "Guard.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace tilec;

Arg Arg::f32(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  return Arg(ArgKind::F32, bits);
}

Arg Arg::f64(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  return Arg(ArgKind::F64, bits);
}

const char *tilec::toString(ArgKind kind) {
  switch (kind) {
  case ArgKind::Pointer: return "pointer";
  case ArgKind::I1: return "i1";
  case ArgKind::I8: return "i8";
  case ArgKind::I16: return "i16";
  case ArgKind::I32: return "i32";
  case ArgKind::I64: return "i64";
  case ArgKind::U8: return "u8";
  case ArgKind::U16: return "u16";
  case ArgKind::U32: return "u32";
  case ArgKind::U64: return "u64";
  case ArgKind::F16: return "f16";
  case ArgKind::BF16: return "bf16";
  case ArgKind::F32: return "f32";
  case ArgKind::F64: return "f64";
  case ArgKind::TensorDesc: return "tensor descriptor";
  }
  return "unknown";
}

/// Integer width of an integer argument kind, 0 for pointers and floats.
static unsigned argIntegerWidth(ArgKind kind) {
  switch (kind) {
  case ArgKind::I1: return 1;
  case ArgKind::I8: case ArgKind::U8: return 8;
  case ArgKind::I16: case ArgKind::U16: return 16;
  case ArgKind::I32: case ArgKind::U32: return 32;
  case ArgKind::I64: case ArgKind::U64: return 64;
  default: return 0;
  }
}

/// Whether a float argument kind carries exactly the format of `type`.
static bool floatMatches(ArgKind kind, ScalarType type) {
  switch (kind) {
  case ArgKind::F16: return type == ScalarType::FP16;
  case ArgKind::BF16: return type == ScalarType::BF16;
  case ArgKind::F32: return type == ScalarType::FP32;
  case ArgKind::F64: return type == ScalarType::FP64;
  default: return false;
  }
}

static std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
  return buf;
}

/// A tensor descriptor against its `tensordesc<T[...]>` entry: what TMA
/// requires of a tensor map (cuTensorMapEncodeTiled) and Triton's
/// TensorDescriptor asserts.
static Status checkTensorDesc(const ParamType &p, const TensorDesc *d) {
  if (!d)
    return Status::error("a null tensor descriptor for " + p.str());
  if (d->rank != p.block.size())
    return Status::error("a tensor descriptor of rank " +
                         std::to_string(d->rank) + " for " + p.str() +
                         " (rank " + std::to_string(p.block.size()) + ")");
  if (d->base == 0)
    return Status::error("a tensor descriptor with a null base for " + p.str());
  if (d->base % 16 != 0)
    return Status::error("tensor descriptor base " + hex(d->base) +
                         " is not 16-byte aligned (as TMA requires)");
  uint64_t elem = byteSize(p.type);
  for (uint32_t k = 0; k < d->rank; ++k) {
    // Built only for a message: the success path allocates nothing.
    auto dim = [k] { return " of dimension " + std::to_string(k); };
    if (d->shape[k] < 1 || d->shape[k] > INT32_MAX)
      return Status::error("tensor descriptor size " +
                           std::to_string(d->shape[k]) + dim() +
                           ": expected 1 to 2^31 - 1");
    int64_t stride = d->strides[k];
    if (k + 1 == d->rank) {
      if (stride != 1)
        return Status::error("tensor descriptor stride " +
                             std::to_string(stride) + dim() +
                             " (the last): expected 1 (the innermost "
                             "dimension contiguous)");
      continue;
    }
    if (stride < 1 || uint64_t(stride) >= (uint64_t(1) << 40) / elem ||
        (uint64_t(stride) * elem) % 16 != 0)
      return Status::error("tensor descriptor stride " +
                           std::to_string(stride) + dim() + " (" +
                           std::string(toString(p.type)) +
                           " elements): expected a positive multiple of 16 "
                           "bytes below 2^40 bytes (as TMA requires)");
  }
  return Status::success();
}

Status tilec::checkLaunchArgs(const KernelInfo &info, const Arg *args,
                              size_t numArgs) {
  return detail::guarded([&]() -> Status {
    const std::vector<ParamType> &params = info.signature.params;
    if (numArgs != params.size())
      return Status::error("kernel '" + info.name + "' expects " +
                           std::to_string(params.size()) + " argument" +
                           (params.size() == 1 ? "" : "s") + " (signature '" +
                           info.signature.str() + "'), found " +
                           std::to_string(numArgs));
    if (numArgs && !args)
      return Status::error("kernel '" + info.name +
                           "': the argument array is null");

    for (size_t i = 0; i < numArgs; ++i) {
      const ParamType &p = params[i];
      const Arg &a = args[i];
      auto fail = [&](const std::string &why) {
        return Status::error("argument " + std::to_string(i) + " of kernel '" +
                             info.name + "': " + why);
      };
      auto mismatch = [&]() {
        // Name the type without its facts: the kind is what differs.
        std::string expected = (p.isPointer ? "*" : "") +
                               std::string(toString(p.type));
        return fail("expected " + expected + ", found " + toString(a.kind()));
      };

      if (p.isTensorDesc) {
        if (a.kind() != ArgKind::TensorDesc)
          return fail("expected a tensor descriptor for " + p.str() +
                      ", found " + toString(a.kind()));
        if (Status s = checkTensorDesc(p, a.tensorDesc()); !s.ok())
          return fail(s.message());
        continue;
      }
      if (a.kind() == ArgKind::TensorDesc)
        return mismatch();
      if (p.isPointer) {
        if (a.kind() != ArgKind::Pointer)
          return mismatch();
        if (a.bits() == 0)
          return fail("a null pointer for " + p.str());
        // Every access through the pointer is of its element type.
        if (unsigned elem = byteSize(p.type); elem > 1 && a.bits() % elem != 0)
          return fail("pointer " + hex(a.bits()) + " is not aligned to its " +
                      "element type (" + std::string(toString(p.type)) +
                      ", " + std::to_string(elem) + " bytes)");
        if (p.divisibility && a.bits() % p.divisibility != 0)
          return fail("pointer " + hex(a.bits()) + " is not " +
                      std::to_string(p.divisibility) +
                      "-byte aligned as the signature " + p.str() +
                      " requires");
        continue;
      }
      if (isFloat(p.type)) {
        if (!floatMatches(a.kind(), p.type))
          return mismatch();
        continue;
      }
      // Integers: the width must match and the value must fit the
      // signature's type (an unsigned value past the signed maximum, or a
      // negative one for an unsigned type, would be reinterpreted).
      unsigned width = integerBitWidth(p.type);
      if (argIntegerWidth(a.kind()) != width)
        return mismatch();
      uint64_t raw = a.bits();
      if (width < 64)
        raw &= (uint64_t(1) << width) - 1;
      bool argSigned = a.kind() == ArgKind::I8 || a.kind() == ArgKind::I16 ||
                       a.kind() == ArgKind::I32 || a.kind() == ArgKind::I64;
      bool argUnsigned = a.kind() == ArgKind::U8 || a.kind() == ArgKind::U16 ||
                         a.kind() == ArgKind::U32 || a.kind() == ArgKind::U64;
      bool topBit = width > 1 && ((raw >> (width - 1)) & 1);
      if (topBit && argUnsigned && isSigned(p.type))
        return fail(std::to_string(raw) + " (" + toString(a.kind()) +
                    ") does not fit in " + toString(p.type));
      if (topBit && argSigned && !isSigned(p.type)) {
        uint64_t mask = width < 64 ? (uint64_t(1) << width) - 1 : ~uint64_t(0);
        uint64_t mag = ((~raw) + 1) & mask;
        return fail("-" + std::to_string(mag ? mag : raw) + " (" +
                    toString(a.kind()) + ") does not fit in " +
                    toString(p.type));
      }
      bool negative = false;
      uint64_t magnitude = raw;
      if (isSigned(p.type) && width > 1 && (raw >> (width - 1)) & 1) {
        // Two's complement magnitude of a negative value of `width` bits.
        uint64_t mask = width < 64 ? (uint64_t(1) << width) - 1 : ~uint64_t(0);
        magnitude = ((~raw) + 1) & mask;
        if (width == 64 && magnitude == 0)
          magnitude = raw; // INT64_MIN: its own magnitude as unsigned
        negative = true;
      }
      // The value as a message writes it (built only for one).
      auto text = [&] {
        return (negative ? "-" : "") + std::to_string(magnitude);
      };
      if (p.equalToOne && (negative || magnitude != 1))
        return fail(text() + " is not equal to 1 as the signature " + p.str() +
                    " requires");
      if (p.divisibility && magnitude % p.divisibility != 0)
        return fail(text() + " is not divisible by " +
                    std::to_string(p.divisibility) + " as the signature " +
                    p.str() + " requires");
    }
    return Status::success();
  });
}

//===----------------------------------------------------------------------===//
// The launch plan: checkLaunchArgs's fast path
//===----------------------------------------------------------------------===//

detail::LaunchPlan detail::makeLaunchPlan(const KernelInfo &info) {
  LaunchPlan plan;
  plan.numMaps = info.launchMaps.size();
  plan.numPtxParams = info.launchMaps.size();
  plan.simple = info.launchMaps.empty();
  for (const ParamType &p : info.signature.params) {
    ParamCheck c;
    plan.numPtxParams += p.numPtxParams();
    if (p.isTensorDesc) {
      c.cls = ParamCheck::TensorDesc;
      c.kind = ArgKind::TensorDesc;
      plan.simple = false;
      // Base, rank sizes, rank - 1 strides.
      plan.numExpanded += 2 * p.block.size();
      plan.numMaps += p.hasTensorMap() ? 1 : 0;
    } else if (p.isPointer) {
      c.cls = ParamCheck::Pointer;
      c.kind = ArgKind::Pointer;
      // Both the element size and the fact are powers of two: an address
      // meets both when it is a multiple of the larger.
      uint64_t align = std::max<uint64_t>(byteSize(p.type),
                                          p.divisibility ? p.divisibility : 1);
      c.zeroBits = align - 1;
    } else if (isFloat(p.type)) {
      c.cls = ParamCheck::Float;
      c.kind = p.type == ScalarType::FP16   ? ArgKind::F16
               : p.type == ScalarType::BF16 ? ArgKind::BF16
               : p.type == ScalarType::FP32 ? ArgKind::F32
                                            : ArgKind::F64;
    } else {
      c.cls = ParamCheck::Integer;
      switch (p.type) {
      case ScalarType::I1: c.kind = ArgKind::I1; break;
      case ScalarType::I8: c.kind = ArgKind::I8; break;
      case ScalarType::I16: c.kind = ArgKind::I16; break;
      case ScalarType::I32: c.kind = ArgKind::I32; break;
      case ScalarType::I64: c.kind = ArgKind::I64; break;
      case ScalarType::U8: c.kind = ArgKind::U8; break;
      case ScalarType::U16: c.kind = ArgKind::U16; break;
      case ScalarType::U32: c.kind = ArgKind::U32; break;
      default: c.kind = ArgKind::U64; break;
      }
      unsigned width = integerBitWidth(p.type);
      c.widthMask = width < 64 ? (uint64_t(1) << width) - 1 : ~uint64_t(0);
      c.zeroBits = p.divisibility ? p.divisibility - 1 : 0;
      c.equalToOne = p.equalToOne;
    }
    plan.checks.push_back(c);
  }
  return plan;
}

// Why passing here implies passing checkLaunchArgs: the argument has the
// entry's exact kind, so the width matches and no value can fall outside
// the type; a pointer is non-null and a multiple of both its element size
// and its fact; an integer's low `width` bits equal 1 for `:1` (1 is
// neither negative nor i1's sign bit), or have the fact's low bits clear,
// which for a power of two D is "the magnitude is a multiple of D" for
// negative values too (-x = 0 mod D exactly when x = 0 mod D, and a D
// above 2^width leaves only 0); a descriptor passes checkTensorDesc itself.
bool detail::launchArgsPassFast(const LaunchPlan &plan, const KernelInfo &info,
                                const Arg *args, size_t numArgs) {
  if (numArgs != plan.checks.size() ||
      numArgs != info.signature.params.size() || (numArgs && !args))
    return false;
  for (size_t i = 0; i < numArgs; ++i) {
    const ParamCheck &c = plan.checks[i];
    const Arg &a = args[i];
    if (a.kind() != c.kind)
      return false;
    switch (c.cls) {
    case ParamCheck::Pointer:
      if (a.bits() == 0 || (a.bits() & c.zeroBits) != 0)
        return false;
      break;
    case ParamCheck::Float:
      break;
    case ParamCheck::Integer: {
      uint64_t raw = a.bits() & c.widthMask;
      if (c.equalToOne ? raw != 1 : (raw & c.zeroBits) != 0)
        return false;
      break;
    }
    case ParamCheck::TensorDesc:
      if (!checkTensorDesc(info.signature.params[i], a.tensorDesc()).ok())
        return false;
      break;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Launch maps, grids, shared memory, graph capture
//===----------------------------------------------------------------------===//

/// The value of a launch map's expression for `args`: each token's result
/// in its width's low bits (wrapping), a 32-bit result sign-extended.
static int64_t evaluate(const LaunchMap::Expr &expr, const Arg *args) {
  using Token = LaunchMap::Token;
  auto low32 = [](uint64_t v) { return v & 0xffffffffu; };
  auto sext32 = [](uint64_t v) {
    return uint64_t(int64_t(int32_t(uint32_t(v))));
  };
  // The stack never holds more values than the expression has tokens: an
  // inline one for the expressions the compiler writes (a few tokens), the
  // heap beyond.
  struct Stack {
    uint64_t inlineValues[16];
    std::vector<uint64_t> heap;
    uint64_t *values = inlineValues;
    size_t size = 0;
    uint64_t &back() { return values[size - 1]; }
    void pop_back() { --size; }
    void push_back(uint64_t v) { values[size++] = v; }
  } stack;
  if (expr.size() > sizeof(stack.inlineValues) / sizeof(uint64_t)) {
    stack.heap.resize(expr.size());
    stack.values = stack.heap.data();
  }
  for (const Token &t : expr) {
    uint64_t result = 0;
    switch (t.kind) {
    case Token::Arg:
      result = args[t.value].bits();
      break;
    case Token::Const:
      result = uint64_t(t.value);
      break;
    case Token::SExt:
      result = sext32(stack.back());
      stack.pop_back();
      break;
    case Token::ZExt:
    case Token::Trunc:
      result = low32(stack.back());
      stack.pop_back();
      break;
    case Token::Add:
    case Token::Sub:
    case Token::Mul:
    case Token::Max: {
      uint64_t b = stack.back();
      stack.pop_back();
      uint64_t a = stack.back();
      stack.pop_back();
      if (t.kind == Token::Max) {
        // Signed, at the token's width.
        int64_t sa = t.width == 32 ? int64_t(int32_t(uint32_t(a))) : int64_t(a);
        int64_t sb = t.width == 32 ? int64_t(int32_t(uint32_t(b))) : int64_t(b);
        result = uint64_t(std::max(sa, sb));
        break;
      }
      result = t.kind == Token::Add   ? a + b
               : t.kind == Token::Sub ? a - b
                                      : a * b; // unsigned: wraps
      break;
    }
    }
    stack.push_back(t.width == 32 ? low32(result) : result);
  }
  const Token &last = expr.back();
  return int64_t(last.width == 32 && last.kind != Token::ZExt
                     ? sext32(stack.back())
                     : stack.back());
}

Status tilec::evaluateLaunchMap(const KernelInfo &info, const LaunchMap &map,
                                const Arg *args, TensorDesc &out) {
  return detail::guarded([&]() -> Status {
    size_t index = size_t(&map - info.launchMaps.data());
    if (index >= info.launchMaps.size() ||
        map.base >= info.signature.params.size())
      return Status::error("a launch map not of kernel '" + info.name + "'");
    TensorDesc d;
    d.base = args[map.base].bits();
    d.rank = uint32_t(map.shape.size());
    for (uint32_t k = 0; k < d.rank; ++k) {
      d.shape[k] = evaluate(map.shape[k], args);
      d.strides[k] = k + 1 < d.rank ? evaluate(map.strides[k], args) : 1;
    }
    if (Status s = checkTensorDesc(map.param, &d); !s.ok())
      return Status::error("launch map " + std::to_string(index) +
                           " of kernel '" + info.name +
                           "' (the tensor descriptor of argument " +
                           std::to_string(map.base) + "): " + s.message());
    out = d;
    return Status::success();
  });
}

Status tilec::checkGrid(std::string_view kernelName, const Grid &grid,
                        const GridLimits &limits) {
  return detail::guarded([&]() -> Status {
    auto fail = [&](const std::string &why) {
      return Status::error("kernel '" + std::string(kernelName) + "': grid (" +
                           std::to_string(grid.x) + ", " +
                           std::to_string(grid.y) + ", " +
                           std::to_string(grid.z) + ") " + why);
    };
    if (grid.x == 0 || grid.y == 0 || grid.z == 0)
      return fail("is empty: every dimension must be > 0");
    if (grid.x > limits.x)
      return fail("exceeds the device limit: x must be <= " +
                  std::to_string(limits.x));
    if (grid.y > limits.y)
      return fail("exceeds the device limit: y must be <= " +
                  std::to_string(limits.y));
    if (grid.z > limits.z)
      return fail("exceeds the device limit: z must be <= " +
                  std::to_string(limits.z));
    return Status::success();
  });
}

Status tilec::checkSharedMemory(const KernelInfo &info, uint64_t staticBytes,
                                uint64_t optinMaxBytes) {
  return detail::guarded([&]() -> Status {
    uint64_t available = optinMaxBytes > staticBytes ? optinMaxBytes - staticBytes
                                                     : 0;
    if (info.sharedBytes > available)
      return Status::error(
          "kernel '" + info.name + "' needs " + std::to_string(info.sharedBytes) +
          " bytes of dynamic shared memory but the device allows at most " +
          std::to_string(available) + " (opt-in maximum " +
          std::to_string(optinMaxBytes) + " bytes per block, " +
          std::to_string(staticBytes) + " used by static shared memory)");
    return Status::success();
  });
}

Status detail::checkCaptureStream(CUstream stream, std::string_view what) {
  if (stream == nullptr || stream == CU_STREAM_LEGACY)
    return Status::error(std::string(what) +
                         ": the legacy default stream (NULL) cannot be "
                         "captured; capture on a stream made with "
                         "cuStreamCreate");
  return Status::success();
}
