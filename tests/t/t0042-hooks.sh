#!/bin/bash
# prepare and cleanup hooks: they run around the trials (never inside one), in order, their
# output kept in the result folder's hooks/; a failing prepare stops the run, a failing
# cleanup is reported; an interrupt stops a prepare but not the cleanups.
. "$(dirname "$0")/lib.sh"

# Each hook appends its name to order.txt (an absolute path: hooks run in iotrial's folder).
LOG="$TRASH/order.txt"

test_expect_success 'hooks run in order, around each stage, with their output kept' '
	cat >ok.yaml <<-EOF
	prepare: "echo exp-prepare >>$LOG; echo to-stdout; echo to-stderr >&2"
	cleanup: "echo exp-cleanup >>$LOG"
	replication: {runs: 2}
	defaults: {workload: read, backend: null, file_size: 64KiB}
	jobs:
	  - {name: a, prepare: "echo a-prepare >>$LOG", cleanup: "echo a-cleanup >>$LOG"}
	  - {name: b, with: a, prepare: "echo b-prepare >>$LOG"}
	  - {name: c, cleanup: "echo c-cleanup >>$LOG", matrix: {block_size: [4KiB, 8KiB]}}
	EOF
	rm -f "$LOG"
	"$IOTRIAL" run -q ok.yaml -o r
	printf "%s\n" exp-prepare a-prepare b-prepare a-cleanup "c-cleanup" "c-cleanup" exp-cleanup >want
	diff -u want "$LOG"
	printf "to-stdout\nto-stderr\n" >want
	diff -u want r/hooks/experiment.prepare.log
	ls r/hooks >got
	printf "%s\n" experiment.cleanup.log experiment.prepare.log job.a.cleanup.log \
		job.a.prepare.log job.b.prepare.log "job.c_block_size_4096_.cleanup.log" \
		"job.c_block_size_8192_.cleanup.log" >want
	diff -u want got
	expect_eq "$(jq .complete r/results.json)" true
'

# The top-level hooks are the experiment's by where they are written, not by a name: a job
# may be named "experiment" (or job.x), and keeps logs and messages of its own.
test_expect_success 'a job named experiment has hook logs of its own, apart from the top-level ones' '
	cat >named.yaml <<-\EOF
	prepare: "echo top-prepare"
	cleanup: "echo top-cleanup"
	replication: {runs: 1}
	defaults: {workload: read, backend: null, file_size: 64KiB}
	jobs:
	  - {name: experiment, prepare: "echo job-prepare", cleanup: "echo job-cleanup"}
	  - {name: job.x, prepare: "echo x-prepare"}
	EOF
	"$IOTRIAL" run -q named.yaml -o n
	ls n/hooks >got
	printf "%s\n" experiment.cleanup.log experiment.prepare.log job.experiment.cleanup.log \
		job.experiment.prepare.log job.job.x.prepare.log >want
	diff -u want got
	expect_eq "$(cat n/hooks/experiment.prepare.log)" top-prepare
	expect_eq "$(cat n/hooks/experiment.cleanup.log)" top-cleanup
	expect_eq "$(cat n/hooks/job.experiment.prepare.log)" job-prepare
	expect_eq "$(cat n/hooks/job.experiment.cleanup.log)" job-cleanup
	expect_eq "$(cat n/hooks/job.job.x.prepare.log)" x-prepare
	sed "s/echo job-prepare/exit 3/" named.yaml >failing.yaml
	expect_code 1 "$IOTRIAL" run -q failing.yaml -o f 2>err
	grep -x "job .experiment.: prepare hook exited with status 3: exit 3 (its output is in f/hooks/job.experiment.prepare.log)" err
'

test_expect_success 'a hook runs outside the timed window of every trial' '
	cat >timed.yaml <<-\EOF
	jobs:
	  - {name: t, workload: read, backend: null, file_size: 64KiB, prepare: "sleep 1", cleanup: "sleep 1"}
	EOF
	"$IOTRIAL" run -q timed.yaml -o t
	jq -e ".jobs[0].trials[0].seconds < 0.5" t/results.json
