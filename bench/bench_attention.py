#!/usr/bin/env python3
"""Fused attention forward: tilec vs Triton vs cuDNN and FlashAttention (torch SDPA)
on one GPU, the same tile program on both compilers.

--form blockptr (the default) times attn_fwd_kernel, --form desc
attn_fwd_desc_kernel (tensor descriptors: tilec copies K and V with TMA, Triton
builds its descriptors on the device). With --form desc and without
--no-sweep, tilec's other configs in the bundle
(bench_attn_fwd_desc_<dtype>_d128_<mode>_n<BLOCK_N>s<stages>w<warps>.ptx) are
checked against its default's output, timed once each, and the fastest is
timed in the rounds as "tilec best" (best config each, as Triton's).

The kernel is attn_fwd_kernel of test/GPU/kernels/py/attention.py (Triton's
tutorial 06 forward: FlashAttention-2's online softmax, two chained dots, block
pointers), BLOCK_M=128, BLOCK_N=64, num_warps=8, num_stages=3, HEAD_DIM=128.
tilec compiled it at build time (test/CMakeLists.txt, with
-DTILEC_GPU_DOT_TESTS=ON) into bench_attn_fwd_<dtype>_d128_{causal,full}.ptx
with the signature Triton's JIT picks for these tensors (pointers divisible by
16, the z/h/row strides and N_Q, N_KV divisible by 16, unit strides equal to
1; H plain). Triton compiles the same function here from the same file with
the same constexprs, num_warps and num_stages; unless --no-sweep it also tries
BLOCK_N 64/128 x num_stages 2/3/4 x num_warps 4/8 (BLOCK_M 128) once per shape
and times its fastest config too: "triton best" is the faster of the two in
each round (configs that do not fit in shared memory are skipped). The peers are torch's
scaled_dot_product_attention under sdpa_kernel(SDPBackend.CUDNN_ATTENTION)
and sdpa_kernel(SDPBackend.FLASH_ATTENTION); a backend torch refuses for these
tensors is reported and left out.

Problem: bf16 (--dtypes), batch 4, 32 heads, head dim 128, N_Q = N_KV = N
for N = 1024, 4096, 8192, causal (top-left, torch's is_causal) and not; Q, K,
V are torch.randn in [B, H, N, D] (contiguous), sm_scale = 1/sqrt(D), the
same tensors for every implementation. --untuned times (N_Q, N_KV) = 1000 x
1000, 4097 x 4097 (lengths Triton's JIT leaves plain i32: tilec runs its
plain-signature test kernel) and 16 x 8192 (few query rows; causal counts the
visible pairs) instead. Each output is first checked against
SDPA's (the default backend): max abs error printed, tilec's must stay below
--atol (default 0.0625 bf16, 0.0078 fp16: a few ulps of O's type at |O| ~ 1),
the peers' only warn. tilec's and Triton's M (the base-2 log-sum-exp per row)
are checked against a float32 logsumexp of two heads.

Timing: triton.testing.do_bench medians (warmup 25 ms, rep 100 ms by default),
interleaved: --rounds rounds in rotated order; ratios are medians of per-round
ratios (bench/gemm_common.py). TFLOP/s = 4 B H N^2 D / time, halved for causal
(the masked half is not computed). The table comes last; JSON to --json or
$TILEC_ATTN_JSON.

--cuda-kernels DIR also checks (O and M, the same bounds) and times the same
kernel files from DIR (tilec's CUDA C++ back end) in the same rounds, "tilec
cuda", with cuda/ptx = PTX time / CUDA time (> 1: CUDA C++ faster); tilec's
sweep configs each once after their PTX (the row's "backend_rows").
--tilec-only leaves Triton (and its sweep) and SDPA out.

    TILEC_RUNTIME_LIB=lib/libtilec_runtime.so bench/bench_attention.py \\
        --kernels kernels --sources examples --json attention.json
"""

