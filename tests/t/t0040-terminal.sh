#!/bin/bash
# The terminal summary and the summary's latency: the job's `percentiles` (checked with
# file:line:column errors); the summary's percentiles pooled over the kept trials, equal to
# what the histogram scheme reports for the nearest-rank order statistic of every logged I/O
# of those trials (not within a bound: the same bucket's midpoint, the same clamp);
# per direction; submission and completion latency (submit_latency); a rate column whose
# title is its cells' unit, IO/s scaled, no note that repeats a column; sizes echoed as the
# job file states them; and `iotrial report` rewriting all of it byte for byte.
. "$(dirname "$0")/lib.sh"
need_cmd jq

# A job file with one job whose `percentiles` is $1 (a YAML flow list), at line 7.
pct_job() {
	printf 'experiment: p\njobs:\n  - name: a\n    workload: read\n    backend: null\n    file_size: 1MiB\n    percentiles: %s\n' "$1" >"$2"
}

test_expect_success 'percentiles: each bad list is one file:line:column line naming the entry, exit 2' '
	pct_job "[99, 50]" order.yaml
	expect_code 2 "$IOTRIAL" validate order.yaml 2>err
	expect_eq "$(cat err)" "order.yaml:7:18: key '"'"'percentiles'"'"': percentile 2: 50 does not come after 99: list them in ascending order, each once"
	pct_job "[50, 50]" dup.yaml
	expect_code 2 "$IOTRIAL" validate dup.yaml 2>err
	grep -x "dup.yaml:7:18: .*percentile 2: 50 does not come after 50: .*" err
	pct_job "[0, 50]" zero.yaml
	expect_code 2 "$IOTRIAL" validate zero.yaml 2>err
	grep -x "zero.yaml:7:18: .*percentile 1: 0 is not above 0 and at most 100" err
	pct_job "[50, 100.5]" big.yaml
	expect_code 2 "$IOTRIAL" validate big.yaml 2>err
	grep -x "big.yaml:7:18: .*percentile 2: 100.5 is not above 0 and at most 100" err
	pct_job "[99.99999]" fine.yaml
	expect_code 2 "$IOTRIAL" validate fine.yaml 2>err
	grep -x "fine.yaml:7:18: .*percentile 1: 99.99999 has more than four decimals" err
	for tiny in 1e-300 1e-11 0.00001; do
		pct_job "[$tiny, 50]" tiny.yaml
		expect_code 2 "$IOTRIAL" validate tiny.yaml 2>err
		expect_eq "$(cat err)" "tiny.yaml:7:18: key '"'"'percentiles'"'"': percentile 1: $tiny has more than four decimals"
	done
	pct_job "[0.0001, 50]" least.yaml
	"$IOTRIAL" run -q least.yaml -o least
	"$IOTRIAL" report least/results.json >least.txt
	grep "^job  *I/Os  *p0.0001  *p50  *max$" least.txt
	pct_job "[50, p99]" word.yaml
	expect_code 2 "$IOTRIAL" validate word.yaml 2>err
	grep -x "word.yaml:7:18: .*percentile 2: expected a number above 0 and at most 100, got '"'"'p99'"'"'" err
	pct_job "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]" many.yaml
	expect_code 2 "$IOTRIAL" validate many.yaml 2>err
	grep -x "many.yaml:7:18: .*at most 16 percentiles, got more" err
	pct_job "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 99.9999]" sixteen.yaml
	"$IOTRIAL" validate sixteen.yaml >out
'

# The value the histogram reports for each percentile of the latencies on stdin (one a
# line, sorted numerically), as docs/statistics.md says: rank r = ceil(ppm * n / 10^6), at
# least 1; rank 1 the exact min, rank n the exact max; else the midpoint of the bucket of
# the r-th value (exact below 128 ns; above, 64 buckets per power of two), clamped into
# [min, max]. Prints "ios min max v1 v2 ...".
cat >hist_value.awk <<'AWK'
function mid(v,   e, w) {
	if (v < 128)
		return v
	e = 0
	while (2 ^ (e + 1) <= v)
		e++
	w = 2 ^ (e - 6)
	return int(v / w) * w + (w - 1) / 2
}
{ x[++n] = $1 }
END {
	k = split(ppms, ppm, " ")
	printf "%d %s %s", n, x[1], x[n]
	for (i = 1; i <= k; i++) {
		r = ppm[i] * n / 1000000
		if (r != int(r))
			r = int(r) + 1
		if (r < 1)
			r = 1
		if (r == 1)
			v = x[1]
		else if (r >= n)
			v = x[n]
		else {
			v = mid(x[r])
			if (v < x[1]) v = x[1]
			if (v > x[n]) v = x[n]
		}
		printf " %s", v
	}
	printf "\n"
}
AWK

