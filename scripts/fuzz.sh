#!/usr/bin/env bash
# Builds the libFuzzer target over the front end (test/Fuzz/FrontendFuzzer.cpp)
# with clang-22, ASan and UBSan in its own build directory, and runs it for
# SECONDS (default 600) on one job, seeded with test/Frontend/{,Inputs/}*.py,
# examples/*.py, test/Fuzz/crashers/*.py and the multi-file inputs of
# test/Fuzz/seeds/*.py (a kernel and the modules it imports, split at
# `#@file PATH` lines; test/Fuzz/FuzzInput.h), with test/Fuzz/python.dict.
# Crash, leak and timeout inputs land in BUILD_DIR/artifacts/; the grown
# corpus in BUILD_DIR/corpus/.
# Extra arguments go to libFuzzer (e.g. -jobs=2, -only_ascii=1).
#
#   scripts/fuzz.sh [SECONDS] [libFuzzer options...]
#   FUZZ_BUILD=build-fuzz (default): the build directory
#   FUZZ_SRC=. (default): the source tree to build (e.g. a snapshot, so that
#     edits made during a long run do not reach the build)
#   needs: apt-get install clang-22 libclang-rt-22-dev
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
[ $# -gt 0 ] && shift
build="${FUZZ_BUILD:-build-fuzz}"
src="${FUZZ_SRC:-.}"

for tool in clang-22 clang++-22; do
  command -v "$tool" >/dev/null || {
    echo "fuzz: $tool not found; apt-get install clang-22 libclang-rt-22-dev" >&2
    exit 1
  }
done

if [ ! -f "$build/build.ninja" ]; then
  # -O1 -g without -DNDEBUG: the project's asserts (and those of the LLVM and
  # MLIR headers it inlines, cast<> included) are on.
  CC=clang-22 CXX=clang++-22 cmake -S "$src" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DCUDAToolkit_ROOT=/usr/local/cuda \
    -DTILEC_BUILD_FUZZERS=ON
fi
ninja -C "$build" tilec-frontend-fuzzer

corpus="$build/corpus"
artifacts="$build/artifacts"
mkdir -p "$corpus" "$artifacts"
cp -n test/Frontend/Inputs/*.py test/Frontend/*.py examples/*.py test/Fuzz/crashers/*.py \
  test/Fuzz/seeds/*.py "$corpus/" 2>/dev/null || true

# detect_leaks: every input allocates a fresh MLIR context and module, and
# frees them; a leak is a finding. The uninstrumented MLIR libraries are
# linked statically, so ASan sees their allocations too.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
exec nice -n 5 "$build/bin/tilec-frontend-fuzzer" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -dict=test/Fuzz/python.dict -artifact_prefix="$artifacts/" \
  -print_final_stats=1 "$@" "$corpus"
