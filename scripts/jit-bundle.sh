#!/usr/bin/env bash
# Builds the JIT for a GPU machine that has no LLVM (issue 13): a build with
# LLVM linked statically (TILEC_STATIC_LLVM, in BUILD_DIR, default
# build-jit), installed and stripped into OUT (default .dev/jit) with the
# JIT tests, an AOT-built C program and the sources they compile; the
# shared library is xz-compressed to fit a carry. On the GPU machine:
#
#   bash OUT/run-jit.sh      # unpacks, runs tilec-jit-tests, builds
#                            # examples/host_app with CMake against the
#                            # installed tree and runs it in two processes,
#                            # runs the AOT program; prints a summary
#
#   scripts/jit-bundle.sh [BUILD_DIR] [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build-jit}"
out="${2:-.dev/jit}"
cuda=/usr/local/cuda

if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DCUDAToolkit_ROOT="$cuda" -DTILEC_STATIC_LLVM=ON
fi
ninja -C "$build" tilec tilec-opt tilec_jit tilec-jit-tests tilec_runtime tilec_runtime_shared

rm -rf "$out"
mkdir -p "$out/src" "$out/bin"
cmake --install "$build" --prefix "$out/prefix" --strip > /dev/null
rm -rf "$out/prefix/bin" # the tools stay here; the GPU machine runs the JIT
strip --strip-unneeded -o "$out/bin/tilec-jit-tests" "$build/test/GPU/tilec-jit-tests"
cp examples/softmax.py examples/vector_add.py examples/vector_add.mlir test/GPU/kernels/py/autotune.py "$out/src/"
cp -r examples/host_app "$out/src/host_app"

# The AOT program: generated C, built here, linking only libcuda.
"$build/bin/tilec" examples/vector_add.py --kernel add_kernel \
  --signature '*fp32:16,*fp32:16,*fp32:16,i32:16' -D BLOCK_SIZE=1024 \
  --aot -o "$out/src/add"
cc -std=c11 -O2 -Wall -Wextra -Werror -I"$out/src" -I"$cuda/include" \
  test/CLI/Inputs/aot_main.c "$out/src/add.c" -L"$cuda/lib64/stubs" -lcuda \
  -o "$out/bin/aot_main"

# An autotuned kernel's AOT output: a launcher per config and a dispatcher.
"$build/bin/tilec" test/GPU/kernels/py/autotune.py --kernel sum_kernel \
  --signature '*i32:16,*i32:16,i32' --aot -o "$out/src/sum"
cc -std=c11 -O2 -Wall -Wextra -Werror -I"$out/src" -I"$cuda/include" \
  test/CLI/Inputs/aot_autotune_main.c "$out/src/sum.c" -L"$cuda/lib64/stubs" -lcuda \
  -o "$out/bin/aot_autotune_main"

# A GEMM whose operand loads are TMA copies: the launcher encodes the maps.
"$build/bin/tilec" test/GPU/kernels/py/matmul.py --kernel matmul_kernel \
  --signature '*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1' \
  -DBLOCK_M=128 -DBLOCK_N=128 -DBLOCK_K=64 -DGROUP_M=8 -DNUM_STAGES=3 \
  -DACC_INT32=False -DUPCAST_FP16=False -DINPUT_PRECISION=tf32 --num-warps 4 \
  --num-stages 3 --aot -o "$out/src/mm" 2>/dev/null
cc -std=c11 -O2 -Wall -Wextra -Werror -I"$out/src" -I"$cuda/include" \
  test/CLI/Inputs/aot_gemm_main.c "$out/src/mm.c" -L"$cuda/lib64/stubs" -lcuda \
  -o "$out/bin/aot_gemm_main"

xz -T2 -6 "$out/prefix/lib/libtilec_jit.so"
cp scripts/run-jit.sh "$out/run-jit.sh"
du -sh "$out"
