#!/bin/bash
# The GPU bundle's kernels through the CUDA C++ backend: for every kernel
# the bundle compiles to PTX (build/gpu-kernels), compile the same source
# with --emit=cuda into OUT/<name>.cu -- a kernel directory that
# tilec-gpu-tests runs like the bundle's own, compiling each .cu with NVRTC
# at load (the differential check of the two backends; docs/testing.md).
# Kernels the CUDA backend cannot print yet are listed with the op it
# stopped at and left out (their cases skip). With NVCC_CHECK=1, each .cu
# is also compiled by nvcc (-arch=sm_90a), and any warning is shown.
#
#   scripts/cuda-kernels.sh [BUILD_DIR] [OUT_DIR]   (build, BUILD_DIR/gpu-bundle/kernels-cuda)
set -u
build=${1:-build}
out=${2:-$build/gpu-bundle/kernels-cuda}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
check=${NVCC_CHECK:-0}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printed=0 skipped=0 failed=0
while IFS= read -r cmd; do
  name=$(sed -E 's/.*--emit=ptx -o [^ ]*\/([^ /]*)\.ptx.*/\1/' <<< "$cmd")
  tilec_cmd=$(sed -E 's/^.*&& //; s/--emit=ptx -o [^ ]*/--emit=cuda -o '"${work//\//\\/}"'\/'"$name"'.cu/' <<< "$cmd")
  if ! eval "$tilec_cmd" > "$work/$name.err" 2>&1; then
    why=$(grep -m1 -o "error: .*" "$work/$name.err" | sed -E "s/ at [^ ]*$//")
    echo "skip $name: ${why:-tilec failed}"
    skipped=$((skipped + 1))
    continue
  fi
  printed=$((printed + 1))
  cp "$work/$name.cu" "$out/$name.cu"
  if [ "$check" = 1 ]; then
    if ! "$nvcc" -arch=sm_90a -ptx "$work/$name.cu" -o "$work/$name.ptx" \
         > "$work/$name.nvcc" 2>&1; then
      echo "FAIL nvcc $name:"; head -10 "$work/$name.nvcc"
      failed=$((failed + 1))
    elif [ -s "$work/$name.nvcc" ]; then
      echo "warning: nvcc on $name:"; head -5 "$work/$name.nvcc"
    fi
  fi
done < <(ninja -C "$build" -t commands gpu-bundle 2>/dev/null |
         grep -E 'bin/tilec .*--emit=ptx -o [^ ]*\.ptx' | sort -u)
echo "CUDA C++: $printed kernels printed to $out, $skipped not printable yet" \
     "$([ "$check" = 1 ] && echo "; nvcc: $failed failed")"
[ "$failed" -eq 0 ]
