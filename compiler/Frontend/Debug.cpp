//===- Debug.cpp - tl.device_print, tl.device_assert, print, assert -*- C++ -*-===//
//
// The run-time debugging functions of triton.language, with Triton 3.6's
// argument rules (language/core.py and semantic.py): `tl.device_print` and
// Python's `print` (the same function in a jit function) become tile.print
// with Triton's shaping of the prefix; `tl.device_assert` and a run-time
// `assert cond, msg` become tile.assert, but only under --debug
// (KernelOptions::debug, Triton's `debug=True` / TRITON_DEBUG): otherwise
// they compile to nothing once their arguments are checked. Compile-time
// `assert` conditions are checked in ImportToTile.cpp as before.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/CodeGen.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::frontend;
using py::SourceLoc;

namespace {

/// Python's string.printable: what Triton 3.6 accepts in a prefix.
bool isPythonPrintable(char c) {
  return (c >= 0x20 && c <= 0x7e) || c == '\t' || c == '\n' || c == '\r' ||
         c == '\x0b' || c == '\x0c';
}

/// Triton's semantic.device_print: with values, the prefix ends in ": ";
/// a prefix longer than two characters starts with " ".
std::string shapePrefix(std::string prefix, bool hasArgs) {
  if (hasArgs && !StringRef(prefix).ends_with(" "))
    prefix += " ";
  if (hasArgs && !StringRef(prefix).ends_with(": "))
    prefix = prefix.substr(0, prefix.size() - 1) + ": ";
  if (prefix.size() > 2 && prefix[0] != ' ')
    prefix = " " + prefix;
  return prefix;
}

} // namespace

FailureOr<PyValue> CodeGen::callDevicePrint(CallArgs &args, SourceLoc l,
                                            bool viaPrint) {
  using K = PyValue::Kind;
  const char *fname = viaPrint ? "print (tl.device_print in a @triton.jit "
                                 "function)"
                               : "tl.device_print";
  std::optional<PyValue> prefix;
  std::vector<PyValue> values;
  if (!args.args.empty()) {
    prefix = args.args[0];
    values.assign(args.args.begin() + 1, args.args.end());
  }
  bool hex = false;
  for (auto &[key, v] : args.kwargs) {
    if (key == "prefix" && !prefix) {
      prefix = v;
    } else if (key == "hex") {
      if (v.kind != K::Bool && v.kind != K::Int) {
        error(l) << "expected a compile-time bool for hex= of " << fname
                 << ", found " << v.describe();
        return failure();
      }
      hex = v.kind == K::Bool ? v.b : v.i != 0;
    } else {
      error(l) << "unexpected keyword argument '" << key << "' for " << fname
               << " (expected prefix, values, and hex=)";
      return failure();
    }
  }
  if (!prefix || prefix->kind != K::Str) {
    error(l) << "expected a string prefix as the first argument of " << fname
             << ", found " << (prefix ? prefix->describe() : "nothing")
             << (viaPrint ? "; print('x', x) prints x with the prefix 'x'"
                          : "");
    return failure();
  }
  if (!llvm::all_of(prefix->s, isPythonPrintable)) {
    error(l) << "expected an ASCII prefix for " << fname
             << " (printable characters, as Python's string.printable), "
                "found "
             << prefix->describe();
    return failure();
  }
  SmallVector<Value> operands;
  SmallVector<bool> isSigned;
  for (auto [i, v] : llvm::enumerate(values)) {
    if (!v.isRuntime() && !v.isNumber()) {
      error(l) << "expected a tensor or a scalar for value " << i + 1
               << " of " << fname << ", found " << v.describe();
      return failure();
    }
    TRY(x, toValue(v, l));
    Type elem = tile::getElementTypeOrSelf(x.getType());
    Type dtype = elementTypeOf(v);
    bool isUnsigned = dtype && isUnsignedInt(dtype);
    // vprintf has no fp8: the value as f32, or its bits with hex=True.
    if (isa<Float8E4M3FNType, Float8E5M2Type>(elem)) {
      TRY(y, castTo(x, hex ? Type(b.getI8Type()) : Type(b.getF32Type()), l,
                    /*bitcast=*/hex));
      x = y;
      isUnsigned = true;
    }
    elem = tile::getElementTypeOrSelf(x.getType());
    operands.push_back(x);
    isSigned.push_back(elem.isInteger() && !elem.isInteger(1) && !isUnsigned);
  }
  tile::PrintOp::create(b, loc(l),
                        b.getStringAttr(shapePrefix(prefix->s, !operands.empty())),
                        hex ? b.getUnitAttr() : UnitAttr(),
                        b.getDenseBoolArrayAttr(isSigned), operands);
  return PyValue::none();
}

LogicalResult CodeGen::emitDeviceAssert(const PyValue &cond,
                                        const std::optional<PyValue> &msg,
                                        SourceLoc l, StringRef fname) {
  using K = PyValue::Kind;
  if (!cond.isRuntime() && !cond.isNumber()) {
    error(l) << "expected a tensor or a scalar condition for " << fname
             << ", found " << cond.describe();
    return failure();
  }
  if (Type et = elementTypeOf(cond); et && isa<tile::PtrType>(et)) {
    error(l) << "expected a bool, integer or float condition for " << fname
             << ", found " << cond.describe();
    return failure();
  }
  std::string message;
  if (msg && msg->kind != K::None) {
    if (msg->kind != K::Str) {
      error(l) << "expected a string message for " << fname << ", found "
               << msg->describe();
      return failure();
    }
    message = msg->s;
  }
  // Triton: without debug, device_assert returns before building anything.
  if (!options.debug)
    return success();
  TRY(c, toValue(cond, l));
  Value ok = c;
  // A nonzero value holds (Python's truth, Triton's `.to(tl.int1)`).
  if (!tile::getElementTypeOrSelf(ok.getType()).isInteger(1)) {
    TRY(t, castTo(ok, b.getI1Type(), l));
    ok = t;
  }
  // vprintf and __assertfail read C strings.
  std::replace(message.begin(), message.end(), '\0', '?');
  tile::AssertOp::create(b, loc(l), ok, b.getStringAttr(message),
                         /*file=*/StringAttr(), /*line=*/IntegerAttr(),
                         /*function=*/StringAttr());
  return success();
}

FailureOr<PyValue> CodeGen::callDeviceAssert(CallArgs &args, SourceLoc l) {
  TRY(s, bindArgs(*this, args, {"cond", "msg"}, 1, "device_assert", l));
  if (failed(emitDeviceAssert(*s[0], s[1], l, "tl.device_assert")))
    return failure();
  return PyValue::none();
}
