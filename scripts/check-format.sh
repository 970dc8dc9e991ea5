#!/usr/bin/env bash
# Checks that C++ sources follow .clang-format.
#   scripts/check-format.sh                 every tracked .cpp, .hpp, .cu and .h file
#   scripts/check-format.sh --changed REV   only those changed since REV (committed or not)
#   scripts/check-format.sh --fix [...]     rewrites the files instead of checking them
#   scripts/check-format.sh --root DIR      the checkout to check (default: this one)
# Exit status: 0 every file follows the format, 1 some do not (each is named,
# with the first lines clang-format would change), 2 no clang-format found or a
# bad argument.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
changed_since="" fix=0
while (($#)); do
  case "$1" in
    --changed) changed_since="${2:?--changed needs a revision}"; shift 2 ;;
    --fix) fix=1; shift ;;
    --root) root="$(cd "${2:?--root needs a folder}" && pwd)"; shift 2 ;;
    *) echo "check-format: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

formatter=""
for candidate in clang-format clang-format-14 clang-format-15 clang-format-16 clang-format-17 clang-format-18 clang-format-19; do
  if command -v "$candidate" >/dev/null; then formatter="$candidate"; break; fi
done
if [ -z "$formatter" ]; then
  echo "check-format: no clang-format on PATH (Debian: apt-get install clang-format)" >&2
  exit 2
fi

cd "$root"
patterns=('*.cpp' '*.hpp' '*.cu' '*.h')
if [ -n "$changed_since" ]; then
  mapfile -t files < <({ git diff --name-only --diff-filter=ACMR "$changed_since" -- "${patterns[@]}";
                         git ls-files --others --exclude-standard -- "${patterns[@]}"; } | sort -u)
else
  mapfile -t files < <(git ls-files -- "${patterns[@]}")
fi

if ((fix)); then
  ((${#files[@]} == 0)) || "$formatter" -i --style=file "${files[@]}"
  exit 0
fi

present=()
for file in "${files[@]}"; do
  if [ -f "$file" ]; then present+=("$file"); fi
done
# One clang-format call checks them all (a call per file took ten times as
# long); only when it finds a file off the format is each file's difference
# worked out, to name those files and show their first lines.
if ((${#present[@]} == 0)) || "$formatter" --style=file --dry-run --Werror "${present[@]}" 2>/dev/null; then
  echo "check-format: ${#files[@]} files follow .clang-format ($("$formatter" --version | head -1))"
  exit 0
fi
failed=0
for file in "${present[@]}"; do
  if ! difference="$("$formatter" --style=file "$file" | diff -u "$file" - )"; then
    echo "check-format: $file does not follow .clang-format (scripts/check-format.sh --fix rewrites it):" >&2
    echo "$difference" | sed -n '3,14p' >&2
    failed=1
  fi
done
if ((failed)); then exit 1; fi
echo "check-format: ${#files[@]} files follow .clang-format ($("$formatter" --version | head -1))"
