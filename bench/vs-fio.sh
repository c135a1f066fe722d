#!/bin/sh
# iotrial against fio, pair by pair, on the same workloads on the same machine in one run.
# Each pair runs ROUNDS times, fio and iotrial alternating (so a drift of the machine hits
# both alike); the table shows medians and the ratio iotrial/fio. Machines here are shared
# and noisy: read the ratios, not the absolute figures.
#
#   bench/vs-fio.sh [PAIR...]        default: every pair this build can run
#   ROUNDS=5 BENCH_DIR=/var/tmp/x bench/vs-fio.sh seqwrite-1m
#
# BENCH_DIR must be on a real file system (ext4, xfs), not tmpfs: the direct pairs need
# O_DIRECT. Needs fio and jq (scripts/install-deps.sh bench installs them).
#
# Random offsets: fio's default random map and iotrial's (random_map: true, the default)
# both visit every block once per pass, in a new order each pass; neither side sets
# norandommap or random_map: false. buffered-randread-4k is size-bound: both tools drop the
# file's pages first (fio's invalidate=1, iotrial's invalidate: true) and read each of its
# 8,192 blocks exactly once, so neither is helped by the page cache. The time-based random
# rows are direct (no page cache), on the null engine, or read a file cached on purpose.
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
RUNTIME=${RUNTIME:-2}
BENCH_DIR=${BENCH_DIR:-/var/tmp/iotrial-bench}
IOTRIAL=${IOTRIAL:-./iotrial}
OUT=bench/out
scripts/install-deps.sh bench
[ -x "$IOTRIAL" ] || make -s iotrial
mkdir -p "$BENCH_DIR" "$OUT"
trap 'rm -rf "$BENCH_DIR"/fio.* "$BENCH_DIR"/iotrial.* "$BENCH_DIR"/cached.dat' EXIT

# name | metric (bw or iops) | backend needed | fio options | iotrial job keys
PAIRS='
seqwrite-1m|bw|sync|--rw=write --bs=1M --size=64M --ioengine=psync --end_fsync=1|workload: write, block_size: 1MiB, file_size: 64MiB, backend: sync, sync: fsync_end
null-randread-4k|iops|null|--rw=randread --bs=4k --size=1G --ioengine=null --time_based --runtime=RT|workload: randread, block_size: 4KiB, file_size: 1GiB, backend: null, runtime: RTs
cached-randread-4k|iops|sync|--rw=randread --bs=4k --size=64M --ioengine=psync --invalidate=0 --time_based --runtime=RT --filename=CACHED|workload: randread, block_size: 4KiB, file_size: 64MiB, backend: sync, invalidate: false, runtime: RTs, target: CACHED
buffered-randread-4k|iops|sync|--rw=randread --bs=4k --size=32M --ioengine=psync|workload: randread, block_size: 4KiB, file_size: 32MiB, backend: sync
libaio-randread-4k-qd32|iops|libaio|--rw=randread --bs=4k --size=256M --ioengine=libaio --iodepth=32 --direct=1 --time_based --runtime=RT|workload: randread, block_size: 4KiB, file_size: 256MiB, backend: libaio, iodepth: 32, direct: true, runtime: RTs
uring-randread-4k-qd32|iops|io_uring|--rw=randread --bs=4k --size=256M --ioengine=io_uring --iodepth=32 --direct=1 --time_based --runtime=RT|workload: randread, block_size: 4KiB, file_size: 256MiB, backend: io_uring, iodepth: 32, direct: true, runtime: RTs
uring-seqread-128k-qd8|bw|io_uring|--rw=read --bs=128k --size=256M --ioengine=io_uring --iodepth=8 --direct=1 --time_based --runtime=RT|workload: read, block_size: 128KiB, file_size: 256MiB, backend: io_uring, iodepth: 8, direct: true, runtime: RTs
'

have_backend() {
	"$IOTRIAL" backends | awk -v b="$1" '$1 == b && $2 == "yes" {found = 1} END {exit !found}'
}

median() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# A file both tools read from the page cache: written once, read once to warm it.
CACHED="$BENCH_DIR/cached.dat"
prepare_cached() {
	[ -f "$CACHED" ] || head -c 67108864 /dev/urandom >"$CACHED"
	cat "$CACHED" >/dev/null
}

