#!/usr/bin/env bash
# Installs the Debian 12 packages gcsim builds and runs with, when missing.
set -euo pipefail

packages=(cmake make g++ pkg-config libsimgrid-dev libboost-graph-dev nlohmann-json3-dev libeigen3-dev
          libbenchmark-dev libgtest-dev python3-matplotlib clang-format
          libopenmpi-dev openmpi-bin iproute2 time clang libclang-rt-14-dev
          pybind11-dev python3-dev python3-pandas python3-pytest python3-plotly chromium)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]} == 0)); then exit 0; fi

echo "gcsim: installing ${missing[*]}" >&2
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "gcsim: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  as_root=(sudo)
fi
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
