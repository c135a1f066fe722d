#!/bin/bash
# Worker scheduling (cpus, nice, ioprio, sched; fio's cpus_allowed, nice, prioclass/prio):
# a worker thread, seen from /proc while it runs, has the CPUs, nice value, I/O priority and
# policy the job asked for; a priority this process may not take is a job-file error at the
# key (exit 2, nothing run), tried without CAP_SYS_NICE.
. "$(dirname "$0")/lib.sh"
need_cmd jq

cat >sc.yaml <<JOB
experiment: sc
jobs:
  - {name: s, workload: randread, target: "$PWD/", file_size: 4MiB, runtime: 3s,
     cpus: "0", nice: "-5", ioprio: {class: rt, level: 2}, sched: fifo}
JOB

# worker_thread PID: the task of PID whose affinity is CPU 0 alone (the worker), waiting
# up to 2 s for it to appear.
worker_thread() {
	for i in $(seq 40); do
		for t in /proc/"$1"/task/*; do
			if grep -qx "Cpus_allowed_list:.0" "$t/status" 2>/dev/null; then
				basename "$t"
				return 0
			fi
		done
		sleep 0.05
	done
	return 1
}

if [ "$(id -u)" = 0 ] && command -v ionice >/dev/null; then
	test_expect_success 'the worker thread runs on CPU 0, at nice -5, I/O class rt 2, SCHED_FIFO' '
		"$IOTRIAL" run -q sc.yaml -o out &
		pid=$!
		worker_thread "$pid" >tid.txt
		tid=$(cat tid.txt)
		awk "{print \$19, \$41}" /proc/"$pid"/task/"$tid"/stat >stat.txt
		ionice -p "$tid" >io.txt
		wait "$pid"
		expect_eq "$(cat stat.txt)" "-5 1"
		expect_eq "$(cat io.txt)" "realtime: prio 2"
		expect_eq "$(jq -c ".jobs[0].params | [.cpus, .nice, .ioprio, .sched]" out/results.json)" "[\"0\",\"-5\",\"class:rt,level:2\",\"fifo\"]"
	'
else
	test_skip 'the worker thread runs on CPU 0, at nice -5, I/O class rt 2, SCHED_FIFO' 'needs root and ionice'
fi

if command -v setpriv >/dev/null && setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice,-sys_admin true 2>/dev/null; then
	test_expect_success 'without CAP_SYS_NICE: sched fifo, nice -5 and ioprio rt are errors at the key, exit 2' '
		NOCAP="setpriv --inh-caps=-sys_nice,-sys_admin --bounding-set=-sys_nice,-sys_admin"
		printf "experiment: bad\njobs:\n  - {name: j, workload: read, backend: null, sched: fifo}\n" >b1.yaml
		expect_code 2 $NOCAP "$IOTRIAL" run b1.yaml -o o1 2>e1.txt
		grep -x "b1.yaml:3:53: key .sched.: real-time scheduling (fifo) needs CAP_SYS_NICE or an RLIMIT_RTPRIO of at least 1, which this process does not have" e1.txt
		not test -e o1
		printf "experiment: bad\njobs:\n  - {name: j, workload: read, backend: null, nice: \"-5\"}\n" >b2.yaml
		expect_code 2 $NOCAP "$IOTRIAL" validate b2.yaml 2>e2.txt
		grep -x "b2.yaml:3:52: key .nice.: -5 raises the priority, which this process may not (it needs CAP_SYS_NICE or RLIMIT_NICE)" e2.txt
		printf "experiment: bad\njobs:\n  - {name: j, workload: read, backend: null, ioprio: {class: rt, level: 0}}\n" >b3.yaml
		expect_code 2 $NOCAP "$IOTRIAL" validate b3.yaml 2>e3.txt
		grep -x "b3.yaml:3:54: key .ioprio.: class rt needs CAP_SYS_NICE or CAP_SYS_ADMIN, which this process does not have" e3.txt
	'
else
	test_skip 'without CAP_SYS_NICE: sched fifo, nice -5 and ioprio rt are errors at the key, exit 2' 'setpriv cannot drop capabilities here'
fi

test_expect_success 'bad values: a CPU this process cannot use, a level out of range, a nice out of range' '
	printf "experiment: bad\njobs:\n  - {name: j, workload: read, backend: null, cpus: \"0,1000\"}\n" >c1.yaml
	expect_code 2 "$IOTRIAL" validate c1.yaml 2>c1.txt
	grep -x "c1.yaml:3:52: key .cpus.: CPU 1000 is not one this process may run on ([0-9]* online)" c1.txt
	printf "experiment: bad\njobs:\n  - {name: j, workload: read, backend: null, ioprio: {class: be, level: 9}}\n" >c2.yaml
	expect_code 2 "$IOTRIAL" validate c2.yaml 2>c2.txt
	grep -x "c2.yaml:3:54: key .ioprio.: the I/O priority level is 0 (highest) to 7, got .9." c2.txt
	printf "experiment: bad\njobs:\n  - {name: j, workload: read, backend: null, nice: 20}\n" >c3.yaml
	expect_code 2 "$IOTRIAL" validate c3.yaml 2>c3.txt
	grep -x "c3.yaml:3:52: key .nice.: expected a nice value, a whole number from -20 to 19, got .20." c3.txt
'

test_done