run_fio() { # name metric fio-options -> "value cpu_per_mio"
	rm -f "$BENCH_DIR"/fio.*
	# shellcheck disable=SC2086
	fio --output-format=json --name=bench --filename="$BENCH_DIR/fio.$1" $3 >"$OUT/$1.fio.json" 2>/dev/null
	jq -r --arg m "$2" '.jobs[0] | (if .read.total_ios > 0 then .read else .write end) as $d
		| ((.usr_cpu + .sys_cpu) / 100 * .job_runtime / 1000) as $cpu
		| [(if $m == "bw" then $d.bw_bytes else $d.iops end), ($cpu / $d.total_ios * 1e6)] | @tsv' \
		"$OUT/$1.fio.json"
}

run_iotrial() { # name metric job-keys -> "value cpu_per_mio"
	printf 'experiment: bench-%s\nreplication: {runs: 1}\njobs:\n  - {name: %s, target: "%s", %s}\n' \
		"$1" "$1" "$BENCH_DIR" "$3" | sed 's/target: "[^"]*", \(.*target: \)/\1/' >"$OUT/$1.yaml"
	# The repetition before left its run there, and -o refuses to mix two runs.
	rm -rf "$OUT/$1.iotrial"
	"$IOTRIAL" run -q "$OUT/$1.yaml" -o "$OUT/$1.iotrial" 2>/dev/null
	jq -r --arg m "$2" '.jobs[0].trials[0] | ((.cpu.user_s + .cpu.sys_s)) as $cpu
		| [(if $m == "bw" then .bw_bytes else .iops end), ($cpu / .ios * 1e6)] | @tsv' \
		"$OUT/$1.iotrial/results.json"
}

printf '%-26s %-5s %12s %12s %7s %14s %14s %7s\n' workload unit fio iotrial ratio \
	"fio cpu/Mio" "iot cpu/Mio" ratio
echo "$PAIRS" | while IFS='|' read -r name metric backend fio_opts iot_keys; do
	[ -n "$name" ] || continue
	if [ $# -gt 0 ] && ! echo " $* " | grep -q " $name "; then continue; fi
	if ! have_backend "$backend"; then
		echo "$name: skipped: backend $backend does not work here ($("$IOTRIAL" backends | awk -v b="$backend" '$1 == b' | cut -c19-))"
		continue
	fi
	fio_opts=$(echo "$fio_opts" | sed "s/=RT/=$RUNTIME/g; s|=CACHED|=$CACHED|")
	iot_keys=$(echo "$iot_keys" | sed "s/RTs/${RUNTIME}s/g; s|CACHED|$CACHED|")
	[ "$name" = cached-randread-4k ] && prepare_cached
	: >"$OUT/$name.fio.tsv"
	: >"$OUT/$name.iot.tsv"
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		run_fio "$name" "$metric" "$fio_opts" >>"$OUT/$name.fio.tsv"
		run_iotrial "$name" "$metric" "$iot_keys" >>"$OUT/$name.iot.tsv"
		r=$((r + 1))
	done
	fv=$(cut -f1 "$OUT/$name.fio.tsv" | median)
	iv=$(cut -f1 "$OUT/$name.iot.tsv" | median)
	fc=$(cut -f2 "$OUT/$name.fio.tsv" | median)
	ic=$(cut -f2 "$OUT/$name.iot.tsv" | median)
	unit=$([ "$metric" = bw ] && echo MB/s || echo IO/s)
	awk -v n="$name" -v u="$unit" -v fv="$fv" -v iv="$iv" -v fc="$fc" -v ic="$ic" -v m="$metric" 'BEGIN {
		d = m == "bw" ? 1e6 : 1
		printf "%-26s %-5s %12.1f %12.1f %7.2f %14.3f %14.3f %7.2f\n", n, u, fv / d, iv / d,
			(fv > 0 ? iv / fv : 0), fc, ic, (fc > 0 ? ic / fc : 0)
	}'
done
echo "medians of $ROUNDS rounds; ratio = iotrial / fio (throughput: higher is better; cpu seconds per million I/Os: lower is better)"
