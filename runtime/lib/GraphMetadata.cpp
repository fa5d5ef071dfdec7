//===- GraphMetadata.cpp - The tilec.graph line and its evaluation -*- C++ -*-//
//
// The one printer and parser of the `// tilec.graph` line, and the host-side
// evaluation of a graph for a binding of arguments (GraphProgram::plan's
// work, without the driver): argument checks, the integer steps with the
// widths and wrapping of the graph's arith ops, size checks, allocation
// sizes and the launches' grids and arguments.
//
//===----------------------------------------------------------------------===//
#include "tilec/GraphProgram.h"

#include "Detail.h"
#include "Guard.h"

#include <algorithm>
#include <cstring>
#include <limits>

using namespace tilec;

namespace {

struct OpName {
  GraphInfo::Op::Kind kind;
  const char *name;
};

constexpr OpName kOpNames[] = {
    {GraphInfo::Op::Dim, "dim"},
    {GraphInfo::Op::Add, "add"},
    {GraphInfo::Op::Sub, "sub"},
    {GraphInfo::Op::Mul, "mul"},
    {GraphInfo::Op::DivS, "divs"},
    {GraphInfo::Op::DivU, "divu"},
    {GraphInfo::Op::RemS, "rems"},
    {GraphInfo::Op::RemU, "remu"},
    {GraphInfo::Op::CeilDivS, "ceildivs"},
    {GraphInfo::Op::CeilDivU, "ceildivu"},
    {GraphInfo::Op::MinS, "mins"},
    {GraphInfo::Op::MaxS, "maxs"},
    {GraphInfo::Op::MinU, "minu"},
    {GraphInfo::Op::MaxU, "maxu"},
    {GraphInfo::Op::And, "and"},
    {GraphInfo::Op::Or, "or"},
    {GraphInfo::Op::Xor, "xor"},
    {GraphInfo::Op::CmpEq, "eq"},
    {GraphInfo::Op::CmpNe, "ne"},
    {GraphInfo::Op::CmpSlt, "slt"},
    {GraphInfo::Op::CmpSle, "sle"},
    {GraphInfo::Op::CmpSgt, "sgt"},
    {GraphInfo::Op::CmpSge, "sge"},
    {GraphInfo::Op::CmpUlt, "ult"},
    {GraphInfo::Op::CmpUle, "ule"},
    {GraphInfo::Op::CmpUgt, "ugt"},
    {GraphInfo::Op::CmpUge, "uge"},
    {GraphInfo::Op::Select, "select"},
    {GraphInfo::Op::Cast, "cast"},
    {GraphInfo::Op::Alloc, "alloc"},
    {GraphInfo::Op::Check, "check"},
    {GraphInfo::Op::Launch, "launch"},
};

const char *opName(GraphInfo::Op::Kind kind) {
  for (const OpName &n : kOpNames)
    if (n.kind == kind)
      return n.name;
  return "?";
}

bool isCompare(GraphInfo::Op::Kind k) {
  return k >= GraphInfo::Op::CmpEq && k <= GraphInfo::Op::CmpUge;
}
bool isBinary(GraphInfo::Op::Kind k) {
  return (k >= GraphInfo::Op::Add && k <= GraphInfo::Op::Xor) || isCompare(k);
}

std::string formatOperand(const GraphInfo::Operand &o) {
  switch (o.kind) {
  case GraphInfo::Operand::Param:
    return "p" + std::to_string(o.index);
  case GraphInfo::Operand::Value:
    return "v" + std::to_string(o.index);
  case GraphInfo::Operand::Const:
    return std::to_string(o.index);
  }
  return "?";
}

std::string quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

/// `v` wrapped to `width` bits, sign-extended back to 64.
int64_t wrapSigned(int64_t v, unsigned width) {
  if (width >= 64)
    return v;
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t u = uint64_t(v) & mask;
  if (width > 1 && (u >> (width - 1)))
    u |= ~mask;
  return int64_t(u);
}

/// `v`'s low `width` bits as an unsigned number.
uint64_t asUnsigned(int64_t v, unsigned width) {
  return width >= 64 ? uint64_t(v) : uint64_t(v) & ((uint64_t(1) << width) - 1);
}

} // namespace