import argparse
import json
import math
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

CONFIG = dict(BLOCK_M=128, BLOCK_N=64)
NUM_WARPS = 8
NUM_STAGES = 3
HEAD_DIM = 128
# Triton's config sweep: (BLOCK_N, num_stages, num_warps), BLOCK_M 128.
SWEEP = tuple((bn, st, w) for bn in (64, 128) for st in (2, 3, 4) for w in (4, 8))
ATOL = {"bf16": 0.0625, "fp16": 0.0078125}


# --form: which kernel of attention.py, its PTX prefix.
FORMS = {"blockptr": ("attn_fwd_kernel", "bench_attn_fwd"),
         "desc": ("attn_fwd_desc_kernel", "bench_attn_fwd_desc")}
FORM = "blockptr"


# --untuned: (N_Q, N_KV) off the tuned sizes -- lengths not multiples of 16
# and few query rows against many keys.
UNTUNED = ((1000, 1000), (4097, 4097), (16, 8192))


def ptx_name(dt, causal, aligned=True):
    """The PTX of the signature Triton's JIT picks: N_Q and N_KV i32:16 when
    both are multiples of 16 (the benchmark's kernels), else plain (the test
    kernels attn_fwd[_desc]_<dtype>_d128_<mode>)."""
    prefix = FORMS[FORM][1] if aligned else FORMS[FORM][1][len("bench_"):]
    return f"{prefix}_{dt}_d{HEAD_DIM}_{'causal' if causal else 'full'}.ptx"


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kernels", default=os.path.join(HERE, "..", "kernels"),
                   help="directory with bench_attn_fwd_*.ptx")
    p.add_argument("--sources", default=os.path.join(HERE, "..", "examples"),
                   help="directory with attention.py")
    p.add_argument("--json", default=os.environ.get("TILEC_ATTN_JSON"),
                   help="also write the table as JSON to this path (default: "
                        "$TILEC_ATTN_JSON when set)")
    p.add_argument("--warmup", type=int, default=25, help="do_bench warmup, ms")
    p.add_argument("--rep", type=int, default=100, help="do_bench repetition time, ms")
    p.add_argument("--rounds", type=int, default=5, help="interleaved timing rounds")
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--heads", type=int, default=32)
    p.add_argument("--seqlens", default="1024,4096,8192",
                   help="comma-separated N (N_Q = N_KV; multiples of 16: the PTX's "
                        "signature says so)")
    p.add_argument("--untuned", action="store_true",
                   help="the untuned shapes instead of --seqlens: (N_Q, N_KV) = " +
                        ", ".join(f"{a}x{b}" for a, b in UNTUNED) +
                        " (a length not a multiple of 16 runs the plain-i32 test kernel, "
                        "as Triton's JIT specializes it)")
    p.add_argument("--dtypes", default="bf16", help="comma-separated: bf16, fp16")
    p.add_argument("--causal", choices=("both", "yes", "no"), default="both")
    p.add_argument("--no-sweep", action="store_true",
                   help="time Triton with tilec's config only")
    p.add_argument("--form", choices=tuple(FORMS), default="blockptr",
                   help="blockptr: attn_fwd_kernel (block pointers, any strides); desc: "
                        "attn_fwd_desc_kernel (tensor descriptors over the contiguous "
                        "[B*H*N, D] views, as tutorial 06: TMA copies; Triton builds its "
                        "descriptors on the device, in a scratch from triton.set_allocator)")
    p.add_argument("--atol", type=float,
                   help="max abs error allowed for tilec's O against SDPA's "
                        "(default per dtype: " +
                        ", ".join(f"{k} {v}" for k, v in ATOL.items()) + ")")
    import tilec_rt
    tilec_rt.add_backend_arguments(p)
    args = p.parse_args(argv)
    global FORM
    FORM = args.form
    try:
        args.seqlens = [int(x) for x in args.seqlens.split(",") if x]
    except ValueError:
        p.error(f"--seqlens: expected comma-separated integers, found '{args.seqlens}'")
    if not args.seqlens or any(n <= 0 or n % 16 for n in args.seqlens):
        p.error("--seqlens: each N must be a positive multiple of 16 (the kernels' "
                "N_Q and N_KV are i32:16)")
    args.shapes = list(UNTUNED) if args.untuned else [(n, n) for n in args.seqlens]
    args.dtypes = [d for d in args.dtypes.split(",") if d]
    if not args.dtypes or any(d not in ATOL for d in args.dtypes):
        p.error(f"--dtypes: expected bf16 and/or fp16, found '{','.join(args.dtypes)}'")
    args.causal_modes = {"both": (True, False), "yes": (True,), "no": (False,)}[args.causal]
    if args.batch <= 0 or args.heads <= 0 or args.rounds <= 0:
        p.error("--batch, --heads and --rounds must be positive")
    return args


