#!/bin/bash
# Experiments: matrix expansion, trial order, outlier policies, precision targets and
# comparisons, checked end to end on the synthetic backend, whose truth is known.
. "$(dirname "$0")/lib.sh"
need_cmd jq

test_expect_success 'a matrix runs the cross product, minus excluded points, named by point' '
	cat >m.yaml <<-JOB
	replication: {runs: 2}
	jobs:
	  - name: r
	    workload: randread
	    backend: null
	    file_size: 1MiB
	    matrix:
	      block_size: {from: 4KiB, to: 64KiB, step: x4}
	      iodepth: [1, 8]
	    exclude:
	      - {block_size: 64KiB, iodepth: 8}
	JOB
	"$IOTRIAL" run -q m.yaml -o m
	expect_eq "$(jq -c "[.jobs[].name]" m/results.json)" "[\"r[block_size=4096,iodepth=1]\",\"r[block_size=4096,iodepth=8]\",\"r[block_size=16384,iodepth=1]\",\"r[block_size=16384,iodepth=8]\",\"r[block_size=65536,iodepth=1]\"]"
	expect_eq "$(jq -c "[.jobs[] | .params.iodepth]" m/results.json)" "[1,8,1,8,1]"
	expect_eq "$(jq -c ".jobs[0].matrix" m/results.json)" "[\"block_size\",\"iodepth\"]"
	expect_eq "$(head -1 m/trials.csv | cut -d, -f1-5)" "experiment,job,block_size,iodepth,trial"
'

test_expect_success 'matrix errors name the line: unknown key, wrong type, empty, all excluded' '
	printf "jobs:\n  - name: a\n    workload: read\n    matrix: {blocksize: [4KiB]}\n" >e1.yaml
	rc=0
	"$IOTRIAL" validate e1.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "^e1.yaml:4:14: key .blocksize.: not a job key, so it cannot be a matrix key (did you mean .block_size.?)" err
	printf "jobs:\n  - name: a\n    workload: read\n    matrix: {block_size: [4KiB, lots]}\n" >e2.yaml
	rc=0
	"$IOTRIAL" validate e2.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "^e2.yaml:4:33: key .block_size.: expected a size" err
	printf "jobs:\n  - name: a\n    workload: read\n    matrix: {iodepth: [1]}\n    exclude: [{iodepth: 1}]\n" >e3.yaml
	rc=0
	"$IOTRIAL" validate e3.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "every point of job .a. is excluded" err
'

cat >sim.yaml <<'JOB'
experiment: sim
seed: 7
replication: {runs: 40, order: sequential}
defaults: {workload: read, backend: synthetic, file_size: 4KiB, sim_mean: 10ms, sim_stddev: 1ms}
jobs:
  - name: s
    matrix:
      sim_mean: [10ms, 11ms, 10.1ms]
compare:
  - {a: {sim_mean: 10ms}, b: {sim_mean: 11ms}}
  - {a: {sim_mean: 10ms}, b: {sim_mean: 10.1ms}, paired: true}
JOB

test_expect_success 'a 10% difference is found significant and said in a sentence' '
	"$IOTRIAL" run sim.yaml -o sim >sim.txt 2>/dev/null
	expect_eq "$(jq -r ".comparisons[0] | [.significant, .test, .metric] | @csv" sim/results.json)" "true,\"welch\",\"seconds\""
	jq -e ".comparisons[0] | .diff_mean < 0 and .ci_high < 0 and .ratio < 0.95" sim/results.json
	grep -q "^s\[sim_mean=10000000\] is faster than s\[sim_mean=11000000\] by [0-9.]*% ± [0-9.]*% (seconds, 95% confidence, welch)" sim.txt
'

test_expect_success 'a 1% difference at 10% noise and 40 runs is not significant; paired test named' '
	expect_eq "$(jq -r ".comparisons[1] | [.significant, .test] | @csv" sim/results.json)" "false,\"paired-t\""
	grep -q "^s\[sim_mean=10000000\] vs s\[sim_mean=10100000\] (seconds): no significant difference ([0-9.]*% ± [0-9.]*%, 95% confidence, paired-t)$" sim.txt
'

