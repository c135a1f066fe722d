#!/bin/bash
# Reliability and safety: faults are counted and named, interrupts keep what was measured,
# a kill leaves no truncated results.json, nothing is written where it does not belong,
# and a plan too big for the machine is refused before it starts.
. "$(dirname "$0")/lib.sh"
need_cmd jq

test_expect_success 'a short transfer is retried to completion' '
	printf "jobs:\n  - {name: s, workload: write, backend: fault, fault_short: true, file_size: 1MiB, block_size: 64KiB, verify: true}\n" >s.yaml
	"$IOTRIAL" run -q s.yaml -o s
	expect_eq "$(jq .jobs[0].trials[0].bytes s/results.json)" 1048576
	expect_eq "$(jq .jobs[0].trials[0].errors s/results.json)" 0
'

cat >eio.yaml <<'JOB'
replication: {runs: 2}
defaults: {backend: fault, file_size: 1MiB, block_size: 64KiB}
jobs:
  - {name: bad, workload: read, fault_eio_offset: 300000}
  - {name: good, workload: read}
JOB

test_expect_success 'EIO is counted, named by path and offset, and the run goes on' '
	rc=0
	"$IOTRIAL" run -q eio.yaml -o eio 2>err || rc=$?
	expect_eq "$rc" 1
	expect_eq "$(jq "[.jobs[0].trials[] | .failed] | all" eio/results.json)" true
	expect_eq "$(jq "[.jobs[0].trials[] | .errors] | add" eio/results.json)" 2
	expect_eq "$(jq -c "[.jobs[1].trials[] | .kept]" eio/results.json)" "[true,true]"
	expect_eq "$(jq .complete eio/results.json)" true
	grep -q "read .*iotrial.bad.dat.* at offset 262144 (65536 bytes): Input/output error" err
	expect_eq "$(jq -r "[.jobs[0].trials[].error] | unique[]" eio/results.json | sed "s/.* at offset/at offset/")" \
		"at offset 262144 (65536 bytes): Input/output error"
	check_results eio/results.json
'

test_expect_success 'on_error: stop ends the run at the first failure and says so' '
	rc=0
	"$IOTRIAL" run -q eio.yaml -o stop --set on_error=stop 2>err || rc=$?
	expect_eq "$rc" 1
	expect_eq "$(jq .complete stop/results.json)" false
	expect_eq "$(jq "[.jobs[].trials[]] | length" stop/results.json)" 1
	grep -q "on_error: stop" err
'

test_expect_success 'ENOSPC stops the trial, says the disk is full and how much was written' '
	printf "jobs:\n  - {name: f, workload: write, backend: fault, file_size: 1MiB, block_size: 64KiB, fault_enospc_after: 512KiB}\n" >full.yaml
	rc=0
	"$IOTRIAL" run -q full.yaml -o full 2>err || rc=$?
	expect_eq "$rc" 1
	grep -q "the disk is full; 524288 bytes were written" err
	expect_eq "$(jq .jobs[0].trials[0].bytes full/results.json)" 524288
'

# A disk that fills after planning: the layout of a file to read fails. The file half laid
# out is removed, so the next trial lays it out again and fails for the same reason, named,
# instead of reading a short file ("unexpected end of file").
if [ "$(id -u)" = 0 ] && mkdir -p fillfs && mount -t tmpfs -o size=1m tmpfs fillfs 2>/dev/null; then
	test_expect_success 'a layout that met a full disk is made again by the next trial, never read short' '
		printf "replication: {runs: 2}\njobs:\n  - {name: fill, workload: command, command: \"head -c 2M /dev/zero >fillfs/filler 2>/dev/null; true\"}\n  - {name: r, workload: read, target: fillfs, file_size: 512KiB, block_size: 64KiB}\n" >fill.yaml
		rc=0
		"$IOTRIAL" run -q fill.yaml -o fill 2>err || rc=$?
		cat err
		expect_eq "$rc" 1
		jq -r ".jobs[1].trials[].error" fill/results.json >errors
		expect_eq "$(grep -c "^laying out .*No space left on device" errors)" 2
		expect_eq "$(ls fillfs)" filler
	'
	umount fillfs
