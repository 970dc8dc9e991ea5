#!/usr/bin/env bash
# Builds gcsim and runs the tests labelled measured: the quick validation
# against real runs on this machine (gcsim validate --quick), whose bounds hold
# on a quiet machine; another tenant's load on a shared host can break them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir build --output-on-failure -L measured
