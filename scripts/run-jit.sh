#!/usr/bin/env bash
# Runs on the GPU machine from the folder scripts/jit-bundle.sh made: the
# JIT tests (cold compile, caches, second process, concurrency, errors,
# specialization, C API, graphs, launch cost), the host example built with
# CMake against the installed tree and run twice (the second process loads
# from the disk cache), and the AOT-built C program. Logs go to $OUT (or
# ./jit-logs); a summary is printed last. Exit 1 if any step failed.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
logs="${OUT:-$here/jit-logs}"
mkdir -p "$logs"
status=0
[ -f "$here/prefix/lib/libtilec_jit.so.xz" ] && xz -d "$here/prefix/lib/libtilec_jit.so.xz"
export TILEC_CACHE_DIR="$(mktemp -d)/cache"

echo "== tilec-jit-tests"
LD_LIBRARY_PATH="$here/prefix/lib" "$here/bin/tilec-jit-tests" "$here/src" \
  > "$logs/jit-tests.log" 2>&1 || status=1
echo "$(grep -c '^PASS' "$logs/jit-tests.log") passed, $(grep -c '^FAIL' "$logs/jit-tests.log") failed"
grep -E "^(FAIL|device|ptxas)" "$logs/jit-tests.log"

echo "== host_app (CMake against the installed tree)"
if cmake -S "$here/src/host_app" -B "$here/app" -G Ninja \
     -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$here/prefix" \
     > "$logs/host-app-build.log" 2>&1 &&
   cmake --build "$here/app" >> "$logs/host-app-build.log" 2>&1; then
  for run in 1 2; do
    "$here/app/host_app" "$here/src/softmax.py" > "$logs/host-app-$run.log" 2>&1 || status=1
    cat "$logs/host-app-$run.log"
  done
else
  echo "run-jit.sh: host_app did not build (see host-app-build.log)"; tail -20 "$logs/host-app-build.log"; status=1
fi

echo "== aot_main (tilec --aot, links libcuda only)"
ldd "$here/bin/aot_main" | grep -v -E "libc.so|ld-linux|vdso|libcuda|libm.so|libgcc|libpthread|libdl|librt" && status=1
"$here/bin/aot_main" > "$logs/aot.log" 2>&1 || status=1
cat "$logs/aot.log"
"$here/bin/aot_autotune_main" > "$logs/aot-autotune.log" 2>&1 || status=1
cat "$logs/aot-autotune.log"
"$here/bin/aot_gemm_main" > "$logs/aot-gemm.log" 2>&1 || { echo "aot_gemm_main exited with $?"; status=1; }
cat "$logs/aot-gemm.log"

echo "== summary"
sed -n '/^timing/,$p' "$logs/jit-tests.log"
grep "launch host us" "$logs/jit-tests.log"
exit $status
