#!/bin/bash
# The soak test (opt-in: make soak): SOAK_RUNS (default 1000) runs interrupted at a random
# moment by SIGINT, SIGTERM, SIGKILL or a double SIGINT, each a random mix of write,
# randwrite, copy, copytree, read and background load, with threads and worker_mode:
# process, on a random backend that works here, with record logs. The target folders hold
# foreign files: regular files, symlinks to files outside, and files with iotrial's own
# names (other runs', and this run's where it would collide); some runs also find this run's
# scratch folder planted, or their target folder swapped for a symlink while they run.
# After each run: every foreign file is byte-identical (type, link target, checksum),
# nothing new exists outside iotrial's own names (and those only after a SIGKILL or a double
# SIGINT, which skip the clean-up), results.json parses, no process of the run is left, and
# the exit status is one DESIGN.md names (or 137: killed). SOAK_SEED repeats a soak; SOAK_SECONDS
# stops early. Prints the figures and "soak: 1 passed, 0 failed" (or the failures).
set -u
cd "$(dirname "$0")/.." || exit 2
IOTRIAL=${IOTRIAL:-$PWD/iotrial}
EXE=$(readlink -f "$IOTRIAL")
RUNS_WANTED=${SOAK_RUNS:-1000}
SECONDS_MAX=${SOAK_SECONDS:-0}
SEED=${SOAK_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
RANDOM=$SEED
DIR=$(mktemp -d "${TMPDIR:-/var/tmp}/iotrial-soak.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
cd "$DIR" || exit 2
export TMPDIR=$DIR
backends=$("$IOTRIAL" backends | awk 'NR > 1 && $2 == "yes" {print $1}' | grep -v -e synthetic -e fault)
read -r -a bes <<<"$(echo $backends)"
runs=0 interrupted=0 late=0 checked=0 leftovers=0 swaps=0 collisions=0 failures=0
declare -A by_signal=([INT]=0 [TERM]=0 [KILL]=0 [INT2]=0)
start=$(date +%s)

fail() {
	failures=$((failures + 1))
	echo "run $runs ($be, $kind): $*"
}

pick() { # N -> R, a number in 0..N-1 (no subshell: one generator, so SOAK_SEED repeats a soak)
	R=$((RANDOM % $1))
}

# The foreign files, kept from run to run: two target folders, and the places their
# symlinks lead to (which nothing may touch).
mkdir -p T1 T2 outside evil run
head -c 100000 /dev/urandom >outside/secret
echo "outside, reached by a symlink" >outside/secret2
for t in T1 T2; do
	head -c 50000 /dev/urandom >$t/keep.dat
	ln -s ../outside/secret $t/link-out
	ln -s ../outside/secret2 $t/iotrial.w.dat.1
	echo "another run's file" >$t/iotrial.c.dat.1
	mkdir -p $t/iotrial.ct.copy.1/d0
	echo "another run's tree" >$t/iotrial.ct.copy.1/d0/f0.dat
done
mkdir -p iotrial-scratch.1
echo "another run's scratch" >iotrial-scratch.1/iotrial.r.dat.1

# Everything but this run's own folder: path, type, link target, then every file's
# checksum. A foreign file changed, gone or retyped is a line of the first listing missing
# from the second.
snap() {
	find "$DIR" -path "$DIR/run" -prune -o -printf '%p %y %l\n' | sort
	find "$DIR" -path "$DIR/run" -prune -o -type f -print0 | xargs -0 -r sha256sum | sort
}

job() { # backend -> a job file of some of the workloads, at random
	local be=$1 depth=1 direct=false n=0 mode=(thread process) fpt=(true false)
	case "$be" in io_uring | libaio | null) pick 8; depth=$((1 + R)) ;; esac
	pick 4; [ "$be" != null ] && [ $R -eq 0 ] && direct=true
	pick 2
	echo "experiment: soak"
	echo "replication: {runs: $((2 + R)), order: random}"
	echo "defaults: {backend: $be, iodepth: $depth, direct: $direct, block_size: 64KiB, log: {records: true, interval: 50ms}}"
	echo "jobs:"
	pick 3
	if [ $R -ne 0 ]; then
		pick 4; local size=$((1 + R)); pick 3; local t=$((1 + R)); pick 2; local f=${fpt[$R]}; pick 2
		echo "  - {name: w, workload: write, target: T1, file_size: ${size}MiB, threads: $t, file_per_thread: $f, worker_mode: ${mode[$R]}, sync: fsync_end}"
		n=$((n + 1))
	fi
	pick 2
	if [ $R -eq 0 ]; then
		pick 2; local t=$((1 + R)); pick 2
		echo "  - {name: rw, workload: randwrite, target: T2, file_size: 2MiB, block_size: 4KiB, runtime: 200ms, threads: $t, worker_mode: ${mode[$R]}}"
		n=$((n + 1))
	fi
	pick 3
	if [ $R -ne 0 ]; then
		pick 4; local size=$((1 + R)); pick 2; local t=$((1 + R)); pick 2; local f=${fpt[$R]}; pick 2
		echo "  - {name: c, workload: copy, target: T2, file_size: ${size}MiB, buffer_size: 64KiB, threads: $t, file_per_thread: $f, worker_mode: ${mode[$R]}}"
		n=$((n + 1))
	fi
	pick 2
	if [ $R -eq 0 ]; then
		pick 12; local files=$((4 + R)); pick 2; local t=$((1 + R)); pick 2
		echo "  - {name: ct, workload: copytree, target: T1, backend: sync, direct: false, iodepth: 1, file_size: 1MiB, tree_files: $files, threads: $t, worker_mode: ${mode[$R]}}"
		n=$((n + 1))
	fi
	pick 2
	if [ $R -eq 0 ] || [ $n -eq 0 ]; then
		pick 2
		echo "  - {name: r, workload: randread, file_size: 4MiB, block_size: 4KiB, runtime: 200ms, threads: 2, file_per_thread: false, worker_mode: ${mode[$R]}}"
		echo "  - {name: load, workload: copytree, backend: sync, direct: false, iodepth: 1, target: T2, file_size: 2MiB, tree_files: 8, background: true, with: r}"
	fi
}

# What this run plants with its own pid ($$ in the shell that becomes iotrial), in sh.
plants() {
	# Always: names iotrial would use, but never for these jobs (a worker index past any
	# thread count): they must survive the clean-up.
	echo 'echo planted >T1/iotrial.w.dat.$$.9; ln -s ../outside/secret T2/iotrial.c.dat.$$.9'
	# Sometimes: the very names this run needs (the trial meeting one fails, and leaves it).
	pick 5
	if [ $R -eq 0 ]; then
		echo 'echo planted >T1/iotrial.w.dat.$$.1'
		collisions=$((collisions + 1))
	fi
	pick 5
	if [ $R -eq 0 ]; then
		echo 'ln -s ../outside/secret2 T2/iotrial.c.dat.$$; ln -s ../outside/secret2 T2/iotrial.c.dat.$$.0'
		collisions=$((collisions + 1))
	fi
	pick 5
	if [ $R -eq 0 ]; then
		echo 'for d in T1/iotrial.ct.copy.$$ T1/iotrial.ct.copy.$$.0; do mkdir $d; ln -s ../../outside $d/d0; done'
		collisions=$((collisions + 1))
	fi
	pick 8
	if [ $R -eq 0 ]; then
		echo 'mkdir iotrial-scratch.$$; echo planted >iotrial-scratch.$$/iotrial.r.dat.$$'
		collisions=$((collisions + 1))
	fi
	# The folder a swap will send T1 to, with files named as iotrial's would be in T1.
	echo 'for f in iotrial.w.dat.$$ iotrial.w.dat.$$.0 iotrial.w.dat.$$.1 iotrial.ct.copy.$$; do echo "not yours" >evil/$f; done'
}

# The processes of this soak's runs: iotrial, working in this soak's folder (the soak's own
# shell works there too, but is not iotrial).
ours() {
	local p
	for p in /proc/[0-9]*; do
		if [ "$(readlink $p/cwd 2>/dev/null)" = "$DIR" ] && [ "$(readlink $p/exe 2>/dev/null)" = "$EXE" ]; then
			echo -n "${p#/proc/} "
		fi
	done
}

# Is `path` one of iotrial's own names for run `pid`, in a place it makes files?
iotrials() {
	case "$1" in
	"$DIR"/T[12]/iotrial.*."$2" | "$DIR"/T[12]/iotrial.*."$2".[0-9]* | "$DIR"/T[12]/iotrial.*."$2"/* | \
		"$DIR"/T[12]/iotrial.*."$2".[0-9]*/* | "$DIR"/T[12]/.iotrial-direct-probe."$2" | \
		"$DIR"/iotrial-scratch."$2" | "$DIR"/iotrial-scratch."$2"/*) return 0 ;;
	esac
	return 1
}

while [ $interrupted -lt "$RUNS_WANTED" ]; do
	if [ "$SECONDS_MAX" -gt 0 ] && [ $(($(date +%s) - start)) -ge "$SECONDS_MAX" ]; then
		break
	fi
	runs=$((runs + 1))
	pick ${#bes[@]}
	be=${bes[$R]}
	kinds=(INT TERM KILL INT2)
	pick 4
	kind=${kinds[$R]}
	job "$be" >run/job.yaml
	plants >run/plant.sh
	plant=$(cat run/plant.sh)
	# The shell plants, stops itself so the listing is taken, then becomes iotrial.
	sh -c "$plant"'
		kill -STOP $$
		exec "$0" run -q run/job.yaml -o run/out' "$IOTRIAL" 2>run/err &
	pid=$!
	for i in $(seq 500); do
		[ "$(sed 's/.*) \(.\).*/\1/' /proc/$pid/stat 2>/dev/null)" = T ] && break
		sleep 0.01
	done
	snap >run/before
	kill -CONT $pid
	# A random moment within the first second; a quarter of the runs also see T1
	# replaced by a symlink to evil/ before it, once the run holds its folders (it makes
	# records/ just before: a symlink in place at the start is the user's own).
	pick 800
	delay=$R swap=-1
	pick 4
	if [ $R -eq 0 ] && [ $delay -ge 50 ]; then
		pick 100
		swap=$((50 + (delay - 50) * R / 100))
	fi
	if [ "$swap" -ge 0 ]; then
		for i in $(seq 300); do
			[ -d run/out/records ] && break
			kill -0 $pid 2>/dev/null || break
			sleep 0.01
		done
		sleep "$(printf '%d.%03d' $((swap / 1000)) $((swap % 1000)))"
		mv T1 T1.moved
		ln -s evil T1
		swaps=$((swaps + 1))
		delay=$((delay - swap))
	fi
	sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
	sig=${kind%2}
	if kill -"$sig" $pid 2>/dev/null; then
		interrupted=$((interrupted + 1))
		by_signal[$kind]=$((by_signal[$kind] + 1))
		if [ "$kind" = INT2 ]; then
			sleep 0.05
			kill -INT $pid 2>/dev/null
		fi
	else
		late=$((late + 1))
		kind="none (ended first)"
	fi
	wait $pid 2>/dev/null
	rc=$?
	if [ "$swap" -ge 0 ]; then
		if [ -L T1 ] && [ "$(readlink T1)" = evil ]; then
			rm T1
		else
			fail "the symlink swapped in for T1 was removed or changed"
			rm -rf T1
		fi
		mv T1.moved T1
	fi
	case $rc in
	0 | 1 | 130 | 143 | 137) ;;
	*) fail "exit status $rc: $(tail -n 3 run/err | tr '\n' ' ')" ;;
	esac
	if [ -e run/out/results.json ] && ! jq -e .schema run/out/results.json >/dev/null 2>&1; then
		fail "results.json does not parse"
	fi
	# No process of the run is left (worker processes may take a moment to get their
	# parent-death signal).
	for i in $(seq 200); do
		left=$(ours)
		[ -z "$left" ] && break
		sleep 0.01
	done
	if [ -n "$left" ]; then
		fail "processes left running: $left"
		kill -KILL $left 2>/dev/null
	fi
	snap >run/after
	checked=$((checked + $(grep -c -v '^[0-9a-f]\{64\} ' run/before)))
	comm -23 run/before run/after >run/lost
	if [ -s run/lost ]; then
		fail "foreign files changed or gone: $(head -n 5 run/lost | tr '\n' ';')"
	fi
	comm -13 run/before run/after | grep -v '^[0-9a-f]\{64\} ' | cut -d' ' -f1 >run/new
	while read -r p; do
		if iotrials "$p" $pid && { [ "$kind" = KILL ] || [ "$kind" = INT2 ]; }; then
			leftovers=$((leftovers + 1))
		else
			fail "new file outside iotrial's own after its clean-up: $p"
		fi
	done <run/new
	# Clean up for the next run: this run's files (its plants, a killed run's leftovers),
	# and whatever a failure left.
	find "$DIR" -path "$DIR/run" -prune -o -name "*.$pid" -print -o -name "*.$pid.[0-9]*" -print |
		sort -r | xargs -r rm -rf
	rm -rf run/* evil/*
done
elapsed=$(($(date +%s) - start))
echo "soak: seed $SEED; $runs runs in $elapsed s on: ${bes[*]}"
echo "soak: $interrupted interrupted (SIGINT ${by_signal[INT]}, SIGTERM ${by_signal[TERM]}, SIGKILL ${by_signal[KILL]}, double SIGINT ${by_signal[INT2]}), $late ended before their signal"
echo "soak: $checked foreign files and folders checked, $collisions planted name collisions, $swaps target folder swaps, $leftovers leftovers of killed runs removed; $failures failures"
if [ $failures -eq 0 ]; then
	echo "soak: 1 passed, 0 failed"
else
	echo "soak: 0 passed, 1 failed"
fi
[ $failures -eq 0 ]
