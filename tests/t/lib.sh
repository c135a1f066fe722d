# The shell test library, after git's t/test-lib.sh: each tNNNN-topic.sh sources it (under
# bash), runs test_expect_success blocks in its own trash folder, and ends with test_done.
#
#   test_expect_success 'what it checks' 'commands, one a line'
#   test_skip 'what it checks' 'why it cannot run here'   (the reason is printed)
#   need_cmd CMD   skips the rest of the script, with a reason, when CMD is missing
#
# Every command of a body counts. A body runs in its own child shell with errexit, pipefail
# and inherit_errexit, as a plain statement (never inside an `if`, where POSIX shells ignore
# errexit), so the first failing command fails the test: in the middle of a body, in any
# pass of a loop, in any stage of a pipeline. errexit still ignores the left side of `&&`
# and `||` and a command negated with `!`; tests/lint-tests.sh rejects `&&` and a leading
# `!` in test scripts, so write one command a line and `not CMD` for an expected failure.
# A body that runs longer than TEST_TIMEOUT seconds (120) is killed, with every process it
# started, and fails. A body known to take longer gives its own deadline, for itself only:
#   TEST_TIMEOUT=400 test_expect_success 'what it checks' '...'
set -u
TEST_NAME=$(basename "$0" .sh)
TEST_SCRIPT=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
IOTRIAL="${IOTRIAL:-$SRC/iotrial}"
TEST_TIMEOUT="${TEST_TIMEOUT:-120}"
TRASH="${TEST_TRASH_ROOT:-$SRC/tests}/trash.$TEST_NAME"
rm -rf "$TRASH" && mkdir -p "$TRASH" && cd "$TRASH" || exit 1
export TMPDIR="$TRASH"
t_n=0 t_pass=0 t_fail=0 t_skip=0

# Kill the process tree under $1: stop each process before listing its children (read from
# /proc, so nothing to install), so none forks or is reparented while the tree is walked.
kill_tree() {
	t_all="" t_new=$1
	while [ -n "$t_new" ]; do
		kill -STOP $t_new 2>/dev/null
		t_all="$t_new $t_all"
		t_next=""
		for t_p in $t_new; do
			t_next="$t_next $(cat /proc/"$t_p"/task/*/children 2>/dev/null)"
		done
		t_new=$(echo $t_next)
	done
	# Leaves first, $1 last: the caller's wait returns when $1 dies, and may then kill us.
	kill -KILL $t_all 2>/dev/null
}

