#!/bin/bash
# The asynchronous I/O path (docs/performance.md): one clock read per batch of completions,
# what each system call carries, and no I/O left waiting in the backend while the worker
# sleeps. Checks count calls and compare times; none asserts on speed.
. "$(dirname "$0")/lib.sh"
need_cmd jq

mkdir -p data
works() { "$IOTRIAL" backends | awk -v b="$1" '$1 == b && $2 == "yes" {found = 1} END {exit !found}'; }

# A size-bound random read on backend $1 at iodepth $2, with the per-I/O record log.
job() {
	printf 'experiment: path\njobs:\n  - {name: r, workload: randread, block_size: 4KiB, file_size: %s, target: data, backend: %s, iodepth: %s, direct: true, log_records: true%s}\n' \
		"${4:-4MiB}" "$1" "$2" "${3:-}"
}

# The records of run $1 as "seq start_ns latency_ns" lines, the columns found by name.
records() {
	awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
		{print $col["seq"], $col["start_ns"], $col["latency_ns"]}' "$1"/records/r.csv
}

# The records' completion times (start_ns + latency_ns), one a line.
ends() { records "$1" | awk '{print $2 + $3}'; }

for be in io_uring libaio; do
	if ! works "$be"; then
		test_skip "$be: completions reaped together share one clock read" "backend $be does not work here"
		continue
	fi
	test_expect_success "$be: completions reaped together share one clock read" "
		job $be 32 >c-$be.yaml
		\"\$IOTRIAL\" run -q c-$be.yaml -o c-$be
		ends c-$be >ends-$be.txt
		expect_eq \"\$(wc -l <ends-$be.txt)\" 1024
		sort -u ends-$be.txt >distinct-$be.txt
		test \"\$(wc -l <distinct-$be.txt)\" -lt 1024
	"
done

test_done
