#!/bin/sh
# iotrial against fio, pair by pair, on the same workloads on the same machine in one run.
# Each pair runs ROUNDS times, fio and iotrial alternating, and which of the two goes first
# alternating too (so a drift of the machine hits both alike); the table shows medians and
# the ratio iotrial/fio. Machines here are shared and noisy: read the ratios, not the
# absolute figures. See docs/performance.md#bench-vs-fio.
#
#   bench/vs-fio.sh [PAIR...]        default: every pair this build can run, the null
#                                    job's scaling to two workers beside busy loops' (PAIR
#                                    scaling), the record-logged null run (PAIR
#                                    null-logged) and the start-up of a trivial job (PAIR
#                                    startup)
#   ROUNDS=5 BENCH_DIR=/var/tmp/x bench/vs-fio.sh seqwrite-1m
#   QUICK=1 bench/vs-fio.sh          every row, one short round on small files: the
#                                    table's shape, not its figures (tests/t/t0025-bench.sh)
#
# Variables: ROUNDS (9; QUICK: 1), RUNTIME (seconds of a time-based pair: 2; QUICK: 0.1),
# BENCH_DIR (/var/tmp/iotrial-bench: the target folder, on a real file system such as ext4
# or xfs, not tmpfs: the direct pairs need O_DIRECT), BENCH_OUT (bench/out: where the table
# and each run's output go), IOTRIAL (./iotrial), PLACEMENT (irq: which CPUs both tools
# run on, see below; a space-separated list compares several). Needs fio, jq, GNU time, and
# perf for the context-switch columns (scripts/install-deps.sh bench installs them).
# KNOBS=1 adds the io_uring options' rows (below).
#
# Placement. Where a tool's worker runs relative to the CPU that handles the target disk's
# interrupts changes device-bound results by more than the tools differ (measured in
# docs/performance.md), and neither tool chooses it by default. So both tools run under the
# CPUs (iotrial under `taskset -c LIST`, fio with its `cpus_allowed=LIST`): PLACEMENT=irq
# (default) pins both to the CPUs that took the disk's interrupts, other pins them to the
# others, none leaves them to the scheduler, and a CPU list (0, 1, 0-3) pins them there.
# The header says which CPUs that was.
#
# Random offsets: fio's default random map and iotrial's (random_map: true, the default)
# both visit every block once per pass, in a new order each pass; neither side sets
# norandommap or random_map: false. buffered-randread-4k is size-bound: both tools drop the
# file's pages first (fio's invalidate=1, iotrial's invalidate: true) and read each of its
# 8,192 blocks exactly once, so neither is helped by the page cache. The time-based random
# rows are direct (no page cache), on the null engine, or read a file cached on purpose.
#
# One file for both readers. A row whose workload only reads the disk (randread or read,
# not null-* or cached-*) reads one file, shared.NAME.dat in BENCH_DIR, laid out afresh
# before each turn of the two tools by fio itself with the row's own options and
# --create_only=1 (the very writes fio's run would do: a new file, fallocate, bs-sized
# writes, fsync), and read by fio (--filename) and by iotrial (target: the file, which it
# reads as it is and never removes). How a file was laid out moves both tools' reads by
# more than the tools differ (docs/performance.md#bench-vs-fio), so each row compares the
# readers on fio's layout, and the layout is no part of either tool's run or counters.
# Rows that write lay out their own file each, as each tool would.
set -eu
cd "$(dirname "$0")/.."
QUICK=${QUICK:-0}
if [ "$QUICK" = 1 ]; then
	ROUNDS=${ROUNDS:-1}
	RUNTIME=${RUNTIME:-0.1}
else
	ROUNDS=${ROUNDS:-9}
	RUNTIME=${RUNTIME:-2}
fi
BENCH_DIR=${BENCH_DIR:-/var/tmp/iotrial-bench}
IOTRIAL=${IOTRIAL:-./iotrial}
OUT=${BENCH_OUT:-bench/out}
PLACEMENT=${PLACEMENT:-irq}
# fio's runtime in whole milliseconds: fio reads "0.1" (seconds) as no runtime at all
RUNTIME_MS=$(awk -v s="$RUNTIME" 'BEGIN { printf "%d", s * 1000 + 0.5 }')

# Sizes: BIG for the time-based device pairs, MID and SMALL for the size-bound ones, NULLN
# the I/O count of the record-logged null run; QUICK shrinks them all.
if [ "$QUICK" = 1 ]; then
	BIG=8 MID=8 SMALL=4 NULLN=100000
else
	BIG=256 MID=64 SMALL=32 NULLN=10000000
fi

