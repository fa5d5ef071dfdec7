//===- GraphProgram.h - Running compiled operator graphs --------*- C++ -*-===//
//
// A `tile.graph` compiled by tilec: its kernels in the PTX, and a
// `// tilec.graph` line that says how to run them -- the graph's
// parameters, then its steps: integer arithmetic on sizes and scalars,
// intermediate allocations, size checks and kernel launches
// (docs/runtime.md, "Operator graphs"). GraphInfo is that line, parsed;
// GraphProgram binds arguments to it and runs it, directly or replayed as a
// CUDA Graph.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_GRAPHPROGRAM_H
#define TILEC_GRAPHPROGRAM_H

#include "tilec/Runtime.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// The line prefix of graph metadata in PTX text.
inline constexpr std::string_view kGraphMetadataPrefix = "// tilec.graph";

/// What the compiler records about a graph: the `// tilec.graph` line
/// `name=G params=P,... ops=OP;...` (formatGraphMetadataLine's syntax, the
/// one docs/runtime.md describes).
struct GraphInfo {
  static constexpr int64_t kDynamic = -1;

  /// A parameter: a buffer (`*fp16:16[?x64]`: element type, the bytes its
  /// address is a multiple of, sizes outermost first, `?` bound at run
  /// time) or a scalar (`i32`, `i64:16`, `fp32`; an `index` is i64).
  struct Param {
    bool buffer = false;
    ScalarType type = ScalarType::I32;
    /// Bytes (buffer) or the value (integer) is a multiple of; 0: none.
    uint64_t divisibility = 0;
    std::vector<int64_t> shape;
  };

  /// An operand: parameter `index` (`p3`), the value of op `index` (`v7`:
  /// an integer, or an allocated buffer), or the integer `index` itself.
  struct Operand {
    enum Kind : uint8_t { Param, Value, Const };
    Kind kind = Const;
    int64_t index = 0;
  };

  /// One step. Integer ops compute in `width` bits (1, 8, 16, 32 or 64;
  /// `index` is 64) and wrap as the graph's arith ops do; `cast.W` changes
  /// width and fails where the value does not fit (a size that an i32
  /// kernel argument cannot hold is an error, not a wrapped number).
  struct Op {
    enum Kind : uint8_t {
      Dim, // dim(buffer, d): size d of a buffer
      Add,
      Sub,
      Mul,
      DivS,
      DivU,
      RemS,
      RemU,
      CeilDivS,
      CeilDivU,
      MinS,
      MaxS,
      MinU,
      MaxU,
      And,
      Or,
      Xor,
      CmpEq,
      CmpNe,
      CmpSlt,
      CmpSle,
      CmpSgt,
      CmpSge,
      CmpUlt,
      CmpUle,
      CmpUgt,
      CmpUge,
      Select, // select(cond, a, b)
      Cast,   // cast.W(a): sign-extend or checked truncation
      Alloc,  // alloc.T(size, ...): an intermediate buffer
      Check,  // check(cond, "message"): an error where cond is 0
      Launch, // launch(kernel, x, y, z, argument, ...)
    };
    Kind kind = Add;
    uint8_t width = 64;
    /// Alloc: the element type.
    ScalarType elementType = ScalarType::I8;
    /// Check: the message; Launch: the kernel's name.
    std::string text;
    std::vector<Operand> operands;
  };

  std::string name;
  std::vector<Param> params;
  std::vector<Op> ops;
};

/// The `// tilec.graph ...` line of `info` (no newline).
std::string formatGraphMetadataLine(const GraphInfo &info);
/// Parses one line as formatGraphMetadataLine writes it. Errors say what
/// is malformed and where ("graph 'g': op 3 ('add.64(v1)'): expected 2
/// operands, found 1"); operands must name earlier values and parameters
/// of the right kind (a buffer where one is expected).
Status parseGraphMetadataLine(std::string_view line, GraphInfo &out);
/// Every graph line of `ptx`, in order.
Status parseGraphMetadata(std::string_view ptx, std::vector<GraphInfo> &out);

