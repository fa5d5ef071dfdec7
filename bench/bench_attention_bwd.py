#!/usr/bin/env python3
"""Fused attention backward: tilec vs Triton vs torch SDPA (cuDNN, FlashAttention)
on one GPU, the same tile program on both compilers.

The kernels are attn_bwd_preprocess_kernel (Delta = rowsum(O * dO)) and
attn_bwd_kernel (tutorial 06's backward: dK/dV over query blocks and dQ over
key blocks in one program, P recomputed from the forward's base-2
log-sum-exp M) of test/GPU/kernels/py/attention.py, BLOCK_M1=32,
BLOCK_N1=128, BLOCK_M2=128, BLOCK_N2=32, num_warps=8, num_stages=3,
HEAD_DIM=128. tilec compiled them at build time (test/CMakeLists.txt) into
bench_attn_bwd_pre_<dtype>_d128.ptx and bench_attn_bwd_<dtype>_d128_<mode>.ptx
with the signature Triton's JIT picks for these tensors (N_Q, N_KV divisible
by 16; the plain-i32 test kernels attn_bwd_* for --untuned lengths). Triton
compiles the same functions from the same file with the same constexprs; it
is timed with tilec's num_warps/num_stages. Unless --no-sweep, both also try
the configs of tilec's sweep kernels in the bundle
(bench_attn_bwd_<dtype>_d128_<mode>_m<BLOCK_M1>n<BLOCK_N1>s<stages>w<warps>.ptx,
BLOCK_M2 = BLOCK_N1, BLOCK_N2 = BLOCK_M1) and Triton the tutorial's (4 warps,
5 stages), each checked and timed once; the fastest of each joins the rounds,
and "tilec best" / "triton best" are the faster of default and best in each
round.

O and M come from tilec's forward (bench_attn_fwd_*.ptx, checked against
SDPA) and are shared by tilec and Triton; the backward time is the
preprocess plus the main kernel. The peers are torch.autograd.grad of
scaled_dot_product_attention's output under sdpa_kernel(CUDNN_ATTENTION) and
(FLASH_ATTENTION), the forward done once outside the timing (retain_graph).
dQ, dK, dV are checked against SDPA's default backend's gradients: max abs
error printed, tilec's must stay below --atol.

Problem: bf16 (--dtypes), batch 4, 32 heads, head dim 128, N = 1024, 4096,
8192 (--untuned: 1000 and 4097), causal (top-left) and not; torch.randn
inputs, sm_scale = 1/sqrt(D). TFLOP/s = 10 B H N^2 D / time (2.5 times the
forward's: five N^2 D products), halved for causal, as the FlashAttention
papers count. Timing: triton.testing.do_bench medians over interleaved
rounds (bench/gemm_common.py); the table comes last.

--cuda-kernels DIR also checks (dQ, dK, dV, the same bound) and times the
preprocess and backward kernel files from DIR (tilec's CUDA C++ back end; the
forward that makes O and M stays the PTX one) in the same rounds, "tilec
cuda", with cuda/ptx = PTX time / CUDA time (> 1: CUDA C++ faster); tilec's
sweep configs each once after their PTX (the row's "backend_rows").
--tilec-only leaves Triton (and its sweep) and SDPA out.

    TILEC_RUNTIME_LIB=lib/libtilec_runtime.so bench/bench_attention_bwd.py \\
        --kernels kernels --sources examples
"""

import argparse
import json
import math
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

BWD = dict(BLOCK_M1=32, BLOCK_N1=128, BLOCK_M2=128, BLOCK_N2=32)
NUM_WARPS, NUM_STAGES = 8, 3
TUTORIAL_WARPS, TUTORIAL_STAGES = 4, 5
PRE_BLOCK = 128
HEAD_DIM = 128
ATOL = {"bf16": 0.0625, "fp16": 0.0078125}
UNTUNED = (1000, 4097)


