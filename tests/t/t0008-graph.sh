#!/bin/bash
# The job graph and concurrency, checked from results.json alone: jobs run with each other
# overlap, `after` is honoured, background load runs during the measured job and stops
# after it, workers (threads or processes) are merged and kept, record logs hold one line
# per I/O in constant memory, and rate-limited latency counts from the scheduled start.
. "$(dirname "$0")/lib.sh"
need_cmd jq

cat >g.yaml <<'JOB'
experiment: graph
replication: {runs: 2}
defaults: {file_size: 8MiB, block_size: 1MiB}
jobs:
  - {name: a, workload: write, backend: fault, fault_delay: 20ms}
  - {name: b, workload: write, backend: fault, fault_delay: 20ms, with: a}
  - {name: last, workload: read, after: c}
  - {name: c, workload: randread, block_size: 4KiB, runtime: 200ms}
  - {name: load, workload: copytree, file_size: 4MiB, tree_files: 8, background: true, with: c}
JOB

test_expect_success 'the graph job runs; validate prints its stages' '
	"$IOTRIAL" run -q g.yaml -o g
	"$IOTRIAL" validate g.yaml >plan.txt
	grep -q "stage 1: a, b" plan.txt
	grep -q "stage 2: c + load (background)" plan.txt
	grep -q "stage 3: last" plan.txt
'

test_expect_success 'jobs run with each other overlap in time, trial by trial' '
	for t in 0 1; do
		jq -e ".jobs as \$j | (\$j[0].trials[$t]) as \$a | (\$j[1].trials[$t]) as \$b |
			\$a.start_ns < \$b.end_ns and \$b.start_ns < \$a.end_ns" g/results.json
	done
'

