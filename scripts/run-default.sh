#!/usr/bin/env bash
# Builds gcsim and runs the bundled default scenario: FIFO on a 4-node, 32-GPU
# rack, results in out/default/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null
exec build/sim/gcsim run --cluster scenarios/clusters/rack-32gpu.json \
  --workload scenarios/workloads/default.json --policy fifo --out out/default "$@"
