#!/bin/bash
# io_uring's options (docs/backends.md#io_uring): each changes what it should, seen in the
# system calls (strace) or in the completions' shared clock reads; the data stays right
# under each (verify); bad values are refused with their place in the job file. None
# asserts on speed.
. "$(dirname "$0")/lib.sh"
need_cmd jq
if ! "$IOTRIAL" backends | awk '$1 == "io_uring" && $2 == "yes" {found = 1} END {exit !found}'; then
	skip_rest "backend io_uring does not work here"
fi

mkdir -p data

# A direct random read of a 4 MiB file at iodepth $1 with the options $2 (", key: value...").
job() {
	printf 'experiment: knobs\njobs:\n  - {name: r, workload: randread, block_size: 4KiB, file_size: 4MiB, target: data, backend: io_uring, iodepth: %s, direct: true%s}\n' \
		"$1" "${2:-}"
}

# LeakSanitizer cannot work under ptrace: in an ASan build, a traced run checks no leaks.
traced() { ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" "$@"; }

# Run job file $2 into folder $1 under strace; the io_uring calls to $1.strace.
trace() {
	traced strace -f -qq -e trace=io_uring_setup,io_uring_enter,io_uring_register -o "$1.strace" \
		"$IOTRIAL" run -q "$2" -o "$1"
}

# "to_submit min_complete flags" of each io_uring_enter of run $1, one a line.
enters() {
	sed -n 's/^[0-9]* *io_uring_enter([0-9]*, \([0-9]*\), \([0-9]*\), \([^,]*\),.*/\1 \2 \3/p' "$1.strace"
}

test_expect_success 'no option: no io_uring_register, and the ring without SQPOLL or IOPOLL' '
	job 16 >plain.yaml
	trace plain plain.yaml
	expect_eq "$(grep -c io_uring_register plain.strace || true)" 0
	grep io_uring_setup plain.strace >setup.txt
	not grep -E "IORING_SETUP_(SQPOLL|IOPOLL)" setup.txt
'

test_expect_success 'io_uring_register_files: the files are registered, and I/Os use their slots' '
	job 16 ", io_uring_register_files: true" >files.yaml
	trace files files.yaml
	grep -E "io_uring_register\([0-9]+, IORING_REGISTER_FILES," files.strace
	grep -E "io_uring_register\([0-9]+, IORING_REGISTER_FILES_UPDATE," files.strace
	expect_eq "$(jq .jobs[0].trials[0].errors files/results.json)" 0
	test "$(jq .jobs[0].trials[0].ios files/results.json)" -gt 0
'

test_expect_success 'io_uring_fixed_buffers: the buffers are registered once' '
	job 16 ", io_uring_fixed_buffers: true" >bufs.yaml
	trace bufs bufs.yaml
	grep -E "io_uring_register\([0-9]+, IORING_REGISTER_BUFFERS," bufs.strace >reg.txt
	expect_eq "$(wc -l <reg.txt)" 1
	expect_eq "$(jq .jobs[0].trials[0].errors bufs/results.json)" 0
'

# Without SQPOLL, at iodepth 16 the worker submits pairs on their own (to_submit 2, no
# GETEVENTS); with it, the kernel thread takes them from the ring: a call that does not wait
# is then only a wake-up of that thread.
test_expect_success 'io_uring_sqpoll: a polling thread, and few calls that only submit' '
	job 16 >nosq.yaml
	trace nosq nosq.yaml
	enters nosq | awk "\$3 !~ /GETEVENTS/" >nosq.submits
	job 16 ", io_uring_sqpoll: true, io_uring_sqpoll_idle: 50ms" >sq.yaml
	trace sq sq.yaml
	grep -E "io_uring_setup\(.*IORING_SETUP_SQPOLL.*sq_thread_idle=50" sq.strace
	enters sq | awk "\$3 !~ /GETEVENTS/" >sq.submits
	ios=$(jq .jobs[0].trials[0].ios sq/results.json)
	echo "calls that only submit: $(wc -l <nosq.submits) without SQPOLL, $(wc -l <sq.submits) with, for $ios I/Os"
	test "$(wc -l <nosq.submits)" -gt $((ios / 10))
	test "$(wc -l <sq.submits)" -lt $((ios / 20))
'

test_expect_success 'io_uring_sqpoll_cpu: the polling thread on that CPU' '
	job 4 ", io_uring_sqpoll: true, io_uring_sqpoll_cpu: 0" >sqcpu.yaml
	trace sqcpu sqcpu.yaml
	grep -E "io_uring_setup\(.*IORING_SETUP_SQ_AFF.*sq_thread_cpu=0" sqcpu.strace
'

# Without the option, a round of 8 random reads goes 2, 4, then the last 2 with the wait:
# never 8 in one call. A call of 8 is the option's.
test_expect_success 'io_uring_batch_submit: 1 hands over one I/O a call, 8 eight at a time' '
	job 8 ", io_uring_batch_submit: 1" >b1.yaml
	trace b1 b1.yaml
	enters b1 | awk "\$1 > 1" >b1.big
	expect_eq "$(wc -l <b1.big)" 0 "calls submitting more than 1"
	enters b1 | awk "\$1 == 1" >b1.one
	test "$(wc -l <b1.one)" -gt 0
	job 8 ", io_uring_batch_submit: 8" >b8.yaml
	trace b8 b8.yaml
	enters b8 | awk "\$1 == 8" >b8.full
	test "$(wc -l <b8.full)" -gt 0
	enters b8 | awk "\$1 > 8" >b8.over
	expect_eq "$(wc -l <b8.over)" 0 "calls submitting more than 8"
'

# With io_uring_batch_submit the backend hands I/Os over inside its queueing and its wait,
# out of the worker's sight: submit_latency has no slat to show (null), not a wrong one.
# Without it, each I/O has its slat and clat.
test_expect_success 'submit_latency with io_uring_batch_submit: slat and clat null, latency kept' '
	job 8 ", io_uring_batch_submit: 4, submit_latency: true" >sb.yaml
	"$IOTRIAL" run -q sb.yaml -o sb
	jq -e ".jobs[0].trials[0] | .ios > 0 and .lat_ns.p50 > 0 and .slat_ns.p50 == null and .clat_ns.p50 == null" sb/results.json
	job 8 ", submit_latency: true" >sn.yaml
	"$IOTRIAL" run -q sn.yaml -o sn
	jq -e ".jobs[0] | .trials[0].slat_ns.p50 > 0 and .summary.slat_ns.ios == .summary.lat_ns.ios" sn/results.json
'

# One clock read per batch of completions: the records of a batch share their end time. So
# the distinct end times count the batches taken.
batches() {
	awk -F, "NR == 1 {for (i = 1; i <= NF; i++) col[\$i] = i; next}
		{print \$col[\"start_ns\"] + \$col[\"latency_ns\"]}" "$1"/records/r.csv | sort -u | wc -l
}

# The core asks for one completion at a time: a wait for more is the option's.
test_expect_success 'io_uring_batch_complete_min and _max: completions taken at least 4, at most 1 at a time' '
	job 8 ", log_records: true" >c1.yaml
	trace c1 c1.yaml
	enters c1 | awk "\$3 ~ /GETEVENTS/ && \$2 > 1" >c1.more
	expect_eq "$(wc -l <c1.more)" 0 "waits for more than 1 completion by default"
	job 8 ", io_uring_batch_complete_min: 4, log_records: true" >cmin.yaml
	# A wait for 4 happens only when fewer than 4 are done already: on a busy machine a
	# run may never need one, so up to three runs.
	for try in 1 2 3; do
		rm -rf cmin cmin.*.trace
		trace cmin cmin.yaml
		enters cmin | awk "\$3 ~ /GETEVENTS/ && \$2 > 1" >cmin.more
		if [ "$(wc -l <cmin.more)" -gt 0 ]; then
			break
		fi
	done
	# Any wait must then ask for more than one. A run that never waits (an ASan build is slow
	# enough that completions are always ready) cannot show it, and says so.
	enters cmin | awk "\$3 ~ /GETEVENTS/" >cmin.waits
	if [ -s cmin.waits ]; then
		test "$(wc -l <cmin.more)" -gt 0
	else
		echo "no run waited for a completion: io_uring_batch_complete_min not observable here"
	fi
	ios=$(jq .jobs[0].trials[0].ios cmin/results.json)
	echo "batches with min 4: $(batches cmin) for $ios I/Os"
	test "$(batches cmin)" -le $((ios / 4 + 8))
	job 8 ", io_uring_batch_complete_max: 1, log_records: true" >cmax.yaml
	"$IOTRIAL" run -q cmax.yaml -o cmax
	expect_eq "$(batches cmax)" "$(jq .jobs[0].trials[0].ios cmax/results.json)"
'

# Written with the verify pattern, then read back and checked (docs/jobfile.md#verify); and
# a random read of the laid-out file, checked as it comes.
n=0
for opts in "io_uring_register_files: true" "io_uring_fixed_buffers: true" "io_uring_sqpoll: true" \
	"io_uring_batch_submit: 3, io_uring_batch_complete_min: 2, io_uring_batch_complete_max: 5" \
	"io_uring_register_files: true, io_uring_fixed_buffers: true, io_uring_sqpoll: true"; do
	n=$((n + 1))
	test_expect_success "verify: the data stays right with $opts" "
		printf 'experiment: v\njobs:\n  - {name: w, workload: randwrite, block_size: 4KiB, file_size: 2MiB, target: data, backend: io_uring, iodepth: 8, direct: true, verify: true, $opts}\n  - {name: r, workload: randread, block_size: 16KiB, file_size: 2MiB, target: data, backend: io_uring, iodepth: 8, direct: true, verify: true, $opts}\n' >v.yaml
		\"\$IOTRIAL\" run -q v.yaml -o v$n
		jq '[.jobs[].trials[] | .errors] | add' v$n/results.json >errs.txt
		expect_eq \"\$(cat errs.txt)\" 0
		jq '[.jobs[].trials[] | .ios] | min' v$n/results.json >ios.txt
		test \"\$(cat ios.txt)\" -ge 128
	"
done

# Polled completions need a device with poll queues; virtio disks and most SATA disks have
# none. There, the trial fails with the reason; where the device polls, the run works.
poll_dev() {
	d=$(stat -c %d data)
	f=/sys/dev/block/$((d >> 8)):$((d & 255))/queue/io_poll
	[ -r "$f" ] || f=/sys/dev/block/$((d >> 8)):$((d & 255))/../queue/io_poll
	cat "$f" 2>/dev/null || echo 0
}
if [ "$(poll_dev)" = 1 ]; then
	test_expect_success 'io_uring_hipri: polled reads where the device polls' '
		job 4 ", io_uring_hipri: true" >hp.yaml
		trace hp hp.yaml
		grep -E "io_uring_setup\(.*IORING_SETUP_IOPOLL" hp.strace
		expect_eq "$(jq .jobs[0].trials[0].errors hp/results.json)" 0
	'
else
	test_expect_success 'io_uring_hipri: a clear error where the device cannot poll' '
		job 4 ", io_uring_hipri: true" >hp.yaml
		expect_code 1 "$IOTRIAL" run -q hp.yaml -o hp 2>err.txt
		cat err.txt
		grep -F "io_uring_hipri: its device cannot poll for completions" err.txt
		grep -F "queue/io_poll is 0" err.txt
		expect_eq "$(jq .jobs[0].trials[0].ios hp/results.json)" 0
	'
fi

test_expect_success 'io_uring_hipri without direct: refused, with the reason' '
	printf "experiment: k\njobs:\n  - {name: r, workload: randread, file_size: 1MiB, target: data, backend: io_uring, io_uring_hipri: true}\n" >hd.yaml
	expect_code 1 "$IOTRIAL" run -q hd.yaml -o hd 2>err.txt
	grep -F "io_uring_hipri (polled completions) needs direct: true" err.txt
'

test_expect_success 'bad values: refused with file:line:column, nothing run' '
	printf "experiment: k\njobs:\n  - name: r\n    workload: randread\n    file_size: 1MiB\n    backend: io_uring\n    io_uring_batch_submit: 5000\n" >bad1.yaml
	expect_code 2 "$IOTRIAL" validate bad1.yaml 2>err1.txt
	grep -E "^bad1.yaml:7:[0-9]+: key .io_uring_batch_submit.: must be between 0 and 4096" err1.txt
	printf "experiment: k\njobs:\n  - name: r\n    workload: randread\n    file_size: 1MiB\n    backend: io_uring\n    io_uring_batch_complete_max: 2\n    io_uring_batch_complete_min: 4\n" >bad2.yaml
	expect_code 2 "$IOTRIAL" validate bad2.yaml 2>err2.txt
	grep -E "^bad2.yaml:8:[0-9]+: key .io_uring_batch_complete_min.: io_uring_batch_complete_min \(4\) is above io_uring_batch_complete_max \(2\)" err2.txt
	printf "experiment: k\njobs:\n  - name: r\n    workload: randread\n    file_size: 1MiB\n    backend: io_uring\n    io_uring_sqpoll: yes please\n" >bad3.yaml
	expect_code 2 "$IOTRIAL" validate bad3.yaml 2>err3.txt
	grep -E "^bad3.yaml:7:[0-9]+: key .io_uring_sqpoll.: expected true or false" err3.txt
	printf "experiment: k\njobs:\n  - {name: r, workload: randread, file_size: 1MiB, backend: libaio, io_uring_fixed_buffers: true}\n" >bad4.yaml
	expect_code 2 "$IOTRIAL" validate bad4.yaml 2>err4.txt
	grep -E "^bad4.yaml:3:[0-9]+: key .io_uring_fixed_buffers.: io_uring_fixed_buffers is an option of backend io_uring" err4.txt
'

test_done
