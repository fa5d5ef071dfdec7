//===- Metadata.cpp - Signatures and tilec.kernel metadata lines -*- C++ -*-===//
//
// Parses the typed kernel signatures (Triton's AOT syntax: `*fp32:16`, `i32`,
// `i32:1`) and the `// tilec.kernel name=... num_warps=... shared=...
// signature=...` comment lines the compiler writes near the top of each PTX
// file, prints them back (formatKernelMetadataLine, and the fields the JSON
// sidecar of MetadataJson.cpp carries), and formats Status messages. Nothing
// here touches the CUDA driver, so it is unit-tested on machines without
// one; the parser is strict (exact key order, single spaces) because the
// compiler is its only writer and a sloppy line is a compiler bug worth
// reporting.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime.h"

#include "Detail.h"
#include "Guard.h"

#include <new>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

using namespace tilec;

//===----------------------------------------------------------------------===//
// Status
//===----------------------------------------------------------------------===//

Status::Rep *Status::make() noexcept {
  Rep *r = new (std::nothrow) Rep();
  return r ? r : outOfMemory();
}

Status::Rep *Status::copy(const Rep *rep) noexcept {
  if (!rep)
    return nullptr;
  if (rep == outOfMemory())
    return outOfMemory();
  try {
    return new Rep(*rep);
  } catch (...) {
    return outOfMemory();
  }
}

void Status::RepDeleter::operator()(Rep *rep) const noexcept {
  if (rep != outOfMemory())
    delete rep;
}

// The Rep of statuses whose own could not be allocated; built at first
// use (its string fits the small-string buffer).
Status::Rep *Status::outOfMemory() noexcept {
  static Rep rep{0, "out of memory", ""};
  return &rep;
}

Status Status::error(std::string message) {
  Status s;
  s.rep.reset(make());
  if (s.rep.get() != outOfMemory())
    s.rep->text = std::move(message);
  return s;
}

const std::string &Status::empty() {
  static const std::string none;
  return none;
}

Status Status::formatDriverError(std::string_view call, int result,
                                 std::string_view errorName,
                                 std::string_view errorString,
                                 std::string_view context) {
  std::string msg(call);
  msg += " failed";
  if (!context.empty()) {
    msg += " for ";
    msg += context;
  }
  msg += ": ";
  if (errorName.empty())
    msg += "CUresult " + std::to_string(result);
  else
    msg += errorName;
  if (!errorString.empty()) {
    msg += " (";
    msg += errorString;
    msg += ")";
  }
  // CUDA_ERROR_ASSERT: a kernel's tl.device_assert (or assert, compiled
  // with --debug) failed and trapped; the error is sticky.
  if (result == 710)
    msg += "; a device-side assertion failed (tl.device_assert or assert "
           "compiled with --debug; the CUDA driver printed its message on "
           "stdout) and the CUDA context is unusable from now on: every "
           "later call on it fails until the process resets the device's "
           "primary context or exits";
  Status s = error(std::move(msg));
  if (s.rep.get() != outOfMemory()) {
    s.rep->call = std::string(call);
    s.rep->result = result;
  }
  return s;
}

//===----------------------------------------------------------------------===//
// Scalar types
//===----------------------------------------------------------------------===//

namespace {
struct TypeName {
  const char *name;
  ScalarType type;
};
constexpr TypeName kTypeNames[] = {
    {"i1", ScalarType::I1},         {"i8", ScalarType::I8},
    {"i16", ScalarType::I16},       {"i32", ScalarType::I32},
    {"i64", ScalarType::I64},       {"u8", ScalarType::U8},
    {"u16", ScalarType::U16},       {"u32", ScalarType::U32},
    {"u64", ScalarType::U64},       {"fp16", ScalarType::FP16},
    {"bf16", ScalarType::BF16},     {"fp32", ScalarType::FP32},
    {"fp64", ScalarType::FP64},     {"fp8e4nv", ScalarType::FP8E4NV},
    {"fp8e5", ScalarType::FP8E5},
};
} // namespace

const char *tilec::toString(ScalarType type) {
  for (const TypeName &t : kTypeNames)
    if (t.type == type)
      return t.name;
  return "?";
}

bool tilec::parseScalarType(std::string_view name, ScalarType &out) {
  for (const TypeName &t : kTypeNames)
    if (name == t.name) {
      out = t.type;
      return true;
    }
  return false;
}