test_expect_success 'summaries and comparisons follow from the trials (Welch and paired)' '
	check_results sim/results.json
	expect_eq "$(jq "[.jobs[].summary.kept]" -c sim/results.json)" "[40,40,40]"
	expect_eq "$(jq "[.comparisons[] | .n_a, .n_b]" -c sim/results.json)" "[40,40,40,40]"
'

test_expect_success 'the required-runs estimate lands within 15% of the analytic n' '
	# COV 0.1, 95% confidence, 3% error: n = (1.96 * 0.1 / 0.03)^2 = 42.7, so 43.
	{ printf "seed: 9\nreplication: {runs: 50, order: sequential}\n";
	  printf "defaults: {workload: read, backend: synthetic, sim_mean: 10ms, sim_stddev: 1ms, file_size: 4KiB}\njobs:\n";
	  i=0; while [ $i -lt 200 ]; do i=$((i + 1)); echo "  - {name: e$i}"; done; } >req.yaml
	"$IOTRIAL" run -q req.yaml -o req
	med=$(jq "[.jobs[].summary.required_runs.n] | sort | .[100]" req/results.json)
	echo "median estimate: $med (analytic 42.7)"
	awk -v m="$med" "BEGIN { exit !(m >= 42.7 * 0.85 && m <= 42.7 * 1.15) }"
'

cat >out.yaml <<'JOB'
seed: 3
replication: {runs: 100, order: sequential}
defaults: {workload: read, backend: synthetic, file_size: 4KiB, sim_mean: 10ms, sim_stddev: 0.5ms, sim_outliers: 0.04, sim_outlier_factor: 4}
jobs:
  - {name: trim, replication: {trim: {low: 10, high: 10}}}
  - {name: iqr, replication: {outliers: iqr}}
  - {name: mad, replication: {outliers: {policy: mad, threshold: 3.5}}}
  - {name: none}
JOB

test_expect_success 'trim, IQR and MAD drop every injected outlier and keep the rest' '
	"$IOTRIAL" run -q out.yaml -o outl
	for j in 0 1 2; do
		# Injected outliers take 4x (about 40 ms); an honest trial is within 10 +- 2.5 ms.
		expect_eq "$(jq "[.jobs[$j].trials[] | select(.seconds > 0.02 and .kept)] | length" outl/results.json)" 0 "job $j keeps an outlier"
		jq -e "[.jobs[$j].trials[] | select(.seconds > 0.02)] | length > 0" outl/results.json
	done
	expect_eq "$(jq ".jobs[0].summary.kept" outl/results.json)" 80
	jq -e "[.jobs[1,2].summary.kept] | all(. >= 90)" outl/results.json
	expect_eq "$(jq ".jobs[3].summary.kept" outl/results.json)" 100
	check_results outl/results.json
'

test_expect_success 'the summary shows the COV before and after the policy' '
	jq -e ".jobs[1].summary | .before_outliers.cov > 0.2 and .seconds.cov < 0.07" outl/results.json
	jq -e "[.jobs[1].trials[] | select(.dropped)] | length > 0" outl/results.json
	jq -e ".jobs[3].summary | (.before_outliers.cov - .seconds.cov) | fabs < 1e-9" outl/results.json
'

test_expect_success 'a precision target runs the pilot, then stops by precision' '
	printf "seed: 5\nreplication: {target: {confidence: 0.95, error: 0.02, pilot: 10, max: 500}}\njobs:\n  - {name: t, workload: read, backend: synthetic, file_size: 4KiB, sim_mean: 10ms, sim_stddev: 1ms}\n" >t.yaml
	"$IOTRIAL" run -q t.yaml -o t
	expect_eq "$(jq -r .jobs[0].summary.stopped_by t/results.json)" precision
	expect_eq "$(jq -r ".jobs[0].summary.required_runs.n | type" t/results.json)" number
	jq -e ".jobs[0].summary | .kept >= .required_runs.n and .runs > 10 and .runs < 500" t/results.json
	check_results t/results.json
'

test_expect_success 'a precision target that cannot be met stops at max' '
	printf "replication: {target: {error: 0.001, pilot: 5, max: 12}}\njobs:\n  - {name: t, workload: read, backend: synthetic, file_size: 4KiB, sim_stddev: 3ms}\n" >tm.yaml
	"$IOTRIAL" run -q tm.yaml -o tm
	expect_eq "$(jq -r ".jobs[0].summary | [.stopped_by, .runs] | @csv" tm/results.json)" "\"max\",12"
