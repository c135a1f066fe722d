#!/bin/bash
# iotrial run --resume DIR refused: every refusal (another job file, a damaged or foreign
# checkpoint, a folder held, planted symlinks, hard links and FIFOs) is one line, exit
# status 2, and leaves DIR as it was; logs cut or lost give their trials log_error; two
# resumptions of one folder at once. Kills and resumptions that must equal a run in one go:
# t0036-resume.sh.
. "$(dirname "$0")/lib.sh"

need_cmd jq
. "$SRC/tests/t/resume.inc.sh"

# A run in one go, its results.json what a checkpoint of syn.yaml holds once complete.
"$IOTRIAL" run -q syn.yaml -o whole --checkpoint-interval 50ms

# A copy of the whole run's results, made incomplete again: the folder to refuse.
refused() {
	rm -rf bad
	cp -r whole bad
	rm -f bad.before
	jq ".complete = false" whole/results.json >bad/results.json
}

# The command "$@" must exit 2 with one line on stderr that says $1's message, and leave
# folder bad as it was.
expect_refusal() {
	want=$1
	shift
	snapshot bad >before
	expect_code 2 "$@" 2>err
	cat err
	expect_eq "$(wc -l <err)" 1 "lines on stderr"
	grep -F -- "$want" err
	snapshot bad >after
	cmp before after
}

# A complete run is not refused: t0043-resume-complete.sh.
test_expect_success 'refused: no folder, no checkpoint' '
	refused
	expect_code 2 "$IOTRIAL" run -q syn.yaml --resume nowhere 2>err
	grep -F "cannot resume from '"'"'nowhere'"'"': no such folder" err
	rm bad/results.json
	expect_refusal "no checkpoint in it" "$IOTRIAL" run -q syn.yaml --resume bad
'

test_expect_success 'refused: another job file, other --set options, --force given or not' '
	refused
	sed "s/runs: 150/runs: 151/" syn.yaml >other.yaml
	expect_refusal "job file '"'"'other.yaml'"'"' is not the one its run began with" "$IOTRIAL" run -q other.yaml --resume bad
	expect_refusal "this run has --set replication.runs=9; the one it would resume had no such option" "$IOTRIAL" run -q syn.yaml --resume bad --set replication.runs=9
	expect_refusal "--set allow_overwrite=true" "$IOTRIAL" run -q syn.yaml --resume bad --force
	jq ".overrides = {\"replication.runs\": \"60\"}" bad/results.json >o.json
	mv o.json bad/results.json
	expect_refusal "its run began with --set replication.runs=60; this one has no --set replication.runs" "$IOTRIAL" run -q syn.yaml --resume bad
	expect_refusal "its run began with --set replication.runs=60; this one has --set replication.runs=61" "$IOTRIAL" run -q syn.yaml --resume bad --set replication.runs=61
'

test_expect_success 'refused: another schema, another version of iotrial, a truncated checkpoint' '
	refused
	sed -i "s|\"iotrial.results/1\"|\"iotrial.results/2\"|" bad/results.json
	expect_refusal "written by another version of iotrial (schema \"iotrial.results/2\")" "$IOTRIAL" run -q syn.yaml --resume bad
	refused
	jq ".tool.version = \"0.0.1\"" bad/results.json >v.json
	mv v.json bad/results.json
	expect_refusal "its checkpoint was written by iotrial 0.0.1" "$IOTRIAL" run -q syn.yaml --resume bad
	refused
	head -c 20000 whole/results.json >bad/results.json
	expect_refusal "bad/results.json:" "$IOTRIAL" run -q syn.yaml --resume bad
	: >bad/results.json
	expect_refusal "empty file" "$IOTRIAL" run -q syn.yaml --resume bad
'

