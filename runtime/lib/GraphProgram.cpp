//===- GraphProgram.cpp - Running compiled operator graphs ------*- C++ -*-===//
//
// Runs a `tile.graph` compiled by tilec: the host-side evaluation
// (GraphMetadata.cpp) gives the launches for a binding of arguments; a run
// allocates the intermediate buffers and launches the kernels through
// Kernel::launch (its checks, aligned variants and tensor maps apply); a
// replay runs them as one CUDA Graph, instantiated once per sequence of
// kernels and grids and updated in place (cuGraphExecKernelNodeSetParams on
// each kernel node) when only addresses and scalar values change.
//
//===----------------------------------------------------------------------===//
#include "tilec/GraphProgram.h"

#include "Detail.h"
#include "Guard.h"

#include <cuda.h>

using namespace tilec;

namespace tilec {
/// What GraphProgram copies share.
struct GraphProgramState {
  std::shared_ptr<Context> context;
  Module module;
  GraphInfo info;
  /// The kernels the graph launches (each once), their metadata, and per
  /// op the index of its kernel (launch ops).
  std::vector<Kernel> kernels;
  std::vector<KernelInfo> kernelInfos;
  std::vector<unsigned> kernelOfOp;
  /// Per op: the intermediate buffer of an alloc op and its bytes.
  std::vector<CUdeviceptr> buffers;
  std::vector<uint64_t> capacity;
  /// The CUDA Graph of the last replay: its launches' kernels and grids,
  /// and its kernel nodes in launch order.
  Graph graph;
  std::vector<GraphLaunch> recorded;
  /// The function each recorded launch ran (an aligned variant or not).
  std::vector<CUfunction> functions;
  std::vector<CUgraphNode> nodes;
  unsigned instantiations = 0, updates = 0;

  ~GraphProgramState() {
    if (!context)
      return;
    if (cuCtxPushCurrent(context->handle()) != CUDA_SUCCESS)
      return;
    for (CUdeviceptr p : buffers)
      if (p)
        (void)cuMemFree(p);
    CUcontext popped;
    (void)cuCtxPopCurrent(&popped);
  }
};
} // namespace tilec

#define TILEC_CU(CALL, CTX)                                                    \
  do {                                                                         \
    CUresult tilecResult_ = (CALL);                                            \
    if (tilecResult_ != CUDA_SUCCESS) {                                        \
      std::string call_ = #CALL;                                               \
      return Status::driverError(call_.substr(0, call_.find('(')).c_str(),     \
                                 tilecResult_, (CTX));                         \
    }                                                                          \
  } while (0)

Status GraphProgram::create(std::shared_ptr<Context> context,
                            const Module &module, GraphInfo info,
                            GraphProgram &out) {
  return detail::guarded([&]() -> Status {
    if (!context)
      return Status::error("graph '" + info.name + "': no context");
    if (!module.isLoaded())
      return Status::error("graph '" + info.name +
                           "': the module is not "
                           "loaded");
    auto state = std::make_shared<GraphProgramState>();
    state->context = std::move(context);
    state->module = module;
    state->kernelOfOp.assign(info.ops.size(), 0);
    for (size_t i = 0; i < info.ops.size(); ++i) {
      const GraphInfo::Op &op = info.ops[i];
      if (op.kind != GraphInfo::Op::Launch)
        continue;
      unsigned k = 0;
      while (k < state->kernels.size() && state->kernels[k].name() != op.text)
        ++k;
      if (k == state->kernels.size()) {
        Kernel kernel;
        if (Status s = module.getKernel(op.text, kernel); !s.ok())
          return Status::error("graph '" + info.name + "': step " +
                               std::to_string(i) + ": " + s.message());
        state->kernels.push_back(kernel);
        state->kernelInfos.push_back(kernel.info());
      }
      state->kernelOfOp[i] = k;
    }
    state->buffers.assign(info.ops.size(), 0);
    state->capacity.assign(info.ops.size(), 0);
    state->info = std::move(info);
    out.state = std::move(state);
    return Status::success();
  });
}

Status GraphProgram::loadPTX(std::shared_ptr<Context> context,
                             std::string_view ptx, std::string_view name,
                             GraphProgram &out) {
  return detail::guarded([&]() -> Status {
    std::vector<GraphInfo> graphs;
    if (Status s = parseGraphMetadata(ptx, graphs); !s.ok())
      return s;
    const GraphInfo *chosen = nullptr;
    for (const GraphInfo &g : graphs)
      if (name.empty() || g.name == name) {
        if (chosen)
          return Status::error("the PTX has several graphs: name one");
        chosen = &g;
      }
    if (!chosen)
      return Status::error(
          name.empty() ? std::string("the PTX has no tilec.graph line")
                       : "the PTX has no graph '" + std::string(name) + "'");
    Module module;
    if (Status s = Module::loadPTX(context, ptx, module, chosen->name); !s.ok())
      return s;
    GraphProgram program;
    if (Status s = create(context, module, *chosen, program); !s.ok())
      return s;
    out = std::move(program);
    return Status::success();
  });
}