std::string tilec::formatGraphMetadataLine(const GraphInfo &info) {
  std::string line = std::string(kGraphMetadataPrefix) + " name=" + info.name;
  line += " params=";
  for (size_t i = 0; i < info.params.size(); ++i) {
    const GraphInfo::Param &p = info.params[i];
    if (i)
      line += ',';
    if (p.buffer)
      line += '*';
    line += toString(p.type);
    if (p.divisibility)
      line += ':' + std::to_string(p.divisibility);
    if (p.buffer) {
      line += '[';
      for (size_t d = 0; d < p.shape.size(); ++d) {
        if (d)
          line += 'x';
        line += p.shape[d] == GraphInfo::kDynamic ? std::string("?")
                                                  : std::to_string(p.shape[d]);
      }
      line += ']';
    }
  }
  line += " ops=";
  for (size_t i = 0; i < info.ops.size(); ++i) {
    const GraphInfo::Op &op = info.ops[i];
    if (i)
      line += ';';
    line += opName(op.kind);
    if (op.kind == GraphInfo::Op::Alloc)
      line += std::string(".") + toString(op.elementType);
    else if (isBinary(op.kind) || op.kind == GraphInfo::Op::Select ||
             op.kind == GraphInfo::Op::Cast)
      line += "." + std::to_string(op.width);
    line += '(';
    bool first = true;
    if (op.kind == GraphInfo::Op::Launch) {
      line += op.text;
      first = false;
    }
    for (const GraphInfo::Operand &o : op.operands) {
      if (!first)
        line += ',';
      first = false;
      line += formatOperand(o);
    }
    if (op.kind == GraphInfo::Op::Check)
      line += "," + quote(op.text);
    line += ')';
  }
  return line;
}

namespace {

/// Reads the graph line's fields.
class GraphLineParser {
public:
  GraphLineParser(std::string_view line) : line(line), rest(line) {}

  Status parse(GraphInfo &out) {
    if (!rest.empty() && rest.back() == '\r')
      rest.remove_suffix(1);
    if (rest.substr(0, kGraphMetadataPrefix.size()) != kGraphMetadataPrefix)
      return fail("expected it to start with '// tilec.graph'");
    rest.remove_prefix(kGraphMetadataPrefix.size());
    std::string_view name, params;
    if (Status s = field("name", name); !s.ok())
      return s;
    if (!detail::isKernelName(name))
      return fail("bad graph name '" + std::string(name) + "'");
    out.name = std::string(name);
    if (Status s = field("params", params); !s.ok())
      return s;
    if (Status s = parseParams(params, out); !s.ok())
      return s;
    if (rest.substr(0, 5) != " ops=")
      return fail("expected 'ops=' at '" + std::string(rest) + "'");
    rest.remove_prefix(5);
    return parseOps(out);
  }

private:
  Status fail(const std::string &why) const {
    return Status::error("malformed tilec.graph line: " + why + " in '" +
                         std::string(line) + "'");
  }

  Status field(std::string_view key, std::string_view &value) {
    std::string expected = " " + std::string(key) + "=";
    if (rest.substr(0, expected.size()) != expected)
      return fail("expected '" + expected.substr(1) + "' at '" +
                  std::string(rest) + "'");
    rest.remove_prefix(expected.size());
    size_t end = rest.find(' ');
    if (end == std::string_view::npos)
      end = rest.size();
    value = rest.substr(0, end);
    rest.remove_prefix(end);
    return Status::success();
  }

  static bool parseInt(std::string_view text, int64_t &out) {
    if (text.empty() || text.size() > 20)
      return false;
    bool negative = text[0] == '-';
    if (negative)
      text.remove_prefix(1);
    if (text.empty())
      return false;
    uint64_t v = 0;
    for (char c : text) {
      if (c < '0' || c > '9')
        return false;
      if (v > (std::numeric_limits<uint64_t>::max() - (c - '0')) / 10)
        return false;
      v = v * 10 + (c - '0');
    }
    if (negative ? v > uint64_t(std::numeric_limits<int64_t>::max()) + 1
                 : v > uint64_t(std::numeric_limits<int64_t>::max()))
      return false;
    out = negative ? int64_t(0 - v) : int64_t(v);
    return true;
  }

