#!/bin/bash
# make test-mutants, scaled down: tests/mutants.sh runs its controls and a few mutants on two
# quick scripts, reports a mutant they cannot catch and a control that fails; its wrapper
# (tests/mutant-iotrial.sh) passes signals on and leaves a closed stdout closed. The whole
# run (every mutant on every script) is `make test-mutants`, outside `make test`.
. "$(dirname "$0")/lib.sh"
need_cmd jq

MUTANTS="$SRC/tests/mutants.sh"
export IOTRIAL_REAL="$IOTRIAL"
WRAPPER="$SRC/tests/mutant-iotrial.sh"

test_expect_success 'every mutant the suite must catch is listed, with what it falsifies' '
	"$MUTANTS" --list >list
	for m in status-kept status-failed status-complete seconds bw_bytes iops bytes lat-mean \
		p50 p99 p99_9 ci-low ci-high stat-mean stat-stddev stat-cov required-n csv-row \
		summary-txt exit-0to1 exit-1to0 exit-2to0 stderr-dropped; do
		grep "^$m	..........*" list
	done
'

# Two whole scripts about nine times over (two controls, three mutants): 134 s under
# AddressSanitizer on a busy CPU, past the default deadline of a body.
TEST_TIMEOUT=400 test_expect_success 'controls pass, and mutants of a status, an exit status and stderr are caught' '
	MUTANTS_WORK="$TRASH/mw" "$MUTANTS" --scripts "t0001-quickstart t0003-errors" \
		status-complete exit-2to0 stderr-dropped >out
	cat out
	grep "^controls passed in" out
	grep "^caught   status-complete .* t0001-quickstart: results.json has every top-level key" out
	grep "^caught   exit-2to0 .* t0003-errors: an unknown key exits 2" out
	grep "^caught   stderr-dropped .* t0003-errors: " out
	grep "^mutants: 3 caught of 3 in [0-9]* s$" out
'

test_expect_success 'a mutant no script catches is named, exit 1' '
	rc=0
	MUTANTS_WORK="$TRASH/mw" "$MUTANTS" --scripts t0003-errors seconds >out || rc=$?
	cat out
	expect_eq "$rc" 1
	grep "^SURVIVED seconds ([0-9]* changes, every test passed)$" out
	grep "^mutants: 0 caught of 1 in [0-9]* s; not caught: seconds$" out
'

test_expect_success 'a control that fails stops the run, exit 2; so does an unknown mutant' '
	printf "#!/bin/sh\nexit 3\n" >broken
	chmod +x broken
	rc=0
	IOTRIAL_REAL="$PWD/broken" MUTANTS_WORK="$TRASH/mw" "$MUTANTS" --scripts t0003-errors seconds >out 2>err || rc=$?
	expect_eq "$rc" 2
	grep "^mutants: control .none. failed: t0003-errors: " err
	not grep "^caught\|^SURVIVED" out
	rc=0
	"$MUTANTS" no-such-mutant 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "mutants: no mutant '"'"'no-such-mutant'"'"' (tests/mutants.sh --list)"
'

printf "jobs:\n  - {name: long, workload: read, backend: null, file_size: 4KiB, runtime: 1s}\nreplication: {runs: 30}\n" >long.yaml

test_expect_success 'the wrapper passes SIGINT on to a run started in the background' '
	MUTANT=none "$WRAPPER" run -q long.yaml -o int --progress always 2>int.err &
	pid=$!
	for i in $(seq 200); do
		if grep -q "^\[1/30\]" int.err; then break; fi
		sleep 0.1
	done
	kill -INT $pid
	rc=0
	wait $pid || rc=$?
	expect_eq "$rc" 130
	expect_eq "$(jq .complete int/results.json)" false
'

test_expect_success 'the wrapper leaves a closed stdout closed, and falsifies what it says' '
	printf "jobs:\n  - {name: a, workload: read, backend: null, file_size: 1MiB}\n" >a.yaml
	"$IOTRIAL" run -o direct a.yaml >&- 2>direct.err
	MUTANT=identity "$WRAPPER" run -o wrapped a.yaml >&- 2>wrapped.err
	expect_eq "$(sed "s/wrapped/direct/" wrapped.err)" "$(cat direct.err)"
	MUTANT=seconds MUTANT_LOG=log "$WRAPPER" run -q -o five a.yaml
	grep "^applied seconds: five/results.json$" log
	jq -r ".jobs[0].trials[0] | .seconds / (.end_ns - .start_ns) * 1e9" five/results.json >ratio
	awk "{ exit !(\$1 > 1.0499 && \$1 < 1.0501) }" ratio
'

test_done
