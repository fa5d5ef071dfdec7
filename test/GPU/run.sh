#!/usr/bin/env bash
# Runs the tilec GPU tests from a gpu-bundle folder (see docs/testing.md).
#
#   run.sh [--sanitize] [--bench] [--quick] [--reference]
#
#   (default)    bin/tilec-gpu-tests kernels
#   --quick      skip the big cases (2^28+17 and 2^31+17 elements)
#   --sanitize   also run compute-sanitizer --tool memcheck over the --quick
#                tests, --tool racecheck over the shared-memory kernels
#                (transpose and the pipelined tl.dot GEMMs) and --tool
#                synccheck over the mbarrier and warp-specialized GEMMs
#   --bench      also run bench/bench_vector_add.py, bench_rowwise.py and,
#                when the bundle has the tl.dot kernels, bench_gemm.py,
#                bench_fp8_gemm.py, bench_gemm_gelu.py and bench_desc_gemm.py (and --host,
#                --host --tma, --host --tma --pp), bench_attention.py,
#                bench_attention_bwd.py, bench_mlp.py, bench_conv.py (needs python3, torch, triton); JSON to $TILEC_BENCH_JSON (or
#                ./bench_vector_add.json), $TILEC_ROWWISE_JSON,
#                $TILEC_GEMM_JSON, $TILEC_FP8_GEMM_JSON,
#                $TILEC_GEMM_GELU_JSON, $TILEC_DESC_GEMM_JSON, $TILEC_ATTN_JSON,
#                $TILEC_ATTN_BWD_JSON, $TILEC_MLP_JSON, $TILEC_CONV_JSON
#   --reference  use reference-kernels/ (nvcc-compiled CUDA C twins) instead
#                of kernels/: checks the harness and runtime without tilec
#
# Prints nvidia-smi -L first; exits non-zero if any step fails (a test run
# without a GPU, exit 77, counts as a failure here: the bundle is meant for a
# GPU machine). Only relative paths: the folder can live anywhere.
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
sanitize=0 bench=0 quick=0 reference=0
for arg in "$@"; do
  case "$arg" in
    --sanitize) sanitize=1 ;;
    --bench) bench=1 ;;
    --quick) quick=1 ;;
    --reference) reference=1 ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
  esac
done

kernels="$here/kernels"
[ "$reference" = 1 ] && kernels="$here/reference-kernels"
quick_flag=()
[ "$quick" = 1 ] && quick_flag=(--quick)
status=0

echo "== nvidia-smi -L"
nvidia-smi -L || echo "run.sh: nvidia-smi failed"

echo "== tilec-gpu-tests $kernels ${quick_flag[*]}"
"$here/bin/tilec-gpu-tests" "$kernels" "${quick_flag[@]}"
rc=$?
if [ "$rc" -ne 0 ]; then
  echo "run.sh: tilec-gpu-tests exited with $rc"
  status=1
fi