# Synthetic latencies (lognormal-ish, seeded), a warm-up and trimmed trials: the pooled
# figures must be over the three kept trials' I/Os only.
cat >pool.yaml <<'JOB'
experiment: pool
seed: 11
replication: {runs: 5, warmup: 1, trim: {low: 1, high: 1}}
defaults: {workload: randread, backend: synthetic, file_size: 1600KiB, block_size: 4KiB, sim_mean: 1ms, sim_stddev: 600us, sim_outliers: 2%, log: {records: true}}
jobs:
  - {name: dflt}
  - {name: own, percentiles: [1, 50, 90, 99.5, 99.99, 100]}
JOB

# check_pooled DIR JOB PPMS KEYS: the summary's lat_ns of JOB against hist_value.awk over
# the kept trials' lines of DIR/records/JOB.csv.
check_pooled() {
	jq -r --arg j "$2" '.jobs[] | select(.name == $j) | .trials[] | select(.kept) | .index' "$1/results.json" >"$2.kept"
	test -s "$2.kept"
	awk -F, "NR == FNR { kept[\$1]; next } FNR > 1 && (\$1 in kept) { print \$7 }" "$2.kept" "$1/records/$2.csv" | sort -n | awk -v ppms="$3" -f hist_value.awk >"$2.want"
	jq -r --arg j "$2" --arg keys "$4" '.jobs[] | select(.name == $j) | .summary.lat_ns as $l | [$l.ios, $l.min, $l.max] + ($keys | split(" ") | map($l[.])) | map(tostring) | join(" ")' "$1/results.json" >"$2.got"
	cat "$2.want" "$2.got"
	# Numerically equal (awk prints 1003.5, jq 1003.5; integers alike).
	awk "NR == 1 { split(\$0, w, \" \"); next } { for (i = 1; i <= NF; i++) if (\$i + 0 != w[i] + 0) { print \"field \" i \": \" \$i \" != \" w[i]; bad = 1 } } END { exit bad }" "$2.want" "$2.got"
}

test_expect_success 'pooled percentiles are the histogram value of the kept trials'"'"' logged I/Os, exactly' '
	"$IOTRIAL" run -q pool.yaml -o pool 2>err
	expect_eq "$(jq -c "[.jobs[].summary.kept]" pool/results.json)" "[3,3]"
	expect_eq "$(jq -c "[.jobs[].summary.percentiles]" pool/results.json)" "[[50,99,99.9],[1,50,90,99.5,99.99,100]]"
	check_pooled pool dflt "500000 990000 999000" "p50 p99 p99_9"
	check_pooled pool own "10000 500000 900000 995000 999900 1000000" "p1 p50 p90 p99_5 p99_99 p100"
	# Not the mean of the trials'"'"' own p99: that is no percentile of these I/Os.
	jq -e ".jobs[0] | ([.trials[] | select(.kept) | .lat_ns.p99] | add / length) != .summary.lat_ns.p99" pool/results.json
'

test_expect_success 'the latency table shows each job'"'"'s own list, "-" where it did not ask' '
	sed -n "/^latency (every I\/O of the kept trials, pooled):$/,/^$/p" pool/summary.txt >lat.txt
	cat lat.txt
	grep -x "job   *I/Os  *p1  *p50  *p90  *p99  *p99.5  *p99.9  *p99.99  *p100  *max" lat.txt
	grep -x "dflt  *1\.20k  *-  *[0-9.]* [mu]s  *-  *[0-9.]* [mu]s  *-  *[0-9.]* [mu]s  *-  *-  *[0-9.]* [mu]s" lat.txt
	grep -x "own  *1\.20k\(  *[0-9.]* [mu]s\)\{3\}  *-  *[0-9.]* [mu]s  *-\(  *[0-9.]* [mu]s\)\{3\}" lat.txt
	"$IOTRIAL" report pool/results.json >again.txt
	cmp again.txt pool/summary.txt
'

cat >rw.yaml <<'JOB'
experiment: rw
seed: 3
replication: {runs: 1}
jobs:
  - {name: rw, workload: randrw, backend: null, file_size: 2MiB, block_size: 4KiB, mix: {read: 70, write: 30}}
JOB

test_expect_success 'per direction: the reads'"'"' and the writes'"'"' I/Os pooled apart, and a line each' '
	"$IOTRIAL" run -q rw.yaml -o rw 2>err
	jq -e ".jobs[0].summary | .read.lat_ns.ios + .write.lat_ns.ios == .lat_ns.ios and .lat_ns.ios == 512" rw/results.json
	# One kept trial: its own histogram, read at the same ranks.
	jq -e ".jobs[0] | .trials[0] as \$t | .summary.read.lat_ns.p50 == \$t.read.lat_ns.p50 and .summary.write.lat_ns.p99_9 == \$t.write.lat_ns.p99_9 and .summary.read.lat_ns.max == \$t.read.lat_ns.max" rw/results.json
	grep "^rw read  *[0-9.k]*  " rw/summary.txt
	grep "^rw write  *[0-9.k]*  " rw/summary.txt
