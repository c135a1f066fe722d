#!/bin/bash
# results.json's env says which clock timed the I/Os (env.clock, as the workers decided it)
# and the kernel's clocksource it was decided from (env.clocksource), and the kernel's
# transparent huge pages mode that huge_buffers depends on (env.thp); a file read back keeps
# them.
. "$(dirname "$0")/lib.sh"
need_cmd jq

cat >n.yaml <<'EOF'
experiment: clk
jobs:
  - {name: n, workload: read, backend: null, file_size: 1MiB, block_size: 4KiB, runtime: 10ms}
EOF
CS_FILE=/sys/devices/system/clocksource/clocksource0/current_clocksource

test_expect_success 'env.clocksource is the kernel'"'"'s, env.clock the one the workers used' '
	"$IOTRIAL" run -q n.yaml -o r 2>err
	jq -e ".env | has(\"clocksource\") and has(\"clock\")" r/results.json
	want=null
	if [ -r "$CS_FILE" ]; then want="\"$(cat "$CS_FILE")\""; fi
	expect_eq "$(jq -c .env.clocksource r/results.json)" "$want" "env.clocksource"
	clock=$(jq -r .env.clock r/results.json)
	if [ "$(uname -m)" != x86_64 ]; then
		expect_eq "$clock" monotonic "env.clock"
	elif [ "$want" = "\"tsc\"" ]; then
		expect_eq "$clock" tsc "env.clock"
	elif grep -qw nonstop_tsc /proc/cpuinfo; then
		# Another clocksource, an invariant counter: the counter if the check at the
		# start found every CPU'"'"'s in step (tests/unit/test_fastclock_step.c).
		case $clock in tsc | monotonic) ;; *) expect_eq "$clock" "tsc or monotonic" "env.clock" ;; esac
	else
		expect_eq "$clock" monotonic "env.clock"
	fi
'

THP_FILE=/sys/kernel/mm/transparent_hugepage/enabled

test_expect_success 'env.thp is the bracketed mode of the kernel'"'"'s transparent huge pages' '
	want=null
	if [ -r "$THP_FILE" ]; then want="\"$(sed -E "s/.*\[([a-z]+)\].*/\1/" "$THP_FILE")\""; fi
	expect_eq "$(jq -c .env.thp r/results.json)" "$want" "env.thp"
	jq -e ".env.thp | . == null or . == \"always\" or . == \"madvise\" or . == \"never\"" r/results.json
'

test_expect_success 'IOTRIAL_CLOCK=monotonic: env.clock is "monotonic"' '
	IOTRIAL_CLOCK=monotonic "$IOTRIAL" run -q n.yaml -o m 2>err
	expect_eq "$(jq -r .env.clock m/results.json)" monotonic
	jq -e ".env.clocksource == $(jq -c .env.clocksource r/results.json)" m/results.json
'

test_expect_success 'read back (iotrial report -f json), all three are kept' '
	"$IOTRIAL" report m/results.json -f json >back.json
	jq -c "[.env.clocksource, .env.clock, .env.thp]" m/results.json >want
	jq -c "[.env.clocksource, .env.clock, .env.thp]" back.json >got
	cmp want got
'

test_done