if [ "$sanitize" = 1 ]; then
  sanitizer="$(command -v compute-sanitizer || true)"
  for candidate in /usr/local/cuda/bin/compute-sanitizer \
                   /usr/local/cuda/compute-sanitizer/compute-sanitizer; do
    [ -z "$sanitizer" ] && [ -x "$candidate" ] && sanitizer="$candidate"
  done
  if [ -z "$sanitizer" ]; then
    echo "run.sh: compute-sanitizer not found"
    status=1
  else
    echo "== compute-sanitizer --tool memcheck tilec-gpu-tests --quick"
    "$sanitizer" --tool memcheck --leak-check full --error-exitcode 3 \
      "$here/bin/tilec-gpu-tests" "$kernels" --quick
    rc=$?
    if [ "$rc" -ne 0 ]; then
      echo "run.sh: compute-sanitizer run exited with $rc"
      status=1
    fi
    # Kernels that exchange tiles through shared memory: convert_layout, the
    # semantics cases below, and
    # the tl.dot GEMMs whose K loop is pipelined through shared memory
    # (cp.async stages; num_stages 1-4, the indirect aux store, ragged
    # tiles). Without the dot kernels in the bundle their cases SKIP.
    racy="transpose_kernel,matmul_fp16_stages1,matmul_fp16_stages2"
    racy+=",matmul_fp16_stages3,matmul_fp16_stages4,matmul_aux_fp16"
    racy+=",matmul_fp16_aligned,matmul_fp16,matmul_int8,matmul_fp8e4nv"
    racy+=",matmul_fp32_tf32x3,matmul_nt_fp16,attention_chain_16"
    # wgmma reading cp.async-filled NVMMA buffers (sm_90a).
    racy+=",wgmma_fp16,wgmma_fp16_k16,wgmma_fp16_wn2,wgmma_tn_fp16"
    racy+=",wgmma_fp16_out_fp16,wgmma_fp8e5_tn,wgmma_int8_tn,wgmma_tf32_k16_tn"
    racy+=",attention_chain_64,matmul_fp8e4nv_upcast"
    # Persistent descriptor GEMMs: the K loop's buffers reused tile after
    # tile.
    racy+=",matmul_desc_fp16,matmul_desc_bf16_mma_sync,desc_copy_kernel_tma"
    # Host-descriptor GEMMs: B copied as [N, K] and read through a
    # transposed view; persistent ones reuse the buffers tile after tile.
    racy+=",matmul_tma_fp16,matmul_tma_persistent_bf16"
    racy+=",matmul_tma_persistent_fp16_f32,wgmma_nt_fp16"
    # The same with TMA copies and mbarrier pipelines.
    racy+=",matmul_tma_fp16_tma,matmul_tma_persistent_bf16_tma"
    racy+=",matmul_tma_persistent_fp16_f32_tma,desc_arg_copy_kernel_tma"
    # Pointer GEMMs whose operand loads became TMA copies
    # (--tma-pointer-loads), and a fused epilogue before a TMA store.
    racy+=",wgmma_fp16_tmaptr,wgmma_bf16_k32_tmaptr,wgmma_fp16_gelu_tmaptr"
    racy+=",wgmma_fp16_cc_tmaptr,wgmma_fp8e4nv_tn_tmaptr"
    racy+=",wgmma_nt_fp16_tmaptr,wgmma_tn_fp16_tmaptr"
    racy+=",matmul_desc_fp16_gelu"
    # Warp-specialized: a producer warpgroup fills the slots on "empty" and
    # "full" mbarriers, the consumers wait at named barriers.
    ws="matmul_tma_fp16_ws,matmul_tma_persistent_fp16_f32_ws"
    ws+=",matmul_tma_persistent_bf16_ws,bench_host_desc_ws_fp16"
    ws+=",bench_host_desc_ws_bf16,bench_host_desc_ws_fp16_i32"
    # ... with two consumer groups (ping-pong, --num-consumer-groups 2).
    ws+=",matmul_tma_persistent_fp16_f32_pp,matmul_tma_persistent_bf16_pp"
    ws+=",matmul_tma_persistent_fp16_pp_sub,bench_host_desc_pp_fp16"
    ws+=",bench_host_desc_pp_bf16_i32,bench_desc_fp16_gelu_pp_i32_16"
    racy+=",$ws"
    # Results of atomics broadcast across warps, histogram counters,
    # reductions across warps.
    racy+=",replicated_atomics_r1_w4,replicated_atomics_r4_w4"
    racy+=",replicated_atomics_r8_w8,histogram_b1024_n64_w4"
    racy+=",histogram_b128_n16_w8,nan_reductions_w8"
    # Fused attention: two chained dots, P through registers, K and V
    # pipelined (--quick below leaves out its 4097-key case).
    racy+=",attn_fwd_bf16_d128_causal,attn_fwd_desc_fp16_d128_full"
    # The backward (Q^T and dO shared by two dots each) and the fused MLP.
    racy+=",attn_bwd_bf16_d128_causal,mlp_fused_bf16"
    echo "== compute-sanitizer --tool racecheck tilec-gpu-tests --only $racy --quick"
    "$sanitizer" --tool racecheck --racecheck-report all --error-exitcode 3 \
      "$here/bin/tilec-gpu-tests" "$kernels" --only "$racy" --quick
    rc=$?
    if [ "$rc" -ne 0 ]; then
      echo "run.sh: compute-sanitizer racecheck exited with $rc"
      status=1
    fi
    # Barriers (CTA, named, warp) that not every thread of a warp reaches:
    # the mbarrier pipelines and the warp-specialized partitions.
    sync="matmul_tma_fp16_tma,matmul_tma_persistent_bf16_tma"
    sync+=",matmul_tma_persistent_fp16_f32_tma,matmul_desc_fp16,$ws"
    sync+=",wgmma_fp16_tmaptr,wgmma_bf16_k32_tmaptr,matmul_desc_fp16_gelu"
    sync+=",wgmma_fp16_cc_tmaptr,wgmma_fp8e4nv_tn_tmaptr"
    sync+=",attn_fwd_desc_fp16_d128_full"
    echo "== compute-sanitizer --tool synccheck tilec-gpu-tests --only $sync"
    "$sanitizer" --tool synccheck --error-exitcode 3 \
      "$here/bin/tilec-gpu-tests" "$kernels" --only "$sync"
    rc=$?
    if [ "$rc" -ne 0 ]; then
      echo "run.sh: compute-sanitizer synccheck exited with $rc"
      status=1
    fi
  fi