unsigned tilec::byteSize(ScalarType type) {
  switch (type) {
  case ScalarType::I1:
  case ScalarType::I8:
  case ScalarType::U8:
  case ScalarType::FP8E4NV:
  case ScalarType::FP8E5:
    return 1;
  case ScalarType::I16:
  case ScalarType::U16:
  case ScalarType::FP16:
  case ScalarType::BF16:
    return 2;
  case ScalarType::I32:
  case ScalarType::U32:
  case ScalarType::FP32:
    return 4;
  case ScalarType::I64:
  case ScalarType::U64:
  case ScalarType::FP64:
    return 8;
  }
  return 0;
}

bool tilec::isInteger(ScalarType type) { return !isFloat(type); }

bool tilec::isFloat(ScalarType type) {
  switch (type) {
  case ScalarType::FP16:
  case ScalarType::BF16:
  case ScalarType::FP32:
  case ScalarType::FP64:
  case ScalarType::FP8E4NV:
  case ScalarType::FP8E5:
    return true;
  default:
    return false;
  }
}

unsigned tilec::integerBitWidth(ScalarType type) {
  if (type == ScalarType::I1)
    return 1;
  return isInteger(type) ? byteSize(type) * 8 : 0;
}

bool tilec::isSigned(ScalarType type) {
  switch (type) {
  case ScalarType::I1:
  case ScalarType::I8:
  case ScalarType::I16:
  case ScalarType::I32:
  case ScalarType::I64:
    return true;
  default:
    return false;
  }
}

//===----------------------------------------------------------------------===//
// Signatures
//===----------------------------------------------------------------------===//

std::string ParamType::str() const {
  if (isTensorDesc) {
    std::string s = "tensordesc<" + std::string(toString(type)) + "[";
    for (size_t d = 0; d < block.size(); ++d)
      s += (d ? "," : "") + std::to_string(block[d]);
    return s + "]>";
  }
  std::string s = isPointer ? "*" : "";
  s += toString(type);
  if (equalToOne)
    s += ":1";
  else if (divisibility)
    s += ":" + std::to_string(divisibility);
  return s;
}

/// Parses a non-empty run of decimal digits into `out`; false on anything
/// else, including overflow of uint64_t.
static bool parseUnsigned(std::string_view text, uint64_t &out) {
  if (text.empty() || text.size() > 20)
    return false;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return false;
    uint64_t d = uint64_t(c - '0');
    if (v > (UINT64_MAX - d) / 10)
      return false;
    v = v * 10 + d;
  }
  out = v;
  return true;
}

