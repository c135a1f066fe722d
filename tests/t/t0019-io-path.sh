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

# rate_iops 10 at iodepth 4: an I/O every 100 ms, up to 4 in flight. The completion of each
# must be seen when it happens, while the worker waits for the next one's due time, not
# once it has queued the next ones: most I/Os then end before the next one is due.
for be in io_uring libaio; do
	works "$be" || continue
	test_expect_success "$be, rate_iops at iodepth 4: completions are handled during the pause" "
		job $be 4 ', rate_iops: 10' 64KiB >rate-$be.yaml
		\"\$IOTRIAL\" run -q rate-$be.yaml -o rate-$be
		records rate-$be >rec-$be.txt
		sort -k1n rec-$be.txt >sorted-$be.txt
		awk 'NR > 1 {early += (prev_end < \$2)} {prev_end = \$2 + \$3} END {print early + 0}' \
			sorted-$be.txt >early-$be.txt
		test \"\$(cat early-$be.txt)\" -ge 8
	"
done

need_cmd strace

# LeakSanitizer cannot work under ptrace: in an ASan build, a traced run checks no leaks.
traced() { ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" "$@"; }

# The system calls of run $1 on job file $2, one a line: "CALL ARG1 ARG2 ARG3 = RESULT".
calls() {
	traced strace -f -qq -e trace=io_uring_enter,io_submit,io_getevents -o "$1.strace" \
		"$IOTRIAL" run -q "$2" -o "$1"
	sed -n 's/^[0-9]* *\(io_[a-z_]*\)(\([^,]*\), \([0-9]*\), \([0-9]*\).*= \([-0-9]*\).*/\1 \2 \3 \4 = \5/p' \
		"$1.strace"
}

if works io_uring; then
	test_expect_success 'io_uring, iodepth 1: one io_uring_enter per I/O, submitting and waiting' '
		job io_uring 1 "" 1MiB >q1.yaml
		calls q1 q1.yaml >q1.calls
		expect_eq "$(jq .jobs[0].trials[0].ios q1/results.json)" 256
		awk "\$1 == \"io_uring_enter\"" q1.calls >enters.txt
		expect_eq "$(wc -l <enters.txt)" 256
		awk "\$3 != 1 || \$4 != 1" enters.txt >other.txt
		expect_eq "$(wc -l <other.txt)" 0
	'
	# Random offsets: two, then batches of four (never two abutting I/Os in one).
	test_expect_success 'io_uring, iodepth 32, random: pairs first, then bigger batches' '
		job io_uring 32 >q32.yaml
		calls q32 q32.yaml >q32.calls
		awk "\$1 == \"io_uring_enter\" {n[\$3 > 2 ? \"big\" : \$3]++} END {print n[\"big\"] + 0, n[2] + 0}" \
			q32.calls >counts.txt
		read -r big pairs <counts.txt
		test "$big" -gt 0
		test "$pairs" -gt 0
		awk "\$1 == \"io_uring_enter\" && \$3 > 32" q32.calls >over.txt
		expect_eq "$(wc -l <over.txt)" 0 "calls submitting more than the depth"
	'
	# Sequential offsets: never more than 2 a call, so no plug merges them.
	test_expect_success 'io_uring, iodepth 32, sequential: no io_uring_enter submits more than 2 I/Os' '
		job io_uring 32 >s32.yaml
		sed -i "s/randread/read/" s32.yaml
		calls s32 s32.yaml >s32.calls
		awk "\$1 == \"io_uring_enter\" {n[\$3 > 2 ? \"big\" : \$3]++} END {print n[\"big\"] + 0, n[2] + 0}" \
			s32.calls >counts.txt
		read -r big pairs <counts.txt
		expect_eq "$big" 0 "calls submitting more than 2"
		test "$pairs" -gt 0
	'
else
	test_skip 'io_uring: what each io_uring_enter carries' 'backend io_uring does not work here'
fi

if works io_uring; then
	test_expect_success 'docs/performance.md: its strace commands count and show the calls' '
		job io_uring 4 "" 1MiB >job.yaml
		traced strace -f -c -e trace=io_uring_enter,io_submit,io_getevents "$IOTRIAL" run -q job.yaml -o out 2>summary.txt
		grep -E "[0-9] +io_uring_enter$" summary.txt
		traced strace -f -e trace=io_uring_enter "$IOTRIAL" run -q job.yaml -o out2 2>calls.txt
		grep -E "io_uring_enter\([0-9]+, [12], [01], " calls.txt
	'
fi

# bench/io-trace.sh needs perf, root and the kernel's tracepoints.
tracepoints() {
	command -v perf >/dev/null 2>&1 || return 1
	perf list >perf-events.txt 2>/dev/null || return 1
	grep block:block_rq_issue perf-events.txt >/dev/null
}
# Exit 3: the kernel did not deliver the completion events (docs/performance.md; seen on
# 6.18 under load); up to three tries, each a new result folder. Three exits 3 in a row are
# a skip with that reason, counted; any other status or report fails below.
trace_rc=skip
if works io_uring && tracepoints; then
	job io_uring 4 "" 1MiB >job.yaml
	for try in 1 2 3; do
		trace_rc=0
		"$SRC/bench/io-trace.sh" -o trace "$IOTRIAL" run -q job.yaml -o "out3.$try" >report.txt 2>trace.err || trace_rc=$?
		if [ "$trace_rc" -ne 3 ]; then break; fi
	done
fi
case $trace_rc in
skip) test_skip 'bench/io-trace.sh: the calls, what each carries, the device queue' 'needs io_uring, perf and the block tracepoints' ;;
3) test_skip 'bench/io-trace.sh: the calls, what each carries, the device queue' 'the kernel delivered too few block_rq_complete events in 3 tries' ;;
*)
	test_expect_success 'bench/io-trace.sh: the calls, what each carries, the device queue' '
		cat trace.err
		expect_eq "$trace_rc" 0
		grep -E "^calls: io_uring_enter [0-9]+, " report.txt
		grep -E "^requests handed over per call \(requests:calls\):( [0-2]:[0-9]+)+$" report.txt
		grep -E "^time at the device per request: median [0-9]+ us" report.txt
		grep -E "^requests in flight at the device: mean [0-9.]+;" report.txt
		test -s trace.txt
	'
	;;
esac

if works libaio; then
	test_expect_success 'libaio, iodepth 32, random: pairs first, then bigger batches' '
		job libaio 32 >a32.yaml
		calls a32 a32.yaml >a32.calls
		awk "\$1 == \"io_submit\" {n[\$3 > 2 ? \"big\" : \$3]++} END {print n[\"big\"] + 0, n[2] + 0}" \
			a32.calls >counts.txt
		read -r big pairs <counts.txt
		test "$big" -gt 0
		test "$pairs" -gt 0
	'
	test_expect_success 'libaio, iodepth 32, sequential: no io_submit carries more than 2 iocbs' '
		job libaio 32 >sa32.yaml
		sed -i "s/randread/read/" sa32.yaml
		calls sa32 sa32.yaml >sa32.calls
		awk "\$1 == \"io_submit\" {n[\$3 > 2 ? \"big\" : \$3]++} END {print n[\"big\"] + 0, n[2] + 0}" \
			sa32.calls >counts.txt
		read -r big pairs <counts.txt
		expect_eq "$big" 0 "io_submit calls with more than 2 iocbs"
		test "$pairs" -gt 0
	'
else
	test_skip 'libaio: what each io_submit carries' 'backend libaio does not work here'
fi

test_done
