#!/bin/bash
# Hostile files: iotrial creates with O_EXCL, never follows a symlink it did not create,
# deletes only what it created in this run (by inode), refuses a loop device or image
# file behind a mounted file system, and leaves no worker process behind. Every case plants
# foreign files and symlinks, and checks them byte for byte afterwards (docs/safety.md).
. "$(dirname "$0")/lib.sh"
need_cmd jq
export IOTRIAL

# A listing of everything under the folders given: path, type, link target, and a checksum
# of every regular file. Two snapshots differ when anything was written, made or deleted.
snap() {
	find "$@" -printf '%p %y %l\n' | sort
	find "$@" -type f -exec sha256sum {} + | sort
}

# planted JOB OUT PLANT: run iotrial on JOB, results in OUT, stderr in OUT.err, as a process
# that first runs the shell snippet PLANT, where $$ is the pid iotrial's names will carry.
planted() {
	sh -c "$3"'
	exec "$IOTRIAL" run -q "$1" -o "$2" 2>"$2.err"' planted "$1" "$2"
}

# wait_for PATH: until PATH exists (5 s at most).
wait_for() {
	for i in $(seq 500); do
		if [ -e "$1" ]; then
			return 0
		fi
		sleep 0.01
	done
	echo "timed out waiting for $1"
	return 1
}

# replace PATH: put a foreign file in PATH's place in one rename, so that PATH names either
# the file that was there or the foreign one, never nothing: an open of PATH at any moment
# meets one of the two (a move then a new file would leave it missing in between, and an
# open there fails with "No such file or directory" instead of meeting the foreign file).
replace() {
	echo "foreign, put in its place" >"$1.foreign"
	mv "$1.foreign" "$1"
}

# wait_open PID PATH: until process PID has the file PATH names open (10 s at most).
wait_open() {
	for i in $(seq 1000); do
		for fd in /proc/"$1"/fd/*; do
			if [ "$fd" -ef "$2" ]; then
				return 0
			fi
		done
		if ! alive "$1"; then
			echo "process $1 ended before it opened $2"
			return 1
		fi
		sleep 0.01
	done
	echo "timed out waiting for $1 to open $2"
	return 1
}

# alive PID: the process exists and is not a zombie.
alive() {
	[ -e /proc/"$1"/stat ] || return 1
	[ "$(sed 's/.*) \(.\).*/\1/' /proc/"$1"/stat 2>/dev/null)" != Z ]
}

# gone PID...: each has ended within 3 s.
gone() {
	for i in $(seq 300); do
		still=
		for p in "$@"; do
			if alive "$p"; then
				still="$still $p"
			fi
		done
		if [ -z "$still" ]; then
			return 0
		fi
		sleep 0.01
	done
	echo "still running:$still"
	ps -o pid,ppid,stat,args -p "$(echo $still | tr " " ,)" || true
	return 1
}

