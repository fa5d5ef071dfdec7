#!/bin/bash
# The GPU bundle's kernels through the CUDA C++ backend: for every kernel
# the bundle compiles to PTX (build/gpu-kernels), compile the same source
# with --emit=cuda, then the .cu with nvcc to PTX, and write it, after the
# .cu's metadata lines, to OUT/<name>.ptx -- a kernel directory that
# tilec-gpu-tests runs like the bundle's own (the differential check of the
# two backends; docs/testing.md). Kernels the CUDA backend cannot print yet
# are listed with the op it stopped at, and left out (their cases skip).
#
#   scripts/cuda-kernels.sh [BUILD_DIR] [OUT_DIR]   (build, build/gpu-bundle/kernels-cuda)
set -u
build=${1:-build}
out=${2:-$build/gpu-bundle/kernels-cuda}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
arch=${ARCH:-sm_90a}
command -v "$nvcc" > /dev/null || { echo "error: no nvcc at $nvcc (set NVCC)" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printed=0 compiled=0 skipped=0 failed=0
# The bundle's own commands, fused graphs included, unfused ones too.
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
  if "$nvcc" -arch="$arch" -ptx "$work/$name.cu" -o "$work/$name.ptx" > "$work/$name.nvcc" 2>&1; then
    { grep '^// tilec\.' "$work/$name.cu"; cat "$work/$name.ptx"; } > "$out/$name.ptx"
    compiled=$((compiled + 1))
    if [ -s "$work/$name.nvcc" ]; then
      echo "warning: nvcc on $name:"; head -5 "$work/$name.nvcc"
    fi
  else
    echo "FAIL nvcc $name:"; head -10 "$work/$name.nvcc"
    failed=$((failed + 1))
  fi
done < <(ninja -C "$build" -t commands gpu-bundle 2>/dev/null |
         grep -E 'bin/tilec .*--emit=ptx -o [^ ]*\.ptx' | sort -u)
echo "CUDA C++: $printed printed, $compiled compiled by nvcc to $out, $failed failed, $skipped not printable yet"
[ "$failed" -eq 0 ]