else
	test_skip 'a layout that met a full disk is made again by the next trial, never read short' 'needs root to mount a small tmpfs'
fi

# A run long enough to interrupt: 60 trials of 300 ms (18 s; every test stops it sooner).
printf "replication: {runs: 60}\njobs:\n  - {name: long, workload: read, file_size: 4MiB, block_size: 4KiB, runtime: 300ms}\n" >long.yaml

# Wait up to 20 s for file $1 to exist and hold a line matching $2 (any line when empty).
wait_for() {
	for i in $(seq 200); do
		if grep -q -- "${2:-}" "$1" 2>/dev/null; then return 0; fi
		sleep 0.1
	done
	echo "waited 20 s for ${2:+\"$2\" in }$1"
	return 1
}

# interrupt SIGNAL FOLDER: start the long run, send SIGNAL once two trials are done (the
# progress lines say so), and set rc to its exit status; FOLDER.ms gets how long it took to
# exit. kill fails, and so the test, if the run is no longer there to be signalled.
interrupt() {
	"$IOTRIAL" run -q long.yaml -o "$2" --progress always 2>"$2.err" &
	pid=$!
	wait_for "$2.err" "^\[2/60\] long trial 1: "
	kill -"$1" $pid
	start=$(date +%s%N)
	rc=0
	wait $pid || rc=$?
	echo "$(( ($(date +%s%N) - start) / 1000000 ))" >"$2.ms"
}

test_expect_success 'SIGINT: exit 130 within seconds, results written with complete false' '
	interrupt INT int
	expect_eq "$rc" 130
	# Workers stop within a trial (0.3 s); the exit also writes and syncs three result
	# files, and an fsync waits for what other processes left dirty on the disk: seconds on
	# a slow or busy one. Allow 8 s for all of it, under half of what the 58 trials left
	# would take (17 s) had the run gone on.
	echo "exited $(cat int.ms) ms after SIGINT"
	[ "$(cat int.ms)" -lt 8000 ]
	expect_eq "$(jq .complete int/results.json)" false
	jq -e "[.jobs[0].trials[] | select(.kept)] | length >= 2" int/results.json
	# A trial cut short (none when the signal came between two) is marked interrupted.
	expect_eq "$(jq -c "[.jobs[0].trials[] | select(.kept | not) | .error] - [\"interrupted\"]" int/results.json)" "[]"
	check_results int/results.json
	test -s int/trials.csv
	test -s int/summary.txt
	# The run had its file in a scratch folder here, and removed it.
	jq -r ".env.targets[].path" int/results.json >target
	grep "^$TRASH/iotrial-scratch\.[0-9]*$" target
	expect_eq "$(ls -d iotrial-scratch.* 2>/dev/null | wc -l)" 0
'

test_expect_success 'SIGTERM: exit 143, results written' '
	interrupt TERM term
	expect_eq "$rc" 143
	expect_eq "$(jq .complete term/results.json)" false
	jq -e "[.jobs[0].trials[] | select(.kept)] | length >= 2" term/results.json
'

# A terminal or ssh session that closes sends SIGHUP: a stop like SIGTERM's, not a death
# that leaves the scratch file and no results.
test_expect_success 'SIGHUP: exit 129, results written, the scratch file removed' '
	interrupt HUP hup
	expect_eq "$rc" 129
	expect_eq "$(jq .complete hup/results.json)" false
	jq -e "[.jobs[0].trials[] | select(.kept)] | length >= 2" hup/results.json
	expect_eq "$(ls -d iotrial-scratch.* 2>/dev/null | wc -l)" 0
'

