#!/usr/bin/env bash
# The format check itself: on a planted checkout it passes a file laid out as
# .clang-format says, fails naming a file that is not, and with --changed
# looks only at files changed since the revision given.
# usage: test_check_format.sh SOURCE_DIR
set -euo pipefail
source_dir="$1"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }

cp "$source_dir/.clang-format" "$scratch/"
cd "$scratch"
git init -q .
git -c user.name=t -c user.email=t@localhost commit -q --allow-empty -m empty
printf 'int answer() { return 42; }\n' > good.cpp
git add .clang-format good.cpp
git -c user.name=t -c user.email=t@localhost commit -q -m good

"$source_dir/scripts/check-format.sh" --root "$scratch" >out.txt 2>&1 || fail "a well-formatted file was refused: $(cat out.txt)"
grep -q "1 files follow" out.txt || fail "the check did not count the one file: $(cat out.txt)"

printf 'int   badly( int x ){return x;}\n' > planted.cpp
git add planted.cpp
set +e
"$source_dir/scripts/check-format.sh" --root "$scratch" >out.txt 2>&1
status=$?
set -e
[ "$status" -eq 1 ] || fail "a badly formatted file passed (status $status): $(cat out.txt)"
grep -q "planted.cpp does not follow" out.txt || fail "the message does not name the file: $(cat out.txt)"
grep -q "good.cpp" out.txt && fail "a well-formatted file was named: $(cat out.txt)"

# Only what changed since the last commit: the planted file, not yet committed.
set +e
"$source_dir/scripts/check-format.sh" --root "$scratch" --changed HEAD >out.txt 2>&1
status=$?
set -e
[ "$status" -eq 1 ] || fail "--changed missed the changed file (status $status)"
git -c user.name=t -c user.email=t@localhost commit -q -m planted
"$source_dir/scripts/check-format.sh" --root "$scratch" --changed HEAD >out.txt 2>&1 || fail "--changed HEAD looked at unchanged files: $(cat out.txt)"

"$source_dir/scripts/check-format.sh" --root "$scratch" --fix
"$source_dir/scripts/check-format.sh" --root "$scratch" >out.txt 2>&1 || fail "--fix left a file unformatted: $(cat out.txt)"
echo "check-format behaves as documented"