static Status parseEntry(std::string_view entry, ParamType &out) {
  auto fail = [&](const std::string &why) { return Status::error(why); };
  if (entry.empty())
    return fail("malformed entry: empty (only a kernel without parameters "
                "has an empty signature)");
  std::string_view rest = entry;
  ParamType p;
  constexpr std::string_view kDesc = "tensordesc<";
  if (rest.substr(0, kDesc.size()) == kDesc) {
    // tensordesc<T[B0,B1,...]>
    rest.remove_prefix(kDesc.size());
    size_t open = rest.find('[');
    if (open == std::string_view::npos || rest.size() < open + 3 ||
        rest.substr(rest.size() - 2) != "]>")
      return fail("malformed entry: expected tensordesc<TYPE[B0,B1,...]>");
    std::string_view typeName = rest.substr(0, open);
    if (typeName == "i1")
      return fail("a descriptor's elements cannot be i1");
    if (!parseScalarType(typeName, p.type))
      return fail("unknown descriptor element type '" + std::string(typeName) +
                  "' (expected one of i8 i16 i32 i64 u8 u16 u32 u64 fp16 "
                  "bf16 fp32 fp64 fp8e4nv fp8e5)");
    std::string_view dims = rest.substr(open + 1, rest.size() - open - 3);
    while (true) {
      size_t comma = dims.find(',');
      // Triton writes the block as a Python list: "[64, 64]".
      std::string_view size = dims.substr(0, comma);
      while (!size.empty() && size.front() == ' ')
        size.remove_prefix(1);
      while (!size.empty() && size.back() == ' ')
        size.remove_suffix(1);
      uint64_t d = 0;
      if (!parseUnsigned(size, d) || d == 0 || d > 256 || (d & (d - 1)) != 0)
        return fail("bad block size '" + std::string(size) +
                    "': expected a power of two up to 256 (a TMA box)");
      p.block.push_back(int64_t(d));
      if (comma == std::string_view::npos)
        break;
      dims.remove_prefix(comma + 1);
    }
    if (p.block.size() > 5)
      return fail("a block of rank " + std::to_string(p.block.size()) +
                  ": expected rank 1 to 5 (a TMA box)");
    if (uint64_t(p.block.back()) * byteSize(p.type) < 16)
      return fail("expected at least 16 bytes in the block's last "
                  "dimension");
    p.isTensorDesc = true;
    out = p;
    return Status::success();
  }
  if (rest.front() == '*') {
    p.isPointer = true;
    rest.remove_prefix(1);
  }
  std::string_view typeName = rest;
  std::string_view fact;
  bool hasFact = false;
  if (size_t colon = rest.find(':'); colon != std::string_view::npos) {
    typeName = rest.substr(0, colon);
    fact = rest.substr(colon + 1);
    hasFact = true;
  }
  if (typeName.empty())
    return fail("malformed entry: expected a type name");
  if (!parseScalarType(typeName, p.type)) {
    uint64_t ignored;
    if (!p.isPointer && parseUnsigned(typeName, ignored))
      return fail("unknown type '" + std::string(typeName) +
                  "' (a constexpr value is not a kernel parameter)");
    return fail("unknown type '" + std::string(typeName) +
                "' (expected one of i1 i8 i16 i32 i64 u8 u16 u32 u64 fp16 "
                "bf16 fp32 fp64 fp8e4nv fp8e5)");
  }
  if (!p.isPointer &&
      (p.type == ScalarType::FP8E4NV || p.type == ScalarType::FP8E5))
    return fail("unimplemented: scalar " + std::string(typeName) +
                " parameter (only pointers to fp8 are supported)");
  if (hasFact) {
    uint64_t d = 0;
    if (fact.empty())
      return fail("expected a fact after ':' (':16' divisible by 16, ':1' "
                  "equal to 1), found nothing");
    if (!parseUnsigned(fact, d))
      return fail("bad divisibility '" + std::string(fact) +
                  "': expected a decimal integer");
    if (d == 1) {
      if (p.isPointer || !isInteger(p.type))
        return fail("':1' (equal to 1) applies only to integer scalars");
      p.equalToOne = true;
    } else {
      if (d == 0 || (d & (d - 1)) != 0)
        return fail("bad divisibility '" + std::string(fact) +
                    "': expected a power of two > 1, or 1 for equal to 1");
      if (!p.isPointer && !isInteger(p.type))
        return fail("a divisibility fact applies only to pointers and "
                    "integers, not " +
                    std::string(typeName));
      if (!p.isPointer && p.type == ScalarType::I1)
        return fail("a divisibility fact does not apply to i1");
      p.divisibility = d;
    }
  }
  out = p;
  return Status::success();
}

Status ParamType::parse(std::string_view entry, ParamType &out) {
  return detail::guarded([&]() -> Status { return parseEntry(entry, out); });
}

Status Signature::parse(std::string_view text, Signature &out) {
  return detail::guarded([&]() -> Status {
    Signature sig;
    size_t position = 0;
    for (std::string_view entry : splitEntries(text)) {
      ParamType p;
      if (Status s = parseEntry(entry, p); !s.ok())
        return Status::error("signature entry " + std::to_string(position) +
                             " '" + std::string(entry) + "': " + s.message());
      sig.params.push_back(p);
      ++position;
    }
    out = std::move(sig);
    return Status::success();
  });
}

std::vector<std::string_view> Signature::splitEntries(std::string_view text) {
  std::vector<std::string_view> entries;
  if (text.empty())
    return entries;
  // A comma inside a descriptor's block ("tensordesc<fp16[64,64]>") or a
  // tuple value does not end the entry.
  size_t start = 0;
  int depth = 0;
  for (size_t k = 0; k <= text.size(); ++k) {
    char c = k < text.size() ? text[k] : ',';
    if (c == '[' || c == '<' || c == '(')
      ++depth;
    else if ((c == ']' || c == '>' || c == ')') && depth > 0)
      --depth;
    else if (c == ',' && (depth == 0 || k == text.size())) {
      entries.push_back(text.substr(start, k - start));
      start = k + 1;
    }
  }
  return entries;
}