# ulimit -f: a write past it fails with EFBIG, named like any write error, instead of
# SIGXFSZ killing iotrial with its data file left behind (exit 153).
test_expect_success 'a file-size limit (ulimit -f): the trial fails, named, exit 1; nothing left' '
	mkdir -p fsz
	printf "experiment: fsz\nreplication: {runs: 1}\njobs:\n  - {name: w, workload: write, target: $TRASH/fsz/, file_size: 4MiB, block_size: 64KiB}\n" >fsz.yaml
	rc=0
	sh -c "ulimit -f 2048; exec \"\$0\" run -q fsz.yaml -o fsz.res 2>fsz.err" "$IOTRIAL" || rc=$?
	cat fsz.err
	expect_eq "$rc" 1
	grep "^job .w. trial 0: cannot allocate 4194304 bytes for .$TRASH/fsz/iotrial.w.dat.[0-9]*.: File too large$" fsz.err
	expect_eq "$(ls -A fsz)" ""
	jq -e ".jobs[0].trials[0].failed" fsz.res/results.json
'

test_expect_success 'SIGKILL mid-run leaves the last checkpoint, never a truncated results.json' '
	"$IOTRIAL" run -q long.yaml -o kill 2>/dev/null &
	pid=$!
	# A checkpoint is written after 5 s; kill the run once it is there (kill fails, and so
	# the test, if the run already ended).
	wait_for kill/results.json
	kill -9 $pid
	rc=0
	wait $pid || rc=$?
	expect_eq "$rc" 137
	jq -e ".complete == false" kill/results.json
	jq -e "[.jobs[0].trials[] | select(.kept)] | length >= 1" kill/results.json
	for f in kill/*; do case "$f" in *.json) jq . "$f" >/dev/null;; esac; done
	rm -rf iotrial-scratch.*
'

test_expect_success 'an existing file reached through ${VAR} is refused like any other' '
	echo precious >keep.dat
	export MYFILE="$PWD/keep.dat"
	printf "jobs:\n  - {name: w, workload: write, target: \"\${MYFILE}\", file_size: 4KiB}\n" >var.yaml
	rc=0
	"$IOTRIAL" run -q var.yaml -o var 2>err || rc=$?
	expect_eq "$rc" 1
	grep -q "refusing to write over it" err
	expect_eq "$(cat keep.dat)" precious
	"$IOTRIAL" run -q var.yaml -o var2 --force 2>err
	expect_eq "$(jq .overrides.allow_overwrite var2/results.json)" "\"true\""
	expect_eq "$(jq .jobs[0].trials[0].bytes var2/results.json)" 4096
	not grep -q precious keep.dat
'

if command -v chattr >/dev/null 2>&1 && head -c 65536 /dev/urandom >ro.dat && chattr +i ro.dat 2>/dev/null; then
	test_expect_success 'a read-only job never opens its target for writing' '
		printf "jobs:\n  - {name: r, workload: read, target: ro.dat, block_size: 4KiB}\n" >r.yaml
		"$IOTRIAL" run -q r.yaml -o rd
		expect_eq "$(jq .jobs[0].trials[0].bytes rd/results.json)" 65536
	'
	chattr -i ro.dat
else
	test_skip 'a read-only job never opens its target for writing' 'needs chattr +i (root on ext4)'
fi

if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null 2>&1 && truncate -s 32M loop.img &&
	dev=$(losetup -f --show loop.img 2>/dev/null); then
	test_expect_success 'a block device is not written without allow_overwrite or --force' '
		printf "jobs:\n  - {name: w, workload: write, target: $dev, file_size: 1MiB, block_size: 64KiB}\n" >b.yaml
		rc=0
		"$IOTRIAL" run -q b.yaml -o b 2>err || rc=$?
		expect_eq "$rc" 1
		grep -q "refusing to write over it" err
		"$IOTRIAL" run -q b.yaml -o b2 --force
		expect_eq "$(jq .jobs[0].trials[0].bytes b2/results.json)" 1048576
	'
	if command -v mkfs.ext4 >/dev/null 2>&1 && mkfs.ext4 -q "$dev" 2>/dev/null && mkdir -p mnt &&
		mount "$dev" mnt 2>/dev/null; then
		test_expect_success 'a mounted block device is refused for writes, even with --force' '
			rc=0
			"$IOTRIAL" run -q b.yaml -o b3 --force 2>err || rc=$?
			expect_eq "$rc" 1
			grep -q "is mounted (on .*mnt): refusing to write to it" err
		'
		umount mnt
	else
		test_skip 'a mounted block device is refused for writes' 'cannot mkfs or mount a loop device here'
	fi
	losetup -d "$dev"
else
	test_skip 'block device refusals' 'needs root and a free loop device'
fi

"$IOTRIAL" backends >backends.txt
# io_uring_setup is refused for this one command by a seccomp filter (tests/t/t0010-no-uring.c),
# not for the machine by kernel.io_uring_disabled: that switched io_uring off under every other
# run going at the time, and their io_uring trials failed with EPERM.
if grep "^io_uring *yes" backends.txt >/dev/null && cc -o "$TRASH/no-uring" "$SRC/tests/t/t0010-no-uring.c"; then
	test_expect_success 'a backend the kernel refuses is named before any I/O, exit 1' '
		printf "jobs:\n  - {name: u, workload: read, backend: io_uring, file_size: 1MiB}\n" >u.yaml
		rc=0
		"$TRASH/no-uring" "$IOTRIAL" run -q u.yaml -o u 2>err || rc=$?
		expect_eq "$rc" 1
		grep -q "io_uring. does not work on this machine: io_uring_setup: Operation not permitted" err
		test ! -e u
	'
else
	test_skip 'a backend the kernel refuses is named before any I/O' 'needs io_uring and a C compiler'
fi

if can_be_nobody; then
	test_expect_success 'an existing target the user may not write is refused when planning, exit 1' '
		mkdir perm
		echo old >perm/ro.bin
		echo old >perm/rw.bin
		chmod 444 perm/ro.bin
		chown 65534:65534 perm perm/ro.bin perm/rw.bin
		cd perm
		printf "jobs:\n  - {name: w, workload: write, target: ro.bin, file_size: 4KiB, allow_overwrite: true}\n" >ro.yaml
		sed s/ro.bin/rw.bin/ ro.yaml >rw.yaml
		as_nobody=$AS_NOBODY
		$as_nobody "$IOTRIAL" validate rw.yaml >so
		for cmd in validate "run -q -o out"; do
			rc=0
			$as_nobody "$IOTRIAL" $cmd ro.yaml >so 2>err || rc=$?
			expect_eq "$rc" 1 "$cmd"
			expect_eq "$(cat err)" "ro.yaml:2:40: key '"'"'target'"'"': cannot write to '"'"'ro.bin'"'"': Permission denied"
		done
		test ! -e out
		expect_eq "$(cat ro.bin)" old
	'
else
	test_skip 'an existing target the user may not write is refused when planning' 'needs root and setpriv'
fi

test_expect_success 'a plan too big for memory is refused with its estimate; absurd counts too' '
	printf "jobs:\n  - {name: m, workload: read, backend: null, block_size: 1GiB, file_size: 4GiB, iodepth: 4096}\n" >mem.yaml
	rc=0
	"$IOTRIAL" validate mem.yaml 2>err || rc=$?
	expect_eq "$rc" 1
	grep -q "the plan needs about 4096.0 GiB of memory" err
	printf "replication: {runs: 2000000000}\njobs:\n  - {name: a, workload: read}\n" >runs.yaml
	rc=0
	"$IOTRIAL" validate runs.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "must be between 1 and 1000000" err
'

test_done
