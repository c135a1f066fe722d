#!/bin/bash
# Random offsets follow a random map: read from the per-I/O record log, every pass of a
# random workload visits each block exactly once (one block, counts that are not powers of
# two, a file that is not a whole number of blocks, several workers on one file, iodepth
# above 1, a ramp, time-bound runs over several passes); random_map: false samples with
# replacement at the expected rate; the seed decides the order. After a ramp, a size-bound
# trial moves exactly its size. results.json records the page-cache residency after each
# trial, a buffered read that read its file again from memory says so, and `iotrial report`
# keeps both. Random reads ask for no readahead.
. "$(dirname "$0")/lib.sh"
need_cmd jq

# passes CSV N BS: check a record log pass by pass. Per trial and worker, in issue order
# (seq), every run of N I/Os must be N different multiples of BS below N * BS, and the last,
# shorter run must repeat none. Prints "trial worker ios" per trial and worker.
passes() {
	tail -n +2 "$1" | sort -t, -k1,1n -k2,2n -k3,3n >sorted.csv
	awk -F, -v n="$2" -v bs="$3" '
	function flush() { if (key != "") print key, k }
	{
		cur = $1 " " $2
		if (cur != key) { flush(); key = cur; k = 0 }
		if (k % n == 0) split("", seen)
		if ($4 % bs != 0 || $4 / bs >= n) {
			print "trial " $1 " worker " $2 ": offset " $4 " is not a block" >"/dev/stderr"
			bad = 1
		}
		if (seen[$4]++) {
			print "trial " $1 " worker " $2 ": offset " $4 " twice in pass " int(k / n) >"/dev/stderr"
			bad = 1
		}
		k++
	}
	END { flush(); exit bad }' sorted.csv
}

# The offsets of one trial and worker, in issue order.
offsets() {
	awk -F, -v t="$2" -v w="$3" 'NR > 1 && $1 == t && $2 == w {print $3, $4}' "$1" | sort -n | cut -d" " -f2
}

# column CSV NAME: the values of column NAME, one a line.
column() {
	awk -F, -v name="$2" "NR == 1 {for (i = 1; i <= NF; i++) if (\$i == name) c = i} NR > 1 && c {print \$c} END {exit !c}" "$1"
}

# job NAME FILE_SIZE BLOCK_SIZE [MORE KEYS]: a size-bound randread job on the null backend.
job() {
	printf '  - {name: %s, workload: randread, backend: null, file_size: %s, block_size: %s, log: {records: true}%s}\n' \
		"$1" "$2" "$3" "${4:+, $4}"
}

{
	printf 'experiment: map\nseed: 7\nreplication: {runs: 2}\njobs:\n'
	job one 4KiB 4KiB
	job seven 28KiB 4KiB
	job k1000 4000000 4000
	job k1024 4MiB 4KiB
	job k1025 4100KiB 4KiB
	job ragged 1000000 4096
	job shared 400KiB 4KiB "threads: 3, file_per_thread: false"
	job deep 1000KiB 4KiB "iodepth: 16"
	job ramped 400KiB 4KiB "ramp: 15ms, rate_iops: 5000"
} >sizes.yaml

test_expect_success 'the size-bound jobs run' '
	"$IOTRIAL" run -q sizes.yaml -o sizes
'

test_expect_success 'a size-bound pass visits each block exactly once (1, 7, 1000, 1024, 1025 blocks)' '
	passes sizes/records/one.csv 1 4096 >one.txt
	expect_eq "$(cat one.txt)" "$(printf "0 0 1\n1 0 1")"
	passes sizes/records/seven.csv 7 4096 >seven.txt
	expect_eq "$(cat seven.txt)" "$(printf "0 0 7\n1 0 7")"
	passes sizes/records/k1000.csv 1000 4000 >k1000.txt
	expect_eq "$(cat k1000.txt)" "$(printf "0 0 1000\n1 0 1000")"
	passes sizes/records/k1024.csv 1024 4096 >k1024.txt
	expect_eq "$(cat k1024.txt)" "$(printf "0 0 1024\n1 0 1024")"
	passes sizes/records/k1025.csv 1025 4096 >k1025.txt
	expect_eq "$(cat k1025.txt)" "$(printf "0 0 1025\n1 0 1025")"
'

test_expect_success 'a file that is not a whole number of blocks: each whole block once, not the tail' '
	passes sizes/records/ragged.csv 244 4096 >ragged.txt
	expect_eq "$(cat ragged.txt)" "$(printf "0 0 244\n1 0 244")"
'

