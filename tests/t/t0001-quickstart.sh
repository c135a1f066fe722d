#!/bin/bash
# The quickstart job end to end: exit 0, the result directory and results.json's contract.
. "$(dirname "$0")/lib.sh"
need_cmd jq

test_expect_success 'quickstart runs and exits 0' '
	QUICKSTART_SIZE=4MiB "$IOTRIAL" run "$SRC/jobs/quickstart.yaml" -o out >stdout 2>stderr
'

test_expect_success 'the result directory holds results.json, trials.csv, summary.txt' '
	test -s out/results.json
	test -s out/trials.csv
	test -s out/summary.txt
'

test_expect_success 'summary.txt is what was printed' '
	cmp stdout out/summary.txt
'

test_expect_success 'results.json has every top-level key of the contract' '
	for k in schema tool experiment description job_file overrides started_at finished_at \
		complete seed env jobs comparisons; do
		expect_eq "$(jq "has(\"$k\")" out/results.json)" true "$k"
	done
	expect_eq "$(jq -r .schema out/results.json)" iotrial.results/1
	expect_eq "$(jq -r .tool.name out/results.json)" iotrial
	expect_eq "$(jq -r .complete out/results.json)" true
	expect_eq "$(jq -r .job_file.sha256 out/results.json)" "$(sha256sum "$SRC/jobs/quickstart.yaml" | cut -d" " -f1)"
	for k in hostname kernel cpu_model cpus mem_bytes targets; do
		expect_eq "$(jq ".env | has(\"$k\")" out/results.json)" true "env.$k"
	done
	expect_eq "$(jq -r .env.kernel out/results.json)" "$(uname -r)"
'

test_expect_success 'every job instance and trial carries the contract keys' '
	expect_eq "$(jq ".jobs | length" out/results.json)" 5
	for k in name job params backend workload threads trials summary; do
		expect_eq "$(jq "[.jobs[] | has(\"$k\")] | all" out/results.json)" true "jobs[].$k"
	done
	for k in index kept start_ns end_ns seconds bytes ios iops bw_bytes lat_ns cpu errors; do
		expect_eq "$(jq "[.jobs[].trials[] | has(\"$k\")] | all" out/results.json)" true "trials[].$k"
	done
	for k in min max mean stddev rms p50 p90 p95 p99 p99_9 p99_99; do
		expect_eq "$(jq "[.jobs[].trials[].lat_ns | has(\"$k\")] | all" out/results.json)" true "lat_ns.$k"
	done
	for k in runs kept seconds bw_bytes iops lat_mean_ns required_runs; do
		expect_eq "$(jq "[.jobs[].summary | has(\"$k\")] | all" out/results.json)" true "summary.$k"
	done
	for k in mean stddev cov median min max ci_low ci_high confidence; do
		expect_eq "$(jq "[.jobs[].summary.seconds | has(\"$k\")] | all" out/results.json)" true "STAT.$k"
	done
'

test_expect_success 'three runs kept and one warm-up per job, numbers are numbers' '
	expect_eq "$(jq "[.jobs[].summary.kept] | unique" -c out/results.json)" "[3]"
	expect_eq "$(jq "[.jobs[].summary.runs] | unique" -c out/results.json)" "[3]"
	expect_eq "$(jq -c "[.jobs[] | [.trials[] | [.index, .warmup, .kept]]] | unique" out/results.json)" \
		"[[[0,true,false],[1,false,true],[2,false,true],[3,false,true]]]"
	expect_eq "$(jq "[.jobs[].trials[] | .seconds, .bw_bytes, .iops | type] | unique" -c out/results.json)" "[\"number\"]"
	expect_eq "$(jq "[.jobs[].summary.seconds | .ci_low, .mean, .ci_high | type] | unique" -c out/results.json)" "[\"number\"]"
	expect_eq "$(jq "[.jobs[].summary.seconds | .ci_low < .mean and .mean < .ci_high] | unique" -c out/results.json)" "[true]"
'

test_expect_success 'rates, status and summaries follow from the trials' '
	check_results out/results.json
'

test_expect_success 'trials.csv has a header and one row per trial' '
	expect_eq "$(head -1 out/trials.csv | cut -d, -f1-4)" "experiment,job,trial,warmup"
	expect_eq "$(($(wc -l <out/trials.csv) - 1))" "$(jq "[.jobs[].trials[]] | length" out/results.json)"
'

# The columns of trials.csv named in $1 (comma list), one row per line, from the header.
csv_cols() {
	awk -F, -v want="$1" "NR == 1 { n = split(want, w, \",\"); for (i = 1; i <= NF; i++) col[\$i] = i; next }
		{ line = \"\"; for (k = 1; k <= n; k++) line = line (k > 1 ? \",\" : \"\") \$col[w[k]]; print line }" "$2"
}

test_expect_success 'each trials.csv row has the figures of its trial in results.json' '
	csv_cols job,trial,warmup,kept,failed,bytes,ios,errors out/trials.csv >csv.rows
	jq -r ".jobs[] | .job as \$j | .trials[] | [\$j, .index, .warmup, .kept, .failed, .bytes, .ios, .errors] | join(\",\")" \
		out/results.json >json.rows
	test -s json.rows
	cmp csv.rows json.rows
	# Numbers in the CSV have 9 significant digits.
	csv_cols seconds,iops,bw_bytes,lat_mean_ns,lat_p50_ns,lat_p99_ns,lat_p99_9_ns,lat_max_ns out/trials.csv >csv.num
	jq -r ".jobs[].trials[] | [.seconds, .iops, .bw_bytes, .lat_ns.mean, .lat_ns.p50, .lat_ns.p99, .lat_ns.p99_9, .lat_ns.max] | join(\",\")" \
		out/results.json >json.num
	paste -d, csv.num json.num >both.num
	awk -F, "{ for (i = 1; i <= 8; i++) { d = \$i - \$(i + 8); if (d < 0) d = -d; if (d > 1e-7 * \$(i + 8)) { print NR \": column \" i \": \" \$i \" vs \" \$(i + 8); bad = 1 } } }
		END { exit bad }" both.num
'

test_expect_success 'no scratch file or folder is left behind' '
	# The run did work in a scratch folder here, so its absence means it was removed.
	jq -r ".env.targets[].path" out/results.json >targets
	grep "^$TRASH/iotrial-scratch\.[0-9]*$" targets
	expect_eq "$(ls -d iotrial-scratch.* 2>/dev/null | wc -l)" 0
'

test_expect_success 'a default run writes results/<experiment>-<UTC timestamp>/' '
	QUICKSTART_SIZE=1MiB "$IOTRIAL" run -q "$SRC/jobs/quickstart.yaml" --set replication.runs=1 --set replication.warmup=0 2>/dev/null
	ls -d results/quickstart-* >dirs
	grep -Eq "^results/quickstart-[0-9]{8}T[0-9]{6}Z$" dirs
'

test_done
