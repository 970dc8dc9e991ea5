#!/usr/bin/env bash
# Builds gcsim and runs the bundled default scenario: FIFO on a 4-node, 32-GPU
# rack, results in out/default/.
set -euo pipefail
cd "$(dirname "$0")/.."
# The build's progress goes to stderr, so the first run shows what it is doing.
scripts/build.sh >&2
exec build/app/gcsim run --cluster scenarios/clusters/rack-32gpu.json \
  --workload scenarios/workloads/default.json --policy fifo --out out/default "$@"