std::string Signature::str() const {
  std::string s;
  for (size_t i = 0; i < params.size(); ++i) {
    if (i)
      s += ",";
    s += params[i].str();
  }
  return s;
}

//===----------------------------------------------------------------------===//
// Metadata lines
//===----------------------------------------------------------------------===//

bool detail::isKernelName(std::string_view name) {
  if (name.empty())
    return false;
  auto isStart = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == '$' || c == '.';
  };
  if (!isStart(name.front()))
    return false;
  for (char c : name)
    if (!isStart(c) && !(c >= '0' && c <= '9'))
      return false;
  return true;
}

/// The `tma=` field: `P:B0xB1...:SW[:nan]` per map, `;`-separated.
Status detail::parseTMAField(std::string_view text, Signature &sig) {
  const std::string_view whole = text; // `text` is consumed below
  auto bad = [&](const std::string &why) {
    return Status::error("bad tma '" + std::string(whole) + "': " + why);
  };
  if (text.empty())
    return bad("expected at least one map");
  while (!text.empty()) {
    size_t end = text.find(';');
    std::string_view entry = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view()
                                         : text.substr(end + 1);
    if (end != std::string_view::npos && text.empty())
      return bad("a trailing ';'");
    // Fields separated by ':'.
    std::vector<std::string_view> parts;
    for (size_t pos = 0;;) {
      size_t colon = entry.find(':', pos);
      parts.push_back(entry.substr(pos, colon == std::string_view::npos
                                            ? std::string_view::npos
                                            : colon - pos));
      if (colon == std::string_view::npos)
        break;
      pos = colon + 1;
    }
    if (parts.size() < 3 || parts.size() > 4 ||
        (parts.size() == 4 && parts[3] != "nan"))
      return bad("expected P:B0xB1...:SWIZZLE[:nan], found '" +
                 std::string(entry) + "'");
    uint64_t p = 0, swizzle = 0;
    if (!parseUnsigned(parts[0], p) || p >= sig.params.size() ||
        !sig.params[p].isTensorDesc)
      return bad("'" + std::string(parts[0]) +
                 "' is not the index of a tensordesc signature entry");
    ParamType &param = sig.params[p];
    if (param.hasTensorMap())
      return bad("entry " + std::to_string(p) + " has two maps");
    if (!parseUnsigned(parts[2], swizzle) ||
        (swizzle != 32 && swizzle != 64 && swizzle != 128))
      return bad("expected a swizzle of 32, 64 or 128 bytes, found '" +
                 std::string(parts[2]) + "'");
    std::vector<int64_t> box;
    std::string_view dims = parts[1];
    while (true) {
      size_t x = dims.find('x');
      uint64_t d = 0;
      if (!parseUnsigned(dims.substr(0, x), d) || d < 1 || d > 256)
        return bad("expected box sizes in [1, 256], found '" +
                   std::string(parts[1]) + "'");
      box.push_back(int64_t(d));
      if (x == std::string_view::npos)
        break;
      dims = dims.substr(x + 1);
    }
    if (box.size() != param.block.size())
      return bad("a box of rank " + std::to_string(box.size()) +
                 " for the block of rank " +
                 std::to_string(param.block.size()) + " of entry " +
                 std::to_string(p));
    for (size_t d = 0; d < box.size(); ++d)
      if (param.block[d] % box[d] != 0)
        return bad("box size " + std::to_string(box[d]) +
                   " does not divide block size " +
                   std::to_string(param.block[d]));
    if (uint64_t(box.back()) * byteSize(param.type) != swizzle)
      return bad("the box's innermost extent is " +
                 std::to_string(uint64_t(box.back()) * byteSize(param.type)) +
                 " bytes, not the swizzle's " + std::to_string(swizzle));
    param.tmaBox = std::move(box);
    param.tmaSwizzle = unsigned(swizzle);
    param.tmaNanFill = parts.size() == 4;
  }
  return Status::success();
}

/// Splits `text` at each `sep` (an empty text: one empty part).
static std::vector<std::string_view> splitAt(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  for (size_t pos = 0;;) {
    size_t next = text.find(sep, pos);
    parts.push_back(text.substr(pos, next == std::string_view::npos
                                         ? std::string_view::npos
                                         : next - pos));
    if (next == std::string_view::npos)
      return parts;
    pos = next + 1;
  }
}