test_expect_success() {
	if [ $# -ne 2 ]; then
		echo "bug in $TEST_NAME: test_expect_success takes a title and a body" >&2
		exit 1
	fi
	t_n=$((t_n + 1))
	t_start=$(date +%s%N)
	(
		set -e -o pipefail
		shopt -s inherit_errexit
		eval "$2"
	) >"$TRASH/.out.$t_n" 2>&1 </dev/null &
	t_body=$!
	(
		sleep "$TEST_TIMEOUT"
		echo "timed out after $TEST_TIMEOUT s" >>"$TRASH/.out.$t_n"
		kill_tree "$t_body"
	) >/dev/null 2>&1 &
	t_watch=$!
	wait "$t_body" 2>/dev/null
	t_rc=$?
	kill_tree "$t_watch"
	wait "$t_watch" 2>/dev/null
	[ -z "${TEST_TIMES:-}" ] || echo "# $t_n took $((($(date +%s%N) - t_start) / 1000000)) ms"
	if [ "$t_rc" -eq 0 ]; then
		t_pass=$((t_pass + 1))
		echo "ok $t_n - $1"
	else
		t_fail=$((t_fail + 1))
		echo "not ok $t_n - $1 (status $t_rc)"
		sed 's/^/#   /' "$TRASH/.out.$t_n"
	fi
}

test_skip() {
	t_n=$((t_n + 1))
	t_skip=$((t_skip + 1))
	echo "ok $t_n # skip $1 ($2)"
}

# Skip the rest of the script: every test_expect_success still ahead in it counts as skipped.
# Run as nobody (uid and gid 65534, no groups): permission bits stop no root, so the tests
# of a folder or file the user may not write run their iotrial through this.
AS_NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"

# Can this test run commands as nobody (root, and setpriv that may switch)?
can_be_nobody() {
	[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && $AS_NOBODY true 2>/dev/null
}

need_cmd() {
	command -v "$1" >/dev/null 2>&1 && return 0
	skip_rest "$1 is not installed"
}

# skip_rest WHY: the tests written after the script's line that called it (directly or
# through need_cmd) count as skipped. Counted from that line, not as "all minus those run":
# a loop before it (t0013's seeds) runs more tests than it has lines.
skip_rest() {
	t_line=0
	for ((t_i = 0; t_i < ${#FUNCNAME[@]} - 1; t_i++)); do
		# By name: the script was sourced by a path relative to where it started.
		if [ "${BASH_SOURCE[t_i + 1]##*/}" = "${TEST_SCRIPT##*/}" ]; then
			t_line=${BASH_LINENO[t_i]}
			break
		fi
	done
	t_rest=$(awk -v from="$t_line" 'NR > from && /^(TEST_TIMEOUT=[0-9]+ )?test_expect_success / {n++}
		END {print n + 0}' "$TEST_SCRIPT")
	t_skip=$((t_skip + t_rest))
	echo "# skipping the rest of $TEST_NAME ($t_rest tests): $1"
	test_done
}

# Fail with both values shown, like libuv's ASSERT_EQ.
expect_eq() {
	[ "$1" = "$2" ] && return 0
	echo "expected '$2', got '$1'${3:+ ($3)}"
	return 1
}

# expect_code STATUS CMD...: run CMD, fail unless it exits with STATUS.
expect_code() {
	t_want=$1
	shift
	t_got=0
	"$@" || t_got=$?
	[ "$t_got" -eq "$t_want" ] && return 0
	echo "expected exit status $t_want, got $t_got: $*"
	return 1
}

# check_results FILE: every figure of results.json FILE that follows from its trials (rates,
# status, summary STATs, required runs, comparisons) is what tests/t/results-check.jq
# re-derives; prints what was checked and fails naming each figure that is not.
check_results() {
	jq -L "$SRC/tests/t" -f "$SRC/tests/t/results-check.jq" "$1" >"$TRASH/.check"
	jq -r '.problems[]' "$TRASH/.check"
	jq -r --arg f "$1" '"\($f): checked \(.trials) trials, \(.summaries) summaries, \(.comparisons) comparisons"' "$TRASH/.check"
	expect_eq "$(jq '.problems | length' "$TRASH/.check")" 0 "figures of $1 that do not follow from its trials"
	expect_eq "$(jq '.trials > 0' "$TRASH/.check")" true "trials in $1"
}

# not CMD...: fail when CMD succeeds (errexit ignores `! CMD`, so tests use this instead).
not() {
	if "$@"; then
		echo "expected to fail, but succeeded: $*"
		return 1
	fi
	return 0
}

test_done() {
	echo "# passed $t_pass failed $t_fail skipped $t_skip"
	cd "$SRC" || exit 1
	[ "$t_fail" -eq 0 ] && rm -rf "$TRASH"
	[ "$t_fail" -eq 0 ]
	exit $?
}

# chromium_dom HTML: load HTML (a file in the current folder) in headless Chromium; the DOM
# after its script ran into HTML.dom, Chromium's log (console messages included) into
# HTML.log. Call after need_cmd chromium.
chromium_dom() {
	local prof
	prof=$(mktemp -d "$PWD/profile.XXXXXX")
	chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$prof" --enable-logging=stderr --v=0 \
		--dump-dom "file://$PWD/$1" >"$1.dom" 2>"$1.log"
	rm -rf "$prof"
}
