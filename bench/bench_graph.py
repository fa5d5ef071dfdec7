#!/usr/bin/env python3
"""Operator graphs: tilec fused vs unfused vs torch eager vs torch.compile.

The chains of test/GPU/kernels/graph_*.mlir, on one GPU in one run:

- graph_maps: y = (x + r) * g[col] * s[row] * alpha, f32, x and r of
  rows x 256, g of 256, s of rows x 1 (tilec fused: the map chain merges into
  one elementwise kernel; unfused: one kernel per map);
- graph_epilogue: y = float32(relu(2 x + b)), x of rows x 64 f16, b of 64
  (tilec fused: the bias, ReLU and cast at the store of the kernel that
  doubles; unfused: that kernel, then one kernel per map);
- example_mlp (examples/graphs/mlp.mlir): Linear -> GELU -> Linear, fp16,
  8192 x 4096 -> 16384 -> 4096 (tilec fused: the GELU at the first GEMM's
  stores; torch: F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2));
- example_residual_layer_norm (examples/graphs/residual_layer_norm.mlir):
  layer_norm(x + r), f32, rows x 4096, written as row reductions and maps
  (tilec fused: one kernel per row, the row held whole; torch:
  F.layer_norm(x + r, ...));
- example_linear_gelu (examples/graphs/linear_gelu.mlir): Y = gelu(X W^T +
  b), fp16, M = N = K = 4096, 8192 and 4000 (tilec fused: the exact GELU at
  the GEMM's stores; unfused: the GEMM, then a GELU kernel; torch:
  F.gelu(F.linear(x, w, b)), i.e. cuBLASLt with its bias epilogue, then GELU;
  the issue's bar: fused above unfused and torch eager, at or above
  torch.compile). TFLOP/s count the GEMM's 2 M N K;
- example_layer_norm (examples/graphs/layer_norm.mlir): layer norm written
  as row reductions and maps, f16, rows x 768 (tilec fused: one kernel per
  row; unfused: a kernel per op; torch: F.layer_norm);
- example_group_norm_mish (examples/graphs/group_norm_mish.mlir):
  mish(group_norm(x, 8 groups)), f16, 16 x 32 channels x H*W (tilec fused:
  one kernel per (sample, group) row, walked in blocks; torch:
  F.mish(F.group_norm(...)));
- example_conv_group_norm_mish (examples/graphs/conv_group_norm_mish.mlir):
  the same after a 3x3 convolution (padding 1) of 16 x 32 x H x H f16 to
  32 channels (tilec fused: the implicit-GEMM convolution, then one
  GroupNorm/Mish kernel; torch: F.conv2d (cuDNN) then the same).
- example_unet_block (examples/graphs/unet_block.mlir): the diffusion
  U-Net residual block, x + conv2(silu(gn2(conv1(silu(gn1(x))) + emb))),
  16 x 32 x H x H f16 (tilec fused: four kernels; torch: the same ops).

tilec's numbers come from bin/tilec-graph-bench (bench/graph_bench.cpp:
CUDA events around 50 runs, median of 5 rounds, direct launches and CUDA
Graph replay), run as a subprocess on the same GPU just before torch's.
torch runs the same chain on tensors of the same shapes: eager (each op a
kernel), torch.compile(mode="max-autotune-no-cudagraphs") and
torch.compile(mode="reduce-overhead") (CUDA Graphs), timed the same way
(CUDA events around 50 calls, median of 5 rounds, after warm-up). Bandwidth
counts the bytes a run must move at least (inputs read once, output written
once). The untuned sizes (16383 and 65535 rows) sit beside the round ones.

--cuda-kernels DIR runs tilec-graph-bench a second time on DIR (the same
graph files from tilec's CUDA C++ back end, e.g. kernels-cuda-ptx), just
after the PTX run, and adds each graph's fused time from there and
cuda/ptx = PTX time / CUDA time (> 1: CUDA C++ faster; the unfused pair in
the row's "backend_rows"); --tilec-only leaves torch out.

    python3 bench/bench_graph.py --bundle . [--json graph.json]
"""

