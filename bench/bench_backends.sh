#!/bin/bash
# Every tilec kernel of bench/ through both back ends in one run (issue 16):
# each benchmark with --kernels $KERNELS (the PTX back end) --cuda-kernels
# $CUDA_KERNELS (the CUDA C++ back end: the same file names, .ptx from
# bin/tilec-nvrtc or .cu that the runtime compiles with NVRTC at load)
# --tilec-only (no Triton/torch/cuBLAS timing; torch still checks the
# outputs), each kernel's two builds checked and timed in the same rounds;
# then bench/backends_summary.py prints one table of cuda/ptx (PTX time /
# CUDA time: > 1, the CUDA C++ build is faster) and the count within 5 %.
#
# From the GPU bundle's folder (python3 with torch; triton for do_bench),
# the benchmarks being the ones beside this script:
#
#   bench/bench_backends.sh [OUT]        (OUT: default backends/)
#
# Environment (paths relative to the bundle's folder, the current one):
# KERNELS (default kernels), CUDA_KERNELS (default kernels-cuda-ptx; when
# that folder is missing but kernels-cuda/*.cu and bin/tilec-nvrtc are
# there, they are compiled into it first, NVRTC_JOBS at once, each file's
# NVRTC time in OUT/nvrtc.tsv), SOURCES (default examples), ROUNDS
# (--rounds for the benchmarks that take it; default theirs), TIMEOUT
# (seconds per benchmark; default none), ONLY (a regex: just the runs whose
# name matches), ROWWISE_KERNELS and ROWWISE_CUDA_KERNELS
# (bench_rowwise_shapes.py's folders, compiled on the build machine with
# and without --tilec-flag=--emit=cuda; that run is skipped without them),
# TILEC_RUNTIME_LIB (default lib/libtilec_runtime.so), BUNDLE (default: the
# current folder; bin/tilec-graph-bench, bin/tilec-nvrtc and lib/ are
# looked up there).
#
# Each run writes OUT/NAME.json, OUT/NAME.log and OUT/NAME.rc (its exit
# status); a failing benchmark does not stop the others. The exit status is
# 1 if any run failed.
here=$(cd "$(dirname "$0")" && pwd)  # the benchmark scripts
bundle=${BUNDLE:-$PWD}
kernels=${KERNELS:-kernels}
cuda_kernels=${CUDA_KERNELS:-kernels-cuda-ptx}
sources=${SOURCES:-examples}
out=${1:-backends}
python=${PYTHON:-python3}
export TILEC_RUNTIME_LIB=${TILEC_RUNTIME_LIB:-$bundle/lib/libtilec_runtime.so}
mkdir -p "$out"

if [ ! -d "$kernels" ]; then
  echo "bench_backends.sh: no kernel folder '$kernels' (set KERNELS)" >&2
  exit 2
fi