test_expect_success 'refused: trials that are not at their place in the plan'"'"'s order' '
	refused
	jq "(.jobs[0].trials[3].seq) |= . + 1000" bad/results.json >s.json
	mv s.json bad/results.json
	expect_refusal "the checkpoint'"'"'s order is not the plan'"'"'s" "$IOTRIAL" run -q syn.yaml --resume bad
	refused
	jq "(.jobs[0].trials[3].seq, .jobs[0].trials[4].seq) |= 1" bad/results.json >s.json
	mv s.json bad/results.json
	expect_refusal "the checkpoint'"'"'s order is not the plan'"'"'s" "$IOTRIAL" run -q syn.yaml --resume bad
	refused
	jq ".jobs[0].trials += [.jobs[0].trials[5] | .index = 999 | .seq = 1]" bad/results.json >s.json
	mv s.json bad/results.json
	expect_refusal "1 of its trials are not at their place" "$IOTRIAL" run -q syn.yaml --resume bad
	# A kept trial whose index is not its place, or whose count is below zero: not carried
	# into the results.
	refused
	jq "(.jobs[0].trials[1].index) |= 999" bad/results.json >s.json
	mv s.json bad/results.json
	expect_refusal "the checkpoint'"'"'s order is not the plan'"'"'s" "$IOTRIAL" run -q syn.yaml --resume bad
	refused
	jq "(.jobs[0].trials[1].ios) |= -1" bad/results.json >s.json
	mv s.json bad/results.json
	expect_refusal "jobs[0].trials[1].ios: expected an integer from 0 to" "$IOTRIAL" run -q syn.yaml --resume bad
'

test_expect_success 'refused: a folder that a running iotrial holds' '
	rm -rf busy
	sed "s/runs: 60/runs: 100000/" syn.yaml >long.yaml
	"$IOTRIAL" run -q long.yaml -o busy --checkpoint-interval 50ms 2>busy.err &
	pid=$!
	for i in $(seq 100); do
		if [ -f busy/results.json ]; then
			break
		fi
		sleep 0.1
	done
	rc=0
	"$IOTRIAL" run -q long.yaml --resume busy 2>err || rc=$?
	kill -INT "$pid"
	wait "$pid" || true
	cat err
	expect_eq "$rc" 2
	expect_eq "$(wc -l <err)" 1 "lines on stderr"
	grep -F "it is in use by another iotrial run (pid $pid)" err
'

test_expect_success 'a symlink planted for a record log (or records/) is not followed by the resumption' '
	cat >rec.yaml <<-JOB
	replication: {runs: 8}
	jobs:
	  - {name: n, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB, runtime: 100ms, log_records: true, rate_iops: 100000}
	JOB
	stopped_run rec.yaml rec --checkpoint-interval 0
	printf "foreign line 1\nforeign line 2\n" >victim
	cp victim victim.orig
	rm rec/records/n.csv
	ln -s "$TRASH/victim" rec/records/n.csv
	rc=0
	"$IOTRIAL" run -q rec.yaml --resume rec 2>err || rc=$?
	cat err
	expect_eq "$rc" 1
	cmp victim victim.orig
	grep -F "rec/records/n.csv" err | grep "symbolic link"
	rm -r rec/records
	mkdir elsewhere
	ln -s "$TRASH/elsewhere" rec/records
	rc=0
	"$IOTRIAL" run -q rec.yaml --resume rec 2>err || rc=$?
	cat err
	expect_eq "$rc" 1
	expect_eq "$(ls -A elsewhere)" ""
	grep -F "rec/records" err | grep "symbolic link"
'

# An interrupted run of hk.yaml into folder $1, its cleanup hook's log written.
hooked_stop() {
	stopped_run hk.yaml "$1" --checkpoint-interval 0
	test -f "$1/hooks/experiment.cleanup.log"
}

test_expect_success 'a symlink planted for hooks/ (or a hook log) is not followed by the resumption' '
	cat >hk.yaml <<-JOB
	replication: {runs: 8}
	cleanup: echo bye
	jobs:
	  - {name: n, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB, runtime: 100ms}
	JOB
	hooked_stop hk1
	printf "foreign line\n" >hvictim
	cp hvictim hvictim.orig
	rm hk1/hooks/experiment.cleanup.log
	ln -s "$TRASH/hvictim" hk1/hooks/experiment.cleanup.log
	rc=0
	"$IOTRIAL" run -q hk.yaml --resume hk1 2>err || rc=$?
	cat err
	expect_eq "$rc" 1
	cmp hvictim hvictim.orig
	grep -F "hk1/hooks/experiment.cleanup.log" err | grep "symbolic link"
	hooked_stop hk2
	rm -r hk2/hooks
	mkdir helsewhere
	ln -s "$TRASH/helsewhere" hk2/hooks
	rc=0
	"$IOTRIAL" run -q hk.yaml --resume hk2 2>err || rc=$?
	cat err
	expect_eq "$rc" 1
	expect_eq "$(ls -A helsewhere)" ""
	grep -F "hk2/hooks" err | grep "symbolic link"