  Status parseParams(std::string_view text, GraphInfo &out) {
    if (text.empty())
      return Status::success();
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find(',', start);
      if (end == std::string_view::npos)
        end = text.size();
      std::string_view entry = text.substr(start, end - start);
      GraphInfo::Param p;
      std::string_view e = entry;
      if (!e.empty() && e[0] == '*') {
        p.buffer = true;
        e.remove_prefix(1);
        size_t open = e.find('[');
        if (open == std::string_view::npos || e.back() != ']')
          return fail("expected a buffer parameter '*T[sizes]', found '" +
                      std::string(entry) + "'");
        std::string_view dims = e.substr(open + 1, e.size() - open - 2);
        e = e.substr(0, open);
        size_t ds = 0;
        while (!dims.empty() && ds <= dims.size()) {
          size_t de = dims.find('x', ds);
          if (de == std::string_view::npos)
            de = dims.size();
          std::string_view d = dims.substr(ds, de - ds);
          int64_t size = 0;
          if (d == "?")
            size = GraphInfo::kDynamic;
          else if (!parseInt(d, size) || size < 0)
            return fail("bad size '" + std::string(d) + "' of '" +
                        std::string(entry) + "'");
          p.shape.push_back(size);
          ds = de + 1;
        }
      }
      size_t colon = e.find(':');
      std::string_view type = e.substr(0, colon);
      if (!parseScalarType(type, p.type))
        return fail("unknown type '" + std::string(type) + "' in '" +
                    std::string(entry) + "'");
      if (colon != std::string_view::npos) {
        int64_t d = 0;
        if (!parseInt(e.substr(colon + 1), d) || d < 1 || (d & (d - 1)))
          return fail("bad divisibility in '" + std::string(entry) + "'");
        p.divisibility = uint64_t(d);
      }
      out.params.push_back(std::move(p));
      start = end + 1;
    }
    return Status::success();
  }

  /// The ops: `name[.suffix](operands)` separated by ';'; a check's
  /// message is a quoted string with backslash escapes.
  Status parseOps(GraphInfo &out) {
    std::string_view text = rest;
    size_t pos = 0;
    while (pos < text.size()) {
      size_t open = text.find('(', pos);
      if (open == std::string_view::npos)
        return fail("expected '(' after op " + std::to_string(out.ops.size()));
      std::string_view head = text.substr(pos, open - pos);
      // The operands up to the matching ')' (outside quotes).
      std::vector<std::string> args;
      std::string current;
      bool quoted = false, escaped = false, closed = false;
      size_t i = open + 1;
      for (; i < text.size(); ++i) {
        char c = text[i];
        if (quoted) {
          if (escaped) {
            current += c;
            escaped = false;
          } else if (c == '\\') {
            escaped = true;
          } else if (c == '"') {
            quoted = false;
          } else {
            current += c;
          }
          continue;
        }
        if (c == '"') {
          quoted = true;
          current = "\"" + current; // marks a string operand
        } else if (c == ',') {
          args.push_back(current);
          current.clear();
        } else if (c == ')') {
          args.push_back(current);
          closed = true;
          ++i;
          break;
        } else {
          current += c;
        }
      }
      if (!closed)
        return fail("unterminated op '" + std::string(text.substr(pos)) + "'");
      if (args.size() == 1 && args[0].empty())
        args.clear();
      GraphInfo::Op op;
      if (Status s = parseOp(head, args, out, op); !s.ok())
        return fail("op " + std::to_string(out.ops.size()) + " ('" +
                    std::string(text.substr(pos, i - pos)) +
                    "'): " + s.message());
      out.ops.push_back(std::move(op));
      pos = i;
      if (pos < text.size()) {
        if (text[pos] != ';')
          return fail("expected ';' after op " +
                      std::to_string(out.ops.size() - 1));
        ++pos;
      }
    }
    return Status::success();
  }

  Status parseOperand(const std::string &text, const GraphInfo &info,
                      size_t numOps, GraphInfo::Operand &out) {
    int64_t v = 0;
    if (!text.empty() && (text[0] == 'p' || text[0] == 'v')) {
      if (!parseInt(std::string_view(text).substr(1), v) || v < 0)
        return Status::error("bad operand '" + text + "'");
      out.kind = text[0] == 'p' ? GraphInfo::Operand::Param
                                : GraphInfo::Operand::Value;
      out.index = v;
      size_t limit = text[0] == 'p' ? info.params.size() : numOps;
      if (size_t(v) >= limit)
        return Status::error("operand '" + text + "' names no " +
                             (text[0] == 'p' ? "parameter" : "earlier op"));
      return Status::success();
    }
    if (!parseInt(text, v))
      return Status::error("bad operand '" + text + "'");
    out.kind = GraphInfo::Operand::Const;
    out.index = v;
    return Status::success();
  }