def check_inputs(args):
    """Every PTX file and the kernel source exist, before torch starts."""
    needed = {ptx_name(dt, c, nq % 16 == 0 and nkv % 16 == 0)
              for dt in args.dtypes for c in args.causal_modes for nq, nkv in args.shapes}
    missing = [os.path.join(args.kernels, n) for n in sorted(needed)
               if not os.path.exists(os.path.join(args.kernels, n))]
    if missing:
        raise SystemExit("bench_attention.py: missing tilec kernel(s): " + ", ".join(missing) +
                         " (the attention kernels are built with the tl.dot kernels: "
                         "-DTILEC_GPU_DOT_TESTS=ON, target tilec-gpu-kernels or gpu-bundle)")
    if args.cuda_kernels:
        import tilec_rt
        missing = tilec_rt.missing_kernels(args.cuda_kernels, needed)
        if missing:
            raise SystemExit("bench_attention.py: missing CUDA C++ back end kernel(s): " +
                             ", ".join(missing))
    source = os.path.join(args.sources, "attention.py")
    if not os.path.exists(source):
        raise SystemExit(f"bench_attention.py: {source} not found: --sources must name the "
                         "folder holding test/GPU/kernels/py/attention.py (the bundle's "
                         "examples/)")
    return source


def main(argv=None):
    args = parse_args(argv)
    source = check_inputs(args)

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
    torch.backends.cuda.matmul.allow_tf32 = False  # the fp32 logsumexp reference
    ctx = tilec_rt.Context(dev.index)
    att = load_module(source, "tilec_bench_attention")
    kernel_name = FORMS[FORM][0]
    if FORM == "desc":
        # Triton's device-side tensor descriptors need a global scratch.
        triton.set_allocator(lambda size, align, stream:
                             torch.empty(size, dtype=torch.int8, device=dev))
    dtypes = {"bf16": torch.bfloat16, "fp16": torch.float16}
    B, H, D = args.batch, args.heads, HEAD_DIM
    sm_scale = 1.0 / math.sqrt(D)

    def bench(fn):
        return triton.testing.do_bench(fn, warmup=args.warmup, rep=args.rep,
                                       return_mode="median")

    def sdpa(backend, q, k, v, causal):
        if backend is None:
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=sm_scale)
        with sdpa_kernel(backend):
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=sm_scale)

    # (An older torch without a backend: that peer is reported and left out.)
    peers = tuple((name, getattr(SDPBackend, attr, None)) for name, attr in
                  (("cudnn", "CUDNN_ATTENTION"), ("flash", "FLASH_ATTENTION"))) \
        if with_peers else ()
    rows = []
    for dt in args.dtypes:
        dtype = dtypes[dt]
        atol = args.atol if args.atol is not None else ATOL[dt]
        for causal in args.causal_modes:
            for NQ, NKV in args.shapes:
                aligned = NQ % 16 == 0 and NKV % 16 == 0
                kernel = ctx.load_file(os.path.join(args.kernels,
                                                    ptx_name(dt, causal, aligned))) \
                    .kernel(kernel_name)
                kernel_c = (tilec_rt.load_kernel(ctx, cuda, ptx_name(dt, causal, aligned),
                                                 kernel_name) if cuda else None)
                gen = torch.Generator(device=dev).manual_seed(NQ * 7 + NKV + int(causal))
                q = torch.randn((B, H, NQ, D), device=dev, dtype=dtype, generator=gen)
                k, v = (torch.randn((B, H, NKV, D), device=dev, dtype=dtype, generator=gen)
                        for _ in range(2))
                o_tilec, o_triton = torch.empty_like(q), torch.empty_like(q)
                m_tilec = torch.empty((B * H, NQ), device=dev, dtype=torch.float32)
                m_triton = torch.empty_like(m_tilec)
                grid = (triton.cdiv(NQ, CONFIG["BLOCK_M"]), B * H)
                strides = (*q.stride(), *k.stride(), *v.stride(), *o_tilec.stride())

                # The arguments after M and Out: strides, H, N_Q, N_KV
                # (blockptr) or Z, H, N_Q, N_KV (desc).
                shape_args = (*strides, H, NQ, NKV) if FORM == "blockptr" else (B, H, NQ, NKV)
                extra = {} if FORM == "blockptr" else {"WARP_SPECIALIZE": False}

                def run_tilec():
                    kernel.launch(grid, q, k, v, sm_scale, m_tilec, o_tilec, *shape_args)

                # The CUDA C++ build's outputs, checked like tilec's.
                o_cuda, m_cuda = ((torch.empty_like(o_tilec), torch.empty_like(m_tilec))
                                  if cuda else (None, None))

                def run_cuda():
                    kernel_c.launch(grid, q, k, v, sm_scale, m_cuda, o_cuda, *shape_args)

                def triton_fn(block_n, stages, warps, o=o_triton, m=m_triton):
                    g = (triton.cdiv(NQ, CONFIG["BLOCK_M"]), B * H)
                    fn = getattr(att, kernel_name)

                    def run():
                        fn[g](q, k, v, sm_scale, m, o, *shape_args,
                              HEAD_DIM=D, BLOCK_M=CONFIG["BLOCK_M"],
                              BLOCK_N=block_n, CAUSAL=causal,
                              num_warps=warps, num_stages=stages, **extra)
                    return run

                run_triton = triton_fn(CONFIG["BLOCK_N"], NUM_STAGES, NUM_WARPS)
                # tilec's other configs (PTX <name>_n<BN>s<S>w<W>.ptx beside the
                # default's), each launched with its own BLOCK_M 128 grid.
                tilec_cfgs = {}
                if not args.no_sweep and aligned:
                    base = ptx_name(dt, causal)[:-4] + "_"
                    for fname in sorted(os.listdir(args.kernels)):
                        if fname.startswith(base) and fname.endswith(".ptx"):
                            kc = ctx.load_file(os.path.join(args.kernels, fname)) \
                                .kernel(kernel_name)
                            tilec_cfgs[fname[len(base):-4]] = kc
                impls = {"tilec": run_tilec}
                if cuda:
                    impls["tilec_cuda"] = run_cuda
                if with_peers:
                    impls["triton"] = run_triton
                size = f"{NQ}" if NQ == NKV else f"{NQ}x{NKV}"
                what = f"{dt} B={B} H={H} N={size} D={D} {'causal' if causal else 'full'}"

                # Correctness first: against SDPA's default backend.
                ref = sdpa(None, q, k, v, causal)
                errors = {}
                outputs = [("tilec", o_tilec, m_tilec)]
                if cuda:
                    outputs.append(("tilec_cuda", o_cuda, m_cuda))
                if with_peers:
                    outputs.append(("triton", o_triton, m_triton))
                for name, o, m in outputs:
                    if name.startswith("tilec"):
                        o.fill_(float("nan"))
                        m.fill_(float("nan"))
                    impls[name]()
                torch.cuda.synchronize()
                for name, o, _ in outputs:
                    errors[name] = (o.float() - ref.float()).abs().max().item()
                for name, backend in peers:
                    if backend is None:
                        print(f"warning: this torch has no SDPA backend {name}")
                        continue
                    try:
                        out = sdpa(backend, q, k, v, causal)
                        torch.cuda.synchronize()
                    except Exception as e:  # backend not available for these inputs
                        print(f"warning: SDPA {name} unavailable for {what}: "
                              f"{type(e).__name__}: {str(e)[:200]}")
                        continue
                    errors[name] = (out.float() - ref.float()).abs().max().item()
                    del out

                    def run_peer(backend=backend):
                        sdpa(backend, q, k, v, causal)
                    impls[name] = run_peer
                # M against a float32 logsumexp (base 2) of two heads.
                m_errors = {}
                for zh in sorted({0, B * H - 1}):
                    z, h = divmod(zh, H)
                    s = (q[z, h].float() @ k[z, h].float().T) * sm_scale
                    if causal:
                        s.masked_fill_(torch.ones(NQ, NKV, device=dev, dtype=torch.bool)
                                       .triu_(1), float("-inf"))
                    lse2 = torch.logsumexp(s, dim=1) / math.log(2.0)
                    del s
                    for name, _, m in outputs:
                        e = (m[zh] - lse2).abs().max().item()
                        m_errors[name] = max(m_errors.get(name, 0.0), e)
                del ref
                print(f"{what}: max abs error against SDPA: " +
                      ", ".join(f"{n} {e:.3g}" for n, e in errors.items()) +
                      "; M (base-2 logsumexp): " +
                      ", ".join(f"{n} {e:.3g}" for n, e in m_errors.items()))
                for name in errors:
                    if not errors[name] <= atol:
                        msg = (f"{what}: {name}'s O differs from SDPA's: max abs error "
                               f"{errors[name]:.3g} > {atol}")
                        if name.startswith("tilec"):
                            raise SystemExit(msg)
                        print("warning: " + msg)
                for name in ("tilec", "tilec_cuda") if cuda else ("tilec",):
                    if not m_errors[name] <= 1e-2:
                        raise SystemExit(f"{what}: {name}'s M is off by {m_errors[name]:.3g} "
                                         "from the float32 logsumexp")

                # tilec's best config: each checked against the default's O,
                # one do_bench each; the fastest is timed in the rounds too.
                tilec_best = f"n{CONFIG['BLOCK_N']}s{NUM_STAGES}w{NUM_WARPS}"
                backend_rows = []  # --cuda-kernels: each sweep config's two builds
                if tilec_cfgs:
                    o_tsweep, m_tsweep = torch.empty_like(q), torch.empty_like(m_tilec)
                    best_t = bench(run_tilec)
                    for name_cfg, kc in tilec_cfgs.items():
                        def run_cfg(kc=kc):
                            kc.launch(grid, q, k, v, sm_scale, m_tsweep, o_tsweep, *shape_args)
                        cfg_runs = [("tilec", run_cfg)]
                        if cuda:
                            kc_c = tilec_rt.load_kernel(ctx, cuda, os.path.basename(kc.path),
                                                        kernel_name)
                            cfg_runs.append(("tilec_cuda", lambda kc_c=kc_c: run_cfg(kc_c)))
                        cfg_ms = {}
                        for who, fn in cfg_runs:
                            o_tsweep.fill_(float("nan"))
                            fn()
                            torch.cuda.synchronize()
                            err = (o_tsweep.float() - o_tilec.float()).abs().max().item()
                            if not err <= atol:
                                raise SystemExit(f"{what}: {who} config {name_cfg} disagrees "
                                                 f"with the default config by {err:.3g}")
                            cfg_ms[who] = bench(fn)
                        ms = cfg_ms["tilec"]
                        if cuda:
                            backend_rows.append(tilec_rt.backend_fields(
                                kc, kc_c, ms, cfg_ms["tilec_cuda"], shape=what[len(dt) + 1:],
                                label=os.path.basename(kc.path)[:-4] + " (sweep)"))
                        if ms < best_t:
                            best_t, tilec_best = ms, name_cfg
                            impls["tilec_best"] = run_cfg

                # Triton's best config (one do_bench each), then the rounds.
                default_cfg = best_cfg = (CONFIG["BLOCK_N"], NUM_STAGES, NUM_WARPS)
                if not args.no_sweep and with_peers:
                    o_sweep, m_sweep = torch.empty_like(q), torch.empty_like(m_tilec)
                    best_ms = bench(run_triton)
                    for cfg in SWEEP:
                        if cfg == default_cfg:
                            continue
                        fn = triton_fn(*cfg, o=o_sweep, m=m_sweep)
                        try:
                            fn()
                            torch.cuda.synchronize()
                        except Exception as e:  # out of shared memory, ...
                            print(f"note: Triton config BLOCK_N={cfg[0]} stages={cfg[1]} "
                                  f"warps={cfg[2]} skipped: {type(e).__name__}")
                            continue
                        err = (o_sweep.float() - o_triton.float()).abs().max().item()
                        if not err <= atol:
                            print(f"warning: Triton config {cfg} disagrees with its default "
                                  f"config by {err:.3g}; left out")
                            continue
                        ms = bench(fn)
                        if ms < best_ms:
                            best_cfg, best_ms = cfg, ms
                    if best_cfg != default_cfg:
                        impls["triton_best"] = triton_fn(*best_cfg, o=o_sweep, m=m_sweep)
                times = interleaved_times(impls, args.rounds, args.warmup, args.rep)
                # Triton's best: the faster of its two configs in each round.
                if with_peers:
                    times["triton_best"] = [min(t, b) for t, b in
                                            zip(times["triton"],
                                                times.get("triton_best", times["triton"]))]
                times["tilec_best"] = [min(t, b) for t, b in
                                       zip(times["tilec"],
                                           times.get("tilec_best", times["tilec"]))]
                # Query-key pairs computed: all, half for causal at N_Q = N_KV
                # (the FlashAttention papers' count), else the visible ones.
                pairs = NQ * NKV
                if causal:
                    pairs = NQ * NKV / 2 if NQ == NKV else \
                        sum(min(i + 1, NKV) for i in range(NQ))
                flops = 4.0 * B * H * pairs * D
                med = {name: statistics.median(ts) for name, ts in times.items()}
                tflops = {name: flops / (ms * 1e-3) / 1e12 for name, ms in med.items()}
                row = {
                    "dtype": dt, "B": B, "H": H, "N": size, "N_Q": NQ, "N_KV": NKV,
                    "D": D, "causal": causal,
                    "ptx": ptx_name(dt, causal, aligned),
                    "triton_best_config": dict(BLOCK_M=CONFIG["BLOCK_M"], BLOCK_N=best_cfg[0],
                                               num_stages=best_cfg[1], num_warps=best_cfg[2])
                    if with_peers else None,
                    **{f"{n}_ms": med[n] for n in med},
                    **{f"{n}_tflops": tflops[n] for n in tflops},
                    "tilec_over_triton": speedup(times, "tilec", "triton"),
                    "tilec_over_triton_best": speedup(times, "tilec", "triton_best"),
                    "tilec_best_config": tilec_best,
                    "tilec_best_over_triton_best": speedup(times, "tilec_best", "triton_best"),
                    "max_abs_error": errors, "m_max_abs_error": m_errors,
                }
                for name, _ in peers:
                    row[f"tilec_over_{name}"] = (speedup(times, "tilec", name)
                                                 if name in times else float("nan"))
                    row[f"tilec_best_over_{name}"] = (speedup(times, "tilec_best", name)
                                                      if name in times else float("nan"))
                if cuda:
                    row.update(tilec_rt.backend_fields(
                        kernel, kernel_c, med["tilec"], med["tilec_cuda"],
                        speedup(times, "tilec_cuda", "tilec"),
                        shape=what[len(dt) + 1:], work=flops, unit="TFLOP/s"),
                        backend_rows=backend_rows)
                rows.append(row)
                print(f"{what}: " + ", ".join(f"{n} {tflops[n]:.1f}" for n in tflops) +
                      " TFLOP/s")
                del q, k, v, o_tilec, o_triton, m_tilec, m_triton, o_cuda, m_cuda, impls, times
                torch.cuda.empty_cache()

    device = torch.cuda.get_device_name(dev)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "warmup_ms": args.warmup, "rep_ms": args.rep,
                       "rounds": args.rounds,
                       "config": {**CONFIG, "HEAD_DIM": HEAD_DIM, "num_stages": NUM_STAGES,
                                  "num_warps": NUM_WARPS},
                       "sweep": None if args.no_sweep else
                       [dict(BLOCK_N=bn, num_stages=st, num_warps=w) for bn, st, w in SWEEP],
                       "torch": torch.__version__, "triton": triton.__version__,
                       "rows": rows}, f, indent=2)
        print(f"wrote {args.json}")

    def fmt(x):
        return "-" if x is None or x != x else f"{x:.1f}"  # NaN: peer unavailable

    def ratio(x):
        return "-" if x is None or x != x else f"{x:.3f}"

    # With --cuda-kernels, "tilec cuda" after "tilec" and "cuda/ptx" last;
    # with --tilec-only, "-" for the peers.
    header = ("dtype", "mask", "N", "tilec", *(("tilec cuda",) if cuda else ()), "tilec best",
              "triton", "triton best", "cuDNN", "FA", "tilec/triton", "best/cuDNN",
              "best/triton best", "tilec cfg", "triton cfg", *(("cuda/ptx",) if cuda else ()))
    lines = [header]
    for r in rows:
        cfg = r["triton_best_config"]
        lines.append((r["dtype"], "causal" if r["causal"] else "full", str(r["N"]),
                      fmt(r["tilec_tflops"]),
                      *((fmt(r["tilec_cuda_tflops"]),) if cuda else ()),
                      fmt(r["tilec_best_tflops"]),
                      fmt(r.get("triton_tflops")), fmt(r.get("triton_best_tflops")),
                      fmt(r.get("cudnn_tflops", float("nan"))),
                      fmt(r.get("flash_tflops", float("nan"))),
                      ratio(r["tilec_over_triton"]), ratio(r.get("tilec_best_over_cudnn")),
                      ratio(r["tilec_best_over_triton_best"]), r["tilec_best_config"],
                      f"n{cfg['BLOCK_N']}s{cfg['num_stages']}w{cfg['num_warps']}" if cfg
                      else "-", *((ratio(r["cuda_over_ptx"]),) if cuda else ())))
    print(f"device: {device}; do_bench medians over {args.rounds} interleaved rounds; "
          f"TFLOP/s (4 B H N^2 D / t, halved for causal); B={B} H={H} D={D}; "
          f"{FORMS[FORM][0]} BLOCK_M={CONFIG['BLOCK_M']} BLOCK_N={CONFIG['BLOCK_N']}, "
          f"{NUM_STAGES} stages, {NUM_WARPS} warps (tilec and triton); FA = SDPA "
          "FLASH_ATTENTION" + ("; tilec cuda: the CUDA C++ back end's kernel, cuda/ptx = PTX "
                               "time / CUDA time (> 1: CUDA C++ faster)" if cuda else ""))
    print_table(lines, left=2)


if __name__ == "__main__":
    main()
