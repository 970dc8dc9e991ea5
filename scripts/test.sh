#!/usr/bin/env bash
# Builds gcsim with its tests and benchmarks and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