const GraphInfo &GraphProgram::info() const {
  static const GraphInfo empty;
  return state ? state->info : empty;
}

unsigned GraphProgram::instantiations() const {
  return state ? state->instantiations : 0;
}
unsigned GraphProgram::updates() const { return state ? state->updates : 0; }

Status GraphProgram::plan(const GraphArg *args, size_t numArgs,
                          const CUdeviceptr *intermediates,
                          std::vector<uint64_t> &allocBytes,
                          std::vector<GraphLaunch> &launches) const {
  return detail::guarded([&]() -> Status {
    if (!state)
      return Status::error("plan of an empty GraphProgram");
    return detail::planGraph(state->info, state->kernelInfos, state->kernelOfOp,
                             args, numArgs, intermediates, allocBytes,
                             launches);
  });
}

/// Plans `args` and gives every intermediate buffer room: the launches with
/// their final addresses. A buffer that must grow is reallocated (after the
/// stream's earlier work, which may still use it, is done).
static Status prepare(GraphProgramState &st, const GraphArg *args,
                      size_t numArgs, CUstream stream,
                      std::vector<GraphLaunch> &launches) {
  if (Status s = st.context->makeCurrent(); !s.ok())
    return s;
  std::vector<uint64_t> bytes;
  // The common case, buffers already large enough: one plan with their
  // addresses. Otherwise (or where that plan fails: it may have read a
  // buffer's old size) plan the sizes alone, grow, and plan again.
  if (Status s = detail::planGraph(st.info, st.kernelInfos, st.kernelOfOp,
                                   args, numArgs, st.buffers.data(), bytes,
                                   launches);
      s.ok()) {
    bool fits = true;
    for (size_t i = 0; i < bytes.size() && fits; ++i)
      fits = bytes[i] <= st.capacity[i] && (st.buffers[i] || bytes[i] == 0);
    if (fits)
      return Status::success();
  }
  launches.clear();
  if (Status s = detail::planGraph(st.info, st.kernelInfos, st.kernelOfOp, args,
                                   numArgs, nullptr, bytes, launches);
      !s.ok())
    return s;
  bool synced = false;
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] <= st.capacity[i] && (st.buffers[i] || bytes[i] == 0))
      continue;
    if (!synced) {
      TILEC_CU(cuStreamSynchronize(stream), " for a graph's buffers");
      synced = true;
    }
    if (st.buffers[i])
      TILEC_CU(cuMemFree(st.buffers[i]), " for a graph's buffers");
    st.buffers[i] = 0;
    st.capacity[i] = 0;
    // At least one byte: a null address would read as "no buffer".
    TILEC_CU(cuMemAlloc(&st.buffers[i], bytes[i] ? bytes[i] : 1),
             " for intermediate buffer of step " + std::to_string(i) +
                 " of graph '" + st.info.name + "' (" +
                 std::to_string(bytes[i]) + " bytes)");
    st.capacity[i] = bytes[i];
    // Addresses changed: the CUDA Graph's launches are stale.
    st.recorded.clear();
  }
  return detail::planGraph(st.info, st.kernelInfos, st.kernelOfOp, args,
                           numArgs, st.buffers.data(), bytes, launches);
}

Status GraphProgram::run(const GraphArg *args, size_t numArgs,
                         CUstream stream) {
  return detail::guarded([&]() -> Status {
    if (!state)
      return Status::error("run of an empty GraphProgram");
    std::vector<GraphLaunch> launches;
    if (Status s = prepare(*state, args, numArgs, stream, launches); !s.ok())
      return s;
    for (const GraphLaunch &l : launches)
      if (Status s = state->kernels[l.kernel].launch(l.grid, l.args, stream);
          !s.ok())
        return Status::error("graph '" + state->info.name +
                             "': " + s.message());
    return Status::success();
  });
}

/// Whether `kernel` launches as a plain kernel node (pointers and scalars,
/// no tensor maps, no clusters), so that its node's parameters can be set
/// from the launch's arguments alone.
static bool isPlainNode(const KernelInfo &k) {
  if (k.clusterSize > 1 || !k.launchMaps.empty())
    return false;
  for (const ParamType &p : k.signature.params)
    if (p.isTensorDesc)
      return false;
  return true;
}