/// A launch map's postfix expression (see parseKernelMetadataLine): each
/// operation finds its operands' widths, the result is one value; `what`
/// names it in errors.
static Status parseLaunchExpr(std::string_view text, const Signature &sig,
                              const std::string &what, LaunchMap::Expr &out) {
  using Token = LaunchMap::Token;
  auto bad = [&](const std::string &why) {
    return Status::error(what + " '" + std::string(text) + "': " + why);
  };
  std::vector<uint8_t> widths; // the stack's
  for (std::string_view t : splitAt(text, '.')) {
    Token tok;
    uint64_t n = 0;
    if (t.size() > 1 && t[0] == 'a' && parseUnsigned(t.substr(1), n)) {
      if (n >= sig.params.size() || sig.params[n].isPointer ||
          sig.params[n].isTensorDesc || !isInteger(sig.params[n].type) ||
          (integerBitWidth(sig.params[n].type) != 32 &&
           integerBitWidth(sig.params[n].type) != 64))
        return bad("'" + std::string(t) +
                   "' is not a 32- or 64-bit integer signature entry");
      tok.kind = Token::Arg;
      tok.value = int64_t(n);
      tok.width = uint8_t(integerBitWidth(sig.params[n].type));
      widths.push_back(tok.width);
    } else if (t.size() > 1 && t[0] == 'c') {
      std::string digits(t.substr(1));
      char *end = nullptr;
      errno = 0;
      long long v = std::strtoll(digits.c_str(), &end, 10);
      if (errno || end != digits.c_str() + digits.size() ||
          !(std::isdigit((unsigned char)digits[0]) || digits[0] == '-'))
        return bad("bad constant '" + std::string(t) + "'");
      tok.kind = Token::Const;
      tok.value = v;
      tok.width = 64;
      widths.push_back(0); // a constant takes its user's width
    } else {
      static constexpr struct {
        const char *name;
        Token::Kind kind;
        uint8_t width;
      } kOps[] = {{"add32", Token::Add, 32}, {"sub32", Token::Sub, 32},
                  {"mul32", Token::Mul, 32}, {"add64", Token::Add, 64},
                  {"sub64", Token::Sub, 64}, {"mul64", Token::Mul, 64},
                  {"max32", Token::Max, 32}, {"max64", Token::Max, 64},
                  {"sext", Token::SExt, 64}, {"zext", Token::ZExt, 64},
                  {"trunc", Token::Trunc, 32}};
      const auto *op = std::find_if(std::begin(kOps), std::end(kOps),
                                    [&](const auto &o) { return t == o.name; });
      if (op == std::end(kOps))
        return bad("unknown token '" + std::string(t) + "'");
      tok.kind = op->kind;
      tok.width = op->width;
      bool unary = op->kind == Token::SExt || op->kind == Token::ZExt ||
                   op->kind == Token::Trunc;
      size_t arity = unary ? 1 : 2;
      if (widths.size() < arity)
        return bad("'" + std::string(t) + "' lacks an operand");
      uint8_t want = unary ? (op->kind == Token::Trunc ? 64 : 32) : op->width;
      for (size_t k = 0; k < arity; ++k) {
        if (widths.back() && widths.back() != want)
          return bad("'" + std::string(t) + "' takes " +
                     std::to_string(want) + "-bit operands");
        widths.pop_back();
      }
      widths.push_back(tok.width);
    }
    out.push_back(tok);
  }
  if (widths.size() != 1)
    return bad("expected one value, found " + std::to_string(widths.size()));
  return Status::success();
}

