#!/bin/sh
# Runs every test: the lint of the shell tests, the cmocka unit test binaries given as
# arguments, then each shell integration test tests/t/tNNNN-*.sh (under bash) with a timeout.
# Prints one closing line, "tests: N passed, N failed, N skipped", and exits non-zero when
# anything failed. Skips count: cmocka's "[  SKIPPED ] N test(s)" and each test of a shell
# script skipped (test_skip, or the rest of a script after need_cmd). Each shell script's
# time follows its output ("# tests/t/tNNNN-topic.sh took N s"): make test has 10 minutes.
cd "$(dirname "$0")/.." || exit 2
passed=0 failed=0 skipped=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

sum() { # sed script, file -> the sum of the numbers it prints
	sed -n "$1" "$2" | awk '{s += $1} END {print s + 0}'
}

count() { # $1: output file; adds its tallies
	p=$(sum 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p; s/^# passed \([0-9]*\).*/\1/p' "$1")
	f=$(sum 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p; s/^# passed [0-9]* failed \([0-9]*\).*/\1/p' "$1")
	s=$(sum 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p; s/^# passed [0-9]* failed [0-9]* skipped \([0-9]*\).*/\1/p' "$1")
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

echo "== tests/lint-tests.sh"
if tests/lint-tests.sh; then
	echo "ok - every shell test body can fail on any of its commands"
	passed=$((passed + 1))
else
	echo "not ok - tests/lint-tests.sh found checks that cannot fail"
	failed=$((failed + 1))
fi

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
	t0=$(date +%s)
	if timeout 600 bash "$t" >"$log" 2>&1; then rc=0; else rc=$?; fi
	cat "$log"
	echo "# $t took $(($(date +%s) - t0)) s"
	count "$log"
	if ! grep -q '^# passed [0-9]* failed [0-9]* skipped [0-9]*$' "$log"; then
		echo "$t: ended with status $rc before test_done (timeout, crash or an early exit)"
		failed=$((failed + 1))
	elif [ "$rc" -ne 0 ] && ! grep -q '^# passed [0-9]* failed [1-9]' "$log"; then
		echo "$t: exited with status $rc"
		failed=$((failed + 1))
	fi
done

echo
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
