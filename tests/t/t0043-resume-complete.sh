#!/bin/bash
# iotrial run --resume DIR on a run whose trials all ran but whose result files are not all
# there (killed after its last checkpoint, a report lost to a full disk, a file removed):
# nothing runs again, the missing reports are written from the results DIR holds, the same
# bytes a run in one go wrote, and nothing that is there is written over or followed.
. "$(dirname "$0")/lib.sh"
need_cmd jq

cat >n.yaml <<'EOF'
experiment: nul
replication: {runs: 3}
jobs:
  - {name: n, workload: read, backend: null, file_size: 1MiB, block_size: 4KiB, runtime: 20ms}
EOF

# Every file under folder $1 with its size, time and checksum: what "nothing changed" means
# (not the folder's own time: taking its lock to write in it changes that).
snapshot() {
	find "$1" -mindepth 1 -printf '%P %s %T@ %m %l\n' | LC_ALL=C sort
	find "$1" -type f -exec sha256sum {} + | LC_ALL=C sort
}

test_expect_success 'a complete run without its reports: they are written, the same bytes, nothing runs' '
	"$IOTRIAL" run -q n.yaml -o clean -f text,json,csv,html
	cp -a clean r
	rm r/summary.txt r/trials.csv r/report.html
	"$IOTRIAL" run n.yaml --resume r -f text,json,csv,html >out 2>err
	cat err
	cmp clean/results.json r/results.json
	cmp clean/summary.txt r/summary.txt
	cmp clean/trials.csv r/trials.csv
	cmp clean/report.html r/report.html
	cmp clean/summary.txt out
	ls -A r >files
	printf "%s\n" report.html results.json summary.txt trials.csv >want
	cmp want files
	grep -F "iotrial: results in r/" err
'

test_expect_success 'only what is missing is written: a file that is there stays, a symlink is not followed' '
	rm -rf r
	cp -a clean r
	echo mine >r/summary.txt
	rm r/trials.csv
	ln -s "$TRASH/outside.csv" r/trials.csv
	snapshot r >before
	"$IOTRIAL" run -q n.yaml --resume r 2>err
	cat err
	test ! -e outside.csv
	snapshot r >after
	cmp before after
	expect_eq "$(cat r/summary.txt)" mine
'

test_expect_success 'a complete run with every report: --resume changes nothing, exit 0' '
	rm -rf r
	cp -a clean r
	snapshot r >before
	"$IOTRIAL" run -q n.yaml --resume r -f text,json,csv,html 2>err
	cat err
	snapshot r >after
	cmp before after
'

test_expect_success 'killed after its last checkpoint, before its result files: resumed, nothing runs again' '
	cat >k.yaml <<-EOF
	experiment: killed
	cleanup: "test -e $TRASH/once || { touch $TRASH/once; kill -KILL \$PPID; }"
	replication: {runs: 3}
	jobs:
	  - {name: n, workload: read, backend: null, file_size: 1MiB, block_size: 4KiB, runtime: 20ms}
	EOF
	rc=0
	"$IOTRIAL" run -q k.yaml -o k --checkpoint-interval 0 2>err || rc=$?
	expect_eq "$rc" 137 "exit status of the killed run"
	jq -e ".complete == false" k/results.json
	jq -e "[.jobs[].trials[] | select(.seq != null)] | length == 3" k/results.json
	jq "[.jobs[].trials[] | .start_ns]" k/results.json >starts.before
	"$IOTRIAL" run -q k.yaml --resume k 2>err
	cat err
	jq -e ".complete == true" k/results.json
	jq "[.jobs[].trials[] | .start_ns]" k/results.json >starts.after
	cmp starts.before starts.after
	"$IOTRIAL" report k/results.json -f text >summary.want
	cmp summary.want k/summary.txt
	"$IOTRIAL" report k/results.json -f csv >trials.want
	cmp trials.want k/trials.csv
'

test_expect_success 'a complete run whose trials failed: the missing files written, exit 1 as the run'"'"'s' '
	cat >f.yaml <<-EOF
	experiment: bad
	replication: {runs: 2}
	jobs:
	  - {name: bad, workload: read, backend: fault, fault_backend: null, file_size: 1MiB, block_size: 64KiB, fault_eio_offset: 512KiB}
	EOF
	expect_code 1 "$IOTRIAL" run -q f.yaml -o f 2>err
	cp f/trials.csv trials.want
	rm f/trials.csv
	expect_code 1 "$IOTRIAL" run -q f.yaml --resume f 2>err
	cmp trials.want f/trials.csv
'

test_expect_success 'refused as before: another job file, with a complete run' '
	sed "s/runs: 3/runs: 4/" n.yaml >other.yaml
	rm -rf r
	cp -a clean r
	rm r/summary.txt
	snapshot r >before
	expect_code 2 "$IOTRIAL" run -q other.yaml --resume r 2>err
	grep -F "is not the one its run began with" err
	snapshot r >after
	cmp before after
'

test_done
