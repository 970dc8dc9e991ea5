#!/usr/bin/env bash
# Configures and builds gcsim in build/ (Release), installing missing packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"

# The Python module (when built, python/CMakeLists.txt): a .pth file in the
# interpreter's site folder puts build/python on its path, so that
# `python3 -c "import gcsim"` works in any shell and folder.
if [ -f build/python/gcsim/__init__.py ] && [ -f build/python/interpreter.txt ]; then
  python=$(cat build/python/interpreter.txt)
  module_dir="$(pwd)/build/python"
  site_dir=$("$python" -c 'import site; print(site.getsitepackages()[0])')
  if [ "$(id -u)" -eq 0 ]; then
    mkdir -p "$site_dir"
    echo "$module_dir" >"$site_dir/gcsim.pth"
    echo "gcsim: $python imports gcsim from $module_dir ($site_dir/gcsim.pth)" >&2
  elif [ "$(cat "$site_dir/gcsim.pth" 2>/dev/null)" != "$module_dir" ]; then
    echo "gcsim: to import gcsim in $python: export PYTHONPATH=$module_dir (or, as root: echo $module_dir > $site_dir/gcsim.pth)" >&2
  fi
fi
