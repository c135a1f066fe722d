#!/bin/bash
# Statistics end to end. Percentiles: every reported one (trial, worker) against the exact
# nearest-rank order statistic computed here with sort and awk from the per-I/O log, within
# the histogram's 1/128 bound, at I/O counts that are multiples of 10, 100, 1000 and 10^6.
# Confidence intervals: their coverage of a known mean on the synthetic backend, with enough
# experiments that a population standard deviation, df = n or a sqrt(n - 1) divisor fails,
# and on a strongly skewed (lognormal) case, against a coverage computed independently.
. "$(dirname "$0")/lib.sh"
need_cmd jq

# The percentiles iotrial reports, in parts per million, in the order of the table columns.
PPMS="500000 900000 950000 990000 999000 999900"

# exact_table DIR: from DIR/records/*.csv, one line per trial and per worker of a trial,
# "INSTANCE TRIAL WORKER N P50 P90 P95 P99 P99_9 P99_99" (WORKER - for the whole trial): the
# values of rank r = ceil(ppm * N / 10^6), at least 1, among the trial's (worker's) sorted
# latencies. ppm * N stays below 2^53, so awk's doubles hold it exactly, and a quotient that
# is not whole lies at least 10^-6 from an integer, far above a double's rounding. Latencies
# are sorted as 20-digit strings (a plain byte sort is 3 times faster than sort -n by keys)
# and stay strings: mawk prints large numbers as 2.00953e+10.
cat >order_stat.awk <<'AWK'
function flush(   k, r, s) {
	if (n == 0)
		return
	printf "%s %d", key, n
	for (k = 1; k <= 6; k++) {
		r = ppm[k] * n / 1000000
		if (r != int(r))
			r = int(r) + 1
		if (r < 1)
			r = 1
		s = v[r]
		sub(/^0+/, "", s)
		printf " %s", s == "" ? "0" : s
	}
	printf "\n"
	n = 0
}
BEGIN { split(ppms, ppm, " ") }
{
	k = $1 " " $2 " " $3
	if (k != key) {
		flush()
		key = k
	}
	v[++n] = $4
}
END { flush() }
AWK

exact_table() {
	for f in "$1"/records/*.csv; do
		case "$f" in *.intervals.csv) continue ;; esac
		name=$(basename "$f" .csv)
		awk -F, -v n="$name" 'BEGIN { z = "00000000000000000000" }
			NR > 1 { v = substr(z, length($7) + 1) $7; print n, $1, "-", v; print n, $1, $2, v }' "$f"
	done | LC_ALL=C sort | awk -v ppms="$PPMS" -f order_stat.awk
}

# reported_table DIR: the same lines from DIR/results.json, as iotrial reported them.
reported_table() {
	jq -r '.jobs[] | .name as $n | .trials[] | .index as $t |
		def row(w): "\($n) \($t) \(w) \(.ios) \(.lat_ns | [.p50, .p90, .p95, .p99, .p99_9, .p99_99] | map(tostring) | join(" "))";
		row("-"), (.workers[]? | row(.worker))' "$1/results.json"
}

# check_percentiles DIR: every reported line against the exact one of the same key, each
# percentile within 1/128 of the exact value (relative); prints the comparisons and the
# worst relative error, fails on a missing line, another count, or a value out of bounds.
check_percentiles() {
	exact_table "$1" >"$1.exact"
	reported_table "$1" >"$1.reported"
	awk -v ppms="$PPMS" '
	NR == FNR { exact[$1 " " $2 " " $3] = $0; next }
	{
		k = $1 " " $2 " " $3
		if (!(k in exact)) { print "no records for " k; bad++; next }
		split(exact[k], e, " ")
		if (e[4] != $4) { print k ": " $4 " I/Os reported, " e[4] " in records"; bad++ }
		split(ppms, ppm, " ")
		for (i = 5; i <= 10; i++) {
			d = $i - e[i]
			if (d < 0) d = -d
			if (e[i] > 0 && d / e[i] > worst) worst = d / e[i]
			if (d > e[i] / 128) {
				printf "%s n=%d: %d ppm reported %s, exact %s\n", k, $4, ppm[i - 4], $i, e[i]
				bad++
			}
		}
		lines++
	}
	END {
		printf "%d trial and worker rows, 6 percentiles each; worst relative error %.5f (bound %.5f)\n", lines, worst, 1 / 128
		exit bad > 0 || lines == 0
	}' "$1.exact" "$1.reported"
}

# Counts multiples of 10, 100, 1000 and 10^6 on the null backend (no device, so the counts
# are exact): one worker, and four workers of 1000 I/Os each, 4000 in the trial.
cat >pnull.yaml <<'JOB'
experiment: percentiles-null
replication: {runs: 3, order: sequential}
defaults: {workload: read, backend: null, block_size: 4KiB, log: {records: true}}
jobs:
  - {name: n10, file_size: 40KiB}
  - {name: n100, file_size: 400KiB}
  - {name: n1000, file_size: 4000KiB}
  - {name: w4x1000, file_size: 4000KiB, threads: 4}
  - {name: n1000000, file_size: 4096000000, replication: {runs: 1}}
JOB

test_expect_success 'null backend: every percentile is the nearest-rank order statistic of the log' '
	"$IOTRIAL" run -q pnull.yaml -o pnull
	expect_eq "$(jq -c "[.jobs[] | [.trials[].ios] | unique[]]" pnull/results.json)" "[10,100,1000,4000,1000000]"
	check_percentiles pnull
'

# Real files: the fault backend (the sync backend with a 20 ms stall on every 1000th call),
# so that one I/O in a thousand is far slower than the rest and p99.9 sits right below the
# stalls: a rank off by one there reports a stall. Then the plain sync backend.
cat >pfile.yaml <<'JOB'
experiment: percentiles-file
replication: {runs: 2, order: sequential}
defaults: {workload: read, log: {records: true}}
jobs:
  - {name: f1000, backend: fault, fault_delay: 20ms, fault_delay_every: 1000, file_size: 4000KiB, block_size: 4KiB}
  - {name: f2x10000, backend: fault, fault_delay: 20ms, fault_delay_every: 1000, file_size: 5000KiB, block_size: 512, threads: 2}
  - {name: s2x2000, backend: sync, workload: randread, file_size: 8000KiB, block_size: 4KiB, threads: 2}
JOB

test_expect_success 'real files (sync, fault): every percentile is the order statistic of the log' '
	"$IOTRIAL" run -q pfile.yaml -o pfile
	expect_eq "$(jq -c "[.jobs[] | [.trials[].ios] | unique[]]" pfile/results.json)" "[1000,20000,4000]"
	check_percentiles pfile
	# The stalls are there: the largest value of each fault trial is one.
	jq -e "[.jobs[0, 1].trials[].lat_ns.max >= 20e6] | all" pfile/results.json
'

test_done