def names(dt, causal, aligned):
    """(forward, preprocess, backward) PTX file names."""
    mode = "causal" if causal else "full"
    pre = "bench_" if aligned else ""
    return (f"{pre}attn_fwd_{dt}_d{HEAD_DIM}_{mode}.ptx",
            f"{pre}attn_bwd_pre_{dt}_d{HEAD_DIM}.ptx",
            f"{pre}attn_bwd_{dt}_d{HEAD_DIM}_{mode}.ptx")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kernels", default=os.path.join(HERE, "..", "kernels"))
    p.add_argument("--sources", default=os.path.join(HERE, "..", "examples"),
                   help="directory with attention.py")
    p.add_argument("--json", default=os.environ.get("TILEC_ATTN_BWD_JSON"))
    p.add_argument("--warmup", type=int, default=25)
    p.add_argument("--rep", type=int, default=100)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--heads", type=int, default=32)
    p.add_argument("--seqlens", default="1024,4096,8192")
    p.add_argument("--untuned", action="store_true",
                   help="N = " + ", ".join(map(str, UNTUNED)) + " instead of --seqlens")
    p.add_argument("--dtypes", default="bf16")
    p.add_argument("--causal", choices=("both", "yes", "no"), default="both")
    p.add_argument("--atol", type=float)
    p.add_argument("--no-sweep", action="store_true",
                   help="time the default config only (tilec and Triton)")
    import tilec_rt
    tilec_rt.add_backend_arguments(p)
    args = p.parse_args(argv)
    try:
        seqlens = [int(x) for x in args.seqlens.split(",") if x]
    except ValueError:
        p.error(f"--seqlens: expected comma-separated integers, found '{args.seqlens}'")
    if not seqlens or any(n <= 0 or n % 16 for n in seqlens):
        p.error("--seqlens: each N must be a positive multiple of 16")
    args.seqlens = list(UNTUNED) if args.untuned else seqlens
    args.dtypes = [d for d in args.dtypes.split(",") if d]
    if not args.dtypes or any(d not in ATOL for d in args.dtypes):
        p.error(f"--dtypes: expected bf16 and/or fp16, found '{','.join(args.dtypes)}'")
    args.causal_modes = {"both": (True, False), "yes": (True,), "no": (False,)}[args.causal]
    if args.batch <= 0 or args.heads <= 0 or args.rounds <= 0 or args.rep <= 0:
        p.error("--batch, --heads, --rounds and --rep must be positive")
    if args.warmup < 0 or (args.atol is not None and not args.atol > 0):
        p.error("--warmup must be >= 0 and --atol > 0")
    missing = sorted({os.path.join(args.kernels, n) for dt in args.dtypes
                      for c in args.causal_modes for N in args.seqlens
                      for n in names(dt, c, N % 16 == 0)
                      if not os.path.exists(os.path.join(args.kernels, n))})
    if missing:
        raise SystemExit("bench_attention_bwd.py: missing tilec kernel(s): " +
                         ", ".join(missing))
    if args.cuda_kernels:
        missing = tilec_rt.missing_kernels(args.cuda_kernels, {
            n for dt in args.dtypes for c in args.causal_modes for N in args.seqlens
            for n in names(dt, c, N % 16 == 0)[1:]})
        if missing:
            raise SystemExit("bench_attention_bwd.py: missing CUDA C++ back end kernel(s): " +
                             ", ".join(missing))
    args.source = os.path.join(args.sources, "attention.py")
    if not os.path.exists(args.source):
        raise SystemExit(f"bench_attention_bwd.py: {args.source} not found: --sources must name "
                         "the folder holding test/GPU/kernels/py/attention.py (the bundle's "
                         "examples/)")
    return args


