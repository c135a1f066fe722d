#!/bin/bash
# -f ndjson: the run's events on stdout as they happen, one JSON object a line, nothing else on
# stdout (messages, warnings, a command's output: stderr); their figures are results.json's;
# -o - is stdout, not a folder; bad combinations are refused. log_histogram: each trial's
# latency buckets in results.json, from which its percentiles are rebuilt exactly.
. "$(dirname "$0")/lib.sh"
need_cmd jq

# A matrix of two instances, a warm-up and three runs each (the lowest dropped), a
# comparison, and interval logs: rate-bound on the null backend, so each trial takes 50 ms.
cat >m.yaml <<JOB
experiment: nd
seed: 1
replication: {runs: 3, warmup: 1, trim: {low: 1, high: 0}}
jobs:
  - name: w
    workload: write
    backend: null
    target: "$PWD/"
    file_size: 2MiB
    rate: 40MB
    log_interval: 10ms
    matrix:
      block_size: [4KiB, 64KiB]
compare:
  - {a: {block_size: 4KiB}, b: {block_size: 64KiB}, metric: bw_bytes}
JOB

# Every line of file $1 is one JSON object (jq alone would also take an object over lines).
each_line_json() {
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		printf '%s\n' "$line" | jq -e 'type == "object" and .schema == "iotrial.events/1"' >/dev/null
	done <"$1"
	test "$n" -gt 0
	expect_eq "$(wc -l <"$1")" "$n" "lines"
}

test_expect_success 'a matrix run with -f ndjson: every stdout line is one event object' '
	"$IOTRIAL" run m.yaml -f ndjson,json -o out >ev.ndjson 2>err.txt
	each_line_json ev.ndjson
	grep -x "iotrial: results in out/" err.txt
	test -s out/results.json
'

