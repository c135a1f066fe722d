#!/bin/bash
# Access distributions (distribution: zipf, pareto, normal, zoned): the shape of the offsets
# drawn, read back from the per-I/O record log, against what each distribution predicts;
# the same seed gives the same offsets; a parameter out of range is a job-file error.
#
# Tolerances. Each job draws M = 195,313 offsets over N = 1,000 blocks. A share p of the
# draws that falls in a fixed set of blocks is binomial: its standard deviation is
# sqrt(p(1 - p) / M), under 0.0012 for any p. The zipf and pareto checks take the hottest
# blocks as the log shows them (the most drawn), not as the distribution ranks them (the
# test does not know the scatter): that choice can only raise the share, by swapping blocks
# near the cut whose true counts are within their noise of each other. At the cut of zipf
# 1.2 a block is drawn about 177 times (sd 13) and neighbouring ranks differ by about 2, so
# some 6 ranks on either side can swap, each by at most 2 sd: under 160 draws, 0.0008 of M.
# So each share must be within 4 sd + 0.001 = 0.006 of the prediction. Theta 1.15 or 1.25
# moves the zipf share by 0.03, five times that.
. "$(dirname "$0")/lib.sh"
need_cmd jq

# job NAME DIST: a size-bound randread of 800 MB over 1,000 blocks on the null backend.
job() {
	printf '  - {name: %s, workload: randread, backend: null, file_size: 4000KiB, block_size: 4KiB, io_limit: 800MB, distribution: "%s", log: {records: true}}\n' "$1" "$2"
}

{
	printf 'experiment: dist\nseed: 42\njobs:\n'
	job zipf zipf:1.2
	job pareto pareto:0.2
	job normal normal:10
	job zoned zoned:90/10:10/90
} >dist.yaml

# top CSV K: the share of the draws that the K most drawn blocks received.
top() {
	awk -F, 'NR > 1 {c[$4]++} END {for (k in c) print c[k]}' "$1" | sort -rn >counts.txt
	awk -v k="$2" 'NR <= k {s += $1} {t += $1} END {printf "%.4f\n", s / t}' counts.txt
}

# share CSV LO HI: the share of the draws at blocks LO .. HI-1 (4 KiB blocks).
share() {
	awk -F, -v lo="$2" -v hi="$3" 'NR > 1 {n++; b = $4 / 4096; if (b >= lo && b < hi) s++} END {printf "%.4f\n", s / n}' "$1"
}

# offsets CSV: the offsets in issue order.
offsets() {
	awk -F, 'NR > 1 {print $4}' "$1"
}

# near GOT WANT TOL: |GOT - WANT| <= TOL.
near() {
	awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN {d = g - w; if (d < 0) d = -d; if (d > t) {print "got " g ", want " w " +- " t >"/dev/stderr"; exit 1}}'
}

test_expect_success 'the distribution jobs run' '
	"$IOTRIAL" run -q dist.yaml -o out
	expect_eq "$(jq -c "[.jobs[].trials[0].ios]" out/results.json)" "[195313,195313,195313,195313]"
'

test_expect_success 'zipf 1.2: the hottest 10% of the blocks get H(100, 1.2) / H(1000, 1.2) of the I/Os' '
	want=$(awk "BEGIN {for (k = 1; k <= 1000; k++) {h = k ^ -1.2; t += h; if (k <= 100) s += h}; printf \"%.4f\", s / t}")
	expect_eq "$want" 0.8310
	top out/records/zipf.csv 100 >got.txt
	near "$(cat got.txt)" "$want" 0.006
'

test_expect_success 'zipf scatters its hot blocks: the hottest 10% are not the first 10%' '
	share out/records/zipf.csv 0 100 >first.txt
	near "$(cat first.txt)" 0.25 0.25
'

test_expect_success 'pareto 0.2: the hottest 20% of the blocks get 80% of the I/Os' '
	top out/records/pareto.csv 200 >got.txt
	near "$(cat got.txt)" 0.8001 0.006
'

test_expect_success 'normal 10: 68.3% of the I/Os within one sigma (100 blocks) of the middle' '
	share out/records/normal.csv 400 600 >got.txt
	near "$(cat got.txt)" 0.6827 0.006
	share out/records/normal.csv 300 700 >got2.txt
	near "$(cat got2.txt)" 0.9545 0.006
'