# name | metric (bw, iops, or rw: a mixed job, two rows from the same runs, NAME-read and
# NAME-write, its reads' and its writes' IO/s) | backend needed | fio options | iotrial job keys
# In both, RT is RUNTIME (given to fio in milliseconds), BIG/MID/SMALL sizes in MiB, CACHED the cached file.
PAIRS='
seqwrite-1m|bw|sync|--rw=write --bs=1M --size=MIDM --ioengine=psync --end_fsync=1|workload: write, block_size: 1MiB, file_size: MIDMiB, backend: sync, sync: fsync_end
seqwrite-1m-direct|bw|sync|--rw=write --bs=1M --size=BIGM --ioengine=psync --direct=1 --time_based --runtime=RT|workload: write, block_size: 1MiB, file_size: BIGMiB, backend: sync, direct: true, runtime: RTs
null-randread-4k|iops|null|--rw=randread --bs=4k --size=1G --ioengine=null --time_based --runtime=RT|workload: randread, block_size: 4KiB, file_size: 1GiB, backend: null, runtime: RTs
null-randread-4k-2w|iops|null|--rw=randread --bs=4k --size=1G --ioengine=null --time_based --runtime=RT --numjobs=2 --group_reporting|workload: randread, block_size: 4KiB, file_size: 1GiB, backend: null, runtime: RTs, threads: 2
cached-randread-4k|iops|sync|--rw=randread --bs=4k --size=MIDM --ioengine=psync --invalidate=0 --time_based --runtime=RT --filename=CACHED|workload: randread, block_size: 4KiB, file_size: MIDMiB, backend: sync, invalidate: false, runtime: RTs, target: CACHED
buffered-randread-4k|iops|sync|--rw=randread --bs=4k --size=SMALLM --ioengine=psync|workload: randread, block_size: 4KiB, file_size: SMALLMiB, backend: sync
psync-randread-4k-qd1|iops|sync|--rw=randread --bs=4k --size=BIGM --ioengine=psync --direct=1 --time_based --runtime=RT|workload: randread, block_size: 4KiB, file_size: BIGMiB, backend: sync, direct: true, runtime: RTs
uring-randread-4k-qd1|iops|io_uring|--rw=randread --bs=4k --size=BIGM --ioengine=io_uring --iodepth=1 --direct=1 --time_based --runtime=RT|workload: randread, block_size: 4KiB, file_size: BIGMiB, backend: io_uring, iodepth: 1, direct: true, runtime: RTs
uring-randread-4k-qd16|iops|io_uring|--rw=randread --bs=4k --size=BIGM --ioengine=io_uring --iodepth=16 --direct=1 --time_based --runtime=RT|workload: randread, block_size: 4KiB, file_size: BIGMiB, backend: io_uring, iodepth: 16, direct: true, runtime: RTs
uring-randread-4k-qd32|iops|io_uring|--rw=randread --bs=4k --size=BIGM --ioengine=io_uring --iodepth=32 --direct=1 --time_based --runtime=RT|workload: randread, block_size: 4KiB, file_size: BIGMiB, backend: io_uring, iodepth: 32, direct: true, runtime: RTs
libaio-randread-4k-qd32|iops|libaio|--rw=randread --bs=4k --size=BIGM --ioengine=libaio --iodepth=32 --direct=1 --time_based --runtime=RT|workload: randread, block_size: 4KiB, file_size: BIGMiB, backend: libaio, iodepth: 32, direct: true, runtime: RTs
libaio-randwrite-64k-qd8|iops|libaio|--rw=randwrite --bs=64k --size=BIGM --ioengine=libaio --iodepth=8 --direct=1 --time_based --runtime=RT|workload: randwrite, block_size: 64KiB, file_size: BIGMiB, backend: libaio, iodepth: 8, direct: true, runtime: RTs
libaio-randrw70-4k-qd16|rw|libaio|--rw=randrw --rwmixread=70 --bs=4k --size=BIGM --ioengine=libaio --iodepth=16 --direct=1 --time_based --runtime=RT|workload: randrw, mix: {read: 70, write: 30}, block_size: 4KiB, file_size: BIGMiB, backend: libaio, iodepth: 16, direct: true, runtime: RTs
uring-seqread-128k-qd8|bw|io_uring|--rw=read --bs=128k --size=BIGM --ioengine=io_uring --iodepth=8 --direct=1 --time_based --runtime=RT|workload: read, block_size: 128KiB, file_size: BIGMiB, backend: io_uring, iodepth: 8, direct: true, runtime: RTs
'

