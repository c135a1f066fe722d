#!/bin/bash
# A run's memory as its trials add up: it grows with the results it keeps, not with the
# trials it has run. (First in a script of its own: when it ran after t0023's planning
# tests, the old code's growth did not show, as glibc's choice of arenas for the worker
# threads depends on timing.)
. "$(dirname "$0")/lib.sh"

ASAN=$(grep -c __asan_init "$IOTRIAL" || true)

# Each trial's worker state (about 100 KB of histograms) was an aligned heap block that later
# trials did not reuse: 21,000 trials held 1.85 GB. Whether glibc reused it depended on the
# sizes of the small blocks allocated around it, among them paths under the current folder:
# in some folders the old code grew by 90 KB a trial, in others by 3 KB. So the runs are
# made from folders whose paths have 1 to 8 more bytes. Now memory grows with the results
# kept, about 3 KB a trial here; the bound is 20 KB. ASan keeps freed memory in quarantine,
# so its figures say nothing about this.
test_expect_success 'memory grows with the results kept, not by a block a trial run' '
	for n in 50 450; do
		printf "replication: {runs: 5, order: sequential}\njobs:\n  - {name: t, workload: read, backend: synthetic, file_size: 4KiB, sim_mean: 10us, matrix: {sim_stddev: {from: 1us, to: %sus, step: 1us}}}\n" $n >trials$n.yaml
	done
	"$IOTRIAL" run -q -f json trials50.yaml -o few
	a=$(jq .resources.max_rss_bytes few/results.json)
	for d in d dd ddd dddd ddddd dddddd ddddddd dddddddd; do
		mkdir $d
		(cd $d; "$IOTRIAL" run -q -f json ../trials450.yaml -o many)
		expect_eq "$(jq "[.jobs[].trials | length] | add" $d/many/results.json)" 2250
		b=$(jq .resources.max_rss_bytes $d/many/results.json)
		echo "from $d/: peak RSS $a bytes for 250 trials, $b for 2250: $(((b - a) / 2000)) bytes a trial"
		if [ "$ASAN" = 0 ]; then test $(((b - a) / 2000)) -lt 20480; fi
		rm -r $d
	done
'

test_done
