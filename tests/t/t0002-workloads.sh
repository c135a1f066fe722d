#!/bin/bash
# Each workload moves what it should: bytes written equal file_size, a read trial reads what
# was written, random I/Os are block-aligned and counted, a copy copies, a time bound holds.
. "$(dirname "$0")/lib.sh"
need_cmd jq

cat >w.yaml <<'JOB'
experiment: sizes
replication: {runs: 2}
defaults: {file_size: 8MiB, block_size: 1MiB}
jobs:
  - {name: w, workload: write, sync: fsync_end}
  - {name: r, workload: read}
  - {name: rr, workload: randread, block_size: 4KiB, file_size: 1MiB}
  - {name: rw, workload: randwrite, block_size: 4KiB, file_size: 1MiB, sync: odsync}
  - {name: c, workload: copy, buffer_size: 48KiB, file_size: 1000000}
  - {name: t, workload: read, backend: null, runtime: 200ms, block_size: 4KiB}
JOB

test_expect_success 'the job runs' '
	"$IOTRIAL" run -q w.yaml -o out
'

test_expect_success 'a sequential write writes file_size bytes in block_size I/Os' '
	expect_eq "$(jq "[.jobs[0].trials[] | .bytes] | unique" -c out/results.json)" "[8388608]"
	expect_eq "$(jq "[.jobs[0].trials[] | .ios] | unique" -c out/results.json)" "[8]"
'

test_expect_success 'a sequential read reads the whole file' '
	expect_eq "$(jq "[.jobs[1].trials[] | .bytes] | unique" -c out/results.json)" "[8388608]"
	expect_eq "$(jq "[.jobs[1].trials[] | .errors] | unique" -c out/results.json)" "[0]"
'

test_expect_success 'random reads and writes do file_size / block_size I/Os' '
	expect_eq "$(jq "[.jobs[2,3].trials[] | .ios] | unique" -c out/results.json)" "[256]"
'

test_expect_success 'a copy with a buffer that does not divide the file copies every byte' '
	expect_eq "$(jq "[.jobs[4].trials[] | .bytes] | unique" -c out/results.json)" "[1000000]"
	expect_eq "$(jq "[.jobs[4].trials[] | .ios] | unique" -c out/results.json)" "[21]"
'

test_expect_success 'a time-bound trial lasts its runtime' '
	expect_eq "$(jq -c "[.jobs[5].trials[] | .seconds >= 0.2 and .seconds < 0.5]" out/results.json)" "[true,true]"
'

test_expect_success 'latency figures are numbers, ordered: min <= p50 <= p99 <= max' '
	expect_eq "$(jq -c "[.jobs[].trials[].lat_ns | .min, .p50, .p99, .p99_99, .max | type] | unique" out/results.json)" "[\"number\"]"
	expect_eq "$(jq "[.jobs[].trials[].lat_ns | .min <= .p50 and .p50 <= .p99 and .p99 <= .p99_99 and .p99_99 <= .max] | unique" -c out/results.json)" "[true]"
'

test_expect_success 'rates, status and summaries follow from the trials' '
	check_results out/results.json
'

printf "jobs:\n  - {name: rr, workload: randread, backend: null, file_size: 1MiB, block_size: 4KiB, log: {records: true}}\n" >seed.yaml

test_expect_success 'the same seed gives the same offsets, another seed others; the seed is recorded' '
	"$IOTRIAL" run -q seed.yaml -o s1 --set seed=12345
	"$IOTRIAL" run -q seed.yaml -o s2 --set seed=12345
	"$IOTRIAL" run -q seed.yaml -o s3 --set seed=54321
	expect_eq "$(jq .seed s1/results.json)" 12345
	expect_eq "$(jq .seed s3/results.json)" 54321
	for s in s1 s2 s3; do cut -d, -f4 $s/records/rr.csv >$s.offsets; done
	expect_eq "$(wc -l <s1.offsets)" 257
	cmp s1.offsets s2.offsets
	not cmp s1.offsets s3.offsets
'

test_expect_success 'random I/Os are block-aligned, inside the file, and spread over it' '
	awk "NR > 1 && (\$1 % 4096 != 0 || \$1 + 4096 > 1048576)" s1.offsets >misplaced
	expect_eq "$(wc -l <misplaced)" 0
	test "$(sed 1d s1.offsets | sort -un | wc -l)" -gt 100
'

printf "jobs:\n  - {name: r, workload: read, file_size: 1MiB}\n" >k.yaml

test_expect_success 'keep_files keeps the data file; default runs remove it' '
	mkdir keep gone
	"$IOTRIAL" run -q k.yaml -o out3 --set target=keep --set keep_files=true
	expect_eq "$(ls keep | wc -l)" 1
	expect_eq "$(stat -c %s keep/*)" 1048576
	"$IOTRIAL" run -q k.yaml -o out4 --set target=gone
	# It did lay out and read a file there, and removed it.
	expect_eq "$(jq .jobs[0].trials[0].bytes out4/results.json)" 1048576
	expect_eq "$(jq -r .jobs[0].params.target out4/results.json)" gone
	expect_eq "$(ls -A gone | wc -l)" 0
'

cat >sw.yaml <<'JOB'
defaults: {workload: write, backend: fault, file_size: 1MiB, block_size: 64KiB, fault_delay: 10ms}
jobs:
  - {name: fd, stonewall: first_done}
  - {name: wo, stonewall: wear_out, verify: true}
  - {name: tm, stonewall: time, stonewall_cap: 50ms, verify: true}
  - {name: none}
JOB

test_expect_success 'stonewall with one rank: first_done is done, wear_out tops up nothing, time stops at the cap' '
	"$IOTRIAL" run -q sw.yaml -o sw
	expect_eq "$(jq "[.jobs[].trials | length]" -c sw/results.json)" "[1,1,1,1]"
	jq -e "[.jobs[0,1].trials[] | .stonewalled == false and .bytes == 1048576 and
		.stonewall_bytes == 1048576 and .failed == false and (has(\"ranks\") | not)] | all" sw/results.json
	jq -e ".jobs[2].trials[0] | .stonewalled and .bytes < 1048576 and .stonewall_bytes == .bytes and
		.failed == false and .seconds < 0.5" sw/results.json
	jq -e ".jobs[3].trials[0] | has(\"stonewalled\") or has(\"stonewall_bytes\") | not" sw/results.json
'

test_done