/// The `launch_maps=` field: `T:B0xB1...:SW:P:S0,...:R0,...[:nan]` per
/// map, `;`-separated (parseKernelMetadataLine).
Status detail::parseLaunchMapsField(std::string_view text,
                                   KernelInfo &info) {
  auto bad = [&](const std::string &why) {
    return Status::error("bad launch_maps '" + std::string(text) + "': " + why);
  };
  for (std::string_view entry : splitAt(text, ';')) {
    std::vector<std::string_view> parts = splitAt(entry, ':');
    if (parts.size() < 6 || parts.size() > 7 ||
        (parts.size() == 7 && parts[6] != "nan"))
      return bad("expected T:B0xB1...:SWIZZLE:P:SIZES:STRIDES[:nan], found '" +
                 std::string(entry) + "'");
    LaunchMap map;
    // The element type and box, parsed as a descriptor entry's would be.
    Signature entrySig;
    std::string as = "tensordesc<" + std::string(parts[0]) + "[" +
                     std::string(parts[1]) + "]>";
    for (char &c : as)
      if (c == 'x')
        c = ',';
    if (Status s = Signature::parse(as, entrySig); !s.ok())
      return bad("expected an element type and a box, found '" +
                 std::string(parts[0]) + ":" + std::string(parts[1]) + "'");
    map.param = entrySig.params[0];
    map.param.tmaBox = map.param.block;
    uint64_t swizzle = 0, base = 0;
    if (!parseUnsigned(parts[2], swizzle) ||
        (swizzle != 32 && swizzle != 64 && swizzle != 128))
      return bad("expected a swizzle of 32, 64 or 128 bytes, found '" +
                 std::string(parts[2]) + "'");
    for (int64_t b : map.param.tmaBox)
      if (b < 1 || b > 256)
        return bad("expected box sizes in [1, 256], found '" +
                   std::string(parts[1]) + "'");
    if (uint64_t(map.param.tmaBox.back()) * byteSize(map.param.type) != swizzle)
      return bad("the box's innermost extent is " +
                 std::to_string(uint64_t(map.param.tmaBox.back()) *
                                byteSize(map.param.type)) +
                 " bytes, not the swizzle's " + std::to_string(swizzle));
    map.param.tmaSwizzle = unsigned(swizzle);
    map.param.tmaNanFill = parts.size() == 7;
    if (map.param.tmaNanFill && !isFloat(map.param.type))
      return bad("NaN fill of " + std::string(parts[0]) + " (floats only)");
    const std::vector<ParamType> &params = info.signature.params;
    if (!parseUnsigned(parts[3], base) || base >= params.size() ||
        !params[base].isPointer || params[base].type != map.param.type)
      return bad("'" + std::string(parts[3]) +
                 "' is not the signature entry of a pointer to " +
                 std::string(parts[0]));
    map.base = unsigned(base);
    size_t rank = map.param.tmaBox.size();
    std::vector<std::string_view> sizes = splitAt(parts[4], ',');
    std::vector<std::string_view> strides =
        rank == 1 ? std::vector<std::string_view>() : splitAt(parts[5], ',');
    if (sizes.size() != rank || strides.size() + 1 != rank ||
        (rank == 1 && !parts[5].empty()))
      return bad("expected " + std::to_string(rank) + " sizes and " +
                 std::to_string(rank - 1) + " strides for the box of rank " +
                 std::to_string(rank));
    for (std::string_view e : sizes) {
      map.shape.emplace_back();
      if (Status s = parseLaunchExpr(e, info.signature, "size", map.shape.back());
          !s.ok())
        return bad(s.message());
    }
    for (std::string_view e : strides) {
      map.strides.emplace_back();
      if (Status s = parseLaunchExpr(e, info.signature, "stride",
                                     map.strides.back());
          !s.ok())
        return bad(s.message());
    }
    info.launchMaps.push_back(std::move(map));
  }
  return Status::success();
}

