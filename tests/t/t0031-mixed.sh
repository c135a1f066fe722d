#!/bin/bash
# Mixed workloads (readwrite, randrw; fio's rw=readwrite, randrw, rwmixread): each I/O's
# direction is a seeded draw with the shares `mix` gives, seen in the system calls; the
# same seed gives the same directions; reads find data; a mix that does not add to 100,
# and mix on a one-direction workload, are job-file errors at the key.
#
# Tolerance: 4,096 I/Os drawn with p = 0.7; the reads' share has sd sqrt(0.21 / 4096) =
# 0.0072; within 4 sd: 0.029.
. "$(dirname "$0")/lib.sh"
need_cmd jq

cat >rw.yaml <<JOB
experiment: rw
seed: 5
defaults: {target: "$PWD/", file_size: 16MiB, block_size: 4KiB}
jobs:
  - {name: rand, workload: randrw, mix: {read: 70, write: 30}}
  - {name: seq, workload: readwrite, mix: "read:25", log: {records: true}}
JOB

test_expect_success 'the mixed jobs run' '
	"$IOTRIAL" run -q rw.yaml -o out
	expect_eq "$(jq -c "[.jobs[].trials[0].ios]" out/results.json)" "[4096,4096]"
	expect_eq "$(jq -c "[.jobs[].params.mix]" out/results.json)" "[\"read:70,write:30\",\"read:25\"]"
'

cat >r1.yaml <<JOB
experiment: r1
seed: 5
jobs:
  - {name: rand, workload: randrw, mix: {read: 70, write: 30}, target: "$PWD/", file_size: 16MiB}
JOB

# ops TRACE: the 4 KiB reads and writes of a trace, in order, as "pread64 OFFSET" lines.
ops() {
	sed -n "s/^[0-9]* *\\(p[a-z0-9]*\\)(.*, 4096, \\([0-9]*\\)) *= 4096\$/\\1 \\2/p" "$1"
}

if command -v strace >/dev/null; then
	test_expect_success 'randrw 70/30: 70% of the I/Os are reads; the seed replays them' '
		env ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -o t1.txt -e trace=pread64,pwrite64 "$IOTRIAL" run -q r1.yaml -o t1
		ops t1.txt >o1.txt
		expect_eq "$(wc -l <o1.txt)" 4096
		grep -c "^pread64 " o1.txt >reads.txt
		awk -v r="$(cat reads.txt)" "BEGIN {d = r / 4096 - 0.7; if (d < 0) d = -d; if (d > 0.029) {print r; exit 1}}"
		env ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -o t2.txt -e trace=pread64,pwrite64 "$IOTRIAL" run -q r1.yaml -o t2
		ops t2.txt >o2.txt
		cmp o1.txt o2.txt
		env ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -o t3.txt -e trace=pread64,pwrite64 "$IOTRIAL" run -q r1.yaml -o t3 --set seed=6
		ops t3.txt >o3.txt
		not cmp -s o1.txt o3.txt
		# Another seed draws other directions too, not only other offsets.
		cut -d" " -f1 o1.txt >d1.txt
		cut -d" " -f1 o3.txt >d3.txt
		not cmp -s d1.txt d3.txt
	'
	test_expect_success 'readwrite: the reads and the writes each go through the file in order' '
		printf "experiment: r2\nseed: 5\njobs:\n  - {name: seq, workload: readwrite, mix: \"read:25\", target: \"%s/\", file_size: 16MiB}\n" "$PWD" >r2.yaml
		env ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -o s1.txt -e trace=pread64,pwrite64 "$IOTRIAL" run -q r2.yaml -o s1
		ops s1.txt >so.txt
		awk "\$1 == \"pread64\" {if (\$2 != r) exit 1; r += 4096} \$1 == \"pwrite64\" {if (\$2 != w) exit 1; w += 4096} END {if (r + w != 16777216 || r < 3500000 || r > 4900000) exit 1}" so.txt
	'
else
	test_skip 'randrw 70/30: 70% of the I/Os are reads; the seed replays them' 'strace is not installed'
	test_skip 'readwrite: the reads and the writes each go through the file in order' 'strace is not installed'