# The CUDA C++ kernels as PTX, compiled here when the folder is missing.
nvrtc=$bundle/bin/tilec-nvrtc
if [ ! -d "$cuda_kernels" ] && [ -d kernels-cuda ] && [ -x "$nvrtc" ]; then
  echo "== NVRTC: kernels-cuda/*.cu -> $cuda_kernels (${NVRTC_JOBS:-16} at once;" \
       "per-file times in $out/nvrtc.tsv)"
  mkdir -p "$cuda_kernels"
  start=$SECONDS
  # Each line: file, exit status, milliseconds (each file shares the cores).
  # shellcheck disable=SC2016  # $1, $2: the inner bash's arguments
  printf '%s\n' kernels-cuda/*.cu | xargs -P"${NVRTC_JOBS:-16}" -I{} bash -c \
    't0=$(date +%s%N); "$1" -o "$2" "$3" > /dev/null; rc=$?;
     printf "%s\t%d\t%d\n" "$(basename "$3" .cu)" "$rc" $((($(date +%s%N) - t0) / 1000000))' \
    _ "$nvrtc" "$cuda_kernels" {} > "$out/nvrtc.tsv"
  echo "   $(wc -l < "$out/nvrtc.tsv") files in $((SECONDS - start)) s," \
       "$(awk -F'\t' '$2 != 0' "$out/nvrtc.tsv" | wc -l) failed"
fi
if [ ! -d "$cuda_kernels" ]; then
  echo "bench_backends.sh: no CUDA C++ kernel folder '$cuda_kernels' (set CUDA_KERNELS," \
       "or carry kernels-cuda/ and bin/tilec-nvrtc)" >&2
  exit 2
fi

rounds=()
[ -n "${ROUNDS:-}" ] && rounds=(--rounds "$ROUNDS")
limit=()
[ -n "${TIMEOUT:-}" ] && limit=(timeout "$TIMEOUT")
failed=()

# run NAME KERNELS CUDA_KERNELS SCRIPT [ARGS...]: one benchmark, its output
# to the terminal and OUT/NAME.log, its JSON to OUT/NAME.json.
run_in() {
  local name=$1 k=$2 c=$3 script=$4
  shift 4
  if [ -n "${ONLY:-}" ] && ! [[ $name =~ $ONLY ]]; then
    return
  fi
  echo "== $name: bench/$script $*"
  local start=$SECONDS
  "${limit[@]}" "$python" "$here/$script" --kernels "$k" --cuda-kernels "$c" --tilec-only \
    --json "$out/$name.json" "$@" 2>&1 | tee "$out/$name.log"
  local rc=${PIPESTATUS[0]}
  echo "$rc" > "$out/$name.rc"
  echo "== $name: exit $rc, $((SECONDS - start)) s"
  [ "$rc" -ne 0 ] && failed+=("$name")
}

run() {
  run_in "$1" "$kernels" "$cuda_kernels" "${@:2}"
}

has() {
  [ -f "$kernels/$1.ptx" ]
}

both_dtypes=()
# shellcheck disable=SC2054  # one argument, bf16 and fp16
has bench_attn_fwd_fp16_d128_causal && both_dtypes=(--dtypes bf16,fp16)

run vector_add bench_vector_add.py
run rowwise bench_rowwise.py --sources "$sources"
if has bench_matmul_fp16_i32_16; then
  run gemm bench_gemm.py --sources "$sources" "${rounds[@]}"
  for fam in wgmma wgmma_tmaptr wgmma_tmaptr_cluster2; do
    has "bench_${fam}_fp16_i32_16" && has "bench_${fam}_bf16_i32_16" &&
      run "gemm_$fam" bench_gemm.py --sources "$sources" --family "$fam" "${rounds[@]}"
  done
fi
has bench_wgmma_fp8e4nv_tn &&
  run fp8_gemm bench_fp8_gemm.py --sources "$sources" "${rounds[@]}"
has bench_wgmma_tmaptr_fp8e4nv_tn &&
  run fp8_gemm_tmaptr bench_fp8_gemm.py --sources "$sources" --tmaptr "${rounds[@]}"
has bench_wgmma_fp16_gelu_i32_16 &&
  run gemm_gelu bench_gemm_gelu.py --sources "$sources" "${rounds[@]}"
has bench_desc_fp16_gelu_pp_64x256_i32_16 &&
  run gemm_gelu_pp_64x256 bench_gemm_gelu.py --sources "$sources" --form descpp \
    --pp-tile 64x256 "${rounds[@]}"
has bench_desc_fp16_i32_16 &&
  run desc_gemm bench_desc_gemm.py --sources "$sources" "${rounds[@]}"
has bench_host_desc_fp16 &&
  run host_desc_gemm bench_desc_gemm.py --sources "$sources" --host "${rounds[@]}"
has bench_host_desc_tma_fp16 &&
  run host_desc_tma_gemm bench_desc_gemm.py --sources "$sources" --host --tma "${rounds[@]}"
has bench_host_desc_tma_fp16_i32 &&
  run host_desc_tma_gemm_untuned bench_desc_gemm.py --sources "$sources" --host --tma \
    --untuned "${rounds[@]}"
has bench_host_desc_ws_fp16 &&
  run host_desc_ws_gemm bench_desc_gemm.py --sources "$sources" --host --tma --ws "${rounds[@]}"
has bench_host_desc_pp_fp16 &&
  run host_desc_pp_gemm bench_desc_gemm.py --sources "$sources" --host --tma --pp "${rounds[@]}"
for tile in 64x256 128x128x128; do
  has "bench_host_desc_pp_${tile}_fp16" &&
    run "host_desc_pp_${tile}_gemm" bench_desc_gemm.py --sources "$sources" --host --tma \
      --pp --pp-tile "$tile" "${rounds[@]}"
done
has bench_attn_fwd_bf16_d128_causal &&
  run attention bench_attention.py --sources "$sources" "${both_dtypes[@]}" "${rounds[@]}"
has bench_attn_fwd_desc_bf16_d128_causal &&
  run attention_desc bench_attention.py --sources "$sources" --form desc "${both_dtypes[@]}" \
    "${rounds[@]}"
has bench_attn_bwd_bf16_d128_causal &&
  run attention_bwd bench_attention_bwd.py --sources "$sources" "${both_dtypes[@]}" \
    "${rounds[@]}"
has bench_mlp_linear_bf16_gelu &&
  run mlp bench_mlp.py --sources "$sources" "${rounds[@]}"
has bench_mlp_fused_bf16 &&
  run mlp_fused bench_mlp.py --sources "$sources" --fused "${rounds[@]}"
ls "$kernels"/bench_conv_*.ptx > /dev/null 2>&1 &&
  run conv bench_conv.py --sources "$sources"
[ -x "$bundle/bin/tilec-graph-bench" ] &&
  run graph bench_graph.py --bundle "$bundle"
if [ -n "${ROWWISE_KERNELS:-}" ] && [ -n "${ROWWISE_CUDA_KERNELS:-}" ]; then
  run_in rowwise_shapes "$ROWWISE_KERNELS" "$ROWWISE_CUDA_KERNELS" bench_rowwise_shapes.py \
    "${rounds[@]}"
else
  echo "== rowwise_shapes: skipped (set ROWWISE_KERNELS and ROWWISE_CUDA_KERNELS)"
fi

echo
"$python" "$here/backends_summary.py" "$out" | tee "$out/summary.txt"
if [ "${#failed[@]}" -ne 0 ]; then
  echo "bench_backends.sh: failed: ${failed[*]} (logs in $out/)"
  exit 1
fi