fi

# run_bench SCRIPT JSON [ARGS...]: bench/SCRIPT with the bundle's kernels
# and runtime, its JSON to JSON; a failure fails the run.
run_bench() {
  local script="$1" json="$2"
  shift 2
  echo "== bench/$script"
  TILEC_RUNTIME_LIB="$here/lib/libtilec_runtime.so" \
    python3 "$here/bench/$script" --kernels "$kernels" --json "$json" "$@"
  local rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "run.sh: bench/$script exited with $rc"
    status=1
  fi
}

if [ "$bench" = 1 ]; then
  run_bench bench_vector_add.py "${TILEC_BENCH_JSON:-bench_vector_add.json}"
  run_bench bench_rowwise.py "${TILEC_ROWWISE_JSON:-bench_rowwise.json}" \
    --sources "$here/examples"
  if [ -f "$kernels/bench_matmul_fp16_i32_16.ptx" ]; then
    run_bench bench_gemm.py "${TILEC_GEMM_JSON:-bench_gemm.json}" \
      --sources "$here/examples"
    [ -f "$kernels/bench_wgmma_fp8e4nv_tn.ptx" ] &&
      run_bench bench_fp8_gemm.py "${TILEC_FP8_GEMM_JSON:-bench_fp8_gemm.json}" \
        --sources "$here/examples"
    [ -f "$kernels/bench_wgmma_fp16_gelu_i32_16.ptx" ] &&
      run_bench bench_gemm_gelu.py "${TILEC_GEMM_GELU_JSON:-bench_gemm_gelu.json}" \
        --sources "$here/examples"
    [ -f "$kernels/bench_desc_fp16_i32_16.ptx" ] &&
      run_bench bench_desc_gemm.py "${TILEC_DESC_GEMM_JSON:-bench_desc_gemm.json}" \
        --sources "$here/examples"
    [ -f "$kernels/bench_host_desc_fp16.ptx" ] &&
      run_bench bench_desc_gemm.py "${TILEC_HOST_DESC_GEMM_JSON:-bench_host_desc_gemm.json}" \
        --sources "$here/examples" --host
    [ -f "$kernels/bench_host_desc_tma_fp16.ptx" ] &&
      run_bench bench_desc_gemm.py "${TILEC_HOST_DESC_TMA_GEMM_JSON:-bench_host_desc_tma_gemm.json}" \
        --sources "$here/examples" --host --tma
    [ -f "$kernels/bench_host_desc_pp_fp16.ptx" ] &&
      run_bench bench_desc_gemm.py "${TILEC_HOST_DESC_PP_GEMM_JSON:-bench_host_desc_pp_gemm.json}" \
        --sources "$here/examples" --host --tma --pp
    [ -f "$kernels/bench_attn_fwd_bf16_d128_causal.ptx" ] &&
      run_bench bench_attention.py "${TILEC_ATTN_JSON:-bench_attention.json}" \
        --sources "$here/examples"
    [ -f "$kernels/bench_attn_bwd_bf16_d128_causal.ptx" ] &&
      run_bench bench_attention_bwd.py "${TILEC_ATTN_BWD_JSON:-bench_attention_bwd.json}" \
        --sources "$here/examples"
    [ -f "$kernels/bench_mlp_linear_bf16_gelu.ptx" ] &&
      run_bench bench_mlp.py "${TILEC_MLP_JSON:-bench_mlp.json}" \
        --sources "$here/examples"
    [ -f "$kernels/bench_conv_hoist_32x128x32_w4_s3.ptx" ] &&
      run_bench bench_conv.py "${TILEC_CONV_JSON:-bench_conv.json}" \
        --sources "$here/examples"
  else
    echo "== bench/bench_gemm.py: skipped (no tl.dot kernels in $kernels;" \
         "build with -DTILEC_GPU_DOT_TESTS=ON)"
  fi
fi

[ "$status" = 0 ] && echo "run.sh: all steps passed" || echo "run.sh: FAILED"
exit "$status"