/// An argument of a graph: a buffer (device address and sizes) or a
/// scalar (an Arg of the parameter's type).
struct GraphArg {
  static GraphArg buffer(CUdeviceptr ptr, std::vector<int64_t> shape) {
    GraphArg a;
    a.isBuffer = true;
    a.ptr = ptr;
    a.shape = std::move(shape);
    return a;
  }
  static GraphArg scalar(Arg value) {
    GraphArg a;
    a.value = value;
    return a;
  }
  bool isBuffer = false;
  CUdeviceptr ptr = 0;
  std::vector<int64_t> shape;
  Arg value = Arg::i64(0);
};

/// The launches a binding of arguments gives (GraphProgram::plan): what a
/// run enqueues, evaluated on the host.
struct GraphLaunch {
  /// Index into the program's kernels.
  unsigned kernel = 0;
  Grid grid;
  std::vector<Arg> args;
};

struct GraphProgramState;

/// A loaded graph, ready to run with arguments. Not thread-safe: one
/// program runs on one stream at a time (its intermediate buffers and
/// CUDA graphs are its own); copies share them.
class GraphProgram {
public:
  /// Loads `ptx` (tilec's output for a module with graphs) as
  /// Module::loadPTX does and takes its graph `name` (empty: its only
  /// graph). Errors: no or several graphs where `name` is empty, no graph
  /// of that name, a malformed graph line, a launch of a kernel the module
  /// lacks.
  static Status loadPTX(std::shared_ptr<Context> context, std::string_view ptx,
                        std::string_view name, GraphProgram &out);
  /// The graph `info` over the kernels of `module`, loaded in `context`.
  static Status create(std::shared_ptr<Context> context, const Module &module,
                       GraphInfo info, GraphProgram &out);

  GraphProgram() = default;
  bool isValid() const { return state != nullptr; }
  const GraphInfo &info() const;

  /// Evaluates the graph for `args` without running anything: checks the
  /// arguments (count, buffers against the parameters' ranks, static sizes,
  /// element counts and alignment, scalar kinds, no two buffers
  /// overlapping), runs the integer steps and checks, gives each
  /// intermediate its size in `allocBytes` (per Alloc op, 0 for others)
  /// and lists the launches with their grids and arguments, intermediate
  /// buffers at the addresses `intermediates` gives (one per op; null:
  /// address 0). Errors name the graph, the step and what failed.
  Status plan(const GraphArg *args, size_t numArgs,
              const CUdeviceptr *intermediates,
              std::vector<uint64_t> &allocBytes,
              std::vector<GraphLaunch> &launches) const;

  /// Runs the graph on `stream`: plans it, allocates the intermediate
  /// buffers (kept for later runs, grown where a run needs more) and
  /// launches each kernel (Kernel::launch: its checks, aligned variants
  /// and tensor maps apply).
  Status run(const GraphArg *args, size_t numArgs, CUstream stream);
  Status run(const std::vector<GraphArg> &args, CUstream stream) {
    return run(args.data(), args.size(), stream);
  }

  /// Runs the graph as one CUDA Graph on `stream` (which must not be the
  /// legacy default stream): the first replay of a binding captures the
  /// launches and instantiates them; a later replay whose launches have
  /// the same grids and functions (an aligned variant is another), only
  /// other addresses or scalar values,
  /// updates the instantiation in place (a fresh capture and
  /// cuGraphExecUpdate) instead; any other change instantiates again.
  Status replay(const GraphArg *args, size_t numArgs, CUstream stream);
  Status replay(const std::vector<GraphArg> &args, CUstream stream) {
    return replay(args.data(), args.size(), stream);
  }
  /// How many times replay instantiated a CUDA Graph, and updated one.
  unsigned instantiations() const;
  unsigned updates() const;

private:
  std::shared_ptr<GraphProgramState> state;
};

} // namespace tilec

#endif // TILEC_GRAPHPROGRAM_H
