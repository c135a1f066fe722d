#!/bin/bash
# The reference docs keep up with the code: every job key has a heading in docs/jobfile.md,
# every trials.csv column, every top-level key of results.json and every key of a trial, a
# workers row and a summary in it is named in docs/results.md.
. "$(dirname "$0")/lib.sh"

JOBFILE_MD="$SRC/docs/jobfile.md"
RESULTS_MD="$SRC/docs/results.md"
BT=$(printf '\140')

# Print each of the names on stdin that docs file $1 lacks as "$2NAME$3"; fail if any.
missing_from() {
	file=$1 pre=$2 post=$3 bad=0
	while read -r name; do
		[ -n "$name" ] || continue
		if ! grep -qF -- "$pre$name$post" "$file"; then
			echo "not in $file: $pre$name$post"
			bad=1
		fi
	done
	return $bad
}

# A tiny job on the null backend.
printf 'jobs:\n  - {name: a, workload: read, backend: null, file_size: 1MiB}\n' >j.yaml

test_expect_success 'the docs exist' '
	for f in jobfile cli results statistics safety; do test -s "$SRC/docs/$f.md"; done
'

test_expect_success 'every job key has a "### `KEY`" heading in docs/jobfile.md' '
	"$IOTRIAL" keys >keys.txt
	test -s keys.txt
	cut -f1 keys.txt | missing_from "$JOBFILE_MD" "### $BT" "$BT"
'

test_expect_success 'the tiny job runs' '
	"$IOTRIAL" run -q j.yaml -o out 2>err
	test -s out/trials.csv
	test -s out/results.json
	grep -q ",null,read," out/trials.csv
'

test_expect_success 'every trials.csv column is named in docs/results.md' '
	head -1 out/trials.csv | tr , "\n" >columns.txt
	test "$(wc -l <columns.txt)" -gt 10
	missing_from "$RESULTS_MD" "$BT" "$BT" <columns.txt
'

need_cmd jq

test_expect_success 'every key of a results.json trial is named in docs/results.md' '
	jq -r ".jobs[0].trials[0] | keys[]" out/results.json >trial_keys.txt
	test -s trial_keys.txt
	missing_from "$RESULTS_MD" "$BT" "$BT" <trial_keys.txt
'

test_expect_success 'every key of a results.json summary is named in docs/results.md' '
	jq -r ".jobs[0].summary | keys[]" out/results.json >summary_keys.txt
	test -s summary_keys.txt
	missing_from "$RESULTS_MD" "$BT" "$BT" <summary_keys.txt
'

test_expect_success 'every top-level key of results.json is named in docs/results.md' '
	jq -r "keys[]" out/results.json >top_keys.txt
	test "$(wc -l <top_keys.txt)" -gt 10
	missing_from "$RESULTS_MD" "$BT" "$BT" <top_keys.txt
'

# Two workers on the null backend: each trial has a workers row per worker.
printf 'jobs:\n  - {name: w, workload: read, backend: null, file_size: 1MiB, threads: 2}\n' >w.yaml

test_expect_success 'every key of a results.json workers row is named in docs/results.md' '
	"$IOTRIAL" run -q w.yaml -o wout 2>err
	expect_eq "$(jq ".jobs[0].trials[0].workers | length" wout/results.json)" 2
	jq -r ".jobs[0].trials[0].workers[0] | keys[]" wout/results.json >worker_keys.txt
	test -s worker_keys.txt
	missing_from "$RESULTS_MD" "$BT" "$BT" <worker_keys.txt
'

test_done