'

test_expect_success 'random order is recorded and replays from its seed' '
	# Two instances of one job share a stage, so their trials can be shuffled together
	# (separate jobs run one after the other whatever the order).
	printf "replication: {runs: 5, order: random}\njobs:\n  - {name: a, workload: read, backend: null, file_size: 4KiB, matrix: {block_size: [1KiB, 4KiB]}}\n" >o.yaml
	"$IOTRIAL" run -q o.yaml -o o1
	seed=$(jq .order_seed o1/results.json)
	expect_eq "$(jq -r .order o1/results.json)" random
	"$IOTRIAL" run -q o.yaml -o o2 --set replication.seed=$seed
	order() { jq -r "[.jobs[] | .params.block_size as \$n | .trials[] | {n: \$n, s: .start_ns}] | sort_by(.s) | map(.n) | join(\",\")" "$1"; }
	order o1/results.json >o1.order
	order o2/results.json >o2.order
	expect_eq "$(tr , "\n" <o1.order | sort | uniq -c | awk "{print \$1 \"x\" \$2}" | tr "\n" " ")" "5x1024 5x4096 "
	cmp o1.order o2.order
	# Shuffled, not a fixed order: two given seeds give two different orders.
	"$IOTRIAL" run -q o.yaml -o o3 --set replication.seed=1
	"$IOTRIAL" run -q o.yaml -o o4 --set replication.seed=2
	order o3/results.json >o3.order
	order o4/results.json >o4.order
	cat o1.order o3.order o4.order
	not cmp o3.order o4.order
'

test_expect_success 'bad replication settings are refused at validate time' '
	printf "replication: {runs: 10, trim: {low: 5, high: 5}}\njobs:\n  - {name: a, workload: read}\n" >b1.yaml
	rc=0
	"$IOTRIAL" validate b1.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "would remove all 10 runs" err
	printf "replication: {target: {pilot: 30, max: 20}}\njobs:\n  - {name: a, workload: read}\n" >b2.yaml
	rc=0
	"$IOTRIAL" validate b2.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "max (20) is below pilot (30)" err
	printf "jobs:\n  - {name: a, workload: read}\ncompare:\n  - {a: {device: x}, b: {device: y}}\n" >b3.yaml
	rc=0
	"$IOTRIAL" validate b3.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "selects no job instance" err
'

test_expect_success 'one run: what cannot be computed is null in JSON and n/a in text' '
	printf "jobs:\n  - {name: a, workload: read, backend: null, file_size: 4KiB}\n" >one.yaml
	"$IOTRIAL" run one.yaml -o one >txt 2>/dev/null
	expect_eq "$(jq -c ".jobs[0].summary.seconds | [.stddev, .cov, .ci_low, .ci_high]" one/results.json)" "[null,null,null,null]"
	expect_eq "$(jq -c ".jobs[0].summary.required_runs.n" one/results.json)" null
	grep -q "^a  *read  *1/1  .* n/a  .* n/a  .* n/a$" txt
'

test_expect_success 'the copy experiment runs at a small scale with its comparison per file size' '
	SMALL_SIZE=1MB LARGE_SIZE=2MB BUFFER_SIZE_FILE=1MB "$IOTRIAL" run "$SRC/jobs/usb-vs-sata.yaml" --set copy.replication.target.max=30 --set buffer.replication.runs=3 -o uvs >uvs.txt 2>&1
	expect_eq "$(jq ".jobs | length" uvs/results.json)" 20
	expect_eq "$(jq ".comparisons | length" uvs/results.json)" 2
	expect_eq "$(jq "[.jobs[] | select(.job == \"copy\") | .summary.kept] | unique" -c uvs/results.json)" "[20]"
	grep -q "COV all" uvs.txt
	check_results uvs/results.json
	grep -q "copy\[file_size=2000000,device=usb\] vs copy\[file_size=2000000,device=sata\]\|copy\[file_size=2000000,device=.*\] is faster" uvs.txt
'

test_done