test_expect_success 'workers sharing a file each visit every block once, each in its own order' '
	passes sizes/records/shared.csv 100 4096 >shared.txt
	expect_eq "$(cat shared.txt)" "$(printf "0 0 100\n0 1 100\n0 2 100\n1 0 100\n1 1 100\n1 2 100")"
	offsets sizes/records/shared.csv 0 0 >w0.txt
	offsets sizes/records/shared.csv 0 1 >w1.txt
	not cmp -s w0.txt w1.txt
'

test_expect_success 'with iodepth above 1, each block once per pass in issue order' '
	passes sizes/records/deep.csv 250 4096 >deep.txt
	expect_eq "$(cat deep.txt)" "$(printf "0 0 250\n1 0 250")"
'

test_expect_success 'after a ramp, the measured window is one whole pass' '
	passes sizes/records/ramped.csv 100 4096 >ramped.txt
	expect_eq "$(cat ramped.txt)" "$(printf "0 0 100\n1 0 100")"
	jq -e "[.jobs[] | select(.name == \"ramped\") | .trials[].ios] == [100, 100]" sizes/results.json
'

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

test_expect_success 'each trial has an order of its own' '
	offsets sizes/records/k1024.csv 0 0 >t0.txt
	offsets sizes/records/k1024.csv 1 0 >t1.txt
	not cmp -s t0.txt t1.txt
'

# Real I/O with several in flight: completions come back out of order.
cat >uring.yaml <<'JOB'
experiment: uring
seed: 5
replication: {runs: 2}
jobs:
  - {name: u, workload: randread, backend: io_uring, direct: true, iodepth: 16, file_size: 1MiB,
     block_size: 4KiB, log: {records: true}}
JOB
"$IOTRIAL" backends >backends.txt
if grep "^io_uring *yes" backends.txt >/dev/null; then
	test_expect_success 'io_uring, iodepth 16, O_DIRECT: each block once per pass in issue order' '
		"$IOTRIAL" run -q uring.yaml -o uring
		passes uring/records/u.csv 256 4096 >u.txt
		expect_eq "$(cat u.txt)" "$(printf "0 0 256\n1 0 256")"
	'
else
	test_skip 'io_uring, iodepth 16, O_DIRECT: each block once per pass in issue order' 'io_uring does not work here'
fi

cat >timed.yaml <<'JOB'
experiment: timed
seed: 11
replication: {runs: 1}
jobs:
  - {name: t, workload: randread, backend: null, file_size: 1000KiB, block_size: 4KiB,
     runtime: 100ms, rate_iops: 20000, threads: 2, file_per_thread: false, log: {records: true}}
  - {name: d, workload: randread, backend: null, file_size: 28KiB, block_size: 4KiB,
     runtime: 50ms, rate_iops: 20000, iodepth: 4, log: {records: true}}
JOB

test_expect_success 'a time-bound run goes over several passes, each a new order of every block' '
	"$IOTRIAL" run -q timed.yaml -o timed
	passes timed/records/t.csv 250 4096 >t.txt
	awk "\$3 < 750 {print; bad = 1} END {exit bad}" t.txt
	offsets timed/records/t.csv 0 0 >all.txt
	sed -n 1,250p all.txt >p0.txt
	sed -n 251,500p all.txt >p1.txt
	not cmp -s p0.txt p1.txt
	expect_eq "$(sort -n p0.txt | uniq | wc -l)" 250
	passes timed/records/d.csv 7 4096 >d.txt
	awk "\$3 < 70 {print; bad = 1} END {exit bad}" d.txt
'

cat >repl.yaml <<'JOB'
experiment: repl
seed: 3
replication: {runs: 3}
jobs:
  - {name: r, workload: randread, backend: null, file_size: 16MiB, block_size: 4KiB,
     random_map: false, log: {records: true}}
JOB

# n draws over n blocks leave about n (1 - 1/e) = 2589 of 4096 distinct; the standard
# deviation is about 20, so 2470 to 2710 is six of them either way.
test_expect_success 'random_map: false draws with replacement, repeats at the expected rate' '
	"$IOTRIAL" run -q repl.yaml -o repl
	for t in 0 1 2; do
		offsets repl/records/r.csv $t 0 >r$t.txt
		expect_eq "$(wc -l <r$t.txt)" 4096
		d=$(sort -n r$t.txt | uniq | wc -l)
		echo "trial $t: $d distinct of 4096"
		test "$d" -gt 2470
		test "$d" -lt 2710
	done
	expect_eq "$(jq ".jobs[0].params.random_map" repl/results.json)" false
'