  Status parseOp(std::string_view head, std::vector<std::string> &args,
                 const GraphInfo &info, GraphInfo::Op &op) {
    size_t dot = head.find('.');
    std::string_view name = head.substr(0, dot);
    std::string_view suffix = dot == std::string_view::npos
                                  ? std::string_view()
                                  : head.substr(dot + 1);
    bool known = false;
    for (const OpName &n : kOpNames)
      if (name == n.name) {
        op.kind = n.kind;
        known = true;
      }
    if (!known)
      return Status::error("unknown op '" + std::string(name) + "'");
    using K = GraphInfo::Op;
    bool widthed =
        isBinary(op.kind) || op.kind == K::Select || op.kind == K::Cast;
    if (widthed) {
      int64_t w = 0;
      if (!parseInt(suffix, w) ||
          (w != 1 && w != 8 && w != 16 && w != 32 && w != 64))
        return Status::error("expected a width of 1, 8, 16, 32 or 64 bits");
      op.width = uint8_t(w);
    } else if (op.kind == K::Alloc) {
      if (!parseScalarType(suffix, op.elementType))
        return Status::error("expected an element type");
    } else if (!suffix.empty()) {
      return Status::error("unexpected suffix '." + std::string(suffix) + "'");
    }
    if (op.kind == K::Launch) {
      if (args.empty() || !detail::isKernelName(args[0]))
        return Status::error("expected a kernel name");
      op.text = args[0];
      args.erase(args.begin());
    }
    if (op.kind == K::Check) {
      if (args.size() != 2 || args[1].empty() || args[1][0] != '"')
        return Status::error("expected a condition and a quoted message");
      op.text = args[1].substr(1);
      args.pop_back();
    }
    for (const std::string &a : args) {
      GraphInfo::Operand o;
      if (Status s = parseOperand(a, info, info.ops.size(), o); !s.ok())
        return s;
      op.operands.push_back(o);
    }
    size_t n = op.operands.size();
    size_t expected = op.kind == K::Dim || isBinary(op.kind)      ? 2
                      : op.kind == K::Select                      ? 3
                      : op.kind == K::Cast || op.kind == K::Check ? 1
                                                                  : n;
    if (n != expected)
      return Status::error("expected " + std::to_string(expected) +
                           " operands, found " + std::to_string(n));
    if (op.kind == K::Launch && n < 3)
      return Status::error("expected a grid of 3 sizes");
    // Buffers only where buffers go: dim's first operand, launch arguments.
    auto isBuffer = [&](const GraphInfo::Operand &o) {
      if (o.kind == GraphInfo::Operand::Param)
        return info.params[o.index].buffer;
      if (o.kind == GraphInfo::Operand::Value)
        return info.ops[o.index].kind == K::Alloc;
      return false;
    };
    auto isValue = [&](const GraphInfo::Operand &o) {
      if (o.kind == GraphInfo::Operand::Value)
        return info.ops[o.index].kind != K::Alloc &&
               info.ops[o.index].kind != K::Check &&
               info.ops[o.index].kind != K::Launch;
      if (o.kind == GraphInfo::Operand::Param)
        return !info.params[o.index].buffer &&
               isInteger(info.params[o.index].type);
      return true;
    };
    for (size_t i = 0; i < n; ++i) {
      const GraphInfo::Operand &o = op.operands[i];
      bool wantBuffer = op.kind == K::Dim && i == 0;
      bool anything = op.kind == K::Launch && i >= 3;
      if (anything) {
        if (o.kind == GraphInfo::Operand::Value && !isBuffer(o) && !isValue(o))
          return Status::error("argument " + std::to_string(i - 3) +
                               " names an op without a value");
        continue;
      }
      if (wantBuffer ? !isBuffer(o) : !isValue(o))
        return Status::error("operand " + std::to_string(i) + " must be " +
                             (wantBuffer ? "a buffer" : "an integer"));
    }
    if (op.kind == K::Dim && op.operands[1].kind != GraphInfo::Operand::Const)
      return Status::error("expected a constant dimension");
    return Status::success();
  }

