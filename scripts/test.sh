#!/usr/bin/env bash
# Builds gcsim with its tests and benchmarks and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
# Every test but those labelled measured, which time real runs against gcsim's
# bounds and need a quiet machine: scripts/validate-quick.sh runs them.
ctest --test-dir build --output-on-failure -j"$(nproc)" -LE measured
