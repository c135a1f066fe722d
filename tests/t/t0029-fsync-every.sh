#!/bin/bash
# fsync_every and fdatasync_every (fio's fsync and fdatasync): a sync after every N writes,
# once the writes before it have completed, counted and timed apart from the writes
# (trials[].sync in results.json); the right system call; one of the two, on a workload that
# writes, or a job-file error at the key.
. "$(dirname "$0")/lib.sh"
need_cmd jq

cat >fs.yaml <<JOB
experiment: fs
seed: 1
defaults: {target: "$PWD/", file_size: 4MiB, block_size: 4KiB}
jobs:
  - {name: fs, workload: write, fsync_every: 16}
  - {name: fds, workload: randwrite, fdatasync_every: 64}
  - {name: plain, workload: write}
JOB

test_expect_success 'the sync jobs run' '
	"$IOTRIAL" run -q fs.yaml -o out
'

test_expect_success 'a sync after every N writes, apart from the writes' '
	expect_eq "$(jq -c "[.jobs[].trials[0].ios]" out/results.json)" "[1024,1024,1024]"
	expect_eq "$(jq -c "[.jobs[].trials[0].sync.ios]" out/results.json)" "[64,16,null]"
	jq -e ".jobs[0].trials[0].sync.lat_ns | .mean > 0 and .p99 >= .p50 and .max >= .min" out/results.json
	jq -e ".jobs[2].trials[0] | has(\"sync\") | not" out/results.json
'

test_expect_success 'the syncs time what the writes do not: their mean is not the writes mean' '
	jq -e ".jobs[0].trials[0] | .sync.lat_ns.mean != .lat_ns.mean" out/results.json
'

if command -v strace >/dev/null; then
	test_expect_success 'fsync(2) after every 16 pwrites, fdatasync(2) after every 64' '
		env ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -o trace.txt -e trace=pwrite64,fsync,fdatasync "$IOTRIAL" run -q fs.yaml -o traced2
		awk "/pwrite64\(/ {n++} /fsync\(/ && !/fdatasync/ {if (n) print \"fsync\", n; n = 0} /fdatasync\(/ {if (n) print \"fdatasync\", n; n = 0}" trace.txt | sort | uniq -c >runs.txt
		cat runs.txt
		grep -x " *64 fsync 16" runs.txt
		grep -x " *16 fdatasync 64" runs.txt
	'
else
	test_skip 'fsync(2) after every 16 pwrites, fdatasync(2) after every 64' 'strace is not installed'
fi

bad() {
	printf 'experiment: bad\njobs:\n  - name: j\n    workload: %s\n    backend: null\n    %s\n' "$1" "$2" >bad.yaml
	expect_code 2 "$IOTRIAL" validate bad.yaml 2>err.txt
	cat err.txt
}

test_expect_success 'both keys, or a workload that does not write: file:line:column, exit 2' '
	bad write "fsync_every: 4
    fdatasync_every: 8" >e1.txt
	grep -x "bad.yaml:7:22: key .fdatasync_every.: set fsync_every or fdatasync_every, not both" e1.txt
	bad randread "fsync_every: 4" >e2.txt
	grep -x "bad.yaml:6:18: key .fsync_every.: a randread issues no writes to sync; only write and randwrite do" e2.txt
'

test_done