# workers_of PID: its child processes, once there are N of them (5 s at most).
workers_of() {
	for i in $(seq 500); do
		kids=$(cat /proc/"$1"/task/*/children 2>/dev/null || true)
		if [ "$(echo $kids | wc -w)" -ge "$2" ]; then
			echo $kids
			return 0
		fi
		sleep 0.01
	done
	echo "no $2 workers under $1" >&2
	return 1
}

mkdir -p outside
echo "foreign, outside" >outside/f
echo "foreign, outside" >outside/f0.dat

# Item 1: names iotrial would create, planted before it starts.

test_expect_success 'a worker file (.N) planted with iotrial'"'"'s name is neither adopted nor deleted' '
	mkdir t1
	printf "jobs:\n  - {name: w, workload: write, target: t1, threads: 2, file_size: 64KiB, block_size: 4KiB}\n" >t1.yaml
	rc=0
	planted t1.yaml t1.out "echo planted >t1/iotrial.w.dat.\$\$.1" || rc=$?
	cat t1.out.err
	expect_eq "$rc" 1
	expect_eq "$(cat t1/iotrial.w.dat.*.1)" planted
	grep "t1/iotrial\.w\.dat\.[0-9]*\.1.*exists.*iotrial did not create it" t1.out.err
	# What iotrial did create (worker 0'"'"'s file) is gone: only the planted file is left.
	expect_eq "$(ls t1)" "$(cd t1 && ls iotrial.w.dat.*.1)"
'

test_expect_success 'a planted symlink with a worker file'"'"'s name is not followed' '
	mkdir t2
	snap outside >t2.before
	printf "jobs:\n  - {name: w, workload: write, target: t2, threads: 2, file_size: 64KiB, block_size: 4KiB}\n" >t2.yaml
	rc=0
	planted t2.yaml t2.out "ln -s ../outside/f t2/iotrial.w.dat.\$\$.1" || rc=$?
	cat t2.out.err
	expect_eq "$rc" 1
	snap outside >t2.after
	diff t2.before t2.after
	test -L t2/iotrial.w.dat.*.1
	grep "t2/iotrial\.w\.dat\.[0-9]*\.1.*exists" t2.out.err
'

test_expect_success 'a copy destination planted with iotrial'"'"'s name is neither written nor deleted' '
	mkdir t3
	printf "jobs:\n  - {name: c, workload: copy, target: t3, file_size: 64KiB}\n" >t3.yaml
	rc=0
	planted t3.yaml t3.out "echo planted >t3/iotrial.c.dat.\$\$" || rc=$?
	cat t3.out.err
	expect_eq "$rc" 1
	expect_eq "$(cat t3/iotrial.c.dat.*)" planted
	grep "t3/iotrial\.c\.dat\.[0-9]*.*exists" t3.out.err
'

test_expect_success 'a shared copy destination (file_per_thread: false) planted is not adopted' '
	mkdir t4
	printf "jobs:\n  - {name: c, workload: copy, target: t4, threads: 2, file_per_thread: false, file_size: 64KiB}\n" >t4.yaml
	rc=0
	planted t4.yaml t4.out "echo planted >t4/iotrial.c.dat.\$\$" || rc=$?
	cat t4.out.err
	expect_eq "$rc" 1
	expect_eq "$(cat t4/iotrial.c.dat.*)" planted
'

test_expect_success 'a copytree destination planted with a symlink inside: not adopted, not followed' '
	mkdir t5
	snap outside >t5.before
	printf "jobs:\n  - {name: ct, workload: copytree, target: t5, file_size: 64KiB, tree_files: 4}\n" >t5.yaml
	rc=0
	planted t5.yaml t5.out "mkdir t5/iotrial.ct.copy.\$\$; ln -s ../../outside t5/iotrial.ct.copy.\$\$/d0" || rc=$?
	cat t5.out.err
	expect_eq "$rc" 1
	snap outside >t5.after
	diff t5.before t5.after
	test -L t5/iotrial.ct.copy.*/d0
	grep "cannot create the folder .t5/iotrial\.ct\.copy\.[0-9]*.: File exists (iotrial did not create it" t5.out.err
'

test_expect_success 'a scratch folder planted with a copytree source tree inside is not adopted' '
	printf "jobs:\n  - {name: ct, workload: copytree, file_size: 64KiB, tree_files: 4}\n" >t6.yaml
	rc=0
	planted t6.yaml t6.out "mkdir -p iotrial-scratch.\$\$/iotrial.ct.tree.\$\$/d0; echo planted >iotrial-scratch.\$\$/iotrial.ct.tree.\$\$/d0/f9.dat" || rc=$?
	cat t6.out.err
	expect_eq "$rc" 1
	expect_eq "$(cat iotrial-scratch.*/iotrial.ct.tree.*/d0/f9.dat)" planted
	expect_eq "$(find iotrial-scratch.* -type f | wc -l)" 1
	grep "cannot create the folder .[^ ]*/iotrial-scratch\.[0-9]*.: it exists and iotrial did not create it" t6.out.err
	rm -rf iotrial-scratch.*
'

test_expect_success 'a scratch folder planted as a symlink is not followed' '
	mkdir t7.elsewhere
	printf "jobs:\n  - {name: w, workload: write, file_size: 64KiB}\n" >t7.yaml
	rc=0
	planted t7.yaml t7.out "ln -s t7.elsewhere iotrial-scratch.\$\$" || rc=$?
	cat t7.out.err
	expect_eq "$rc" 1
	expect_eq "$(ls t7.elsewhere | wc -l)" 0
	test -L iotrial-scratch.*
	grep "cannot create the folder .[^ ]*/iotrial-scratch\.[0-9]*.: it exists and iotrial did not create it" t7.out.err
	rm -f iotrial-scratch.*
'

# Item 2: a symlink swapped in for the target folder while a trial runs. Each trial of the
# job lasts 1 s; the swap happens once the first trial has made its file, so the later
# trials (and the removal at the end) meet the symlink.

test_expect_success 'the target folder swapped for a symlink mid-run: no foreign file written or deleted' '
	mkdir t8 t8.evil
	printf "replication: {runs: 3}\njobs:\n  - {name: w, workload: write, target: t8, file_size: 256KiB, block_size: 4KiB, runtime: 1s}\n" >t8.yaml
	"$IOTRIAL" run -q t8.yaml -o t8.out 2>t8.err &
	pid=$!
	wait_for t8/iotrial.w.dat.$pid
	echo "foreign, planted where the symlink leads" >t8.evil/iotrial.w.dat.$pid
	snap t8.evil outside >t8.before
	mv t8 t8.real
	ln -s t8.evil t8
	rc=0
	wait $pid || rc=$?
	cat t8.err
	snap t8.evil outside >t8.after
	diff t8.before t8.after
	# iotrial went on with its own file, in the folder it held, and removed it there.
	expect_eq "$rc" 0
	expect_eq "$(jq "[.jobs[0].trials[] | select(.kept)] | length" t8.out/results.json)" 3
	expect_eq "$(ls t8.real | wc -l)" 0
'

test_expect_success 'a copy destination is removed only while it is iotrial'"'"'s own (swap mid-trial)' '
	mkdir t9 t9.evil
	printf "replication: {runs: 2}\njobs:\n  - {name: c, workload: copy, target: t9, file_size: 2MiB, buffer_size: 64KiB, rate: 2MB}\n" >t9.yaml
	"$IOTRIAL" run -q t9.yaml -o t9.out 2>t9.err &
	pid=$!
	wait_for t9/iotrial.c.dat.$pid
	echo "foreign, planted where the symlink leads" >t9.evil/iotrial.c.dat.$pid
	snap t9.evil outside >t9.before
	mv t9 t9.real
	ln -s t9.evil t9
	rc=0
	wait $pid || rc=$?
	cat t9.err
	snap t9.evil outside >t9.after
	diff t9.before t9.after
	expect_eq "$rc" 0
	expect_eq "$(ls t9.real | wc -l)" 0
'

test_expect_success 'a target folder swapped before its job starts is still the one held from the start' '
	mkdir t12 t12.first t12.evil
	printf "jobs:\n  - {name: a, workload: write, target: t12.first, file_size: 256KiB, block_size: 4KiB, runtime: 1s}\n  - {name: w, workload: write, target: t12, file_size: 256KiB, block_size: 4KiB}\n" >t12.yaml
	"$IOTRIAL" run -q t12.yaml -o t12.out 2>t12.err &
	pid=$!
	# Job a runs: the run has started, and job w has made nothing yet.
	wait_for t12.first/iotrial.a.dat.$pid
	echo "foreign, planted where the symlink leads" >t12.evil/iotrial.w.dat.$pid
	snap t12.evil outside >t12.before
	mv t12 t12.real
	ln -s t12.evil t12
	rc=0
	wait $pid || rc=$?
	cat t12.err
	snap t12.evil outside >t12.after
	diff t12.before t12.after
	expect_eq "$rc" 0
	expect_eq "$(jq .jobs[1].trials[0].kept t12.out/results.json)" true
	expect_eq "$(ls t12.real | wc -l)" 0
'

test_expect_success 'a file planted in a copy iotrial is making is left in place, and named' '
	mkdir t13
	printf "jobs:\n  - {name: w, workload: write, target: t13, file_size: 256KiB, block_size: 4KiB, runtime: 1s}\n  - {name: ld, workload: copytree, target: t13, file_size: 256KiB, tree_files: 4, background: true, with: w}\n" >t13.yaml
	"$IOTRIAL" run -q t13.yaml -o t13.out 2>t13.err &
	pid=$!
	wait_for t13/iotrial.ld.copy.$pid
	echo "foreign, planted in the copy" >t13/iotrial.ld.copy.$pid/planted
	rc=0
	wait $pid || rc=$?
	cat t13.err
	expect_eq "$(cat t13/iotrial.ld.copy.$pid/planted)" "foreign, planted in the copy"
	grep "left .t13/iotrial\.ld\.copy\.$pid. in place: .t13/iotrial\.ld\.copy\.$pid/planted. in it is not iotrial" t13.err
	# Everything else in it, iotrial made: gone.
	expect_eq "$(ls t13/iotrial.ld.copy.$pid)" planted
'

test_expect_success 'a file iotrial created and that was replaced mid-run fails the trial, named' '
	mkdir t10
	printf "replication: {runs: 3}\njobs:\n  - {name: w, workload: write, target: t10, file_size: 256KiB, block_size: 4KiB, runtime: 1s}\n" >t10.yaml
	"$IOTRIAL" run -q t10.yaml -o t10.out 2>t10.err &
	pid=$!
	wait_for t10/iotrial.w.dat.$pid
	replace t10/iotrial.w.dat.$pid
	rc=0
	wait $pid || rc=$?
	cat t10.err
	expect_eq "$rc" 1
	expect_eq "$(cat t10/iotrial.w.dat.$pid)" "foreign, put in its place"
	grep "t10/iotrial\.w\.dat\.$pid.*not the file iotrial created" t10.err
'

test_expect_success 'an existing target replaced mid-run (allow_overwrite) is not written' '
	mkdir t11
	head -c 262144 /dev/zero >t11/mine.dat
	printf "replication: {runs: 3}\njobs:\n  - {name: w, workload: write, target: t11/mine.dat, allow_overwrite: true, block_size: 4KiB, runtime: 1s}\n" >t11.yaml
	"$IOTRIAL" run -q t11.yaml -o t11.out 2>t11.err &
	pid=$!
	# Trial 0 runs: the run has taken the file as it was at the start. Swap it now.
	wait_open $pid t11/mine.dat
	replace t11/mine.dat
	rc=0
	wait $pid || rc=$?
	cat t11.err
	expect_eq "$rc" 1
	expect_eq "$(cat t11/mine.dat)" "foreign, put in its place"
	grep "t11/mine\.dat.*no longer the file it was when the run started" t11.err
'

# fifo_swap NAME FILE YAML: run YAML, and once trial 0 has begun, put a FIFO in FILE's place.
# The open of the next trial must not wait for the FIFO's other end (no signal would end
# it): the run ends within 20 s, exit 1, the FIFO named and left in place.
fifo_swap() {
	printf "$3" >"$1.yaml"
	"$IOTRIAL" run -q "$1.yaml" -o "$1.out" 2>"$1.err" &
	pid=$!
	(
		sleep 20
		kill -KILL $pid
	) 2>/dev/null &
	watch=$!
	wait_for "${2/PID/$pid}"
	sleep 0.3
	mv "${2/PID/$pid}" "$1.moved"
	mkfifo "${2/PID/$pid}"
	rc=0
	wait $pid || rc=$?
	kill $watch 2>/dev/null || true
	cat "$1.err"
	expect_eq "$rc" 1
	test -p "${2/PID/$pid}"
	grep -F "${2/PID/$pid}" "$1.err" | grep -E "not the file iotrial created|no longer a file or a block device"
}

# The target "t12f/" (a folder written with its slash): the message names the file with one
# slash before its name, as fifo_swap greps it.
test_expect_success 'a FIFO put in place of a file iotrial created: the run does not hang' '
	mkdir t12f
	fifo_swap t12f t12f/iotrial.r.dat.PID "replication: {runs: 3}\njobs:\n  - {name: r, workload: read, target: t12f/, file_size: 64KiB, block_size: 4KiB, runtime: 1s}\n"
'

test_expect_success 'a FIFO put in place of an existing file read: the run does not hang' '
	mkdir t12g
	head -c 65536 /dev/zero >t12g/in.dat
	fifo_swap t12g t12g/in.dat "replication: {runs: 3}\njobs:\n  - {name: r, workload: read, target: t12g/in.dat, block_size: 4KiB, runtime: 1s}\n"
'

test_expect_success 'a FIFO put in place of an existing file written (allow_overwrite): not opened, no hang' '
	mkdir t12h
	head -c 65536 /dev/zero >t12h/out.dat
	fifo_swap t12h t12h/out.dat "replication: {runs: 3}\njobs:\n  - {name: w, workload: write, target: t12h/out.dat, allow_overwrite: true, block_size: 4KiB, runtime: 1s}\n"
'

# Item 3: a loop device and its image file behind a mounted file system.
loop_ok=
if command -v losetup >/dev/null 2>&1 && command -v mkfs.ext4 >/dev/null 2>&1; then
	truncate -s 8M fs.img
	mkdir -p mnt
	if mkfs.ext4 -q -F fs.img >/dev/null 2>&1 && L0=$(losetup -f --show fs.img 2>/dev/null); then
		trap 'umount "$TRASH/mnt" 2>/dev/null; losetup -d $L0 ${L1:-} 2>/dev/null' EXIT
		if mount -o ro "$L0" mnt 2>/dev/null && L1=$(losetup -f --show fs.img 2>/dev/null); then
			loop_ok=1
		fi
	fi
fi
if [ -n "$loop_ok" ]; then
	export L0 L1
	test_expect_success 'a second loop device on a mounted image is refused, even with --force' '
		sha256sum fs.img >l1.before
		printf "jobs:\n  - {name: w, workload: write, target: \"\${L1}\", file_size: 1MiB, block_size: 64KiB}\n" >l1.yaml
		rc=0
		"$IOTRIAL" run -q l1.yaml -o l1.out --force 2>l1.err || rc=$?
		cat l1.err
		expect_eq "$rc" 1
		grep "$L1.*$L0.*mounted (on .*mnt).*refusing to write" l1.err
		sha256sum fs.img >l1.after
		diff l1.before l1.after
	'
	test_expect_success 'the image file of a mounted loop device is refused, even with --force' '
		sha256sum fs.img >l2.before
		printf "jobs:\n  - {name: w, workload: write, target: fs.img, file_size: 1MiB, block_size: 64KiB}\n" >l2.yaml
		rc=0
		"$IOTRIAL" run -q l2.yaml -o l2.out --force 2>l2.err || rc=$?
		cat l2.err
		expect_eq "$rc" 1
		grep "fs.img.*backing file of $L0.*mounted (on .*mnt).*refusing to write" l2.err
		sha256sum fs.img >l2.after
		diff l2.before l2.after
	'
	test_expect_success 'an unmounted loop device is still written with --force' '
		umount mnt
		printf "jobs:\n  - {name: w, workload: write, target: \"\${L1}\", file_size: 1MiB, block_size: 64KiB}\n" >l3.yaml
		"$IOTRIAL" run -q l3.yaml -o l3.out --force
		expect_eq "$(jq .jobs[0].trials[0].bytes l3.out/results.json)" 1048576
	'
	umount mnt 2>/dev/null || true
	losetup -d "$L0" "$L1"
	trap - EXIT
else
	test_skip 'a second loop device on a mounted image is refused' 'losetup, mkfs.ext4 or mount does not work here'
	test_skip 'the image file of a mounted loop device is refused' 'losetup, mkfs.ext4 or mount does not work here'
	test_skip 'an unmounted loop device is still written with --force' 'losetup, mkfs.ext4 or mount does not work here'
fi

# Item 8: worker processes never outlive iotrial.
printf "jobs:\n  - {name: p, workload: write, target: p, worker_mode: process, threads: 2, file_size: 1MiB, block_size: 4KiB, runtime: 30s}\n" >p.yaml
mkdir p

test_expect_success 'SIGKILL of iotrial ends its worker processes' '
	"$IOTRIAL" run -q p.yaml -o k.out 2>k.err &
	pid=$!
	w=$(workers_of $pid 2)
	trap "kill -9 $w 2>/dev/null || true" EXIT
	# Past their start barrier: writing (or, for slow.yaml, in their first I/O).
	sleep 0.5
	kill -9 $pid
	gone $w
	rm -f p/*
'

# Workers that cannot stop at once: each I/O first sleeps 20 s (the fault backend).
printf "jobs:\n  - {name: p, workload: write, backend: fault, fault_delay: 20s, target: p, worker_mode: process, threads: 2, file_size: 1MiB, block_size: 4KiB, runtime: 30s}\n" >slow.yaml

test_expect_success 'a double SIGINT ends the worker processes at once' '
	"$IOTRIAL" run -q slow.yaml -o i2.out 2>i2.err &
	pid=$!
	w=$(workers_of $pid 2)
	trap "kill -9 $w 2>/dev/null || true" EXIT
	# Past their start barrier: writing (or, for slow.yaml, in their first I/O).
	sleep 0.5
	kill -INT $pid
	# Two signals sent at once may merge into one: the second comes once the first is seen.
	sleep 0.3
	kill -INT $pid
	rc=0
	wait $pid || rc=$?
	expect_eq "$rc" 130
	gone $w
	rm -f p/*
'

# The shell of a command job gets the signal; "exec" makes the command that shell.
test_expect_success 'SIGKILL of iotrial ends a command job'"'"'s shell' '
	printf "jobs:\n  - {name: cmd, workload: command, command: \"exec sleep 30\"}\n" >cmd.yaml
	"$IOTRIAL" run -q cmd.yaml -o cmd.out 2>cmd.err &
	pid=$!
	w=$(workers_of $pid 1)
	trap "kill -9 $w 2>/dev/null || true" EXIT
	kill -9 $pid
	gone $w
'

test_expect_success 'one SIGINT stops worker processes within seconds, results written' '
	"$IOTRIAL" run -q p.yaml -o i1.out 2>i1.err &
	pid=$!
	w=$(workers_of $pid 2)
	trap "kill -9 $w 2>/dev/null || true" EXIT
	# Past their start barrier: writing (or, for slow.yaml, in their first I/O).
	sleep 0.5
	kill -INT $pid
	gone $w
	rc=0
	wait $pid || rc=$?
	expect_eq "$rc" 130
	expect_eq "$(jq .complete i1.out/results.json)" false
	expect_eq "$(ls p | wc -l)" 0
'

test_done
