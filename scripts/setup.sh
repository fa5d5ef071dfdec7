#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for tilec and builds it, then runs the
# main job: compile the bundled example tile program to PTX and have ptxas
# assemble it. Idempotent: packages already present are not reinstalled and
# an existing build directory is reused.
#
#   scripts/setup.sh [--no-install] [BUILD_DIR]     (default BUILD_DIR: build)
#
# Needs root (or sudo) for apt, and the CUDA 13.0 toolkit in /usr/local/cuda
# (nvcc, ptxas, cuda.h and the libcuda stub; no GPU or driver needed).
set -euo pipefail
cd "$(dirname "$0")/.."

install=1
build=build
for arg in "$@"; do
  case "$arg" in
    --no-install) install=0 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) build="$arg" ;;
  esac
done

packages=(cmake ninja-build ccache g++ python3 libgtest-dev libfmt-dev nlohmann-json3-dev
          llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libhiredis-dev redis-server)
if [ "$install" = 1 ]; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
fi

cuda=/usr/local/cuda
if [ ! -x "$cuda/bin/ptxas" ] || [ ! -f "$cuda/include/cuda.h" ]; then
  echo "setup: error: the CUDA 13.0 toolkit was not found in $cuda (ptxas, cuda.h)" >&2
  exit 1
fi
export PATH="$cuda/bin:$PATH"

if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DCUDAToolkit_ROOT="$cuda"
fi
ninja -C "$build" tilec tilec-opt tilec_jit

# The main job: a bundled tile program to PTX, assembled by ptxas.
mkdir -p "$build/examples"
"$build/bin/tilec" examples/vector_add.mlir --emit=ptx -o "$build/examples/vector_add.ptx"
ptxas -arch=sm_90a "$build/examples/vector_add.ptx" -o "$build/examples/vector_add.cubin"
echo "setup: compiled examples/vector_add.mlir -> $build/examples/vector_add.ptx (ptxas -arch=sm_90a accepts it)"