# KNOBS=1 adds io_uring's options, each against fio's option of the same purpose
# (docs/backends.md#io_uring), on the qd16 (qd1 for hipri) direct random reads; opt-in, as
# they lengthen a full run by about two minutes. The hipri row runs only on a disk that polls.
KNOB_PAIRS='
uring-qd16-registerfiles|iops|io_uring|--rw=randread --bs=4k --size=BIGM --ioengine=io_uring --iodepth=16 --direct=1 --time_based --runtime=RT --registerfiles|workload: randread, block_size: 4KiB, file_size: BIGMiB, backend: io_uring, iodepth: 16, direct: true, runtime: RTs, io_uring_register_files: true
uring-qd16-fixedbufs|iops|io_uring|--rw=randread --bs=4k --size=BIGM --ioengine=io_uring --iodepth=16 --direct=1 --time_based --runtime=RT --fixedbufs|workload: randread, block_size: 4KiB, file_size: BIGMiB, backend: io_uring, iodepth: 16, direct: true, runtime: RTs, io_uring_fixed_buffers: true
uring-qd16-sqpoll|iops|io_uring|--rw=randread --bs=4k --size=BIGM --ioengine=io_uring --iodepth=16 --direct=1 --time_based --runtime=RT --sqthread_poll=1|workload: randread, block_size: 4KiB, file_size: BIGMiB, backend: io_uring, iodepth: 16, direct: true, runtime: RTs, io_uring_sqpoll: true
uring-qd16-batch1|iops|io_uring|--rw=randread --bs=4k --size=BIGM --ioengine=io_uring --iodepth=16 --direct=1 --time_based --runtime=RT --iodepth_batch_submit=1 --iodepth_batch_complete_min=1 --iodepth_batch_complete_max=16|workload: randread, block_size: 4KiB, file_size: BIGMiB, backend: io_uring, iodepth: 16, direct: true, runtime: RTs, io_uring_batch_submit: 1
uring-qd16-batch8|iops|io_uring|--rw=randread --bs=4k --size=BIGM --ioengine=io_uring --iodepth=16 --direct=1 --time_based --runtime=RT --iodepth_batch_submit=8 --iodepth_batch_complete_min=4 --iodepth_batch_complete_max=16|workload: randread, block_size: 4KiB, file_size: BIGMiB, backend: io_uring, iodepth: 16, direct: true, runtime: RTs, io_uring_batch_submit: 8, io_uring_batch_complete_min: 4
uring-qd1-hipri|iops|io_uring|--rw=randread --bs=4k --size=BIGM --ioengine=io_uring --iodepth=1 --direct=1 --time_based --runtime=RT --hipri|workload: randread, block_size: 4KiB, file_size: BIGMiB, backend: io_uring, iodepth: 1, direct: true, runtime: RTs, io_uring_hipri: true
'
if [ "${KNOBS:-0}" = 1 ]; then
	PAIRS="$PAIRS$KNOB_PAIRS"
fi

# Selected pairs ($@) that this build can run, one line each.
selected() {
	echo "$PAIRS" | while IFS='|' read -r name metric backend fio_opts iot_keys; do
		[ -n "$name" ] || continue
		hit=$([ $# -gt 0 ] || echo yes)
		for a in "$@"; do
			# A mixed pair answers to its rows' names too (NAME-read, NAME-write).
			case $a in
			"$name") hit=yes ;;
			"$name-read" | "$name-write") [ "$metric" != rw ] || hit=yes ;;
			esac
		done
		[ -z "$hit" ] || echo "$name|$metric|$backend|$fio_opts|$iot_keys"
	done
}

# A name that is no pair's (nor a mixed pair's row's, nor scaling, null-logged or startup) is a
# mistake, not a shorter table: exit 2 before anything runs.
for a in "$@"; do
	[ "$a" = scaling ] || [ "$a" = null-logged ] || [ "$a" = startup ] || [ -n "$(selected "$a")" ] || {
		echo "bench/vs-fio.sh: no pair $a (pairs: $(selected | cut -d'|' -f1 | tr '\n' ' ')scaling null-logged startup)" >&2
		exit 2
	}
done