'

cat >split.yaml <<'JOB'
experiment: split
seed: 3
replication: {runs: 2}
defaults: {workload: randread, file_size: 2MiB, block_size: 4KiB}
jobs:
  - {name: async, backend: null, null_delay: 50us, iodepth: 8, submit_latency: true}
  - {name: sync, backend: null, submit_latency: true}
  - {name: plain, backend: null, null_delay: 50us, iodepth: 8}
  - {name: skel, backend: skeleton, iodepth: 8, submit_latency: true}
JOB

test_expect_success 'submit_latency: slat and clat apart on an asynchronous backend, null on one that is not' '
	"$IOTRIAL" run -q split.yaml -o split 2>err
	# Every I/O has both; slat + clat is its latency, so each is below the total.
	jq -e ".jobs[0].trials[] | .slat_ns.p50 > 0 and .clat_ns.p50 > 0 and .clat_ns.max <= .lat_ns.max and .slat_ns.max < .lat_ns.max" split/results.json
	jq -e ".jobs[0].summary | .slat_ns.ios == .lat_ns.ios and .clat_ns.ios == .lat_ns.ios and .clat_ns.p50 >= 50000 and .slat_ns.p50 < .clat_ns.p50" split/results.json
	jq -e ".jobs[1] | .trials[0].slat_ns.p50 == null and .summary.slat_ns.ios == 0 and .summary.clat_ns.p50 == null" split/results.json
	expect_eq "$(jq -c "[.jobs[2].trials[0] | has(\"slat_ns\"), (.jobs[2].summary | has(\"slat_ns\"))]" split/results.json)" "[false,false]"
	# A backend with commit() (skeleton, as io_uring and libaio): every I/O is committed,
	# and stamped, before the wait that reaps it, the last batch of each round too.
	jq -e ".jobs[3].trials[] | .slat_ns.p50 > 0 and .clat_ns.p50 > 0" split/results.json
	jq -e ".jobs[3].summary | .slat_ns.ios == .lat_ns.ios and .clat_ns.ios == .lat_ns.ios and .lat_ns.ios == 1024" split/results.json
	grep "^async slat  *1\.02k  *[0-9.]* [nu]s" split/summary.txt
	grep "^async clat  *1\.02k  *[0-9.]* [um]s" split/summary.txt
	grep "^sync slat  *0  *n/a" split/summary.txt
	not grep "^plain slat" split/summary.txt
	"$IOTRIAL" report split/results.json | cmp - split/summary.txt
	"$IOTRIAL" report -f json split/results.json -o back.json
	cmp back.json split/results.json
'

test_expect_success 'report.html shows the pooled latency table of the text summary' '
	"$IOTRIAL" report split/results.json -f html -o split.html
	# The rows of the table, tags dropped, cells one space apart, against those of the summary.
	sed -n "/<table class=\"pooled\">/,/<\/table>/p" split.html | grep "^<tr>" | sed -e "s|</t[dh]><t[dh][^>]*>| |g" -e "s|<[^>]*>||g" >html.rows
	sed -n "/^latency (every I\/O/,/^\$/p" split/summary.txt | sed 1d | awk NF | sed -e "s/  */ /g" -e "s/ \$//" >text.rows
	cat html.rows
	# The header, async, sync and skel with slat and clat, plain alone.
	expect_eq "$(wc -l <text.rows)" 11 "rows"
	# A backend that cannot split slat from clat leaves them n/a, with no reason to give.
	not grep -F "(n/a for" split/summary.txt split.html
	cmp text.rows html.rows
'

test_expect_success 'trials.csv: slat and clat columns, last, when a job has submit_latency' '
	# slat and clat, last, only in a run that has them; empty where not measured.
	head -n 1 split/trials.csv | grep ",write_lat_p99_ns,slat_mean_ns,slat_p50_ns,slat_p99_ns,slat_max_ns,clat_mean_ns,clat_p50_ns,clat_p99_ns,clat_max_ns\$"
	head -n 1 rw/trials.csv | grep ",write_lat_p99_ns\$"
	awk -F, -v OFS=, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } { print \$2, \$(c[\"trial\"]), \$(c[\"slat_mean_ns\"]), \$(c[\"slat_p50_ns\"]), \$(c[\"slat_p99_ns\"]), \$(c[\"slat_max_ns\"]), \$(c[\"clat_mean_ns\"]), \$(c[\"clat_p50_ns\"]), \$(c[\"clat_p99_ns\"]), \$(c[\"clat_max_ns\"]) }" split/trials.csv >csv.split
	jq -r ".jobs[] | .name as \$n | .trials[] | [\$n, .index, (.slat_ns // {} | .mean, .p50, .p99, .max), (.clat_ns // {} | .mean, .p50, .p99, .max)] | map(. // \"\") | join(\",\")" split/results.json >json.split
	cat csv.split
	paste -d "|" csv.split json.split | awk -F "|" "{ n = split(\$1, a, \",\"); split(\$2, b, \",\"); for (i = 1; i <= n; i++) if (a[i] != b[i] && (a[i] == \"\" || b[i] == \"\" || (a[i] - b[i]) ^ 2 > (1e-8 * b[i]) ^ 2)) { print \"differs: \" \$0; bad = 1 } } END { exit bad }"
	# Measured where the backend splits them, empty where it cannot (sync) or was not asked.
	grep -c "^async,[0-9]*,[0-9.e+]*,[0-9.e+]*," csv.split
	grep "^sync,0,,,,,,,,\$" csv.split
	grep "^plain,0,,,,,,,,\$" csv.split
'

# Rates a few times apart share one unit; 20 kB/s beside 60 GB/s cannot, and each cell
# then says its own.
cat >narrow.yaml <<'JOB'
experiment: narrow
replication: {runs: 2}
defaults: {workload: read, backend: synthetic, sim_mean: 2ms, sim_stddev: 200us}
jobs:
  - {name: small, block_size: 64kB, file_size: 640kB}
  - {name: big, block_size: 1MB, file_size: 4MB}
JOB
cat >wide.yaml <<'JOB'
experiment: wide
replication: {runs: 2}
defaults: {workload: read, backend: null}
jobs:
  - {name: slow, rate: 20kB, block_size: 1kB, file_size: 4kB}
  - {name: many, block_size: 4KiB, file_size: 64MiB}
JOB

# rate_cells FILE: the title and the cells of the summary table's rate column (the fifth
# column; two words when a cell carries its unit).
rate_cells() {
	sed -n "/^job  *workload/,/^$/p" "$1" | awk "NF { print (\$6 ~ /B\/s$/ ? \$5 \" \" \$6 : \$5) }"
}

test_expect_success 'the rate column'"'"'s title is its cells'"'"' unit; IO/s scaled; no note repeats need' '
	"$IOTRIAL" run -q narrow.yaml -o narrow 2>err
	rate_cells narrow/summary.txt >rates.txt
	cat rates.txt
	# The title is a unit, the cells are plain numbers of at least 1 in it.
	sed -n 1p rates.txt | grep -x "[kMG]B/s"
	expect_eq "$(sed 1d rates.txt | grep -c "^[1-9][0-9]*\(\.[0-9]\)\{0,1\}$")" 2
	grep "^rates in decimal units (kB/s = 10^3 B/s, MB/s = 10^6 B/s, GB/s = 10^9 B/s); IO/s: k = 10^3, M = 10^6; " narrow/summary.txt
	not grep "the data suggest" narrow/summary.txt
	"$IOTRIAL" run -q narrow.yaml -o bin --set units=binary 2>err
	rate_cells bin/summary.txt >brates.txt
	sed -n 1p brates.txt | grep -x "[KMG]iB/s"
	grep "^rates in binary units (KiB/s = 2^10 B/s, MiB/s = 2^20 B/s" bin/summary.txt
	"$IOTRIAL" run -q wide.yaml -o wide 2>err
	rate_cells wide/summary.txt >wrates.txt
	cat wrates.txt
	sed -n 1p wrates.txt | grep -x rate
	expect_eq "$(sed 1d wrates.txt | grep -c "^[0-9.]* [kMG]B/s$")" 2
	# IO/s: three digits and k or M, never a bare count past 999.
	grep "^many  *read .*  [0-9.]*M  *[0-9]* ns" wide/summary.txt
	"$IOTRIAL" report wide/results.json | cmp - wide/summary.txt
'

test_expect_success 'validate echoes sizes as the job file states them: 32 MiB in 4 KiB, 80 MB in 32 KiB' '
	printf "experiment: sz\nunits: decimal\njobs:\n  - {name: b, workload: read, backend: null, file_size: 32MiB, block_size: 4KiB}\n  - {name: d, workload: copy, backend: null, file_size: 80MB, buffer_size: 32KiB}\n  - {name: o, workload: read, backend: null, file_size: 1000000, block_size: 1000}\n" >sz.yaml
	"$IOTRIAL" validate sz.yaml >plan.txt
	grep "^  b: read on null, 32 MiB in 4 KiB I/Os, " plan.txt
	grep "^  d: copy on null, 80 MB in 32 KiB I/Os, " plan.txt
	grep "^  o: read on null, 1 MB in 1 kB I/Os, " plan.txt
'

test_done
