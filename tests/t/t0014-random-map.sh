#!/bin/bash
# Offsets of random and sequential workloads, read from results.json and the per-I/O record
# log: a size-bound trial after a ramp moves exactly its size.
. "$(dirname "$0")/lib.sh"
need_cmd jq

cat >ramp.yaml <<'JOB'
experiment: ramp
seed: 1
replication: {runs: 2}
defaults: {file_size: 400KiB, block_size: 4KiB, backend: null, ramp: 15ms, rate_iops: 5000}
jobs:
  - {name: seq, workload: read}
  - {name: rand, workload: randread}
JOB

test_expect_success 'after a ramp, a size-bound trial moves file_size bytes, not one I/O more' '
	"$IOTRIAL" run -q ramp.yaml -o ramp
	expect_eq "$(jq -c "[.jobs[].trials[] | .ios]" ramp/results.json)" "[100,100,100,100]"
	expect_eq "$(jq -c "[.jobs[].trials[] | .bytes] | unique" ramp/results.json)" "[409600]"
'

test_done