fi


test_expect_success 'results.json: read and write apart, adding up to the trial; zeros for one direction' '
	jq -e ".jobs[0].trials[0] | .read.ios + .write.ios == .ios and .read.bytes + .write.bytes == .bytes" out/results.json
	jq -e ".jobs[0].trials[0] | (.read.iops + .write.iops - .iops) | fabs < 1e-6 * 4096 * 1000" out/results.json
	jq -e ".jobs[0].trials[0] | .read.ios / .ios | . > 0.671 and . < 0.729" out/results.json
	jq -e ".jobs[0].trials[0] | .read.lat_ns.mean > 0 and .write.lat_ns.p99 > 0" out/results.json
	jq -e ".jobs[0].summary | .read.iops.mean > 0 and .write.iops.mean > 0 and .read.required_runs.metric == \"read_iops\"" out/results.json
	printf "experiment: one\njobs:\n  - {name: r, workload: randread, backend: null, file_size: 1MiB}\n" >one.yaml
	"$IOTRIAL" run -q one.yaml -o one
	jq -e ".jobs[0].trials[0] | .read.ios == .ios and .read.iops == .iops and .write.ios == 0 and .write.bytes == 0 and .write.lat_ns.mean == null" one/results.json
'

test_expect_success 'trials.csv and the text summary show both; a saved results.json gives them back' '
	head -1 out/trials.csv | tr "," "\n" >cols.txt
	grep -x read_iops cols.txt
	grep -x write_lat_mean_ns cols.txt
	grep "^  rand read  *[0-9.]*[kM]\{0,1\} IO/s" out/summary.txt
	grep "^  rand write  *[0-9.]*[kM]\{0,1\} IO/s" out/summary.txt
	"$IOTRIAL" report out/results.json -f csv -o back.csv
	cmp out/trials.csv back.csv
'

# A direction no trial drew has no latency: its mean is null, and the summary says n/a
# (docs/results.md), not nan.
test_expect_success 'the text summary: n/a for the latency of a direction with no I/O' '
	printf "experiment: zw\nseed: 3\njobs:\n  - {name: zw, workload: randrw, mix: {read: 99}, backend: null, file_size: 8KiB, block_size: 4KiB}\n" >zw.yaml
	"$IOTRIAL" run -q zw.yaml -o zw
	jq -e ".jobs[0].trials[0].write.ios == 0 and .jobs[0].summary.write.lat_mean_ns.mean == null" zw/results.json
	grep -x "  zw write  0 IO/s  0 B/s  lat mean n/a  COV n/a" zw/summary.txt
	not grep -i nan zw/summary.txt
'

bad() {

	printf 'experiment: bad\njobs:\n  - name: j\n    workload: %s\n    backend: null\n    mix: %s\n' "$1" "$2" >bad.yaml
	expect_code 2 "$IOTRIAL" validate bad.yaml 2>err.txt
	cat err.txt
}

test_expect_success 'a mix that does not add to 100, or on a one-direction workload: file:line:column, exit 2' '
	bad randrw "{read: 70, write: 40}" >e1.txt
	grep -x "bad.yaml:6:10: key .mix.: read 70 and write 40 add to 110; a mix must add to 100" e1.txt
	bad randrw "{read: 70, trim: 30}" >e2.txt
	grep -x "bad.yaml:6:10: key .mix.: expected a mix like {read: 70, write: 30}, got .read:70,trim:30." e2.txt
	bad randread "{read: 70, write: 30}" >e3.txt
	grep -x "bad.yaml:6:10: key .mix.: only readwrite and randrw mix reads and writes, not randread" e3.txt
	bad randrw "{read: 70%, write: 30%}" >e4.txt
	grep -x "bad.yaml:6:10: key .mix.: the read share must be a whole percentage, 0 to 100, without .%., got .70%." e4.txt
	bad randrw "{read: 0.5, write: 99.5}" >e5.txt
	grep -x "bad.yaml:6:10: key .mix.: the read share must be a whole percentage, 0 to 100, without .%., got .0.5." e5.txt
'

test_done