import argparse
import json
import os
import subprocess
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tilec_rt  # noqa: E402


def cuda_time(fn, calls=50, rounds=5):
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(rounds):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(calls):
            fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000.0 / calls)
    times.sort()
    return times[len(times) // 2]


def maps_chain(x, r, g, s, alpha):
    return (x + r) * g * s * alpha


def epilogue_chain(x, b):
    return torch.relu(x * 2 + b).float()


def linear_gelu(x, w, b):
    return torch.nn.functional.gelu(torch.nn.functional.linear(x, w, b))


def mlp(x, w1, b1, w2, b2):
    f = torch.nn.functional
    return f.linear(f.gelu(f.linear(x, w1, b1)), w2, b2)


def residual_layer_norm(x, r, w, b):
    return torch.nn.functional.layer_norm(x + r, (x.shape[-1],), w, b, 1e-5)


def layer_norm(x, w, b):
    return torch.nn.functional.layer_norm(x, (x.shape[-1],), w, b, 1e-5)


def group_norm_mish(x, g, b):
    f = torch.nn.functional
    return f.mish(f.group_norm(x, 8, g, b, 1e-5))


def conv_group_norm_mish(x, w, cb, g, b):
    f = torch.nn.functional
    return f.mish(f.group_norm(f.conv2d(x, w, cb, padding=1), 8, g, b, 1e-5))


def unet_block(x, emb, g1, be1, w1, b1, g2, be2, w2, b2):
    f = torch.nn.functional
    h = f.conv2d(f.silu(f.group_norm(x, 8, g1, be1, 1e-5)), w1, b1, padding=1)
    h = h + emb
    h = f.conv2d(f.silu(f.group_norm(h, 8, g2, be2, 1e-5)), w2, b2, padding=1)
    return x + h


GEMMS = ("example_linear_gelu", "example_mlp")
# Chains whose max-autotune compile takes minutes (GEMM / convolution
# autotuning): --no-gemm-autotune skips that mode for them.
SLOW_AUTOTUNE = GEMMS + ("example_conv_group_norm_mish", "example_unet_block")


def torch_times(graph, rows, gemm_autotune=True):
    dev = "cuda"
    if graph == "example_mlp":
        h = lambda *s: torch.randn(*s, device=dev, dtype=torch.float16)
        args = (h(8192, 4096) / 4, h(16384, 4096) / 64, h(16384) / 4,
                h(4096, 16384) / 128, h(4096) / 4)
        fn = mlp
    elif graph == "example_residual_layer_norm":
        f = lambda *s: torch.randn(*s, device=dev)
        args = (f(rows, 4096), f(rows, 4096), f(4096), f(4096))
        fn = residual_layer_norm
    elif graph == "example_layer_norm":
        h = lambda *s: torch.randn(*s, device=dev, dtype=torch.float16)
        args = (h(rows, 768), h(768), h(768))
        fn = layer_norm
    elif graph == "example_group_norm_mish":
        # rows is H*W: x is 16 x 32 channels x H*W (NCHW, W = H*W).
        h = lambda *s: torch.randn(*s, device=dev, dtype=torch.float16)
        args = (h(16, 32, 1, rows), h(32), h(32))
        fn = group_norm_mish
    elif graph == "example_conv_group_norm_mish":
        # rows is H = W: x is 16 x 32 x H x H, 32 output channels.
        h = lambda *s: torch.randn(*s, device=dev, dtype=torch.float16)
        args = (h(16, 32, rows, rows), h(32, 32, 3, 3) / 17, h(32), h(32),
                h(32))
        fn = conv_group_norm_mish
    elif graph == "example_unet_block":
        h = lambda *s: torch.randn(*s, device=dev, dtype=torch.float16)
        args = (h(16, 32, rows, rows), h(16, 32, 1, 1), h(32), h(32),
                h(32, 32, 3, 3) / 17, h(32), h(32), h(32),
                h(32, 32, 3, 3) / 17, h(32))
        fn = unet_block
    elif graph == "example_linear_gelu":
        s = rows
        x = torch.randn(s, s, device=dev, dtype=torch.float16) / 4
        w = torch.randn(s, s, device=dev, dtype=torch.float16) / (s ** 0.5)
        b = torch.randn(s, device=dev, dtype=torch.float16) / 4
        args = (x, w, b)
        fn = linear_gelu
    elif graph == "graph_maps":
        x = torch.rand(rows, 256, device=dev)
        r = torch.rand(rows, 256, device=dev)
        g = torch.rand(256, device=dev)
        s = torch.rand(rows, 1, device=dev)
        args = (x, r, g, s, 0.5)
        fn = maps_chain
    else:
        x = torch.rand(rows, 64, device=dev, dtype=torch.float16)
        b = torch.rand(64, device=dev, dtype=torch.float16)
        args = (x, b)
        fn = epilogue_chain
    out = {"eager": cuda_time(lambda: fn(*args))}
    for mode in ("max-autotune-no-cudagraphs", "reduce-overhead"):
        if mode.startswith("max") and graph in SLOW_AUTOTUNE and not gemm_autotune:
            out[mode] = float("nan")
            continue
        torch._dynamo.reset()
        compiled = torch.compile(fn, mode=mode, dynamic=False)
        out[mode] = cuda_time(lambda: compiled(*args))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bundle", default=".", help="gpu-bundle folder")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--no-gemm-autotune", action="store_true",
                    help="skip torch.compile max-autotune on the GEMM and "
                         "convolution chains (their Triton autotuning takes "
                         "minutes)")
    ap.add_argument("--only", help="A|B|...: just the graphs whose name "
                    "contains one of the words (passed on to "
                    "tilec-graph-bench)")
    ap.add_argument("--kernels", help="the graphs' PTX folder (default: BUNDLE/kernels)")
    tilec_rt.add_backend_arguments(ap)
    a = ap.parse_args()
    words = [w for w in (a.only or "").split("|") if w]
    bench = os.path.join(a.bundle, "bin", "tilec-graph-bench")
    kernels = a.kernels or os.path.join(a.bundle, "kernels")

    def run_graph_bench(folder, json_name):
        """tilec-graph-bench on `folder`: its JSON rows, or its exit status."""
        path = os.path.join(a.bundle, json_name)
        proc = subprocess.run([bench, folder, "--json", path] +
                              (["--only", a.only] if words else []),
                              capture_output=True, text=True)
        sys.stdout.write(proc.stdout)
        if proc.returncode != 0:
            sys.stderr.write(proc.stderr)
            return proc.returncode
        with open(path) as f:
            return json.load(f)

    tilec = run_graph_bench(kernels, "graph_bench_tilec.json")
    if isinstance(tilec, int):
        return tilec
    cuda_rows = {}
    if a.cuda_kernels:
        print(f"\n== the same graphs from {a.cuda_kernels} (CUDA C++ back end)")
        cuda = run_graph_bench(a.cuda_kernels, "graph_bench_tilec_cuda.json")
        if isinstance(cuda, int):
            print(f"bench_graph.py: tilec-graph-bench on {a.cuda_kernels} exited with {cuda}",
                  file=sys.stderr)
            return cuda
        cuda_rows = {(t["graph"], t["rows"]): t for t in cuda if "graph" in t}
    rows_out = []
    if a.tilec_only:
        # Only tilec's two back ends: fused and unfused, the better of direct
        # runs and CUDA Graph replay, microseconds.
        print("\n%-28s %7s %9s %9s %9s %9s %8s" % ("graph", "rows", "fused", "unfused",
                                                 "cu fused", "cu unfus", "cuda/ptx"))
        for t in tilec:
            if "graph" not in t or (words and not any(w in t["graph"] for w in words)):
                continue
            row = dict(t, **backend_fields(t, cuda_rows, kernels, a.cuda_kernels))
            rows_out.append(row)
            c = cuda_rows.get((t["graph"], t["rows"]))
            print("%-28s %7d %9.2f %9.2f %9s %9s %8s" % (
                t["graph"], t["rows"], best_us(t, "fused"), best_us(t, "unfused"),
                "%.2f" % best_us(c, "fused") if c else "-",
                "%.2f" % best_us(c, "unfused") if c else "-",
                "%.3f" % row["cuda_over_ptx"] if c else "-"))
        print("(cuda/ptx: PTX time / CUDA C++ time of the fused graph; above 1 is the "
              "CUDA C++ build faster)")
        write_json(a, rows_out, tilec)
        return 0
    print("\n%-20s %7s %9s %9s %9s %9s %9s %9s | %7s %7s %7s" % (
        "graph", "rows", "fused", "unfused", "eager", "compile", "c-graphs",
        "GB/s|TF/s", "/unfus", "/eager", "/comp"))
    for t in tilec:
        if "graph" not in t or (words and not any(w in t["graph"] for w in words)):
            continue
        tt = torch_times(t["graph"], t["rows"], not a.no_gemm_autotune)
        best = min(t["fused_us"], t["fused_replay_us"])
        row = dict(t, torch_eager_us=tt["eager"],
                   torch_compile_us=tt["max-autotune-no-cudagraphs"],
                   torch_compile_cudagraphs_us=tt["reduce-overhead"])
        row.update(backend_fields(t, cuda_rows, kernels, a.cuda_kernels))
        rows_out.append(row)
        scale = 1e3 if t["graph"] in GEMMS else 1
        print("%-20s %7d %9.2f %9.2f %9.2f %9.2f %9.2f %9.0f | %7.2f %7.2f %7.2f" % (
            t["graph"], t["rows"], best, min(t["unfused_us"], t["unfused_replay_us"]),
            tt["eager"], tt["max-autotune-no-cudagraphs"], tt["reduce-overhead"],
            t["min_bytes_or_flops"] / (best * 1e3) / scale,
            min(t["unfused_us"], t["unfused_replay_us"]) / best,
            tt["eager"] / best,
            min(v for v in (tt["max-autotune-no-cudagraphs"], tt["reduce-overhead"])
                if v == v) / best))
    print("(ratios: the other's time / tilec fused; above 1 is tilec faster)")
    if cuda_rows:
        print("CUDA C++ back end (cuda/ptx: PTX time / CUDA time of the fused graph, "
              "above 1 is CUDA C++ faster): " +
              ", ".join(f"{r['graph']} {r['rows']} {r['cuda_over_ptx']:.3f}"
                        for r in rows_out if "cuda_over_ptx" in r))
    write_json(a, rows_out, tilec)
    return 0


def best_us(t, which):
    """The better of a graph's direct run and CUDA Graph replay, us."""
    return min(t[f"{which}_us"], t[f"{which}_replay_us"])


def backend_fields(t, cuda_rows, kernels, cuda_kernels):
    """With --cuda-kernels, tilec_rt.backend_fields of a graph row: the
    fused graph's, its unfused one's in "backend_rows"."""
    c = cuda_rows.get((t["graph"], t["rows"]))
    if c is None:
        return {}
    fields = [tilec_rt.backend_fields(
        os.path.join(kernels, t["graph"] + suffix + ".ptx"),
        os.path.join(cuda_kernels, t["graph"] + suffix + ".ptx"),
        best_us(t, which) / 1e3, best_us(c, which) / 1e3, shape=f"rows={t['rows']}")
        for which, suffix in (("fused", ""), ("unfused", "_unfused"))]
    return dict(fields[0], tilec_cuda_fused_us=best_us(c, "fused"),
                tilec_cuda_unfused_us=best_us(c, "unfused"), backend_rows=fields[1:])


def write_json(a, rows_out, tilec):
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(),
                       "rows": rows_out,
                       "host": [t for t in tilec if "host" in t]}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
