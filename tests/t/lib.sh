# The shell test library, after git's t/test-lib.sh: each tNNNN-topic.sh sources it, runs
# test_expect_success blocks in its own trash folder, and ends with test_done.
#   test_expect_success 'what it checks' 'commands; the last status decides'
#   test_skip 'what it checks' 'why it cannot run here'   (the reason is printed)
#   need_cmd CMD   skips the rest of the script, with a reason, when CMD is missing
set -u
TEST_NAME=$(basename "$0" .sh)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
IOTRIAL="${IOTRIAL:-$SRC/iotrial}"
TRASH="$SRC/tests/trash.$TEST_NAME"
rm -rf "$TRASH" && mkdir -p "$TRASH" && cd "$TRASH" || exit 1
export TMPDIR="$TRASH"
t_n=0 t_pass=0 t_fail=0 t_skip=0

test_expect_success() {
	t_n=$((t_n + 1))
	if (set -e; eval "$2") >"$TRASH/.out.$t_n" 2>&1; then
		t_pass=$((t_pass + 1))
		echo "ok $t_n - $1"
	else
		t_fail=$((t_fail + 1))
		echo "not ok $t_n - $1"
		sed 's/^/#   /' "$TRASH/.out.$t_n"
	fi
}

test_skip() {
	t_n=$((t_n + 1))
	t_skip=$((t_skip + 1))
	echo "ok $t_n # skip $1 ($2)"
}

need_cmd() {
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "# skipping the rest of $TEST_NAME: $1 is not installed"
	test_done
}

# Fail with both values shown, like libuv's ASSERT_EQ.
expect_eq() {
	[ "$1" = "$2" ] && return 0
	echo "expected '$2', got '$1'${3:+ ($3)}"
	return 1
}

test_done() {
	echo "# passed $t_pass failed $t_fail skipped $t_skip"
	cd "$SRC" || exit 1
	[ "$t_fail" -eq 0 ] && rm -rf "$TRASH"
	[ "$t_fail" -eq 0 ]
	exit $?
}