'

test_expect_success 'a hard link or a FIFO planted for a record log, a hard link for a hook log: not opened by the resumption, one line, exit 1' '
	cat >hl.yaml <<-JOB
	replication: {runs: 8}
	jobs:
	  - {name: n, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB, runtime: 100ms, log_records: true, rate_iops: 100000, prepare: echo hi}
	JOB
	stopped_run hl.yaml hl --checkpoint-interval 0
	cp -a hl hl.orig
	seq 1000 >lvictim
	cp lvictim lvictim.orig
	rm hl/records/n.csv
	ln lvictim hl/records/n.csv
	expect_code 1 timeout 20 "$IOTRIAL" run -q hl.yaml --resume hl 2>err
	cat err
	cmp lvictim lvictim.orig
	grep -Fx "cannot write the record log '"'"'hl/records/n.csv'"'"': Too many links (not a regular file with one link: a FIFO, a device or a hard link, which iotrial does not open)" err
	rm -rf hl
	cp -a hl.orig hl
	rm hl/records/n.csv
	mkfifo hl/records/n.csv
	expect_code 1 timeout 20 "$IOTRIAL" run -q hl.yaml --resume hl 2>err
	cat err
	grep -F "hl/records/n.csv'"'"': Invalid argument (not a regular file with one link" err
	test -p hl/records/n.csv
	rm -rf hl
	cp -a hl.orig hl
	rm hl/hooks/job.n.prepare.log
	ln lvictim hl/hooks/job.n.prepare.log
	expect_code 1 timeout 20 "$IOTRIAL" run -q hl.yaml --resume hl 2>err
	cat err
	cmp lvictim lvictim.orig
	grep -F "hl/hooks/job.n.prepare.log'"'"': Too many links (not a regular file with one link" err
'

test_expect_success 'refused: a .iotrial.lock or results.json that is a FIFO or a hard link, at once, exit 2' '
	refused
	mkfifo bad/.iotrial.lock
	expect_refusal "it holds a '"'"'.iotrial.lock'"'"' that iotrial did not make" timeout 20 "$IOTRIAL" run -q syn.yaml --resume bad
	refused
	ln bad/results.json bad/.iotrial.lock
	expect_refusal "it holds a '"'"'.iotrial.lock'"'"' that iotrial did not make" timeout 20 "$IOTRIAL" run -q syn.yaml --resume bad
	refused
	rm bad/results.json
	mkfifo bad/results.json
	expect_refusal "its results.json is not a regular file with one link" timeout 20 "$IOTRIAL" run -q syn.yaml --resume bad
	refused
	ln bad/results.json bad.json
	expect_refusal "its results.json is not a regular file with one link" timeout 20 "$IOTRIAL" run -q syn.yaml --resume bad
'

if [ "$(id -u)" = 0 ]; then
	test_expect_success 'a device node planted for a record log or as .iotrial.lock: never opened by the resumption' '
		stopped_run hl.yaml hd --checkpoint-interval 0
		rm hd/records/n.csv
		mknod hd/records/n.csv c 1 3
		expect_code 1 timeout 20 "$IOTRIAL" run -q hl.yaml --resume hd 2>err
		cat err
		grep -F "hd/records/n.csv'"'"': Invalid argument (not a regular file with one link" err
		test -c hd/records/n.csv
		refused
		mknod bad/.iotrial.lock c 1 3
		expect_refusal "it holds a '"'"'.iotrial.lock'"'"' that iotrial did not make" timeout 20 "$IOTRIAL" run -q syn.yaml --resume bad
	'
else
	test_skip 'a device node planted for a record log or as .iotrial.lock: never opened by the resumption' 'mknod needs root'
fi

test_expect_success 'a record log removed or cut before the resumption: the kept trials it lacks get log_error, exit 1' '
	stopped_run rec.yaml rl --checkpoint-interval 0
	cp -a rl rl.orig
	jq -c "[.jobs[0].trials[] | select(.seq != null) | .index]" rl/results.json >kept
	test "$(jq length kept)" -ge 1
	rm rl/records/n.csv
	expect_code 1 "$IOTRIAL" run -q rec.yaml --resume rl 2>err
	cat err
	grep -F "job '"'"'n'"'"': the log '"'"'rl/records/n.csv'"'"' lacks the lines of $(jq length kept) kept trial(s)" err
	jq -c "[.jobs[0].trials[] | select(.log_error != null) | .index]" rl/results.json >lost
	cmp kept lost
	jq -e ".complete" rl/results.json
	rm -rf rl
	cp -a rl.orig rl
	head -1 rl/records/n.csv >h.csv
	cat h.csv >rl/records/n.csv
	expect_code 1 "$IOTRIAL" run -q rec.yaml --resume rl 2>err
	jq -c "[.jobs[0].trials[] | select(.log_error != null) | .index]" rl/results.json >lost
	cmp kept lost
	rm -rf rl
	cp -a rl.orig rl
	expect_code 0 "$IOTRIAL" run -q rec.yaml --resume rl
	expect_eq "$(jq "[.jobs[0].trials[] | select(.log_error != null)] | length" rl/results.json)" 0
'

# The trial that ran first (seq 1) of folder $1's checkpoint: its index, and how many lines of
# log $2 it has.
first_trial() {
	jq -r ".jobs[0].trials[] | select(.seq == 1) | .index" "$1/results.json"
}
lines_of() {
	awk -F, -v t="$2" "NR > 1 && \$1 == t" "$1" | wc -l
}

test_expect_success 'a record or interval log cut inside a kept trial'"'"'s lines, emptied, or with lines added: log_error only where lines were lost' '
	cat >cut.yaml <<-JOB
	replication: {runs: 8}
	jobs:
	  - {name: n, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB, runtime: 100ms, log_records: true, rate_iops: 100000, log_interval: 10ms}
	JOB
	stopped_run cut.yaml lc --checkpoint-interval 0
	cp -a lc lc.orig
	t=$(first_trial lc)
	jq -c "[.jobs[0].trials[] | select(.seq != null) | .index]" lc/results.json >kept
	for log in n.csv n.intervals.csv; do
		rm -rf lc
		cp -a lc.orig lc
		n=$(lines_of "lc/records/$log" "$t")
		test "$n" -ge 2
		head -n $((1 + n / 2)) "lc/records/$log" >h.csv
		cat h.csv >"lc/records/$log"
		expect_code 1 "$IOTRIAL" run -q cut.yaml --resume lc 2>err
		cat err
		grep -F "the log '"'"'lc/records/$log'"'"' lacks the lines of $(jq length kept) kept trial(s)" err
		jq -c "[.jobs[0].trials[] | select(.log_error != null) | .index]" lc/results.json >lost
		cmp kept lost
		jq -e ".jobs[0].trials[$t].log_error | startswith(\"lines lost before the run was resumed\")" lc/results.json
	done
	rm -rf lc
	cp -a lc.orig lc
	: >lc/records/n.csv
	expect_code 1 "$IOTRIAL" run -q cut.yaml --resume lc
	jq -c "[.jobs[0].trials[] | select(.log_error != null) | .index]" lc/results.json >lost
	cmp kept lost
	rm -rf lc
	cp -a lc.orig lc
	sed -i 2p lc/records/n.csv
	sed -i 2p lc/records/n.intervals.csv
	expect_code 0 "$IOTRIAL" run -q cut.yaml --resume lc
	expect_eq "$(jq "[.jobs[0].trials[] | select(.log_error != null)] | length" lc/results.json)" 0
	expect_eq "$(lines_of lc/records/n.csv "$t")" $(($(jq ".jobs[0].trials[$t].ios" lc/results.json) + 1))
'

# Two --resume of one folder, B reading its checkpoint before A takes the folder and taking it
# after A let go: B is held between the two, at its open of the job file (tests/t/t0023-shim.c,
# SHIM_HOLD_OPEN), until A ends.
# Folder $1 (a checkpoint of race.yaml), A's command after it; B's stderr in $1.b.err, and
# its exit status in $1.b.rc.
race_resume() {
	local dir=$1 pid rc=0 n=0
	shift
	rm -f "$dir.go" "$dir.go.waiting"
	SHIM_HOLD_OPEN=race.yaml SHIM_HOLD_GO=$TRASH/$dir.go LD_PRELOAD=$TRASH/shim.so \
		"$IOTRIAL" run -q race.yaml --resume "$dir" 2>"$dir.b.err" &
	pid=$!
	while [ ! -e "$dir.go.waiting" ]; do
		n=$((n + 1))
		test "$n" -lt 2000
		sleep 0.01
	done
	"$@"
	touch "$dir.go"
	wait "$pid" || rc=$?
	echo "$rc" >"$dir.b.rc"
	cat "$dir.b.err"
}

# A --resume of folder $1 (of race.yaml), interrupted (SIGINT) 0.35 s after its start; the
# checkpoint it leaves copied to $1.a.json.
stopped_resume() {
	local pid rc=0
	"$IOTRIAL" run -q race.yaml --resume "$1" 2>"$1.a.err" &
	pid=$!
	sleep 0.35
	kill -INT "$pid"
	wait "$pid" || rc=$?
	expect_eq "$rc" 130
	cp "$1/results.json" "$1.a.json"
}

# A --resume of folder $1 (of race.yaml) to its end, then the sums of what it wrote, in
# $1.a.sum: taken before the second run goes on, so that a write of the second shows.
resume_then_sum() {
	"$IOTRIAL" run -q race.yaml --resume "$1"
	sha256sum "$1/results.json" "$1/trials.csv" "$1/records/n.csv" >"$1.a.sum"
}

# Each trial of folder $1's checkpoint has as many lines in its record log as it did I/Os.
records_once() {
	jq -r ".jobs[0].trials[] | \"\(.index) \(.ios)\"" "$1/results.json" >ios
	while read -r i n; do
		expect_eq "$(lines_of "$1/records/n.csv" "$i")" "$n" "record lines of trial $i"
	done <ios
}

if command -v cc >/dev/null; then
	cc -shared -fPIC -o "$TRASH/shim.so" "$SRC/tests/t/t0023-shim.c" -ldl
	# The shim is preloaded before an ASan build's runtime (make test-asan), which then
	# aborts at its start unless told not to check the order.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	cat >race.yaml <<-JOB
	replication: {runs: 10}
	jobs:
	  - {name: n, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB, runtime: 100ms, log_records: true, rate_iops: 100000}
	JOB

	test_expect_success 'two --resume of one folder: the second reads the checkpoint again once it holds the folder, and finds the run complete' '
		stopped_run race.yaml rc --checkpoint-interval 0
		race_resume rc resume_then_sum rc
		jq -e .complete rc/results.json
		expect_eq "$(cat rc.b.rc)" 0
		grep -F "the run in '"'"'rc'"'"' is complete: no trial runs again" rc.b.err
		sha256sum -c rc.a.sum
		expect_eq "$(jq ".resumptions | length" rc/results.json)" 1
		records_once rc
	'

	test_expect_success 'two --resume of one folder, the first interrupted: the second goes on from its checkpoint, not the one it read first' '
		stopped_run race.yaml ri --checkpoint-interval 0
		race_resume ri stopped_resume ri
		jq -e ".complete | not" ri.a.json
		expect_eq "$(cat ri.b.rc)" 0
		every_trial_once ri
		expect_eq "$(jq ".resumptions | length" ri/results.json)" 2
		records_once ri
		expect_eq "$(jq "[.jobs[0].trials[] | select(.log_error != null)] | length" ri/results.json)" 0
	'
else
	test_skip 'two --resume of one folder: the second reads the checkpoint again once it holds the folder' 'no C compiler for the shim'
fi

test_expect_success 'usage: --resume takes one job file, no -o, json among the formats' '
	refused
	expect_code 2 "$IOTRIAL" run -q syn.yaml syn.yaml --resume bad 2>err
	grep -F -- "--resume takes one job file" err
	expect_code 2 "$IOTRIAL" run -q syn.yaml --resume bad -o x 2>err
	grep -F -- "-o is not for it" err
	expect_code 2 "$IOTRIAL" run -q syn.yaml --resume bad -f text 2>err
	grep -F -- "--resume needs json" err
	expect_code 2 "$IOTRIAL" run -q syn.yaml -o y --checkpoint-interval 5parsecs 2>err
	grep -F -- "--checkpoint-interval takes a duration" err
	not test -e x
	not test -e y
'

test_done