'

test_expect_success 'a failing prepare stops the run: exit 1, cleanups run, results kept' '
	cat >bad.yaml <<-EOF
	cleanup: "echo exp-cleanup >>$LOG"
	defaults: {workload: read, backend: null, file_size: 64KiB}
	jobs:
	  - {name: a, cleanup: "echo a-cleanup >>$LOG"}
	  - {name: b, prepare: "echo b is broken; exit 3", cleanup: "echo b-cleanup >>$LOG"}
	  - {name: c}
	EOF
	rm -f "$LOG"
	expect_code 1 "$IOTRIAL" run -q bad.yaml -o b 2>err
	grep "^job '"'"'b'"'"': prepare hook exited with status 3: echo b is broken; exit 3 (its output is in b/hooks/job.b.prepare.log)$" err
	grep "^stopping the run: a prepare hook failed$" err
	printf "%s\n" a-cleanup b-cleanup exp-cleanup >want
	diff -u want "$LOG"
	expect_eq "$(cat b/hooks/job.b.prepare.log)" "b is broken"
	expect_eq "$(jq -c "[.complete, [.jobs[].trials | length]]" b/results.json)" "[false,[1,0,0]]"
'

test_expect_success 'a failing experiment prepare runs no trial' '
	cat >badexp.yaml <<-\EOF
	prepare: "exit 1"
	jobs: [{name: a, workload: read, backend: null, file_size: 64KiB}]
	EOF
	expect_code 1 "$IOTRIAL" run -q badexp.yaml -o be 2>err
	grep "^experiment: prepare hook exited with status 1: exit 1" err
	grep "no trial ran" err
	expect_eq "$(jq "[.jobs[].trials | length] | add" be/results.json)" 0
'

test_expect_success 'a failing cleanup is reported, exit 1, and the measurements stand' '
	cat >badclean.yaml <<-\EOF
	jobs: [{name: a, workload: read, backend: null, file_size: 64KiB, cleanup: "exit 4"}]
	EOF
	expect_code 1 "$IOTRIAL" run -q badclean.yaml -o bc 2>err
	grep "^job '"'"'a'"'"': cleanup hook exited with status 4" err
	expect_eq "$(jq ".jobs[0].trials[0].ios" bc/results.json)" 16
'

test_expect_success 'SIGINT during a prepare stops it at once; the cleanups still run; exit 130' '
	cat >slow.yaml <<-EOF
	cleanup: "echo exp-cleanup >>$LOG"
	jobs: [{name: a, workload: read, backend: null, file_size: 64KiB, prepare: "echo started >>$LOG; exec sleep 60", cleanup: "echo a-cleanup >>$LOG"}]
	EOF
	rm -f "$LOG"
	"$IOTRIAL" run -q slow.yaml -o s 2>err &
	pid=$!
	for i in $(seq 100); do if grep -q started "$LOG" 2>/dev/null; then break; fi; sleep 0.1; done
	start=$(date +%s)
	kill -INT $pid
	rc=0
	wait $pid || rc=$?
	expect_eq $rc 130
	test $(( $(date +%s) - start )) -lt 10
	printf "%s\n" started a-cleanup exp-cleanup >want
	diff -u want "$LOG"
	grep "^job '"'"'a'"'"': prepare hook stopped by the interrupt" err
	not grep "stopping the run: a prepare hook failed" err
	expect_eq "$(jq .complete s/results.json)" false
'

test_expect_success 'hooks/ does not make the folder foreign to a later run with --force' '
	"$IOTRIAL" run -q ok.yaml -o r --force
	mkdir r/hooks/sub
	expect_code 1 "$IOTRIAL" run -q ok.yaml -o r --force 2>err
	grep "hooks/sub" err
'

test_expect_success 'validate runs no hook' '
	rm -f "$LOG"
	"$IOTRIAL" validate ok.yaml >/dev/null
	test ! -e "$LOG"
'

test_done
