//===- graph_bench.cpp - Fused and unfused operator graphs ---------------===//
//
// GPU time and host cost of the test graphs (test/GPU/kernels/graph_*.mlir,
// compiled fused and with --fuse-kernels=false), through GraphProgram. From
// a gpu-bundle folder:
//
//   bin/tilec-graph-bench kernels [--json FILE] [--only A|B|...]
//
// For each graph and size: the GPU time of one run (CUDA events around 50
// runs, the median of 5 such rounds, fused and unfused interleaved) as
// direct launches (GraphProgram::run) and as a replayed CUDA Graph
// (GraphProgram::replay), and the bytes a run must move at least (inputs
// read once, output written once) over that time. Then the host cost: the
// microseconds the host spends per call of run and of replay on a tiny
// binding (median of batches of 256 calls), divided by the kernels each
// runs (per node). bench/bench_graph.py runs this and torch's eager and
// compiled versions of the same chains in one process tree and prints the
// ratios. --only A|B|... times just the graphs whose name contains one of
// the '|'-separated words (the host-cost part too: graph_maps and
// graph_epilogue each where named). Exits 77 without a GPU, 1 on an error,
// 2 on bad arguments.
//
//===----------------------------------------------------------------------===//

#include "tilec/GraphProgram.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

using namespace tilec;

namespace {

[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "tilec-graph-bench: %s\n", what.c_str());
  std::exit(1);
}

void check(const Status &s, const std::string &what) {
  if (!s.ok())
    fail(what + ": " + s.message());
}