test_expect_success 'the same seed gives the same offsets; another seed another order, same blocks' '
	"$IOTRIAL" run -q sizes.yaml -o again
	cut -d, -f1-4 sizes/records/k1025.csv >a.txt
	cut -d, -f1-4 again/records/k1025.csv >b.txt
	cmp a.txt b.txt
	"$IOTRIAL" run -q sizes.yaml -o other --set seed=8
	cut -d, -f1-4 other/records/k1025.csv >c.txt
	not cmp -s a.txt c.txt
	passes other/records/k1025.csv 1025 4096 >other.txt
	expect_eq "$(cat other.txt)" "$(printf "0 0 1025\n1 0 1025")"
'

test_expect_success 'random_map is a documented job key' '
	"$IOTRIAL" keys >keys.txt
	awk -F"\t" "\$1 == \"random_map\" && \$2 == \"bool\" && \$3 == \"true\" {ok = 1} END {exit !ok}" keys.txt
'

# Real files: what the page cache holds before and after a trial. Job again reads its file
# twice (io_limit), the second pass from the page cache the first one filled; a time-bound
# trial would need the device to finish the first pass in time, and a busy one may not.
cat >cache.yaml <<'JOB'
experiment: cache
replication: {runs: 1}
defaults: {file_size: 4MiB, block_size: 4KiB, backend: sync}
jobs:
  - {name: once, workload: randread}
  - {name: again, workload: randread, file_size: 1MiB, io_limit: 2MiB}
  - {name: written, workload: randwrite}
  - {name: none, workload: randread, backend: null}
  - {name: sim, workload: randread, backend: synthetic}
JOB

test_expect_success 'results.json has the page cache before and after each trial' '
	"$IOTRIAL" run -q cache.yaml -o cache
	jq -c "[.jobs[] | .trials[0] | [.page_cache, .page_cache_after]]" cache/results.json
	jq -e ".jobs[0].trials[0].page_cache < 0.1" cache/results.json
	jq -e ".jobs[0].trials[0].page_cache_after > 0.9" cache/results.json
	jq -e ".jobs[2].trials[0].page_cache == null" cache/results.json
	jq -e ".jobs[2].trials[0].page_cache_after > 0.5" cache/results.json
	jq -e ".jobs[3].trials[0] | .page_cache == null and .page_cache_after == null" cache/results.json
	jq -e ".jobs[4].trials[0] | .page_cache == null and .page_cache_after == null" cache/results.json
'

test_expect_success 'a buffered read that went over its file again and left it cached says so' '
	jq -e ".jobs[1].trials[0].bytes > 1048576" cache/results.json
	jq -e ".jobs[1].trials[0].page_cache_after > 0.5" cache/results.json
	jq -e "[.jobs[].summary.reads_cached] == [false, true, false, false, false]" cache/results.json
	grep "note: again: reads were served from the page cache" cache/summary.txt
	not grep "note: once:" cache/summary.txt
'

# Without readahead, a buffered trial leaves in the page cache exactly the blocks it read.
cat >ra.yaml <<'JOB'
experiment: ra
seed: 4
replication: {runs: 2}
jobs:
  - {name: ra, workload: randread, backend: sync, file_size: 4MiB, block_size: 4KiB,
     random_map: false, log: {records: true}}
JOB

if [ "$(getconf PAGESIZE)" = 4096 ]; then
	test_expect_success 'random reads ask for no readahead: the cache holds the blocks read, no more' '
		"$IOTRIAL" run -q ra.yaml -o ra
		for t in 0 1; do
			offsets ra/records/ra.csv $t 0 >ra$t.txt
			d=$(sort -n ra$t.txt | uniq | wc -l)
			expect_eq "$(jq ".jobs[0].trials[$t].page_cache_after * 1024" ra/results.json)" "$d"
		done
	'
else
	test_skip 'random reads ask for no readahead: the cache holds the blocks read, no more' 'pages are not 4 KiB here'
fi

test_expect_success 'iotrial report of a saved run keeps page_cache_after' '
	"$IOTRIAL" report cache/results.json -f csv -o report.csv
	cmp report.csv cache/trials.csv
	column report.csv page_cache_after >after.txt
	awk "NR == 1 && \$1 > 0.9 {ok = 1} END {exit !ok}" after.txt
	jq "del(.jobs[].trials[].page_cache_after)" cache/results.json >old.json
	"$IOTRIAL" report old.json -f csv -o old.csv
	column old.csv page_cache_after >old_after.txt
	expect_eq "$(sort -u old_after.txt)" ""
'

test_done
