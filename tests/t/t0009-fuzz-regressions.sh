#!/bin/bash
# Inputs the fuzzers (tests/fuzz/, `make fuzz`) once crashed on or took minutes over, kept in
# tests/fuzz/regressions/<target>-<name>: each must now give a normal exit status, never a
# crash. Job files go through `iotrial validate` (0, 1 or 2), results through
# `iotrial report` (0 or 2).
. "$(dirname "$0")/lib.sh"

test_expect_success 'there are regression inputs to run' '
	ls "$SRC"/tests/fuzz/regressions/jobfile-* >/dev/null
'

for f in "$SRC"/tests/fuzz/regressions/*; do
	[ -e "$f" ] || continue
	name=$(basename "$f")
	case $name in
	jobfile-*)
		test_expect_success "validate $name exits 0, 1 or 2" '
			rc=0
			"$IOTRIAL" validate "$f" >out 2>err || rc=$?
			cat err; test "$rc" -le 2
		'
		;;
	results-*)
		test_expect_success "report $name exits 0 or 2" '
			rc=0
			"$IOTRIAL" report "$f" >out 2>err || rc=$?
			cat err; test "$rc" -eq 0 || test "$rc" -eq 2
		'
		;;
	esac
done

test_done