  std::string_view line, rest;
};

} // namespace

Status tilec::parseGraphMetadataLine(std::string_view line, GraphInfo &out) {
  return detail::guarded([&]() -> Status {
    GraphInfo info;
    if (Status s = GraphLineParser(line).parse(info); !s.ok())
      return s;
    out = std::move(info);
    return Status::success();
  });
}

Status tilec::parseGraphMetadata(std::string_view ptx,
                                 std::vector<GraphInfo> &out) {
  return detail::guarded([&]() -> Status {
    std::vector<GraphInfo> graphs;
    size_t pos = 0;
    while (pos < ptx.size()) {
      size_t end = ptx.find('\n', pos);
      if (end == std::string_view::npos)
        end = ptx.size();
      std::string_view line = ptx.substr(pos, end - pos);
      std::string prefix = std::string(kGraphMetadataPrefix) + " ";
      if (line.substr(0, prefix.size()) == prefix) {
        graphs.emplace_back();
        if (Status s = parseGraphMetadataLine(line, graphs.back()); !s.ok())
          return s;
      }
      pos = end + 1;
    }
    out = std::move(graphs);
    return Status::success();
  });
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

namespace tilec::detail {

/// The integer value of a scalar argument of type `type` (its bits as the
/// kernel would read them).
static int64_t scalarValue(const Arg &a, ScalarType type) {
  unsigned bits = byteSize(type) * 8;
  if (type == ScalarType::I1)
    bits = 1;
  return isSigned(type) ? wrapSigned(int64_t(a.bits()), bits)
                        : int64_t(asUnsigned(int64_t(a.bits()), bits));
}

/// The ArgKind of a scalar of `type`.
static bool argKindOf(ScalarType type, ArgKind &out) {
  switch (type) {
  case ScalarType::I1:
    out = ArgKind::I1;
    return true;
  case ScalarType::I8:
    out = ArgKind::I8;
    return true;
  case ScalarType::I16:
    out = ArgKind::I16;
    return true;
  case ScalarType::I32:
    out = ArgKind::I32;
    return true;
  case ScalarType::I64:
    out = ArgKind::I64;
    return true;
  case ScalarType::U8:
    out = ArgKind::U8;
    return true;
  case ScalarType::U16:
    out = ArgKind::U16;
    return true;
  case ScalarType::U32:
    out = ArgKind::U32;
    return true;
  case ScalarType::U64:
    out = ArgKind::U64;
    return true;
  case ScalarType::FP16:
    out = ArgKind::F16;
    return true;
  case ScalarType::BF16:
    out = ArgKind::BF16;
    return true;
  case ScalarType::FP32:
    out = ArgKind::F32;
    return true;
  case ScalarType::FP64:
    out = ArgKind::F64;
    return true;
  default:
    return false;
  }
}

/// The ScalarType of a scalar ArgKind (false for pointers, descriptors).
static bool scalarTypeOf(ArgKind kind, ScalarType &out) {
  for (ScalarType t :
       {ScalarType::I1, ScalarType::I8, ScalarType::I16, ScalarType::I32,
        ScalarType::I64, ScalarType::U8, ScalarType::U16, ScalarType::U32,
        ScalarType::U64, ScalarType::FP16, ScalarType::BF16, ScalarType::FP32,
        ScalarType::FP64}) {
    ArgKind k;
    if (argKindOf(t, k) && k == kind) {
      out = t;
      return true;
    }
  }
  return false;
}

/// An Arg of `type` with the value `v` (integers) or bits `v` (floats).
static Arg makeArg(ScalarType type, int64_t v) {
  switch (type) {
  case ScalarType::I1:
    return Arg::i1(v != 0);
  case ScalarType::I8:
    return Arg::i8(int8_t(v));
  case ScalarType::I16:
    return Arg::i16(int16_t(v));
  case ScalarType::I32:
    return Arg::i32(int32_t(v));
  case ScalarType::I64:
    return Arg::i64(v);
  case ScalarType::U8:
    return Arg::u8(uint8_t(v));
  case ScalarType::U16:
    return Arg::u16(uint16_t(v));
  case ScalarType::U32:
    return Arg::u32(uint32_t(v));
  case ScalarType::U64:
    return Arg::u64(uint64_t(v));
  case ScalarType::FP16:
    return Arg::f16bits(uint16_t(v));
  case ScalarType::BF16:
    return Arg::bf16bits(uint16_t(v));
  case ScalarType::FP32: {
    float f;
    uint32_t b = uint32_t(v);
    std::memcpy(&f, &b, 4);
    return Arg::f32(f);
  }
  case ScalarType::FP64: {
    double d;
    uint64_t b = uint64_t(v);
    std::memcpy(&d, &b, 8);
    return Arg::f64(d);
  }
  default:
    return Arg::i64(v);
  }
}

Status planGraph(const GraphInfo &info, const std::vector<KernelInfo> &kernels,
                 const std::vector<unsigned> &kernelOfOp, const GraphArg *args,
                 size_t numArgs, const CUdeviceptr *intermediates,
                 std::vector<uint64_t> &allocBytes,
                 std::vector<GraphLaunch> &launches) {
  std::string what = "graph '" + info.name + "'";
  if (numArgs != info.params.size())
    return Status::error(what + ": expected " +
                         std::to_string(info.params.size()) +
                         " arguments, found " + std::to_string(numArgs));
  // The arguments against the parameters.
  for (size_t i = 0; i < numArgs; ++i) {
    const GraphInfo::Param &p = info.params[i];
    const GraphArg &a = args[i];
    std::string arg = what + ": argument " + std::to_string(i);
    if (p.buffer != a.isBuffer)
      return Status::error(arg + ": expected a " +
                           (p.buffer ? "buffer" : "scalar") + ", found a " +
                           (a.isBuffer ? "buffer" : "scalar"));
    if (!p.buffer) {
      // Integers by width (signedness is the graph's to say), floats by
      // exact format.
      ArgKind kind;
      ScalarType given;
      bool matches =
          argKindOf(p.type, kind) &&
          (a.value.kind() == kind ||
           (isInteger(p.type) && scalarTypeOf(a.value.kind(), given) &&
            isInteger(given) &&
            integerBitWidth(given) == integerBitWidth(p.type)));
      if (!matches)
        return Status::error(arg + ": expected " + toString(p.type) +
                             ", found " + toString(a.value.kind()));
      if (p.divisibility && isInteger(p.type) &&
          scalarValue(a.value, p.type) % int64_t(p.divisibility) != 0)
        return Status::error(arg + ": expected a multiple of " +
                             std::to_string(p.divisibility) + ", found " +
                             std::to_string(scalarValue(a.value, p.type)));
      continue;
    }
    if (a.shape.size() != p.shape.size())
      return Status::error(arg + ": expected a buffer of rank " +
                           std::to_string(p.shape.size()) + ", found rank " +
                           std::to_string(a.shape.size()));
    uint64_t elements = 1;
    for (size_t d = 0; d < p.shape.size(); ++d) {
      int64_t s = a.shape[d];
      if (s < 0)
        return Status::error(arg + ": size " + std::to_string(s) +
                             " of dimension " + std::to_string(d) +
                             " is negative");
      if (p.shape[d] != GraphInfo::kDynamic && p.shape[d] != s)
        return Status::error(arg + ": expected size " +
                             std::to_string(p.shape[d]) + " in dimension " +
                             std::to_string(d) + ", found " +
                             std::to_string(s));
      if (s && elements > (uint64_t(1) << 62) / uint64_t(s))
        return Status::error(arg + ": the buffer's size overflows");
      elements *= uint64_t(s);
    }
    if (elements && !a.ptr)
      return Status::error(arg + ": a null address for " +
                           std::to_string(elements) + " elements");
    if (p.divisibility && a.ptr % p.divisibility)
      return Status::error(arg +
                           ": expected an address that is a multiple "
                           "of " +
                           std::to_string(p.divisibility) + " bytes");
  }
  // No two buffers overlap.
  for (size_t i = 0; i < numArgs; ++i)
    for (size_t j = 0; j < i; ++j) {
      if (!args[i].isBuffer || !args[j].isBuffer)
        continue;
      auto bytes = [&](size_t k) {
        uint64_t n = byteSize(info.params[k].type);
        for (int64_t s : args[k].shape)
          n *= uint64_t(s);
        return n;
      };
      uint64_t a0 = args[i].ptr, a1 = a0 + bytes(i);
      uint64_t b0 = args[j].ptr, b1 = b0 + bytes(j);
      if (a0 < a1 && b0 < b1 && a0 < b1 && b0 < a1)
        return Status::error(what + ": arguments " + std::to_string(j) +
                             " and " + std::to_string(i) +
                             " overlap (graph buffers must not)");
    }

  size_t numOps = info.ops.size();
  std::vector<int64_t> values(numOps, 0);
  allocBytes.assign(numOps, 0);
  launches.clear();
  std::vector<std::vector<int64_t>> allocShapes(numOps);
  auto valueOf = [&](const GraphInfo::Operand &o) -> int64_t {
    switch (o.kind) {
    case GraphInfo::Operand::Const:
      return o.index;
    case GraphInfo::Operand::Param:
      return scalarValue(args[o.index].value, info.params[o.index].type);
    case GraphInfo::Operand::Value:
      return values[o.index];
    }
    return 0;
  };
  using K = GraphInfo::Op;
  for (size_t i = 0; i < numOps; ++i) {
    const GraphInfo::Op &op = info.ops[i];
    std::string step =
        what + ": step " + std::to_string(i) + " (" + opName(op.kind) + ")";
    unsigned w = op.width;
    auto s = [&](size_t k) { return wrapSigned(valueOf(op.operands[k]), w); };
    auto u = [&](size_t k) { return asUnsigned(valueOf(op.operands[k]), w); };
    int64_t r = 0;
    switch (op.kind) {
    case K::Dim: {
      const GraphInfo::Operand &b = op.operands[0];
      int64_t d = op.operands[1].index;
      const std::vector<int64_t> &shape = b.kind == GraphInfo::Operand::Param
                                              ? args[b.index].shape
                                              : allocShapes[b.index];
      if (d < 0 || size_t(d) >= shape.size())
        return Status::error(step + ": no dimension " + std::to_string(d));
      r = shape[d];
      break;
    }
    case K::Add:
      r = int64_t(uint64_t(s(0)) + uint64_t(s(1)));
      break;
    case K::Sub:
      r = int64_t(uint64_t(s(0)) - uint64_t(s(1)));
      break;
    case K::Mul:
      r = int64_t(uint64_t(s(0)) * uint64_t(s(1)));
      break;
    case K::DivS:
    case K::RemS:
    case K::CeilDivS: {
      int64_t a = s(0), b = s(1);
      if (b == 0)
        return Status::error(step + ": division by zero");
      if (b == -1 && a == std::numeric_limits<int64_t>::min())
        return Status::error(step + ": division overflows");
      if (op.kind == K::DivS)
        r = a / b;
      else if (op.kind == K::RemS)
        r = a % b;
      else
        r = a / b + ((a % b != 0) && ((a < 0) == (b < 0)) ? 1 : 0);
      break;
    }
    case K::DivU:
    case K::RemU:
    case K::CeilDivU: {
      uint64_t a = u(0), b = u(1);
      if (b == 0)
        return Status::error(step + ": division by zero");
      r = int64_t(op.kind == K::DivU   ? a / b
                  : op.kind == K::RemU ? a % b
                                       : a / b + (a % b != 0));
      break;
    }
    case K::MinS:
      r = std::min(s(0), s(1));
      break;
    case K::MaxS:
      r = std::max(s(0), s(1));
      break;
    case K::MinU:
      r = int64_t(std::min(u(0), u(1)));
      break;
    case K::MaxU:
      r = int64_t(std::max(u(0), u(1)));
      break;
    case K::And:
      r = s(0) & s(1);
      break;
    case K::Or:
      r = s(0) | s(1);
      break;
    case K::Xor:
      r = s(0) ^ s(1);
      break;
    case K::CmpEq:
      r = s(0) == s(1);
      break;
    case K::CmpNe:
      r = s(0) != s(1);
      break;
    case K::CmpSlt:
      r = s(0) < s(1);
      break;
    case K::CmpSle:
      r = s(0) <= s(1);
      break;
    case K::CmpSgt:
      r = s(0) > s(1);
      break;
    case K::CmpSge:
      r = s(0) >= s(1);
      break;
    case K::CmpUlt:
      r = u(0) < u(1);
      break;
    case K::CmpUle:
      r = u(0) <= u(1);
      break;
    case K::CmpUgt:
      r = u(0) > u(1);
      break;
    case K::CmpUge:
      r = u(0) >= u(1);
      break;
    case K::Select:
      r = valueOf(op.operands[0]) & 1 ? s(1) : s(2);
      break;
    case K::Cast: {
      int64_t v = valueOf(op.operands[0]);
      if (wrapSigned(v, w) != v)
        return Status::error(step + ": " + std::to_string(v) +
                             " does not fit in " + std::to_string(w) + " bits");
      r = v;
      break;
    }
    case K::Alloc: {
      uint64_t n = byteSize(op.elementType);
      for (size_t k = 0; k < op.operands.size(); ++k) {
        int64_t size = valueOf(op.operands[k]);
        if (size < 0)
          return Status::error(step + ": size " + std::to_string(size) +
                               " of dimension " + std::to_string(k) +
                               " is negative");
        if (size && n > (uint64_t(1) << 62) / uint64_t(size))
          return Status::error(step + ": the buffer's size overflows");
        n *= uint64_t(size);
        allocShapes[i].push_back(size);
      }
      allocBytes[i] = n;
      break;
    }
    case K::Check:
      if (!(valueOf(op.operands[0]) & 1))
        return Status::error(what + ": " + op.text);
      break;
    case K::Launch: {
      const KernelInfo &k = kernels[kernelOfOp[i]];
      GraphLaunch launch;
      launch.kernel = kernelOfOp[i];
      int64_t dims[3];
      bool empty = false;
      for (int d = 0; d < 3; ++d) {
        dims[d] = valueOf(op.operands[d]);
        // An empty grid launches nothing (as Triton's launcher does); a
        // map over zero elements is one.
        if (dims[d] == 0) {
          empty = true;
          continue;
        }
        if (dims[d] < 0 ||
            dims[d] > int64_t(std::numeric_limits<unsigned>::max()))
          return Status::error(step + ": kernel '" + k.name + "': grid size " +
                               std::to_string(dims[d]) + " of dimension " +
                               "xyz"[d] + " is out of range");
      }
      if (empty)
        break;
      launch.grid = {unsigned(dims[0]), unsigned(dims[1]), unsigned(dims[2])};
      size_t numKernelArgs = op.operands.size() - 3;
      if (numKernelArgs != k.signature.params.size())
        return Status::error(step + ": kernel '" + k.name + "' takes " +
                             std::to_string(k.signature.params.size()) +
                             " arguments, the graph passes " +
                             std::to_string(numKernelArgs));
      for (size_t a = 0; a < numKernelArgs; ++a) {
        const GraphInfo::Operand &o = op.operands[3 + a];
        const ParamType &pt = k.signature.params[a];
        bool buffer = (o.kind == GraphInfo::Operand::Param &&
                       info.params[o.index].buffer) ||
                      (o.kind == GraphInfo::Operand::Value &&
                       info.ops[o.index].kind == K::Alloc);
        if (pt.isTensorDesc || pt.isPointer != buffer)
          return Status::error(step + ": argument " + std::to_string(a) +
                               " of kernel '" + k.name + "': expected " +
                               pt.str() + ", the graph passes a " +
                               (buffer ? "buffer" : "scalar"));
        if (buffer) {
          CUdeviceptr p = o.kind == GraphInfo::Operand::Param
                              ? args[o.index].ptr
                              : (intermediates ? intermediates[o.index] : 0);
          launch.args.push_back(Arg::ptr(p));
        } else if (o.kind == GraphInfo::Operand::Param &&
                   isFloat(info.params[o.index].type)) {
          launch.args.push_back(args[o.index].value);
        } else {
          launch.args.push_back(makeArg(pt.type, valueOf(o)));
        }
      }
      launches.push_back(std::move(launch));
      break;
    }
    }
    // Comparisons give 0 or 1; the rest wrap to their width.
    if (op.kind != K::Alloc && op.kind != K::Check && op.kind != K::Launch)
      values[i] =
          isCompare(op.kind) || op.kind == K::Dim ? r : wrapSigned(r, w);
  }
  return Status::success();
}

} // namespace tilec::detail
