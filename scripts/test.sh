#!/usr/bin/env bash
# Builds what the tests need and runs every test: the lit suites (dialect,
# passes, PTX output assembled by ptxas, CLI, examples; GPU tests where a GPU
# is present, UNSUPPORTED elsewhere) and the GoogleTest unit tests (through
# lit). Ends with one line: `N passed, N failed, N skipped`.
#
#   scripts/test.sh [BUILD_DIR]     (default: build; run scripts/setup.sh first)
set -uo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
export PATH="/usr/local/cuda/bin:$PATH"

if [ ! -f "$build/build.ninja" ]; then
  echo "test: no build in '$build'; run scripts/setup.sh first" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
if ! ninja -C "$build" tilec-test-deps; then
  echo "test: build failed" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

log="$build/test-results.log"
/usr/lib/llvm-22/bin/lit -v "$build/test" "$build/test/Unit" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}

count() { # lit summary line "  Passed: N (..)" -> N
  local n
  n=$(grep -E "^ *$1 *: +[0-9]+" "$log" | tail -1 | sed -E 's/^ *[A-Za-z ]+ *: +([0-9]+).*/\1/')
  echo "${n:-0}"
}
passed=$(( $(count Passed) + $(count "Expectedly Failed") ))
failed=$(( $(count Failed) + $(count "Unexpectedly Passed") + $(count Unresolved) + $(count "Timed Out") ))
skipped=$(( $(count Unsupported) + $(count Skipped) + $(count Excluded) ))
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1 # lit failed without a countable test failure (e.g. a bad config)
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
