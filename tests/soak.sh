#!/bin/sh
# The soak test (opt-in: make soak): mixed jobs on every backend that works here, with
# record logs, interrupted at random moments, for SOAK_SECONDS (default 600). Afterwards:
# every results.json parses, no scratch file or folder is left behind, no iotrial process
# is left running, and each run's exit status is one DESIGN.md names.
set -u
cd "$(dirname "$0")/.." || exit 2
IOTRIAL=${IOTRIAL:-$PWD/iotrial}
SECONDS_WANTED=${SOAK_SECONDS:-600}
DIR=$(mktemp -d "${TMPDIR:-/var/tmp}/iotrial-soak.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
cd "$DIR" || exit 2
backends=$("$IOTRIAL" backends | awk 'NR > 1 && $2 == "yes" {print $1}' | grep -v -e synthetic -e fault)
fail=0 runs=0 interrupted=0 start=$(date +%s)

job() { # backend -> a job file with every workload, logs on
	depth=1
	case "$1" in io_uring|libaio|null) depth=8 ;; esac
	cat <<JOB
experiment: soak
replication: {runs: 2, order: random}
defaults: {backend: $1, iodepth: $depth, file_size: 8MiB, block_size: 64KiB, log: {records: true, interval: 50ms}}
jobs:
  - {name: w, workload: write, threads: 2, sync: fsync_end}
  - {name: r, workload: randread, block_size: 4KiB, runtime: 300ms, threads: 2, file_per_thread: false}
  - {name: c, workload: copy, buffer_size: 32KiB}
  - {name: load, workload: copytree, backend: sync, iodepth: 1, file_size: 4MiB, tree_files: 8, background: true, with: m}
  - {name: m, workload: read, worker_mode: process, threads: 2}
JOB
}

while [ $(($(date +%s) - start)) -lt "$SECONDS_WANTED" ]; do
	for be in $backends; do
		runs=$((runs + 1))
		job "$be" >"job-$runs.yaml"
		"$IOTRIAL" run -q "job-$runs.yaml" -o "out-$runs" 2>"err-$runs" &
		pid=$!
		# Interrupt about half the runs, at a random moment within two seconds.
		if [ $((runs % 2)) -eq 0 ]; then
			sleep "0.$(od -An -N1 -tu1 /dev/urandom | tr -d ' ')"
			kill -INT $pid 2>/dev/null && interrupted=$((interrupted + 1))
		fi
		wait $pid
		rc=$?
		case $rc in 0|1|130) ;; *) echo "run $runs ($be): exit status $rc"; cat "err-$runs"; fail=1 ;; esac
		if [ -e "out-$runs/results.json" ] && ! jq -e .schema "out-$runs/results.json" >/dev/null; then
			echo "run $runs ($be): results.json does not parse"; fail=1
		fi
		if ls -d iotrial-scratch.* >/dev/null 2>&1; then
			echo "run $runs ($be): scratch left behind: $(ls -d iotrial-scratch.*)"; fail=1
			rm -rf iotrial-scratch.*
		fi
		rm -rf "out-$runs" "job-$runs.yaml" "err-$runs"
	done
done
# Worker processes and commands of these runs have this folder in their command line.
if pgrep -f "job-[0-9]*.yaml -o out-" >/dev/null; then
	echo "processes left running: $(pgrep -af "job-[0-9]*.yaml -o out-" | tr '\n' ';')"; fail=1
fi
echo "soak: $runs runs ($interrupted interrupted) in $(($(date +%s) - start)) s on: $(echo $backends)"
[ $fail -eq 0 ] && echo "soak: 1 passed, 0 failed" || echo "soak: 0 passed, 1 failed"
exit $fail