def main(argv=None):
    args = parse_args(argv)
    import torch
    import torch.nn.functional as F
    import triton
    from torch.nn.attention import SDPBackend, sdpa_kernel

    import tilec_rt
    from gemm_common import interleaved_times, load_module, speedup
    from tilec_rt import print_table

    cuda, with_peers = args.cuda_kernels, not args.tilec_only
    torch.cuda.init()
    dev = torch.device("cuda", torch.cuda.current_device())
    ctx = tilec_rt.Context(dev.index)
    att = load_module(args.source, "tilec_bench_attention_bwd")
    dtypes = {"bf16": torch.bfloat16, "fp16": torch.float16}
    B, H, D = args.batch, args.heads, HEAD_DIM
    sm_scale = 1.0 / math.sqrt(D)

    def sdpa(backend, q, k, v, causal):
        if backend is None:
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=sm_scale)
        with sdpa_kernel(backend):
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=sm_scale)

    peers = tuple((name, getattr(SDPBackend, attr, None)) for name, attr in
                  (("cudnn", "CUDNN_ATTENTION"), ("flash", "FLASH_ATTENTION"))) \
        if with_peers else ()
    rows = []
    for dt in args.dtypes:
        dtype = dtypes[dt]
        atol = args.atol if args.atol is not None else ATOL[dt]
        for causal in args.causal_modes:
            for N in args.seqlens:
                aligned = N % 16 == 0
                fwd_name, pre_name, bwd_name = names(dt, causal, aligned)
                fwd = ctx.load_file(os.path.join(args.kernels, fwd_name)).kernel("attn_fwd_kernel")
                pre = ctx.load_file(os.path.join(args.kernels, pre_name)) \
                    .kernel("attn_bwd_preprocess_kernel")
                bwd = ctx.load_file(os.path.join(args.kernels, bwd_name)).kernel("attn_bwd_kernel")
                if cuda:
                    pre_c = tilec_rt.load_kernel(ctx, cuda, pre_name, "attn_bwd_preprocess_kernel")
                    bwd_c = tilec_rt.load_kernel(ctx, cuda, bwd_name, "attn_bwd_kernel")
                gen = torch.Generator(device=dev).manual_seed(N * 11 + int(causal))
                q, k, v, do = (torch.randn((B, H, N, D), device=dev, dtype=dtype, generator=gen)
                               for _ in range(4))
                o = torch.empty_like(q)
                m = torch.empty((B * H, N), device=dev, dtype=torch.float32)
                fwd.launch((triton.cdiv(N, 128), B * H), q, k, v, sm_scale, m, o,
                           *q.stride(), *k.stride(), *v.stride(), *o.stride(), H, N, N)
                delta = torch.empty_like(m)
                grads = {name: tuple(torch.empty_like(q) for _ in range(3))
                         for name in ("tilec", *(("tilec_cuda",) if cuda else ()),
                                      *(("triton",) if with_peers else ()))}
                qs, ks = q.stride()[:3], k.stride()[:3]
                pre_grid = (triton.cdiv(N, PRE_BLOCK), B * H)

                def grid_of(blocks):
                    return (max(triton.cdiv(N, blocks["BLOCK_N1"]),
                                triton.cdiv(N, blocks["BLOCK_M2"])), B * H)

                def tilec_fn(kernel, blocks, g, pre=pre):
                    grid = grid_of(blocks)

                    def run():
                        pre.launch(pre_grid, o, do, delta, *qs, *qs, H, N)
                        kernel.launch(grid, q, k, v, sm_scale, do, *g, m, delta, *qs, *ks,
                                      H, N, N)
                    return run

                def triton_fn(warps, stages, g, blocks=BWD):
                    grid = grid_of(blocks)

                    def run():
                        att.attn_bwd_preprocess_kernel[pre_grid](
                            o, do, delta, *qs, *qs, H, N, HEAD_DIM=D, BLOCK_M=PRE_BLOCK)
                        att.attn_bwd_kernel[grid](
                            q, k, v, sm_scale, do, *g, m, delta, *qs, *ks, H, N, N,
                            HEAD_DIM=D, CAUSAL=causal, num_warps=warps, num_stages=stages,
                            **blocks)
                    return run

                impls = {"tilec": tilec_fn(bwd, BWD, grads["tilec"])}
                if cuda:
                    impls["tilec_cuda"] = tilec_fn(bwd_c, BWD, grads["tilec_cuda"], pre_c)
                if with_peers:
                    impls["triton"] = triton_fn(NUM_WARPS, NUM_STAGES, grads["triton"])
                # The sweep: tilec's kernels beside the default's, and the
                # same configs (and the tutorial's) through Triton.
                sweep = []  # (name, blocks, stages, warps, tilec kernel or None)
                if not args.no_sweep and aligned:
                    base = bwd_name[:-4] + "_"
                    for fname in sorted(os.listdir(args.kernels)):
                        mt = re.fullmatch(re.escape(base) + r"m(\d+)n(\d+)s(\d+)w(\d+)\.ptx",
                                          fname)
                        if mt:
                            m1, n1, st, w = map(int, mt.groups())
                            blocks = dict(BLOCK_M1=m1, BLOCK_N1=n1, BLOCK_M2=n1, BLOCK_N2=m1)
                            kc = ctx.load_file(os.path.join(args.kernels, fname)) \
                                .kernel("attn_bwd_kernel")
                            sweep.append((f"m{m1}n{n1}s{st}w{w}", blocks, st, w, kc))
                    sweep.append((f"m32n128s{TUTORIAL_STAGES}w{TUTORIAL_WARPS}", BWD,
                                  TUTORIAL_STAGES, TUTORIAL_WARPS, None))
                what = f"{dt} B={B} H={H} N={N} D={D} {'causal' if causal else 'full'}"

                # Correctness: against SDPA's default backend's gradients.
                qr, kr, vr = (t.detach().clone().requires_grad_() for t in (q, k, v))
                ref_out = sdpa(None, qr, kr, vr, causal)
                ref = torch.autograd.grad(ref_out, (qr, kr, vr), do)
                fwd_err = (o.float() - ref_out.detach().float()).abs().max().item()
                del ref_out
                for g in grads.values():
                    for t in g:
                        t.fill_(float("nan"))
                for name in list(grads):
                    try:
                        impls[name]()
                        torch.cuda.synchronize()
                    except Exception as e:  # Triton: out of resources, ...
                        print(f"warning: {name} failed for {what}: {type(e).__name__}: "
                              f"{str(e)[:200]}")
                        if name.startswith("tilec"):
                            raise
                        del impls[name]
                errors = {name: max((a.float() - b.float()).abs().max().item()
                                    for a, b in zip(grads[name], ref))
                          for name in impls}
                for name, backend in peers:
                    if backend is None:
                        continue
                    try:
                        out = sdpa(backend, qr, kr, vr, causal)
                        got = torch.autograd.grad(out, (qr, kr, vr), do, retain_graph=True)
                        torch.cuda.synchronize()
                    except Exception as e:
                        print(f"warning: SDPA {name} unavailable for {what}: "
                              f"{type(e).__name__}: {str(e)[:200]}")
                        continue
                    errors[name] = max((a.float() - b.float()).abs().max().item()
                                       for a, b in zip(got, ref))

                    def run_peer(out=out):
                        torch.autograd.grad(out, (qr, kr, vr), do, retain_graph=True)
                    impls[name] = run_peer
                print(f"{what}: forward O error {fwd_err:.3g}; max abs gradient error "
                      "against SDPA: " + ", ".join(f"{n} {e:.3g}" for n, e in errors.items()))
                for name in ("tilec", "tilec_cuda") if cuda else ("tilec",):
                    if not errors[name] <= atol:
                        raise SystemExit(f"{what}: {name}'s gradients differ from SDPA's by "
                                         f"{errors[name]:.3g} > {atol}")

                def bench(fn):
                    return triton.testing.do_bench(fn, warmup=args.warmup, rep=args.rep,
                                                   return_mode="median")

                # Each sweep config: checked against SDPA, timed once; the
                # fastest of each compiler joins the rounds.
                whos = ("tilec", "triton") if with_peers else ("tilec",)
                best = {who: (bench(impls[who]), "default", None) for who in whos}
                g_sweep = tuple(torch.empty_like(q) for _ in range(3))
                backend_rows = []  # --cuda-kernels: each sweep config's two builds
                for name_cfg, blocks, st, w, kc in sweep:
                    if cuda and kc is not None:
                        whos_cfg = whos[:1] + ("tilec_cuda",) + whos[1:]
                        kc_c = tilec_rt.load_kernel(ctx, cuda, os.path.basename(kc.path),
                                                    "attn_bwd_kernel")
                    else:
                        whos_cfg = whos
                    ms_ptx = None  # this config's PTX time, for its CUDA build's ratio
                    for who in whos_cfg:
                        if who == "tilec" and kc is None:
                            continue
                        fn = (tilec_fn(kc, blocks, g_sweep) if who == "tilec"
                              else tilec_fn(kc_c, blocks, g_sweep, pre_c)
                              if who == "tilec_cuda" else triton_fn(w, st, g_sweep, blocks))
                        for t in g_sweep:
                            t.fill_(float("nan"))
                        try:
                            fn()
                            torch.cuda.synchronize()
                        except Exception as e:  # Triton: out of resources
                            print(f"note: {who} config {name_cfg} skipped: {type(e).__name__}")
                            continue
                        err = max((a.float() - b.float()).abs().max().item()
                                  for a, b in zip(g_sweep, ref))
                        if not err <= atol:
                            msg = f"{what}: {who} config {name_cfg} off by {err:.3g}"
                            if who.startswith("tilec"):
                                raise SystemExit(msg)
                            print("warning: " + msg + "; left out")
                            continue
                        ms = bench(fn)
                        if who == "tilec_cuda":
                            if ms_ptx is not None:
                                backend_rows.append(tilec_rt.backend_fields(
                                    kc, kc_c, ms_ptx, ms, shape=f"B={B} H={H} N={N} D={D}",
                                    label=os.path.basename(kc.path)[:-4] + " (sweep)"))
                            continue
                        ms_ptx = ms
                        if ms < best[who][0]:
                            g_best = tuple(torch.empty_like(q) for _ in range(3))
                            best[who] = (ms, name_cfg,
                                         tilec_fn(kc, blocks, g_best) if who == "tilec"
                                         else triton_fn(w, st, g_best, blocks))
                for who in whos:
                    if best[who][2] is not None:
                        impls[f"{who}_sweep"] = best[who][2]
                times = interleaved_times(impls, args.rounds, args.warmup, args.rep)
                for who in whos:
                    times[f"{who}_best"] = [min(a, b) for a, b in
                                            zip(times[who], times.get(f"{who}_sweep", times[who]))]
                    times.pop(f"{who}_sweep", None)
                pairs = N * N / 2 if causal else N * N
                flops = 10.0 * B * H * pairs * D
                med = {n: statistics.median(t) for n, t in times.items()}
                tflops = {n: flops / (ms * 1e-3) / 1e12 for n, ms in med.items()}
                row = {"dtype": dt, "B": B, "H": H, "N": N, "D": D, "causal": causal,
                       **{f"{n}_ms": med[n] for n in med},
                       **{f"{n}_tflops": tflops[n] for n in tflops},
                       "tilec_over_triton": speedup(times, "tilec", "triton"),
                       "tilec_best_over_triton_best": speedup(times, "tilec_best",
                                                              "triton_best"),
                       "tilec_best_config": best["tilec"][1],
                       "triton_best_config": best["triton"][1] if with_peers else None,
                       "max_abs_error": errors}
                for name, _ in peers:
                    row[f"tilec_best_over_{name}"] = (speedup(times, "tilec_best", name)
                                                      if name in times else float("nan"))
                if cuda:
                    row.update(tilec_rt.backend_fields(
                        bwd, bwd_c, med["tilec"], med["tilec_cuda"],
                        speedup(times, "tilec_cuda", "tilec"),
                        label=bwd_name[:-4] + " (+ preprocess)",
                        shape=f"B={B} H={H} N={N} D={D}", work=flops, unit="TFLOP/s"),
                        backend_rows=backend_rows)
                rows.append(row)
                print(f"{what}: " + ", ".join(f"{n} {tflops[n]:.1f}" for n in tflops) +
                      " TFLOP/s")
                del q, k, v, do, o, m, delta, grads, impls, times, qr, kr, vr, ref
                torch.cuda.empty_cache()

    device = torch.cuda.get_device_name(dev)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "rounds": args.rounds, "config": {
                **BWD, "num_warps": NUM_WARPS, "num_stages": NUM_STAGES},
                "torch": torch.__version__, "triton": triton.__version__, "rows": rows},
                f, indent=2)

    def fmt(x):
        return "-" if x is None or x != x else f"{x:.1f}"

    def ratio(x):
        return "-" if x is None or x != x else f"{x:.3f}"

    # With --cuda-kernels, "tilec cuda" after "tilec" and "cuda/ptx" last;
    # with --tilec-only, "-" for the peers.
    header = ("dtype", "mask", "N", "tilec", *(("tilec cuda",) if cuda else ()), "tilec best",
              "triton", "triton best", "cuDNN", "FA", "tilec/triton", "best/triton best",
              "best/cuDNN", "best/FA", "tilec cfg", "triton cfg",
              *(("cuda/ptx",) if cuda else ()))
    lines = [header]
    for r in rows:
        lines.append((r["dtype"], "causal" if r["causal"] else "full", str(r["N"]),
                      fmt(r["tilec_tflops"]),
                      *((fmt(r["tilec_cuda_tflops"]),) if cuda else ()),
                      fmt(r["tilec_best_tflops"]),
                      fmt(r.get("triton_tflops")), fmt(r.get("triton_best_tflops")),
                      fmt(r.get("cudnn_tflops", float("nan"))),
                      fmt(r.get("flash_tflops", float("nan"))),
                      ratio(r["tilec_over_triton"]), ratio(r["tilec_best_over_triton_best"]),
                      ratio(r.get("tilec_best_over_cudnn")), ratio(r.get("tilec_best_over_flash")),
                      r["tilec_best_config"], r["triton_best_config"] or "-",
                      *((ratio(r["cuda_over_ptx"]),) if cuda else ())))
    print(f"device: {device}; backward (preprocess + main); do_bench medians over "
          f"{args.rounds} interleaved rounds; TFLOP/s (10 B H N^2 D / t, halved for causal); "
          f"B={B} H={H} D={D}; default {BWD}, {NUM_WARPS} warps {NUM_STAGES} stages (both); "
          "best: the fastest of each compiler's sweep (cfg: default or m<M1>n<N1>s<stages>w<warps>)"
          + ("; tilec cuda: the CUDA C++ back end's kernels, cuda/ptx = PTX time / CUDA time "
             "(> 1: CUDA C++ faster)" if cuda else ""))
    print_table(lines, left=2)


if __name__ == "__main__":
    main()