scripts/install-deps.sh bench
[ -x "$IOTRIAL" ] || make -s iotrial
mkdir -p "$BENCH_DIR" "$OUT"
# Each run's figures, from this run only; also the runs' own files, which a pair renamed
# since would leave behind.
rm -rf "$OUT"/*.tsv "$OUT/rows" "$OUT"/*.fio.json "$OUT"/*.iotrial "$OUT"/*.perf "$OUT"/*.perf.disk \
	"$OUT"/*.yaml "$OUT"/*.rss "$OUT"/*.err "$OUT"/scaling.*
BENCH_DIR=$(cd "$BENCH_DIR" && pwd)
trap 'rm -rf "$BENCH_DIR"/fio.* "$BENCH_DIR"/iotrial.* "$BENCH_DIR"/cached.dat "$BENCH_DIR"/shared.*.dat "$BENCH_DIR"/startup.dat' EXIT
. bench/env.sh
. bench/rounds.sh
. bench/startup.sh

# Does the target's disk poll for completions (queue/io_poll)? The hipri row needs it.
disk_polls() {
	[ -n "$DISK" ] && [ "$(cat "/sys/block/$DISK/queue/io_poll" 2>/dev/null)" = 1 ]
}

have_backend() {
	"$IOTRIAL" backends | awk -v b="$1" '$1 == b && $2 == "yes" {found = 1} END {exit !found}'
}

# A file both tools read from the page cache: written once, read once to warm it.
CACHED="$BENCH_DIR/cached.dat"
prepare_cached() {
	[ -f "$CACHED" ] || head -c $((MID * 1048576)) /dev/urandom >"$CACHED"
	cat "$CACHED" >/dev/null
}

# reads_shared NAME IOTRIAL-KEYS: does the row only read the disk, so that both tools read
# one file (above)? The null rows have no file and the cached row shares CACHED already.
reads_shared() {
	case $1 in null-* | cached-*) return 1 ;; esac
	case $2 in *"workload: randread,"* | *"workload: read,"*) return 0 ;; esac
	return 1
}

# lay_out FILE FIO-OPTIONS: FILE anew, as fio lays it out for a job of these options (its
# setup phase only), and on the disk: both readers find it equally fresh.
lay_out() {
	rm -f "$1"
	# The run's options as they are, the time-based ones too: fio's messages only when the
	# layout failed.
	# shellcheck disable=SC2086
	if ! fio --name=layout --filename="$1" $2 --create_only=1 >/dev/null 2>"$OUT/layout.err"; then
		cat "$OUT/layout.err" >&2
		return 1
	fi
}

# perf stat's context switches and CPU migrations of a whole command, when perf works here.
PERF=no
if command -v perf >/dev/null 2>&1 && perf stat -x, -e context-switches -o /dev/null true >/dev/null 2>&1; then
	PERF=yes
fi

# The disk's own counters (Documentation/admin-guide/iostats.rst): "reads read-ms writes
# write-ms busy-ms" so far (busy: the time it had a request in flight); empty when the
# target is on no block device.
disk_counts() {
	[ -n "$DISK" ] && [ -r "/sys/block/$DISK/stat" ] || return 0
	awk '{print $1, $4, $5, $8, $10}' "/sys/block/$DISK/stat"
}

# run_under FILE CPUS CMD...: CMD under taskset -c CPUS (unless empty) and, when it works,
# perf stat (into FILE); the disk's counters before and after go to FILE.disk.
run_under() {
	f=$1 pin=$2
	shift 2
	if [ -n "$pin" ]; then
		set -- taskset -c "$pin" "$@"
	fi
	disk_counts >"$f.disk"
	if [ "$PERF" = yes ]; then
		perf stat -x, -e context-switches,cpu-migrations -o "$f" -- "$@"
	else
		: >"$f"
		"$@"
	fi
	disk_counts >>"$f.disk"
}

# "context-switches cpu-migrations device-us queue" from the files of run_under ("-" for what was
# not measured). device-us: the disk's mean time per request, from when the block layer
# took the request to its completion (queueing in the I/O scheduler included), in the
# direction that moved more requests during the run (a write row's tool lays out its own
# file within its run; a read row's file is laid out before either run). queue: the mean
# requests in flight at the disk while it had any. Both count every request of the disk,
# also other programs'.
counters() {
	awk -F, '$3 == "context-switches" {cs = $1} $3 == "cpu-migrations" {m = $1}
		END {printf "%s %s ", (cs == "" ? "-" : cs), (m == "" ? "-" : m)}' "$1"
	awk 'NR == 1 {split($0, a, " ")} NR == 2 {split($0, b, " ")}
		END {
			if (NR != 2) {print "- -"; exit}
			r = b[1] - a[1]; w = b[3] - a[3]
			if (r >= w && r > 0) printf "%.1f", (b[2] - a[2]) * 1000 / r
			else if (w > 0) printf "%.1f", (b[4] - a[4]) * 1000 / w
			else printf "-"
			# qd: the requests in flight at the disk, on average while it had any (the
			# summed time of the requests over the time busy), what a tool asked of the
			# disk at once.
			busy = b[5] - a[5]
			if (busy > 0) printf " %.1f\n", (b[2] - a[2] + b[4] - a[4]) / busy
			else print " -"
		}' "$1.disk"
}

# A run leaves its output in OUT (NAME.fio.json or NAME.iotrial, and the files of
# run_under); fio_row and iot_row then print one line of it for one metric: value (IO/s or
# bytes/s), CPU seconds per million I/Os, context switches per I/O, CPU migrations (whole
# command), I/Os, the disk's mean time per request (microseconds), user CPU seconds per
# million I/Os, the requests in flight at the disk. riops and wiops, the two directions of
# one mixed run, share every column but the first: the CPU and switches are per I/O of both.
run_fio() { # name fio-options [file: the row's shared file]
	rm -f "$BENCH_DIR"/fio.*
	file=${3:-$BENCH_DIR/fio.$1}
	# fio's own option pins its jobs, not its main process, which wakes every few
	# milliseconds for its bookkeeping (iotrial's main thread sleeps during a trial).
	pin=""
	[ -z "$CPUS" ] || pin="--cpus_allowed=$CPUS"
	# shellcheck disable=SC2086
	run_under "$OUT/$1.fio.perf" "" fio --output-format=json --name=bench --filename="$file" $2 $pin \
		>"$OUT/$1.fio.json" 2>/dev/null
}

fio_row() { # name metric
	# With numjobs > 1 and group_reporting, jobs[0] is the group: its ios and CPU are summed.
	jq -r --arg m "$2" --arg c "$(counters "$OUT/$1.fio.perf")" '.jobs[0]
		| (if $m == "riops" then .read elif $m == "wiops" then .write
		   elif .read.total_ios > 0 then .read else .write end) as $d
		| (.read.total_ios + .write.total_ios) as $n
		| ((.usr_cpu + .sys_cpu) / 100 * .job_runtime / 1000) as $cpu
		| ($c | split(" ")) as $pc
		| [(if $m == "bw" then $d.bw_bytes else $d.iops end), ($cpu / $n * 1e6),
		   (if $pc[0] == "-" then "-" else ($pc[0] | tonumber) / $n end), $pc[1], $n, $pc[2],
		   (.usr_cpu / 100 * .job_runtime / 1000 / $n * 1e6), $pc[3]] | @tsv' \
		"$OUT/$1.fio.json"
}

run_iotrial() { # name job-keys [file: the row's shared file]
	printf 'experiment: bench-%s\nreplication: {runs: 1}\njobs:\n  - {name: %s, target: "%s", %s}\n' \
		"$1" "$1" "${3:-$BENCH_DIR}" "$2" | sed 's/target: "[^"]*", \(.*target: \)/\1/' >"$OUT/$1.yaml"
	# The repetition before left its run there, and -o refuses to mix two runs.
	rm -rf "$OUT/$1.iotrial"
	run_under "$OUT/$1.iot.perf" "$CPUS" "$IOTRIAL" run -q "$OUT/$1.yaml" -o "$OUT/$1.iotrial" 2>/dev/null
}

iot_row() { # name metric
	jq -r --arg m "$2" --arg c "$(counters "$OUT/$1.iot.perf")" '.jobs[0].trials[0]
		| ((.cpu.user_s + .cpu.sys_s)) as $cpu
		| ($c | split(" ")) as $pc
		| [(if $m == "bw" then .bw_bytes elif $m == "riops" then .read.iops
		    elif $m == "wiops" then .write.iops else .iops end), ($cpu / .ios * 1e6),
		   (if $pc[0] == "-" then "-" else ($pc[0] | tonumber) / .ios end), $pc[1], .ios, $pc[2],
		   (.cpu.user_s / .ios * 1e6), $pc[3]] | @tsv' \
		"$OUT/$1.iotrial/results.json"
}

# spread FIO-TSV IOTRIAL-TSV: "ahead range" of a row's rounds, line r of each file being
# round r: ahead, k/n, the rounds where iotrial's throughput (column 1) was at least fio's;
# range, the lowest and highest per-round ratio iotrial/fio. A median at 1.0 may be won or
# lost by the draw; these say by how much the rounds agree.
spread() {
	ratios "$1" "$2" | awk '
		{
			n++
			k += $1 >= 1
			if (n == 1 || $1 < lo) lo = $1
			if (n == 1 || $1 > hi) hi = $1
		}
		END { if (n == 0) print "- -"; else printf "%d/%d %.2f-%.2f\n", k, n, lo, hi }'
}

header() {
	printf '%-29s %-5s %-5s %12s %12s %6s %9s %9s %6s %8s %8s %6s %6s %8s %8s %8s %8s %6s %6s %11s %6s %6s\n' workload cpus unit fio iotrial ratio \
		"fio cpu" "iot cpu" ratio "fio cs" "iot cs" "fio mg" "iot mg" "fio dev" "iot dev" "fio usr" "iot usr" floor ahead range "fio qd" "iot qd"
}

# fio_options OPTIONS and iot_keys KEYS: a pair's options with RT, CACHED and the sizes put in
fio_options() {
	echo "$1" | sed "s/=RT/=${RUNTIME_MS}ms/g; s|=CACHED|=$CACHED|; s/=BIGM/=${BIG}M/; s/=MIDM/=${MID}M/; s/=SMALLM/=${SMALL}M/"
}
iot_keys() {
	echo "$1" | sed "s/RTs/${RUNTIME}s/g; s|CACHED|$CACHED|; s/: BIGMiB/: ${BIG}MiB/; s/: MIDMiB/: ${MID}MiB/; s/: SMALLMiB/: ${SMALL}MiB/"
}

# pair NAME METRIC BACKEND FIO-OPTIONS IOTRIAL-KEYS: ROUNDS rounds of both tools, under each
# placement in turn within a round; one table row per placement.
pair() {
	name=$1 metric=$2
	fio_opts=$(fio_options "$4")
	iot_keys=$(iot_keys "$5")
	[ "$name" = cached-randread-4k ] && prepare_cached
	# Placement is about the disk's completions: the null and cached pairs never wait for
	# one, and the two-worker null pair needs both CPUs.
	places=$PLACEMENT disk=yes
	case $name in null-* | cached-*) places=none disk=no ;; esac
	shared=""
	if reads_shared "$name" "$iot_keys"; then
		shared=$BENCH_DIR/shared.$name.dat
	fi
	# The table's rows of this pair, ROW:METRIC each: a mixed pair's two directions come
	# from the same runs, so they share one CPU verdict.
	rows="$name:$metric"
	[ "$metric" != rw ] || rows="$name-read:riops $name-write:wiops"
	for p in $places; do
		for row in $rows; do
			: >"$OUT/${row%%:*}.$p.fio.tsv"
			: >"$OUT/${row%%:*}.$p.iot.tsv"
		done
	done
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		for p in $places; do
			CPUS=$(placement_cpus "$p")
			# A fresh file for each turn of the two tools: the disk reads back a file
			# written a moment ago faster, so both must find it as fresh.
			[ -z "$shared" ] || lay_out "$shared" "$fio_opts"
			if [ $((r % 2)) = 0 ]; then
				run_fio "$name" "$fio_opts" "$shared"
				run_iotrial "$name" "$iot_keys" "$shared"
			else
				run_iotrial "$name" "$iot_keys" "$shared"
				run_fio "$name" "$fio_opts" "$shared"
			fi
			for row in $rows; do
				fio_row "$name" "${row#*:}" >>"$OUT/${row%%:*}.$p.fio.tsv"
				iot_row "$name" "${row#*:}" >>"$OUT/${row%%:*}.$p.iot.tsv"
			done
		done
		r=$((r + 1))
	done
	[ -z "$shared" ] || rm -f "$shared"
	unit=$([ "$metric" = bw ] && echo MB/s || echo IO/s)
	for p in $places; do
		for row in $rows; do
			table_row "${row%%:*}" "$p" "$unit" "$metric" "$disk"
		done
	done
}

# table_row ROW PLACEMENT UNIT METRIC DISK(yes|no): the table's line of ROW under PLACEMENT,
# from the medians of its rounds.
table_row() {
	echo "$1.$2" >>"$OUT/rows"
	f=$OUT/$1.$2.fio.tsv i=$OUT/$1.$2.iot.tsv
	c=$(placement_cpus "$2")
	awk -v n="$1" -v sp="$(spread "$f" "$i")" -v u="$3" -v c="${c:-any}" -v m="$4" \
		-v fv="$(col "$f" 1)" -v iv="$(col "$i" 1)" -v fc="$(col "$f" 2)" -v ic="$(col "$i" 2)" \
		-v fs="$(col "$f" 3)" -v is="$(col "$i" 3)" -v fm="$(col "$f" 4)" -v im="$(col "$i" 4)" \
		-v fd="$(col "$f" 6)" -v id="$(col "$i" 6)" -v fu="$(col "$f" 7)" -v iu="$(col "$i" 7)" \
		-v fq="$(col "$f" 8)" -v iq="$(col "$i" 8)" \
		-v disk="$5" 'BEGIN {
		d = m == "bw" ? 1e6 : 1
		printf "%-29s %-5s %-5s %12.1f %12.1f %6.2f %9.2f %9.2f %6.2f %8s %8s %6s %6s", n, c, u, fv / d, iv / d,
			(fv > 0 ? iv / fv : 0), fc, ic, (fc > 0 ? ic / fc : 0),
			(fs == "nan" ? "-" : sprintf("%.3f", fs)), (is == "nan" ? "-" : sprintf("%.3f", is)),
			(fm == "nan" ? "-" : fm), (im == "nan" ? "-" : im)
		# A pair that never reads the disk would show the requests of others.
		if (disk == "no")
			fd = id = fq = iq = "nan"
		printf " %8s %8s", fd == "nan" ? "-" : fd, id == "nan" ? "-" : id
		# floor: the CPU ratio iotrial would have if its own code took no time (the
		# system time of iotrial over the CPU time of fio): no change to the user code
		# of iotrial goes below it.
		printf " %8.2f %8.2f %6.2f", fu, iu, (fc > 0 ? (ic - iu) / fc : 0)
		split(sp, s, " ")
		printf " %6s %11s", s[1], s[2]
		printf " %6s %6s\n", fq == "nan" ? "-" : fq, iq == "nan" ? "-" : iq
	}'
}

# The record log on the null engine: NULLN 4 KiB random reads, without and with a record
# per I/O, alternating; the logged one also at a tenth of the count, so that a peak RSS
# that grows with the log shows. Prints "rate rss_kib" per run.
logged_run() { # ios log(true|false) tag
	printf 'experiment: bench-logged\nreplication: {runs: 1}\njobs:\n  - {name: null-logged, target: "%s", workload: randread, block_size: 4KiB, file_size: %s, backend: null, log_records: %s}\n' \
		"$BENCH_DIR" "$(($1 * 4096))" "$2" >"$OUT/null-logged.yaml"
	rm -rf "$OUT/null-logged.iotrial"
	run_under "$OUT/null-logged.perf" "" /usr/bin/time -f %M -o "$OUT/null-logged.rss" \
		"$IOTRIAL" run -q "$OUT/null-logged.yaml" -o "$OUT/null-logged.iotrial" 2>/dev/null
	printf '%s\t%s\n' "$(jq -r '.jobs[0].trials[0].iops' "$OUT/null-logged.iotrial/results.json")" \
		"$(tail -n 1 "$OUT/null-logged.rss")" >>"$OUT/null-logged.$3.tsv"
	rm -rf "$OUT/null-logged.iotrial"
}

logged() {
	for t in plain logged small; do : >"$OUT/null-logged.$t.tsv"; done
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		logged_run "$NULLN" false plain
		logged_run "$NULLN" true logged
		logged_run $((NULLN / 10)) true small
		r=$((r + 1))
	done
	awk -v n="$NULLN" -v pv="$(col "$OUT/null-logged.plain.tsv" 1)" -v lv="$(col "$OUT/null-logged.logged.tsv" 1)" \
		-v pr="$(col "$OUT/null-logged.plain.tsv" 2)" -v lr="$(col "$OUT/null-logged.logged.tsv" 2)" \
		-v sr="$(col "$OUT/null-logged.small.tsv" 2)" 'BEGIN {
		printf "record log, null, 4 KiB random reads, %d I/Os (iotrial only): unlogged %.0f IO/s, logged %.0f IO/s, ratio %.2f; peak RSS unlogged %.1f MiB, logged %.1f MiB (%d I/Os: %.1f MiB)\n",
			n, pv, lv, (pv > 0 ? lv / pv : 0), pr / 1024, lr / 1024, n / 10, sr / 1024
	}'
}

# Scaling (PAIR scaling): the null job's rate with two workers over its rate with one, and
# plain busy loops' on the same cores, in the same rounds. A round runs, in turn, iotrial's
# null job of the null-randread-4k rows with one worker and with two, one busy loop, and two
# busy loops at once, then fio's null job with one and two, each RUNTIME long and unpinned,
# the order reversed every other round. The loops are the cores' own scaling in that round,
# next to iotrial's runs: where the host does not give the guest two whole cores at once, no
# program scales to 2, and the table rows' medians, taken minutes apart, would mix that with
# the host's drift. Appends a line a round to OUT/scaling.tsv: IO/s of iotrial with one
# worker and two, fio's, and additions per second of one loop and of two.

# spin SECONDS: one busy loop's additions per second (mawk; the clock read every 2*10^6,
# about 50 ms, so that reading it costs a few percent, alike for one loop and two)
spin() {
	awk -v s="$1" '
		# a clock that cannot be read ends the loop (exit 1), not a loop without end
		function now(c, t) { c = "date +%s%N"; if ((c | getline t) <= 0 || t !~ /^[0-9]+$/) exit 1; close(c); return t }
		BEGIN {
			t0 = now()
			do { for (i = 0; i < 2000000; i++) x += i; n++ } while ((t = now()) - t0 < s * 1e9)
			printf "%.0f\n", n * 2e6 / ((t - t0) / 1e9)
		}' || {
		echo "bench/vs-fio.sh: a busy loop of the scaling rounds failed (awk, or date +%s%N)" >&2
		return 1
	}
}

# scaling_run iot1|iot2|fio1|fio2|spin1|spin2: one run of the round, its rate on stdout
scaling_run() {
	case $1 in
	iot[12])
		run_iotrial "scaling-$1" "$(iot_keys "$(selected "$2" | cut -d'|' -f5)")" >/dev/null
		iot_row "scaling-$1" iops | cut -f1
		;;
	fio[12])
		run_fio "scaling-$1" "$(fio_options "$(selected "$2" | cut -d'|' -f4)")" >/dev/null
		fio_row "scaling-$1" iops | cut -f1
		;;
	spin1) spin "$RUNTIME" ;;
	spin2)
		spin "$RUNTIME" >"$OUT/scaling.spin.a" &
		a=$!
		spin "$RUNTIME" >"$OUT/scaling.spin.b" &
		b=$!
		# a loop that fails ends the script, and the other with it
		wait "$a" || { kill "$b" 2>/dev/null; exit 1; }
		wait "$b"
		cat "$OUT/scaling.spin.a" "$OUT/scaling.spin.b" | awk '{ s += $1 } END { printf "%.0f\n", s }'
		;;
	esac
}

scaling() {
	CPUS=""
	: >"$OUT/scaling.tsv"
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		# iotrial's two runs next to the loops', whose scaling they are weighed against
		order="iot1 iot2 spin1 spin2 fio1 fio2"
		[ $((r % 2)) = 0 ] || order="fio2 fio1 spin2 spin1 iot2 iot1"
		for w in $order; do
			case $w in *1) row=null-randread-4k ;; *) row=null-randread-4k-2w ;; esac
			scaling_run "$w" "$row" >"$OUT/scaling.$w"
		done
		for w in iot1 iot2 fio1 fio2 spin1 spin2; do cat "$OUT/scaling.$w"; done | paste -s - >>"$OUT/scaling.tsv"
		r=$((r + 1))
	done
	# per round, two against one; the line gives their medians, each over its own rounds, as
	# bench/goals.sh takes them
	t=$OUT/scaling.tsv
	awk -v i="$(col_ratios "$t" 1 2 | median)" -v f="$(col_ratios "$t" 3 4 | median)" -v b="$(col_ratios "$t" 5 6 | median)" 'BEGIN {
		printf "null, two workers against one (the same rounds, unpinned; medians of the rounds): iotrial %.2f, fio %.2f, busy loops %.2f\n", i, f, b
	}'
}

table() {
	env_header "$BENCH_DIR"
	for p in $PLACEMENT; do
		echo "placement $p: $(placement_says "$p")"
	done
	echo "load before: $(load_now)"
	irq_before=$(irq_counts)
	# the rows' header only over rows (scaling, null-logged and startup print lines of their own)
	[ -z "$(selected "$@")" ] || header
	selected "$@" | while IFS='|' read -r name metric backend fio_opts iot_keys; do
		if ! have_backend "$backend"; then
			echo "$name: skipped: backend $backend does not work here ($("$IOTRIAL" backends | awk -v b="$backend" '$1 == b' | cut -c19-))"
			continue
		fi
		if [ "$name" = uring-qd1-hipri ] && ! disk_polls; then
			echo "$name: skipped: the disk under $BENCH_DIR cannot poll for completions (queue/io_poll is not 1)"
			continue
		fi
		pair "$name" "$metric" "$backend" "$fio_opts" "$iot_keys"
	done
	if [ $# -eq 0 ] || echo " $* " | grep -q " scaling "; then
		scaling
	fi
	if [ $# -eq 0 ] || echo " $* " | grep -q " null-logged "; then
		logged
	fi
	if [ $# -eq 0 ] || echo " $* " | grep -q " startup "; then
		startup
	fi
	echo "medians of $ROUNDS rounds, $RUNTIME s each where time-based; ratio = iotrial / fio (throughput: higher is better; cpu: CPU microseconds per I/O, lower is better); cs: context switches per I/O; mg: CPU migrations per run (perf stat, whole command); dev: the disk's mean time per request, microseconds (/sys/block/DISK/stat); usr: user CPU microseconds per I/O (the tool's own code); floor: (iot cpu - iot usr) / fio cpu, the cpu ratio iotrial would have if its own code took no time; ahead: the rounds where iotrial's throughput was at least fio's, of all rounds; range: the lowest and highest ratio of throughput of one round; qd: the requests in flight at the disk, on average while it had any (/sys/block/DISK/stat); a row that only reads the disk has both tools read one file, laid out by fio afresh each round"
	echo "load after: $(load_now)"
	echo "interrupts of the disk during the run: $(irq_delta "$irq_before" "$(irq_counts)")"
	IOTRIAL=$IOTRIAL sh bench/goals.sh "$OUT"
	# The last word: without it, table ended early (sh has no pipefail to tell tee's caller).
	: >"$OUT/table.done"
}

# A run of every pair writes the table README.md quotes; a partial or quick one, another file.
if [ $# -eq 0 ] && [ "$QUICK" != 1 ]; then
	tab="$OUT/vs-fio.txt"
else
	tab="$OUT/vs-fio-partial.txt"
fi
rm -f "$OUT/table.done"
table "$@" | tee "$tab.tmp"
if [ ! -e "$OUT/table.done" ]; then
	echo "bench/vs-fio.sh: the run ended before its table did; what it printed is in $tab.tmp" >&2
	exit 1
fi
rm -f "$OUT/table.done"
mv "$tab.tmp" "$tab"
echo "table: $tab"
