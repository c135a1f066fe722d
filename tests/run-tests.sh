#!/bin/sh
# Runs every test: the cmocka unit test binaries given as arguments, then each shell
# integration test tests/t/tNNNN-*.sh under a timeout. Prints one closing line,
# "tests: N passed, N failed, N skipped", and exits non-zero when anything failed.
cd "$(dirname "$0")/.." || exit 2
passed=0 failed=0 skipped=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

count() { # $1: output file; adds its tallies
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p; s/^# passed \([0-9]*\).*/\1/p' "$1" | awk '{s+=$1} END {print s+0}')
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p; s/^# passed [0-9]* failed \([0-9]*\).*/\1/p' "$1" | awk '{s+=$1} END {print s+0}')
	s=$(sed -n 's/^# passed [0-9]* failed [0-9]* skipped \([0-9]*\).*/\1/p' "$1" | awk '{s+=$1} END {print s+0}')
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

for t in "$@"; do
	echo "== $t"
	if timeout 300 "$t" >"$log" 2>&1; then rc=0; else rc=$?; fi
	cat "$log"
	count "$log"
	if [ "$rc" -ne 0 ] && ! grep -q '^\[  FAILED  \]' "$log"; then
		echo "$t: exited with status $rc"
		failed=$((failed + 1))
	fi
done

for t in tests/t/t[0-9]*.sh; do
	[ -e "$t" ] || continue
	echo "== $t"
	if timeout 300 sh "$t" >"$log" 2>&1; then rc=0; else rc=$?; fi
	cat "$log"
	count "$log"
	if [ "$rc" -ne 0 ] && ! grep -q '^# passed [0-9]* failed [1-9]' "$log"; then
		echo "$t: exited with status $rc (timeout or crash)"
		failed=$((failed + 1))
	fi
done

echo
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