test_expect_success 'after is honoured: last starts when c (listed after it) has ended' '
	expect_eq "$(jq -c "[.jobs[] | .name, (.trials | length)]" g/results.json)" "[\"a\",2,\"b\",2,\"last\",2,\"c\",2,\"load\",2]"
	jq -e "(.jobs[] | select(.name == \"c\") | [.trials[].end_ns] | max) as \$c |
		(.jobs[] | select(.name == \"last\") | [.trials[].start_ns] | min) > \$c" g/results.json
'

test_expect_success 'background load ran during the measured job and stopped after it' '
	for t in 0 1; do
		jq -e "(.jobs[] | select(.name == \"c\") | .trials[$t]) as \$m |
			(.jobs[] | select(.name == \"load\") | .trials[$t]) as \$l |
			\$l.start_ns < \$m.end_ns and \$l.end_ns >= \$m.end_ns and
			\$l.end_ns - \$m.end_ns < 1000000000 and \$l.bytes > 0" g/results.json
	done
	expect_eq "$(jq "[.jobs[] | select(.background) | .name]" -c g/results.json)" "[\"load\"]"
	grep -q "^background load" g/summary.txt
	check_results g/results.json
'

cat >w.yaml <<'JOB'
replication: {runs: 1}
jobs:
  - {name: one, workload: write, file_size: 16MiB, block_size: 1MiB, sync: fsync_end}
  - {name: two, workload: write, file_size: 16MiB, block_size: 1MiB, sync: fsync_end, threads: 2, worker_mode: process}
  - {name: shared, workload: read, file_size: 8MiB, block_size: 1MiB, threads: 2, file_per_thread: false}
JOB

test_expect_success 'two processes writing at once: both finish, the trial sums them' '
	"$IOTRIAL" run -q w.yaml -o w
	expect_eq "$(jq ".jobs[1].trials[0].workers | length" w/results.json)" 2
	expect_eq "$(jq "[.jobs[1].trials[0].workers[].bytes] | add" w/results.json)" 33554432
	expect_eq "$(jq ".jobs[1].trials[0].bytes" w/results.json)" 33554432
	jq -e ".jobs[1].trials[0] | [.workers[].seconds] | all(. > 0)" w/results.json
	jq -e ".jobs[1].trials[0] | .seconds >= ([.workers[].seconds] | max) - 0.001" w/results.json
	check_results w/results.json
'

test_expect_success 'workers sharing a file split a sequential workload into halves' '
	expect_eq "$(jq "[.jobs[2].trials[0].workers[].bytes]" -c w/results.json)" "[4194304,4194304]"
'

cat >r.yaml <<'JOB'
replication: {runs: 2}
jobs:
  - {name: r, workload: randread, file_size: 4MiB, block_size: 4KiB, threads: 2, log: {records: true, interval: 20ms}}
JOB

test_expect_success 'a record log has one line per I/O; its latencies agree with the summary' '
	"$IOTRIAL" run -q r.yaml -o r
	expect_eq "$(($(wc -l <r/records/r.csv) - 1))" "$(jq "[.jobs[0].trials[].ios] | add" r/results.json)"
	for t in 0 1; do
		mean=$(awk -F, -v t=$t "NR > 1 && \$1 == t {s += \$7; n++} END {printf \"%.3f\", s / n}" r/records/r.csv)
		jq -e --argjson m "$mean" ".jobs[0].trials[$t].lat_ns.mean as \$h | ((\$m - \$h) / \$h | fabs) < 0.01" r/results.json
	done
	expect_eq "$(cut -d, -f2 r/records/r.csv | sort -u | tr "\n" " ")" "0 1 worker "
'

# The nearest-rank value (docs/statistics.md) of the sorted numbers in file $2 at percentile $1.
rank_value() {
	awk -v p="$1" "{ v[NR] = \$1 } END { r = p / 100 * NR; k = int(r); if (k < r) k++; if (k < 1) k = 1; print v[k] }" "$2"
}

test_expect_success 'latency figures agree with the record log: exact min, max, mean; percentiles within 1/128' '
	for t in 0 1; do
		awk -F, -v t=$t "NR > 1 && \$1 == t {print \$7}" r/records/r.csv | sort -n >lat$t
		expect_eq "$(wc -l <lat$t)" 2048
		jq -r ".jobs[0].trials[$t].lat_ns | .min, .max, .p50, .p90, .p95, .p99, .p99_9, .p99_99" r/results.json >got$t
		expect_eq "$(sed -n 1p got$t)" "$(head -1 lat$t)" "trial $t min"
		expect_eq "$(sed -n 2p got$t)" "$(tail -1 lat$t)" "trial $t max"
		i=3
		for p in 50 90 95 99 99.9 99.99; do
			want=$(rank_value $p lat$t)
			got=$(sed -n ${i}p got$t)
			echo "trial $t p$p: $got (records: $want)"
			awk -v g="$got" -v w="$want" "BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= w / 128 + 0.5) }"
			i=$((i + 1))
		done
	done
	check_results r/results.json
'

test_expect_success 'interval logs add up to the trial: bytes per interval sum to the total' '
	expect_eq "$(awk -F, "NR > 1 {s += \$5} END {print s}" r/records/r.intervals.csv)" "$(jq "[.jobs[0].trials[].bytes] | add" r/results.json)"
'

test_expect_success 'memory stays flat when a record-logged run grows from 10^5 to 10^7 I/Os' '
	printf "jobs:\n  - {name: n, workload: randread, backend: null, block_size: 4KiB, file_size: 400MB, log: {records: true}}\n" >m.yaml
	"$IOTRIAL" run -q m.yaml -o small --set file_size=400MB
	"$IOTRIAL" run -q m.yaml -o big --set file_size=40GB
	expect_eq "$(jq .jobs[0].trials[0].ios big/results.json)" 9765625
	expect_eq "$(($(wc -l <big/records/n.csv) - 1))" 9765625
	a=$(jq .resources.max_rss_bytes small/results.json)
	b=$(jq .resources.max_rss_bytes big/results.json)
	echo "peak RSS: $a bytes at 10^5 I/Os, $b at 10^7"
	awk -v a="$a" -v b="$b" "BEGIN { exit !(b <= a * 1.10) }"
	rm -rf big small
'

cat >co.yaml <<'JOB'
replication: {runs: 1}
defaults: {workload: read, block_size: 4KiB, file_size: 4MiB, rate_iops: 1000, runtime: 1s}
jobs:
  - {name: stall, backend: fault, fault_delay: 200ms, fault_delay_every: 300}
JOB

test_expect_success 'a stalled device shows in the tail of a rate-limited run (no coordinated omission)' '
	"$IOTRIAL" run -q co.yaml -o co
	# One stall of 200 ms at 1000 IO/s holds back ~200 scheduled I/Os: well over 1% of them
	# must show a latency of tens of ms. Timed from the late issue, only one would.
	jq -e ".jobs[0].trials[0].lat_ns.p99 > 50000000" co/results.json
	jq -e ".jobs[0].trials[0].ios >= 700" co/results.json
'

test_expect_success 'graph errors name the jobs: unknown with/after, a cycle, mismatched runs' '
	printf "jobs:\n  - {name: a, workload: read, with: nope}\n" >e1.yaml
	rc=0
	"$IOTRIAL" validate e1.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "runs with .nope., which is not a job" err
	printf "jobs:\n  - {name: a, workload: read, after: b}\n  - {name: b, workload: read, after: a}\n" >e2.yaml
	rc=0
	"$IOTRIAL" validate e2.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "wait for each other in a cycle" err
	printf "jobs:\n  - {name: a, workload: read, replication: {runs: 3}}\n  - {name: b, workload: read, with: a}\n" >e3.yaml
	rc=0
	"$IOTRIAL" validate e3.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "jobs .a. and .b. run together but are replicated differently" err
	printf "jobs:\n  - {name: a, workload: read, background: true}\n" >e4.yaml
	rc=0
	"$IOTRIAL" validate e4.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "is load for no job" err
'

test_expect_success 'threads 0 or absurd, and a shared file too small, are refused' '
	printf "jobs:\n  - {name: a, workload: read, threads: 0}\n" >t1.yaml
	rc=0
	"$IOTRIAL" validate t1.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "must be between 1 and 1024" err
	printf "jobs:\n  - {name: a, workload: read, threads: 100000}\n" >t2.yaml
	rc=0
	"$IOTRIAL" validate t2.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "^t2.yaml:2:.*must be between 1 and 1024, got .100000." err
	printf "jobs:\n  - {name: a, workload: read, threads: 4, file_per_thread: false, file_size: 8KiB, block_size: 4KiB}\n" >t3.yaml
	rc=0
	"$IOTRIAL" validate t3.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "less than one 4096-byte I/O each" err
'

test_expect_success 'workers that do not slice a shared file may each need all of it' '
	# offset_increment gives each worker file_size bytes of its own; random workers
	# each cover the whole file.
	printf "jobs:\n  - {name: a, workload: read, threads: 4, file_per_thread: false, file_size: 4KiB, block_size: 4KiB, offset_increment: 8KiB}\n" >oi.yaml
	"$IOTRIAL" run oi.yaml -o oi >/dev/null 2>err
	tr -d " \n" <oi/results.json >oi.txt
	grep -q "\"bytes\":16384" oi.txt
	printf "jobs:\n  - {name: a, workload: randread, threads: 4, file_per_thread: false, file_size: 4KiB, block_size: 4KiB}\n" >rr.yaml
	"$IOTRIAL" validate rr.yaml >/dev/null
'

# sqlio-vpc at a small scale: t0026-seeds.sh.
test_expect_success 'discwr2 runs at a small scale' '
	TOTAL_SIZE=40MB LOAD_SIZE=8MB "$IOTRIAL" run "$SRC/jobs/discwr2.yaml" -o dw >dw.txt 2>&1
	grep -q "record times" dw.txt
	test -s "dw/records/records[device=raid,block_size=20000000].csv"
'

test_done