Status tilec::parseKernelMetadataLine(std::string_view line, KernelInfo &out) {
  return detail::guarded([&]() -> Status {
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    auto fail = [&](const std::string &why) {
      return Status::error("malformed tilec.kernel line: " + why + " in '" +
                           std::string(line) + "'");
    };
    std::string_view rest = line;
    if (rest.substr(0, kMetadataPrefix.size()) != kMetadataPrefix)
      return fail("expected it to start with '// tilec.kernel'");
    rest.remove_prefix(kMetadataPrefix.size());

    // Reads " key=value" where value runs to the next space (or the end).
    auto field = [&](std::string_view key, bool last,
                     std::string_view &value) -> Status {
      std::string expected = " " + std::string(key) + "=";
      if (rest.substr(0, expected.size()) != expected)
        return fail("expected '" + expected.substr(1) + "' at '" +
                    std::string(rest) + "'");
      rest.remove_prefix(expected.size());
      size_t end = last ? rest.size() : rest.find(' ');
      if (end == std::string_view::npos)
        end = rest.size();
      value = rest.substr(0, end);
      rest.remove_prefix(end);
      return Status::success();
    };

    KernelInfo info;
    std::string_view name, warps, shared, sig;
    if (Status s = field("name", false, name); !s.ok())
      return s;
    if (!detail::isKernelName(name))
      return fail("bad kernel name '" + std::string(name) + "'");
    if (Status s = field("num_warps", false, warps); !s.ok())
      return s;
    uint64_t w = 0;
    if (!parseUnsigned(warps, w) || w < 1 || w > 32)
      return fail("bad num_warps '" + std::string(warps) +
                  "': expected an integer in [1, 32]");
    if (Status s = field("shared", false, shared); !s.ok())
      return s;
    uint64_t sh = 0;
    if (!parseUnsigned(shared, sh) || sh > UINT32_MAX)
      return fail("bad shared '" + std::string(shared) +
                  "': expected a byte count");
    uint64_t cluster = 1;
    if (rest.substr(0, 9) == " cluster=") {
      std::string_view text;
      if (Status s = field("cluster", false, text); !s.ok())
        return s;
      if (!parseUnsigned(text, cluster) || cluster != 2)
        return fail("bad cluster '" + std::string(text) +
                    "': expected 2 (CTAs per cluster)");
    }
    std::string_view aligned;
    if (rest.substr(0, 9) == " aligned=") {
      if (Status s = field("aligned", false, aligned); !s.ok())
        return s;
      if (!detail::isKernelName(aligned))
        return fail("bad aligned '" + std::string(aligned) +
                    "': expected a kernel name");
    }
    bool autoMaxNReg = false;
    if (rest.substr(0, 9) == " maxnreg=") {
      std::string_view text;
      if (Status s = field("maxnreg", false, text); !s.ok())
        return s;
      if (text != "auto")
        return fail("bad maxnreg '" + std::string(text) +
                    "': expected 'auto' (a kernel's own limit is its "
                    "PTX's .maxnreg)");
      autoMaxNReg = true;
    }
    std::string_view tma;
    bool hasTma = rest.substr(0, 5) == " tma=";
    if (hasTma)
      if (Status s = field("tma", false, tma); !s.ok())
        return s;
    std::string_view launchMaps;
    bool hasLaunchMaps = rest.substr(0, 13) == " launch_maps=";
    if (hasLaunchMaps)
      if (Status s = field("launch_maps", false, launchMaps); !s.ok())
        return s;
    if (Status s = field("signature", true, sig); !s.ok())
      return s;
    if (sig.find_first_of(" \t") != std::string_view::npos)
      return fail("unexpected whitespace in the signature");

    info.name = std::string(name);
    info.numWarps = unsigned(w);
    info.sharedBytes = uint32_t(sh);
    info.clusterSize = unsigned(cluster);
    info.alignedVariant = std::string(aligned);
    info.autoMaxNReg = autoMaxNReg;
    info.signatureText = std::string(sig);
    if (Status s = Signature::parse(sig, info.signature); !s.ok())
      return Status::error("kernel '" + info.name + "': " + s.message());
    if (hasTma)
      if (Status s = detail::parseTMAField(tma, info.signature); !s.ok())
        return fail(s.message());
    if (hasLaunchMaps)
      if (Status s = detail::parseLaunchMapsField(launchMaps, info); !s.ok())
        return fail(s.message());
    out = std::move(info);
    return Status::success();
  });
}

Status tilec::parseKernelMetadata(std::string_view ptx,
                                  std::vector<KernelInfo> &out) {
  return detail::guarded([&]() -> Status {
    std::vector<KernelInfo> kernels;
    size_t lineNo = 0;
    size_t pos = 0;
    while (pos <= ptx.size()) {
      size_t eol = ptx.find('\n', pos);
      std::string_view line = ptx.substr(
          pos, eol == std::string_view::npos ? std::string_view::npos
                                             : eol - pos);
      ++lineNo;
      // "// tilec.kernel" followed by a space or the end: other comments that
      // merely start with the same letters (e.g. "// tilec.kernels") are not
      // metadata.
      if (line.substr(0, kMetadataPrefix.size()) == kMetadataPrefix &&
          (line.size() == kMetadataPrefix.size() ||
           line[kMetadataPrefix.size()] == ' ' ||
           line[kMetadataPrefix.size()] == '\r')) {
        KernelInfo info;
        if (Status s = parseKernelMetadataLine(line, info); !s.ok())
          return Status::error("line " + std::to_string(lineNo) + ": " +
                               s.message());
        for (const KernelInfo &k : kernels)
          if (k.name == info.name)
            return Status::error("line " + std::to_string(lineNo) +
                                 ": kernel '" + info.name +
                                 "' has a second tilec.kernel line");
        kernels.push_back(std::move(info));
      }
      if (eol == std::string_view::npos)
        break;
      pos = eol + 1;
    }
    out = std::move(kernels);
    return Status::success();
  });
}