test_expect_success 'the events come in order: start, trials (intervals inside), summaries, comparison, end' '
	trial="trial_start trial_end"
	want="run_start $trial $trial $trial $trial $trial $trial $trial $trial summary summary comparison run_end"
	expect_eq "$(jq -r "select(.event != \"interval\") | .event" ev.ndjson | tr "\n" " ")" "$want "
	jq -s -e "[.[] | select(.event == \"interval\")] | length >= 16" ev.ndjson
	jq -r "select(.event | test(\"^(trial_start|trial_end|interval)$\")) | [.event, .instance, .trial] | @tsv" ev.ndjson >seq.tsv
	awk -F "\t" "
		\$1 == \"trial_start\" { if (open) exit 1; open = \$2 \" \" \$3; next }
		\$1 == \"interval\" { if (open != \$2 \" \" \$3) exit 1; next }
		\$1 == \"trial_end\" { if (open != \$2 \" \" \$3) exit 1; open = \"\" }
		END { if (open) exit 1 }" seq.tsv
	expect_eq "$(jq -c "select(.event == \"run_start\") | [.trials_planned, (.jobs | length), .results_schema]" ev.ndjson)" "[8,2,\"iotrial.results/1\"]"
	expect_eq "$(jq -c "select(.event == \"run_end\") | [.complete, .status]" ev.ndjson)" "[true,\"ok\"]"
'

test_expect_success 'a trial_end holds the trial of results.json, figure for figure' '
	jq -c "select(.event == \"trial_end\") | [.instance, .result]" ev.ndjson >ends.json
	jq -c ".jobs[] | .name as \$n | .trials[] | [\$n, .]" out/results.json >saved.json
	# kept is known at the trial end before the outlier policy; dropped once it has run.
	jq -c "[.[0], (.[1] | del(.kept, .dropped))]" ends.json | sort >a.txt
	jq -c "[.[0], (.[1] | del(.kept, .dropped))]" saved.json | sort >b.txt
	expect_eq "$(wc -l <a.txt)" 8 "trials"
	cmp a.txt b.txt
	expect_eq "$(jq -c "select(.event == \"summary\") | .dropped | length" ev.ndjson | tr "\n" " ")" "1 1 "
	jq -c "select(.event == \"summary\") | [.instance, .summary]" ev.ndjson >sum-ev.txt
	jq -c ".jobs[] | [.name, .summary]" out/results.json >sum-saved.txt
	cmp sum-ev.txt sum-saved.txt
	expect_eq "$(jq -c "select(.event == \"comparison\") | .comparison" ev.ndjson)" "$(jq -c ".comparisons[0]" out/results.json)"
'

test_expect_success 'the intervals of a trial add up to its bytes' '
	jq -s -c "[.[] | select(.event == \"interval\")] | group_by([.instance, .trial]) | map([.[0].instance, .[0].trial, (map(.bytes) | add)]) | sort" ev.ndjson >ivl.txt
	jq -c "[.jobs[] | .name as \$n | .trials[] | [\$n, .index, .bytes]] | sort" out/results.json >bytes.txt
	cmp ivl.txt bytes.txt
	# An interval in which no I/O completed (a busy machine) has no mean latency: null.
	jq -s -e "map(select(.event == \"interval\")) | all(.end_ns > .start_ns and if .ios > 0 then .bw_bytes > 0 and .lat_mean_ns > 0 else .bw_bytes == 0 and .lat_mean_ns == null end)" ev.ndjson
'

# Two trials of a second: their few events fit in any stdio buffer, so they arrive while the
# run goes only when each is flushed as it is written.
cat >long.yaml <<JOB
experiment: long
replication: {runs: 2}
jobs:
  - {name: slow, workload: write, backend: null, target: "$PWD/", file_size: 40MB, block_size: 1MiB, rate: 40MB}
JOB

test_expect_success 'events are readable while the run still goes' '
	mkfifo live.fifo
	"$IOTRIAL" run long.yaml -o - >live.fifo 2>live.err &
	pid=$!
	exec 3<live.fifo
	IFS= read -r -t 30 first <&3
	IFS= read -r -t 30 second <&3
	IFS= read -r -t 30 third <&3
	expect_eq "$(printf "%s\n" "$first" "$second" "$third" | jq -r .event | tr "\n" " ")" "run_start trial_start trial_end "
	# The first trial has ended, and the run has not: its process is still there.
	kill -0 "$pid"
	cat <&3 >rest.ndjson
	wait "$pid"
	expect_eq "$(jq -r .event rest.ndjson | tail -n 1)" run_end
	test ! -e -
'

test_expect_success 'interrupted: the stream still ends with the summaries and run_end' '
	"$IOTRIAL" run long.yaml -o - >int.ndjson 2>int.err &
	pid=$!
	for i in $(seq 300); do
		if grep -q "\"event\":\"trial_start\"" int.ndjson; then break; fi
		sleep 0.1
	done
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	expect_eq "$rc" 130 "exit status"
	each_line_json int.ndjson
	expect_eq "$(jq -r .event int.ndjson | tail -n 2 | tr "\n" " ")" "summary run_end "
	expect_eq "$(jq -c "select(.event == \"run_end\") | [.complete, .status]" int.ndjson)" "[false,\"interrupted\"]"
'

# A job whose command writes to stdout and stderr, with the progress lines on too.
cat >noisy.yaml <<JOB
experiment: noisy
jobs:
  - {name: talk, workload: command, command: "echo stray-stdout; echo stray-stderr >&2"}
  - {name: rec, workload: write, backend: null, target: "$PWD/", file_size: 64KiB, log_records: true}
JOB

test_expect_success 'nothing but events on stdout: messages, progress, a command, warnings go to stderr' '
	"$IOTRIAL" run noisy.yaml -f ndjson -o noisy --progress always >noisy.ndjson 2>noisy.err
	each_line_json noisy.ndjson
	grep -x stray-stdout noisy.err
	grep -x stray-stderr noisy.err
	grep -x "iotrial: results in noisy/" noisy.err
	grep "^\[2/2\] rec trial 0" noisy.err
	not grep stray noisy.ndjson
	"$IOTRIAL" run noisy.yaml -o - >noisy2.ndjson 2>noisy2.err
	each_line_json noisy2.ndjson
	grep -x "iotrial: warning: job .rec. asks for a record log, which needs a result folder: -o - writes none" noisy2.err
	grep -x stray-stdout noisy2.err
'

test_expect_success '-o - is stdout, not a folder: ndjson by default, or results.json' '
	"$IOTRIAL" run long.yaml --set replication.runs=1 -o - >dash.ndjson
	each_line_json dash.ndjson
	test ! -e ./-
	"$IOTRIAL" run long.yaml --set replication.runs=1 -o - -f json >dash.json
	expect_eq "$(jq -c "[.schema, .complete, (.jobs[0].trials | length)]" dash.json)" "[\"iotrial.results/1\",true,1]"
	test ! -e ./-
'

test_expect_success '-o - with another format, or two, is refused: one line and the help hint, exit 2, nothing run' '
	for f in csv text html ndjson,json json,csv; do
		expect_code 2 "$IOTRIAL" run long.yaml -o - -f "$f" >bad.out 2>bad.err
		expect_eq "$(wc -l <bad.err)" 2 "lines on stderr for -f $f"
		sed -n 2p bad.err >hint.txt
		grep -x "iotrial: see .iotrial run --help." hint.txt
		grep "^iotrial: -o - puts one format on stdout, ndjson (the default) or json; for " bad.err
		test ! -s bad.out
	done
	test ! -e ./-
'

test_expect_success 'a reader that goes away: the run ends, exit 141, no further job file' '
	mkfifo gone.fifo
	"$IOTRIAL" run long.yaml m.yaml -f ndjson -o gone >gone.fifo 2>gone.err &
	pid=$!
	exec 4<gone.fifo
	IFS= read -r -t 30 first <&4
	exec 4<&-
	rc=0
	wait "$pid" || rc=$?
	expect_eq "$rc" 141 "exit status"
	grep -x "iotrial: stdout was closed by its reader (Broken pipe): no further job file runs" gone.err
	expect_eq "$(ls gone/*/events.ndjson | wc -l)" 1 "folders with events (two job files: a batch folder, one folder each)"
'

test_expect_success 'iotrial report -f ndjson replays a saved run' '
	"$IOTRIAL" report out/results.json -f ndjson >replay.ndjson
	each_line_json replay.ndjson
	expect_eq "$(jq -r .event replay.ndjson | sort | uniq -c | tr -s " " | tr "\n" ";")" " 1 comparison; 1 run_end; 1 run_start; 2 summary; 8 trial_end;"
	cmp replay.ndjson out/events.ndjson
'

# The rebuild of docs/results.md, taken from the doc itself so that the two cannot drift.
awk '/^def pct\(\$ppm\):/ { on = 1 } on && /^```/ { exit } on { print }' "$SRC/docs/results.md" >pct.jq

cat >h.yaml <<JOB
experiment: hist
replication: {runs: 3}
jobs:
  - {name: r, workload: randread, target: "$PWD/", file_size: 2MiB, block_size: 4KiB, log: {histogram: true}}
  - {name: w, workload: write, backend: null, target: "$PWD/", file_size: 1MiB, threads: 2, rate: 20MB}
  - {name: plain, workload: write, backend: null, target: "$PWD/", file_size: 1MiB}
JOB

test_expect_success 'log_histogram: every percentile rebuilt from the buckets is the reported one' '
	grep -q "def pct" pct.jq
	"$IOTRIAL" run -q h.yaml --set w.log_histogram=true -o hist
	jq -e "[.jobs[0, 1].trials[] | .lat_hist] | length == 6 and all(.count > 0)" hist/results.json
	jq -e "[.jobs[2].trials[] | has(\"lat_hist\")] | any | not" hist/results.json
	jq -e "all(.jobs[0, 1].trials[]; .lat_hist.count == .ios and (.lat_hist.buckets | map(.[2]) | add) == .ios)" hist/results.json
	jq -L . -r "include \"pct\"; .jobs[0, 1].trials[] | [.lat_ns.p50, (.lat_hist | pct(500000)), .lat_ns.p90, (.lat_hist | pct(900000)), .lat_ns.p99, (.lat_hist | pct(990000)), .lat_ns.p99_9, (.lat_hist | pct(999000)), .lat_ns.p99_99, (.lat_hist | pct(999900))] | @tsv" hist/results.json >p.tsv
	cat p.tsv
	expect_eq "$(wc -l <p.tsv)" 6 "trials"
	awk -F "\t" "{ for (i = 1; i < NF; i += 2) if (\$i != \$(i + 1)) exit 1 }" p.tsv
	# Not all alike: the check would pass on a histogram of one bucket.
	jq -e "[.jobs[0].trials[].lat_hist.buckets | length] | min > 3" hist/results.json
'

test_expect_success 'log_histogram survives iotrial report, and a bad bucket is named' '
	"$IOTRIAL" report hist/results.json -f json >rt.json
	cmp hist/results.json rt.json
	jq ".jobs[0].trials[0].lat_hist.buckets[0] = [5, 4, 1]" hist/results.json >badh.json
	expect_code 2 "$IOTRIAL" report badh.json 2>badh.err
	grep -x "badh.json: jobs\[0\].trials\[0\].lat_hist.buckets\[0\]: expected \[low, high, count\]: non-negative integers, low <= high" badh.err
'

test_done
