#!/bin/bash
# The test library itself: a check that fails anywhere in a body fails the test (the middle
# of a body, an early pass of a loop, the first stage of a pipeline, a command substitution),
# a body that hangs is killed, skips are counted, TEST_TIMES prints each test's time, and the
# lint rejects what errexit ignores.
. "$(dirname "$0")/lib.sh"

# Scripts made here keep their trash folders in this one.
export TEST_TRASH_ROOT="$TRASH"

make_script() { # $1: name, then bodies -> a test script
	name=$1
	shift
	{
		echo ". \"$SRC/tests/t/lib.sh\""
		for b in "$@"; do
			printf "test_expect_success %s %s\n" "'body'" "'$b'"
		done
		echo test_done
	} >"$name"
}

test_expect_success 'a failure in the middle of a body, or in an early loop pass, fails it' '
	make_script mid.sh "false
true" "expect_eq 1 2
true" "for i in 1 2 3; do [ \$i != 1 ]; done" "false | cat" "x=\$(false; echo y)
echo \$x" "f() { false; true; }
f
true" "not true" "expect_code 3 sh -c \"exit 4\""
	rc=0
	bash mid.sh >mid.out 2>&1 || rc=$?
	cat mid.out
	expect_eq "$rc" 1
	expect_eq "$(grep -c "^not ok" mid.out)" 8
	grep "^# passed 0 failed 8 skipped 0$" mid.out
'

test_expect_success 'bodies that pass, pass' '
	make_script pass.sh "true
expect_eq a a" "not false" "expect_code 4 sh -c \"exit 4\"" "rc=0
false || rc=\$?
expect_eq \$rc 1"
	bash pass.sh >pass.out 2>&1
	grep "^# passed 4 failed 0 skipped 0$" pass.out
'

test_expect_success 'TEST_TIMES=1: each test'"'"'s time follows it as a comment; without it, no such line' '
	make_script times.sh "sleep 0.3" "true"
	TEST_TIMES=1 bash times.sh >times.out 2>&1
	cat times.out
	grep -E "^# 1 took (3[0-9]{2}|[4-9][0-9]{2}|[0-9]{4,}) ms$" times.out
	grep -E "^# 2 took [0-9]+ ms$" times.out
	grep "^# passed 2 failed 0 skipped 0$" times.out
	env -u TEST_TIMES bash times.sh >plain.out 2>&1
	expect_eq "$(grep -c "took" plain.out)" 0
'

test_expect_success 'a body that hangs is killed, with what it started, and fails' '
	make_script hang.sh "sleep 300 &
echo \$! >pid
sleep 300"
	start=$(date +%s)
	rc=0
	TEST_TIMEOUT=5 bash hang.sh >hang.out 2>&1 || rc=$?
	expect_eq "$rc" 1
	grep "timed out after 5 s" hang.out
	[ $(($(date +%s) - start)) -lt 30 ]
	pid=$(cat trash.hang/pid)
	# Gone, or a zombie that its new parent has yet to reap.
	state=$(sed "s/.*) //" /proc/"$pid"/stat 2>/dev/null | cut -d" " -f1)
	echo "state of $pid: ${state:-gone}"
	case "$state" in ""|Z) ;; *) false ;; esac
'

test_expect_success 'a body with its own TEST_TIMEOUT gets that deadline, the next one the default' '
	{
		echo ". \"$SRC/tests/t/lib.sh\""
		echo "TEST_TIMEOUT=2 test_expect_success own \"sleep 30\""
		echo "test_expect_success default \"sleep 4\""
		echo test_done
	} >own.sh
	start=$(date +%s)
	rc=0
	TEST_TIMEOUT=20 bash own.sh >own.out 2>&1 || rc=$?
	cat own.out
	expect_eq "$rc" 1
	grep "^not ok 1 - own" own.out
	grep "timed out after 2 s" own.out
	grep "^ok 2 - default" own.out
	# Killed at 2 s, not at 20: about 6 s in all.
	[ $(($(date +%s) - start)) -lt 15 ]
'

test_expect_success 'need_cmd skips and counts the rest of a script (a body with its own deadline too, a loop before it)' '
	{
		echo ". \"$SRC/tests/t/lib.sh\""
		echo "test_expect_success one true"
		echo "for i in 1 2 3; do test_expect_success \"loop \$i\" true; done"
		echo "need_cmd no-such-command-here"
		echo "test_expect_success two true"
		echo "TEST_TIMEOUT=300 test_expect_success three true"
		echo test_done
	} >skip.sh
	bash skip.sh >skip.out 2>&1
	cat skip.out
	# The loop ran three tests from one line: the two after need_cmd are the skipped ones.
	grep "^# passed 4 failed 0 skipped 2$" skip.out
'

test_expect_success 'the lint rejects &&, a leading ! and an early-closing reader in a pipe' '
	printf "%s\n" "test_expect_success x \"" "	a && b" "	! grep x f" "	cmd | head -1" "	cmd | grep -q x" "\"" >t9999-bad.sh
	rc=0
	"$SRC/tests/lint-tests.sh" "$PWD/t9999-bad.sh" >lint.out || rc=$?
	cat lint.out
	expect_eq "$rc" 1
	expect_eq "$(wc -l <lint.out)" 4
	printf "%s\n" "if a && b; then c; fi" "while a &&" "	b; do c; done" "cat <<EOF" "a && b" "EOF" "# a && b" "echo \"a && b\"" >t9998-good.sh
	"$SRC/tests/lint-tests.sh" "$PWD/t9998-good.sh"
'

test_expect_success 'the lint rejects an apostrophe that ends a test body, not a written quote' '
	q="\047"
	printf "test_expect_success ${q}title${q} ${q}\n\t# the row${q}s qd\n\ttrue\n${q}\n" >t9997-quote.sh
	rc=0
	"$SRC/tests/lint-tests.sh" "$PWD/t9997-quote.sh" >lint.out || rc=$?
	cat lint.out
	expect_eq "$rc" 1
	grep ":2: an apostrophe ends the single-quoted test body" lint.out
	printf "test_expect_success ${q}a${q}\"${q}\"${q}s title${q} ${q}\n\techo ${q}\"${q}\"${q}x${q}\"${q}\"${q}\n${q}\n" >t9996-quoted.sh
	cat t9996-quoted.sh
	"$SRC/tests/lint-tests.sh" "$PWD/t9996-quoted.sh"
'

test_done