void checkCu(CUresult r, const char *what) {
  if (r != CUDA_SUCCESS) {
    const char *name = nullptr;
    cuGetErrorName(r, &name);
    fail(std::string(what) + " failed: " + (name ? name : "?"));
  }
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    fail("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A device buffer of `bytes`, filled with a pattern of small values.
struct Buffer {
  CUdeviceptr ptr = 0;
  explicit Buffer(size_t bytes) {
    checkCu(cuMemAlloc(&ptr, bytes ? bytes : 1), "cuMemAlloc");
    // 0x3C00 (f16 1.0) pairs; as f32 about 0.0078: finite either way.
    checkCu(cuMemsetD16(ptr, 0x3C00, (bytes + 1) / 2), "cuMemsetD16");
  }
  ~Buffer() { (void)cuMemFree(ptr); }
};

struct Case {
  std::string graph, shape;
  double minBytes;
  /// The arguments for rows `rows` (buffers allocated by the caller).
  std::function<std::vector<GraphArg>(int64_t)> args;
  int64_t rows;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Median over 5 rounds of the GPU microseconds per call of `call`.
double gpuTime(CUstream stream, const std::function<Status()> &call) {
  CUevent start, end;
  checkCu(cuEventCreate(&start, 0), "cuEventCreate");
  checkCu(cuEventCreate(&end, 0), "cuEventCreate");
  for (int i = 0; i < 5; ++i)
    check(call(), "warm-up");
  std::vector<double> rounds;
  for (int r = 0; r < 5; ++r) {
    checkCu(cuEventRecord(start, stream), "cuEventRecord");
    for (int i = 0; i < 50; ++i)
      check(call(), "run");
    checkCu(cuEventRecord(end, stream), "cuEventRecord");
    checkCu(cuEventSynchronize(end), "cuEventSynchronize");
    float ms = 0;
    checkCu(cuEventElapsedTime(&ms, start, end), "cuEventElapsedTime");
    rounds.push_back(ms * 1000.0 / 50);
  }
  (void)cuEventDestroy(start);
  (void)cuEventDestroy(end);
  return median(rounds);
}

/// Median over batches of the host microseconds per call of `call`.
double hostTime(CUstream stream, const std::function<Status()> &call) {
  std::vector<double> batches;
  for (int b = 0; b < 12; ++b) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 256; ++i)
      check(call(), "host-timed call");
    auto t1 = std::chrono::steady_clock::now();
    checkCu(cuStreamSynchronize(stream), "cuStreamSynchronize");
    if (b >= 2)
      batches.push_back(
          std::chrono::duration<double, std::micro>(t1 - t0).count() / 256);
  }
  return median(batches);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s KERNEL_DIR [--json FILE] [--only A|B|...]\n",
                 argv[0]);
    return 2;
  }
  std::string dir = argv[1], jsonPath;
  std::vector<std::string> only; // words; none: every graph
  for (int i = 2; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--json")
      jsonPath = argv[i + 1];
    if (std::string(argv[i]) == "--only") {
      std::stringstream words(argv[i + 1]);
      for (std::string w; std::getline(words, w, '|');)
        if (!w.empty())
          only.push_back(w);
    }
  }
  auto wanted = [&](const std::string &graph) {
    return only.empty() ||
           std::any_of(only.begin(), only.end(), [&](const std::string &w) {
             return graph.find(w) != std::string::npos;
           });
  };
  std::shared_ptr<Context> ctx;
  if (Status s = Context::create(0, ctx); !s.ok()) {
    std::fprintf(stderr, "tilec-graph-bench: skipped: %s\n",
                 s.message().c_str());
    return 77;
  }
  CUstream stream;
  checkCu(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");

  // The largest sizes, allocated once; smaller bindings use their prefixes.
  const int64_t mapsRows = 16384, epiRows = 65536;
  Buffer mx(mapsRows * 256 * 4), mr(mapsRows * 256 * 4), mg(256 * 4),
      ms(mapsRows * 4), my(mapsRows * 256 * 4);
  Buffer ex(epiRows * 64 * 2), eb(64 * 2), ey(epiRows * 64 * 4);
  std::vector<Case> cases;
  for (int64_t rows : {int64_t(4096), mapsRows, int64_t(16383)})
    cases.push_back({"graph_maps", std::to_string(rows) + "x256 f32",
                     double(rows) * 256 * 4 * 3 + 256 * 4 + double(rows) * 4,
                     [&](int64_t m) {
                       return std::vector<GraphArg>{
                           GraphArg::buffer(mx.ptr, {m, 256}),
                           GraphArg::buffer(mr.ptr, {m, 256}),
                           GraphArg::buffer(mg.ptr, {256}),
                           GraphArg::buffer(ms.ptr, {m, 1}),
                           GraphArg::buffer(my.ptr, {m, 256}),
                           GraphArg::scalar(Arg::f32(0.5f))};
                     },
                     rows});
  for (int64_t rows : {int64_t(16384), epiRows, int64_t(65535)})
    cases.push_back({"graph_epilogue", std::to_string(rows) + "x64 f16->f32",
                     double(rows) * 64 * (2 + 4) + 64 * 2,
                     [&](int64_t m) {
                       return std::vector<GraphArg>{
                           GraphArg::buffer(ex.ptr, {m, 64}),
                           GraphArg::buffer(eb.ptr, {64}),
                           GraphArg::buffer(ey.ptr, {m, 64})};
                     },
                     rows});

  // Linear -> GELU (examples/graphs/linear_gelu.mlir), fp16: M = N = K.
  const int64_t gemmMax = 8192;
  Buffer gx(gemmMax * gemmMax * 2), gw(gemmMax * gemmMax * 2), gb(gemmMax * 2),
      gy(gemmMax * gemmMax * 2);
  for (int64_t s : {int64_t(4096), int64_t(8192), int64_t(4000)})
    cases.push_back({"example_linear_gelu", std::to_string(s) + "^3 fp16",
                     2.0 * double(s) * double(s) * double(s), // flops
                     [&](int64_t m) {
                       return std::vector<GraphArg>{
                           GraphArg::buffer(gx.ptr, {m, m}),
                           GraphArg::buffer(gw.ptr, {m, m}),
                           GraphArg::buffer(gb.ptr, {m}),
                           GraphArg::buffer(gy.ptr, {m, m})};
                     },
                     s});

  // Linear -> GELU -> Linear (examples/graphs/mlp.mlir): M x K -> H -> N
  // = 8192 x 4096 -> 16384 -> 4096, fp16 (issue 12's MLP shape).
  const int64_t mM = 8192, mK = 4096, mH = 16384, mN = 4096;
  Buffer px(mM * mK * 2), pw1(mH * mK * 2), pb1(mH * 2), pw2(mN * mH * 2),
      pb2(mN * 2), py(mM * mN * 2);
  cases.push_back({"example_mlp", "8192x4096x16384x4096",
                   2.0 * mM * mK * mH + 2.0 * mM * mH * mN,
                   [&](int64_t) {
                     return std::vector<GraphArg>{
                         GraphArg::buffer(px.ptr, {mM, mK}),
                         GraphArg::buffer(pw1.ptr, {mH, mK}),
                         GraphArg::buffer(pb1.ptr, {mH}),
                         GraphArg::buffer(pw2.ptr, {mN, mH}),
                         GraphArg::buffer(pb2.ptr, {mN}),
                         GraphArg::buffer(py.ptr, {mM, mN})};
                   },
                   mM});
  // Residual add -> LayerNorm (examples/graphs/residual_layer_norm.mlir):
  // rows x 4096 f32.
  const int64_t lnRows = 8192, lnN = 4096;
  Buffer lx(lnRows * lnN * 4), lr(lnRows * lnN * 4), lw(lnN * 4), lb(lnN * 4),
      ly(lnRows * lnN * 4), lmean(lnRows * 4), lrstd(lnRows * 4);
  for (int64_t rows : {int64_t(4096), lnRows, int64_t(8191)})
    cases.push_back({"example_residual_layer_norm",
                     std::to_string(rows) + "x4096 f32",
                     double(rows) * lnN * 4 * 3 + lnN * 8.0,
                     [&](int64_t m) {
                       return std::vector<GraphArg>{
                           GraphArg::buffer(lx.ptr, {m, lnN}),
                           GraphArg::buffer(lr.ptr, {m, lnN}),
                           GraphArg::buffer(lw.ptr, {lnN}),
                           GraphArg::buffer(lb.ptr, {lnN}),
                           GraphArg::buffer(ly.ptr, {m, lnN}),
                           GraphArg::buffer(lmean.ptr, {m, 1}),
                           GraphArg::buffer(lrstd.ptr, {m, 1}),
                           GraphArg::scalar(Arg::f32(1e-5f))};
                     },
                     rows});

  // LayerNorm as graph ops (examples/graphs/layer_norm.mlir): rows x 768
  // f16 (BERT/GPT-2 width; rows = tokens).
  const int64_t onRows = 16384, onN = 768;
  Buffer ox(onRows * onN * 2), ow(onN * 2), ob(onN * 2), oy(onRows * onN * 2);
  for (int64_t rows : {int64_t(4096), onRows, int64_t(16383)})
    cases.push_back({"example_layer_norm", std::to_string(rows) + "x768 f16",
                     double(rows) * onN * 2 * 2 + onN * 4.0,
                     [&](int64_t m) {
                       return std::vector<GraphArg>{
                           GraphArg::buffer(ox.ptr, {m, onN}),
                           GraphArg::buffer(ow.ptr, {onN}),
                           GraphArg::buffer(ob.ptr, {onN}),
                           GraphArg::buffer(oy.ptr, {m, onN})};
                     },
                     rows});
  // GroupNorm -> Mish (examples/graphs/group_norm_mish.mlir): S x 32
  // channels x HW f16, 8 groups (a U-Net block's GroupNorm at 64x64).
  const int64_t gnS = 16, gnHW = 4096;
  Buffer nx(gnS * 32 * gnHW * 2), ng(32 * 2), nb(32 * 2),
      ny(gnS * 32 * gnHW * 2);
  for (int64_t hw : {int64_t(1024), gnHW, int64_t(3969)})
    cases.push_back({"example_group_norm_mish",
                     "16x32x" + std::to_string(hw) + " f16",
                     double(gnS) * 32 * double(hw) * 2 * 2,
                     [&](int64_t h) {
                       return std::vector<GraphArg>{
                           GraphArg::buffer(nx.ptr, {gnS, 8, 4, h}),
                           GraphArg::buffer(ng.ptr, {8, 4, 1}),
                           GraphArg::buffer(nb.ptr, {8, 4, 1}),
                           GraphArg::buffer(ny.ptr, {gnS, 8, 4, h})};
                     },
                     hw});

  // Conv2d 3x3 -> GroupNorm -> Mish (examples/graphs/conv_group_norm_mish.mlir):
  // 16 x 32 channels x H x H f16 -> 32 channels (a U-Net block at 64x64).
  const int64_t cvS = 16, cvC = 32, cvH = 64;
  Buffer cx(cvS * cvC * cvH * cvH * 2), cw(32 * cvC * 9 * 2), cb(32 * 2),
      cg(32 * 2), cbeta(32 * 2), cy(cvS * 32 * cvH * cvH * 2);
  for (int64_t hh : {int64_t(32), cvH, int64_t(63)})
    cases.push_back({"example_conv_group_norm_mish",
                     "16x32x" + std::to_string(hh) + "x" + std::to_string(hh) +
                         " f16",
                     double(cvS) * cvC * double(hh * hh) * 2 * 2,
                     [&](int64_t h) {
                       return std::vector<GraphArg>{
                           GraphArg::buffer(cx.ptr, {cvS, cvC, h, h}),
                           GraphArg::buffer(cw.ptr, {32, cvC, 3, 3}),
                           GraphArg::buffer(cb.ptr, {32}),
                           GraphArg::buffer(cg.ptr, {8, 4, 1}),
                           GraphArg::buffer(cbeta.ptr, {8, 4, 1}),
                           GraphArg::buffer(cy.ptr, {cvS, 8, 4, h * h})};
                     },
                     hh});

  // The U-Net residual block (examples/graphs/unet_block.mlir): 16 x 32
  // channels x H x H f16.
  Buffer ue(cvS * 32 * 2), uw2(32 * 32 * 9 * 2), ub2(32 * 2), ug2(32 * 2),
      ube2(32 * 2);
  for (int64_t hh : {int64_t(32), cvH, int64_t(63)})
    cases.push_back({"example_unet_block",
                     "16x32x" + std::to_string(hh) + "x" + std::to_string(hh) +
                         " f16",
                     double(cvS) * 32 * double(hh * hh) * 2 * 2,
                     [&](int64_t h) {
                       return std::vector<GraphArg>{
                           GraphArg::buffer(cx.ptr, {cvS, 8, 4, h * h}),
                           GraphArg::buffer(ue.ptr, {cvS, 8, 4, 1}),
                           GraphArg::buffer(cg.ptr, {8, 4, 1}),
                           GraphArg::buffer(cbeta.ptr, {8, 4, 1}),
                           GraphArg::buffer(cw.ptr, {32, 32, 3, 3}),
                           GraphArg::buffer(cb.ptr, {32}),
                           GraphArg::buffer(ug2.ptr, {8, 4, 1}),
                           GraphArg::buffer(ube2.ptr, {8, 4, 1}),
                           GraphArg::buffer(uw2.ptr, {32, 32, 3, 3}),
                           GraphArg::buffer(ub2.ptr, {32}),
                           GraphArg::buffer(cy.ptr, {cvS, 8, 4, h * h}),
                           GraphArg::scalar(Arg::i32(int32_t(h))),
                           GraphArg::scalar(Arg::i32(int32_t(h)))};
                     },
                     hh});

  std::string json = "[\n";
  std::printf("%-20s %-20s %10s %10s %10s %10s %8s %8s\n", "graph", "shape",
              "fused us", "unfused us", "fusedG us", "unfusG us", "fused/un",
              "GB/s|TF/s");
  for (const Case &c : cases) {
    if (!wanted(c.graph))
      continue;
    GraphProgram fused, unfused;
    check(GraphProgram::loadPTX(ctx, readFile(dir + "/" + c.graph + ".ptx"), "",
                                fused),
          c.graph);
    check(GraphProgram::loadPTX(
              ctx, readFile(dir + "/" + c.graph + "_unfused.ptx"), "", unfused),
          c.graph + "_unfused");
    std::vector<GraphArg> args = c.args(c.rows);
    double f = gpuTime(stream, [&] { return fused.run(args, stream); });
    double u = gpuTime(stream, [&] { return unfused.run(args, stream); });
    double fg = gpuTime(stream, [&] { return fused.replay(args, stream); });
    double ug = gpuTime(stream, [&] { return unfused.replay(args, stream); });
    // Second, interleaved measurement of the direct runs.
    f = std::min(f, gpuTime(stream, [&] { return fused.run(args, stream); }));
    u = std::min(u, gpuTime(stream, [&] { return unfused.run(args, stream); }));
    // GB/s for the memory-bound chains, TFLOP/s for the GEMM (minBytes
    // holds its flops).
    bool gemm = c.graph == "example_linear_gelu" || c.graph == "example_mlp";
    double gbps = c.minBytes / (f * 1e3) / (gemm ? 1e3 : 1);
    std::printf("%-20s %-20s %10.2f %10.2f %10.2f %10.2f %8.2f %8.0f\n",
                c.graph.c_str(), c.shape.c_str(), f, u, fg, ug, u / f, gbps);
    char line[512];
    std::snprintf(line, sizeof line,
                  "  {\"graph\": \"%s\", \"shape\": \"%s\", \"rows\": %lld, "
                  "\"fused_us\": %.3f, \"unfused_us\": %.3f, "
                  "\"fused_replay_us\": %.3f, \"unfused_replay_us\": %.3f, "
                  "\"min_bytes_or_flops\": %.0f},\n",
                  c.graph.c_str(), c.shape.c_str(), (long long)c.rows, f, u, fg,
                  ug, c.minBytes);
    json += line;
  }

  // Host cost per call on a one-row binding, per kernel node.
  std::printf("\nhost us per call (per kernel):\n");
  for (const char *graph : {"graph_maps", "graph_epilogue"})
    for (const char *variant : {"", "_unfused"}) {
      if (!wanted(graph))
        continue;
      std::string name = std::string(graph) + variant;
      GraphProgram p;
      check(GraphProgram::loadPTX(ctx, readFile(dir + "/" + name + ".ptx"), "",
                                  p),
            name);
      const Case &c = std::string(graph) == "graph_maps" ? cases[0] : cases[3];
      std::vector<GraphArg> args = c.args(1);
      std::vector<uint64_t> bytes;
      std::vector<GraphLaunch> launches;
      check(p.plan(args.data(), args.size(), nullptr, bytes, launches), name);
      double run = hostTime(stream, [&] { return p.run(args, stream); });
      double replay = hostTime(stream, [&] { return p.replay(args, stream); });
      std::printf("  %-24s kernels %zu  run %7.2f (%5.2f)  replay %7.2f "
                  "(%5.2f)\n",
                  name.c_str(), launches.size(), run, run / launches.size(),
                  replay, replay / launches.size());
      char line[512];
      std::snprintf(line, sizeof line,
                    "  {\"host\": \"%s\", \"kernels\": %zu, \"run_us\": %.3f, "
                    "\"replay_us\": %.3f},\n",
                    name.c_str(), launches.size(), run, replay);
      json += line;
    }
  if (json.size() > 2)
    json.erase(json.size() - 2, 1); // the last comma
  json += "]\n";
  if (!jsonPath.empty())
    std::ofstream(jsonPath) << json;
  (void)cuStreamDestroy(stream);
  return 0;
}