test_expect_success 'zoned 90/10:10/90: 90% of the I/Os in the first 10% of the region' '
	share out/records/zoned.csv 0 100 >got.txt
	near "$(cat got.txt)" 0.9 0.006
'

test_expect_success 'the same seed draws the same offsets; another seed others' '
	"$IOTRIAL" run -q dist.yaml -o again
	offsets out/records/zipf.csv >a.txt
	offsets again/records/zipf.csv >b.txt
	cmp a.txt b.txt
	"$IOTRIAL" run -q dist.yaml -o other --set seed=43
	offsets other/records/zipf.csv >c.txt
	not cmp -s a.txt c.txt
'

bad() {
	printf 'experiment: bad\njobs:\n  - name: j\n    workload: randread\n    backend: null\n    distribution: %s\n' "$1" >bad.yaml
	expect_code 2 "$IOTRIAL" validate bad.yaml 2>err.txt
	cat err.txt
}

test_expect_success 'a distribution parameter out of range: file:line:column, exit 2' '
	bad zipf:0 >e1.txt
	grep -x "bad.yaml:6:19: key .distribution.: zipf.s theta must be above 0 and at most 100, got 0" e1.txt
	bad pareto:1 >e2.txt
	grep "bad.yaml:6:19: key .distribution.: pareto.s h must be between 0 and 1 (exclusive), got 1" e2.txt
	bad normal:0 >e3.txt
	grep "bad.yaml:6:19: key .distribution.: normal.s sigma" e3.txt
	bad zoned:50/10:40/90 >e4.txt
	grep "bad.yaml:6:19: key .distribution.: the zones. access shares add to 90" e4.txt
	bad "{zipf: 1.2, pareto: 0.5}" >e5.txt
	grep "bad.yaml:6:19: key .distribution.: expected uniform, zipf:THETA" e5.txt
	expect_eq "$(wc -l <e5.txt)" 1
'

# A '%' divided by 100 where the number is a percentage already: normal:10% drew with a
# sigma of 0.1% of the region (1 block of 1000, not 100), silently.
test_expect_success 'a % after a number that is a percentage already (or no fraction): exit 2' '
	bad normal:10% >e1.txt
	grep -x "bad.yaml:6:19: key .distribution.: normal.s sigma (a percentage of the region) is written without .%., got .10%." e1.txt
	bad zipf:1.1% >e2.txt
	grep -x "bad.yaml:6:19: key .distribution.: zipf.s theta (an exponent, not a percentage) is written without .%., got .1.1%." e2.txt
	bad zoned:60%/10:40/90 >e3.txt
	grep -x "bad.yaml:6:19: key .distribution.: a zone.s access share (a percentage) is written without .%., got .60%." e3.txt
	bad zoned:60/10:40/90% >e4.txt
	grep -x "bad.yaml:6:19: key .distribution.: a zone.s size (a percentage) is written without .%., got .90%." e4.txt
	cat e1.txt e2.txt e3.txt e4.txt >all.txt
	expect_eq "$(wc -l <all.txt)" 4
	printf "experiment: f\njobs:\n  - {name: j, workload: randread, backend: null, distribution: \"pareto:20%%\"}\n  - {name: k, workload: randread, backend: null, distribution: \"normal:10:50%%\"}\n" >frac.yaml
	"$IOTRIAL" validate frac.yaml >/dev/null
'

test_expect_success 'the mapping spelling {zipf: 1.2} is zipf:1.2' '
	printf "experiment: m\nseed: 42\njobs:\n  - {name: zipf, workload: randread, backend: null, file_size: 4000KiB, block_size: 4KiB, io_limit: 800MB, distribution: {zipf: 1.2}, log: {records: true}}\n" >map.yaml
	"$IOTRIAL" run -q map.yaml -o map
	offsets out/records/zipf.csv >a.txt
	offsets map/records/zipf.csv >b.txt
	cmp a.txt b.txt
'

test_expect_success 'a distribution on a sequential workload is an error at the key' '
	printf "experiment: s\njobs:\n  - {name: s, workload: read, backend: null, distribution: zipf:1.2}\n" >seq.yaml
	expect_code 2 "$IOTRIAL" validate seq.yaml 2>err.txt
	grep "seq.yaml:3:60: key .distribution.: zipf:1.2 draws offsets for random workloads, not read" err.txt
'

test_done