//===----------------------------------------------------------------------===//
// Printing metadata lines
//===----------------------------------------------------------------------===//

/// A box or block as the fields spell it: "128x64".
static std::string formatBox(const std::vector<int64_t> &box) {
  std::string s;
  for (size_t d = 0; d < box.size(); ++d)
    s += (d ? "x" : "") + std::to_string(box[d]);
  return s;
}

/// A launch map's postfix expression in token syntax ("a2.a3.mul32").
static std::string formatLaunchExpr(const LaunchMap::Expr &expr) {
  using Token = LaunchMap::Token;
  std::string s;
  for (const Token &t : expr) {
    if (!s.empty())
      s += '.';
    std::string width = t.width == 32 ? "32" : "64";
    switch (t.kind) {
    case Token::Arg: s += "a" + std::to_string(t.value); break;
    case Token::Const: s += "c" + std::to_string(t.value); break;
    case Token::Add: s += "add" + width; break;
    case Token::Sub: s += "sub" + width; break;
    case Token::Mul: s += "mul" + width; break;
    case Token::Max: s += "max" + width; break;
    case Token::SExt: s += "sext"; break;
    case Token::ZExt: s += "zext"; break;
    case Token::Trunc: s += "trunc"; break;
    }
  }
  return s;
}

std::string detail::formatTMAField(const Signature &sig) {
  std::string s;
  for (size_t i = 0; i < sig.params.size(); ++i) {
    const ParamType &p = sig.params[i];
    if (!p.hasTensorMap())
      continue;
    if (!s.empty())
      s += ';';
    s += std::to_string(i) + ":" + formatBox(p.tmaBox) + ":" +
         std::to_string(p.tmaSwizzle) + (p.tmaNanFill ? ":nan" : "");
  }
  return s;
}

std::string detail::formatLaunchMapsField(const KernelInfo &info) {
  std::string s;
  for (const LaunchMap &m : info.launchMaps) {
    if (!s.empty())
      s += ';';
    s += std::string(toString(m.param.type)) + ":" +
         formatBox(m.param.tmaBox) + ":" + std::to_string(m.param.tmaSwizzle) +
         ":" + std::to_string(m.base) + ":";
    for (size_t d = 0; d < m.shape.size(); ++d)
      s += (d ? "," : "") + formatLaunchExpr(m.shape[d]);
    s += ':';
    for (size_t d = 0; d < m.strides.size(); ++d)
      s += (d ? "," : "") + formatLaunchExpr(m.strides[d]);
    if (m.param.tmaNanFill)
      s += ":nan";
  }
  return s;
}

std::string detail::signatureTextOf(const KernelInfo &info) {
  return info.signatureText.empty() ? info.signature.str()
                                    : info.signatureText;
}

std::string tilec::formatKernelMetadataLine(const KernelInfo &info) {
  std::string line(kMetadataPrefix);
  line += " name=" + info.name;
  line += " num_warps=" + std::to_string(info.numWarps);
  line += " shared=" + std::to_string(info.sharedBytes);
  if (info.clusterSize > 1)
    line += " cluster=" + std::to_string(info.clusterSize);
  if (!info.alignedVariant.empty())
    line += " aligned=" + info.alignedVariant;
  if (info.autoMaxNReg)
    line += " maxnreg=auto";
  if (std::string tma = detail::formatTMAField(info.signature); !tma.empty())
    line += " tma=" + tma;
  if (std::string maps = detail::formatLaunchMapsField(info); !maps.empty())
    line += " launch_maps=" + maps;
  line += " signature=" + detail::signatureTextOf(info);
  return line;
}

detail::ImageKind detail::classifyImage(std::string_view image) {
  if (image.size() >= 4 && image.substr(0, 4) == std::string_view("\x7f" "ELF", 4))
    return ImageKind::Cubin;
  // The fat binary's magic 0xBA55ED50, little-endian.
  if (image.size() >= 4 && image.substr(0, 4) == std::string_view("\x50\xed\x55\xba", 4))
    return ImageKind::Fatbin;
  return ImageKind::PTX;
}
