#!/bin/bash
# The cost a distributed run adds to each trial, and the size of its results, by rank count:
# the scaling section of docs/distributed.md. Runs one job on the null backend (a 64 KiB
# trial that takes microseconds, so what remains between trials is the engine's bookkeeping
# and, with ranks, MPI's) under mpirun with each rank count, and reads rank 0's results.json:
#
#   gap     the time between one trial's end and the next one's start on rank 0's clock
#           (median and mean over the run): the figures gathered at rank 0, the two
#           agreements, the next trial's set-up and its start barrier;
#   extra   the median gap minus that of one rank: what MPI adds per trial;
#   bytes   results.json's size, and its growth per added rank and trial over the row before
#           (over 1 rank, the first row of more ranks also holds each trial's aggregate once).
#
# Usage: bench/dist-scaling.sh  (from the top of the tree, after make B=build-mpi/ MPI=1 build-mpi/iotrial)
#   RANKS="1 2 4 8"  the rank counts;  RUNS=200  trials per run;  OUT=dist-scaling  the work folder
#   MPI_IOTRIAL=build-mpi/iotrial;  MPIRUN="mpirun --oversubscribe ... --mca mpi_yield_when_idle 1"
set -euo pipefail

RANKS=${RANKS:-"1 2 4 8"}
RUNS=${RUNS:-200}
OUT=${OUT:-dist-scaling}
MPI_IOTRIAL=${MPI_IOTRIAL:-build-mpi/iotrial}
# yield_when_idle: ranks that wait give up their core, which oversubscribed ranks need.
MPIRUN=${MPIRUN:-"mpirun --oversubscribe --mca pml ob1 --bind-to none --mca mpi_yield_when_idle 1"}

mkdir -p "$OUT"
cat >"$OUT/job.yaml" <<JOB
experiment: dist-scaling
replication: {runs: $RUNS, order: sequential}
jobs:
  - {name: n, workload: read, backend: null, file_size: 64KiB, block_size: 64KiB}
JOB

printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' ranks trials gap_median_us gap_mean_us extra_us results_bytes bytes_per_added_rank_trial
base_gap="" prev_size="" prev_n=""
for n in $RANKS; do
	rm -rf "$OUT/np$n"
	# shellcheck disable=SC2086 # MPIRUN is a command line
	if ! $MPIRUN -np "$n" "$MPI_IOTRIAL" run -q -f json -o "$OUT/np$n" "$OUT/job.yaml" 2>"$OUT/np$n.err"; then
		cat "$OUT/np$n.err" >&2
		echo "dist-scaling.sh: the run of $n ranks failed" >&2
		exit 1
	fi
	r="$OUT/np$n/results.json"
	read -r trials med mean < <(jq -r '[.jobs[0].trials | . as $t | range(1; length) |
		($t[.].start_ns - $t[. - 1].end_ns) / 1000] | sort as $g |
		"\($g | length + 1) \($g[($g | length) / 2 | floor]) \(($g | add) / ($g | length))"' "$r")
	size=$(wc -c <"$r")
	base_gap=${base_gap:-$med}
	awk -v n="$n" -v t="$trials" -v med="$med" -v mean="$mean" -v b="$base_gap" -v s="$size" -v ps="$prev_size" -v pn="$prev_n" \
		'BEGIN { printf "%d\t%d\t%.1f\t%.1f\t%.1f\t%d\t%s\n", n, t, med, mean, med - b, s, (pn != "" ? sprintf("%.0f", (s - ps) / ((n - pn) * t)) : "-") }'
	prev_size=$size
	prev_n=$n
done