/// The kernel nodes of `graph` in launch order (the capture of one stream
/// is a chain).
static Status chainNodes(CUgraph graph, std::vector<CUgraphNode> &out) {
  size_t n = 0;
  TILEC_CU(cuGraphGetNodes(graph, nullptr, &n), " for a graph's nodes");
  std::vector<CUgraphNode> nodes(n);
  TILEC_CU(cuGraphGetNodes(graph, nodes.data(), &n), " for a graph's nodes");
  size_t roots = 0;
  TILEC_CU(cuGraphGetRootNodes(graph, nullptr, &roots), " for a graph's nodes");
  if (roots != 1 && n)
    return Status::error("graph replay: the captured graph is not a chain");
  std::vector<CUgraphNode> chain;
  CUgraphNode node = nullptr;
  if (n)
    TILEC_CU(cuGraphGetRootNodes(graph, &node, &roots), " for a graph's nodes");
  while (node) {
    CUgraphNodeType type;
    TILEC_CU(cuGraphNodeGetType(node, &type), " for a graph's nodes");
    if (type == CU_GRAPH_NODE_TYPE_KERNEL)
      chain.push_back(node);
    size_t next = 0;
    TILEC_CU(cuGraphNodeGetDependentNodes(node, nullptr, nullptr, &next),
             " for a graph's nodes");
    if (next > 1)
      return Status::error("graph replay: the captured graph is not a chain");
    CUgraphNode following = nullptr;
    if (next)
      TILEC_CU(cuGraphNodeGetDependentNodes(node, &following, nullptr, &next),
               " for a graph's nodes");
    node = following;
  }
  out = std::move(chain);
  return Status::success();
}

Status GraphProgram::replay(const GraphArg *args, size_t numArgs,
                            CUstream stream) {
  return detail::guarded([&]() -> Status {
    if (!state)
      return Status::error("replay of an empty GraphProgram");
    GraphProgramState &st = *state;
    std::vector<GraphLaunch> launches;
    if (Status s = prepare(st, args, numArgs, stream, launches); !s.ok())
      return s;
    // The same functions (a kernel's aligned variant is another) on the
    // same grids, each a plain node: set the nodes' parameters in place.
    std::vector<CUfunction> functions;
    for (const GraphLaunch &l : launches)
      functions.push_back(
          st.kernels[l.kernel].functionFor(l.args.data(), l.args.size()));
    bool sameShape = st.graph.isValid() &&
                     launches.size() == st.recorded.size() &&
                     st.nodes.size() == launches.size() &&
                     functions == st.functions;
    for (size_t i = 0; sameShape && i < launches.size(); ++i) {
      const GraphLaunch &a = launches[i], &b = st.recorded[i];
      const Kernel &k = st.kernels[a.kernel];
      sameShape = a.grid.x == b.grid.x && a.grid.y == b.grid.y &&
                  a.grid.z == b.grid.z &&
                  isPlainNode(k.infoFor(a.args.data(), a.args.size()));
    }
    if (sameShape) {
      if (Status s = st.context->makeCurrent(); !s.ok())
        return s;
      for (size_t i = 0; i < launches.size(); ++i) {
        const GraphLaunch &l = launches[i];
        const Kernel &k = st.kernels[l.kernel];
        const KernelInfo &ki = k.infoFor(l.args.data(), l.args.size());
        if (Status s = checkLaunchArgs(ki, l.args); !s.ok())
          return Status::error("graph '" + st.info.name + "': " + s.message());
        std::vector<void *> params(l.args.size());
        for (size_t a = 0; a < l.args.size(); ++a)
          params[a] = const_cast<void *>(l.args[a].data());
        CUDA_KERNEL_NODE_PARAMS p = {};
        p.func = functions[i];
        p.gridDimX = l.grid.x;
        p.gridDimY = l.grid.y;
        p.gridDimZ = l.grid.z;
        p.blockDimX = ki.numWarps * 32;
        p.blockDimY = 1;
        p.blockDimZ = 1;
        p.sharedMemBytes = ki.sharedBytes;
        p.kernelParams = params.empty() ? nullptr : params.data();
        TILEC_CU(cuGraphExecKernelNodeSetParams(st.graph.executable(),
                                                st.nodes[i], &p),
                 " for kernel '" + ki.name + "' of graph '" + st.info.name +
                     "'");
      }
      st.recorded = std::move(launches);
      ++st.updates;
      return st.graph.launch(stream);
    }
    // Otherwise capture the launches and instantiate them.
    Graph graph;
    Status captured = Graph::capture(
        st.context, stream,
        [&](CUstream s) -> Status {
          for (const GraphLaunch &l : launches)
            if (Status r = st.kernels[l.kernel].launch(l.grid, l.args, s);
                !r.ok())
              return Status::error("graph '" + st.info.name +
                                   "': " + r.message());
          return Status::success();
        },
        graph);
    if (!captured.ok())
      return captured;
    std::vector<CUgraphNode> nodes;
    if (Status s = chainNodes(graph.graph(), nodes); !s.ok())
      return s;
    st.graph = graph;
    st.nodes = std::move(nodes);
    st.recorded = std::move(launches);
    st.functions = std::move(functions);
    ++st.instantiations;
    return st.graph.launch(stream);
  });
}
