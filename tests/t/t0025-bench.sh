#!/bin/bash
# bench/vs-fio.sh (make bench, docs/performance.md#bench-vs-fio): in its quick mode, every
# row of issue 13 is in the table with numeric ratios, the machine is described above it,
# and the table lands in BENCH_OUT; README.md quotes the committed table as it is. Checks
# the table's shape, never a speed.
. "$(dirname "$0")/lib.sh"

# The rows issue 13 asks for (item 4) and those that were there before.
ROWS="seqwrite-1m seqwrite-1m-direct null-randread-4k null-randread-4k-2w cached-randread-4k
buffered-randread-4k psync-randread-4k-qd1 uring-randread-4k-qd1 uring-randread-4k-qd16
uring-randread-4k-qd32 libaio-randread-4k-qd32 libaio-randwrite-64k-qd8 uring-seqread-128k-qd8
libaio-randrw70-4k-qd16-read libaio-randrw70-4k-qd16-write"

# The rows that only read the disk: both tools read one file (docs/performance.md#bench-vs-fio).
SHARED_ROWS="buffered-randread-4k psync-randread-4k-qd1 uring-randread-4k-qd1 uring-randread-4k-qd16
uring-randread-4k-qd32 libaio-randread-4k-qd32 uring-seqread-128k-qd8"

# Does table $1 (with a psync-randread-4k-qd1 row) show iotrial keeping more than one and a
# half requests at the disk at depth 32 (libaio-randread-4k-qd32), more than one at a time
# can? A weak check, that the depth reached the disk at all: other programs' requests count
# too, and could pass it alone. Not against the depth-1 row: qd counts every request of the disk, other programs'
# too, and beside a CI run that row read up to 27.7 (iotrial 20.5 at depth 32). Not fio's
# qd: what fio keeps at the disk is fio's, its CPU's and the host's (1.1 to 1.6 at depth 32
# in 16 of 260 runs here, with QUICK's 8 MiB file in the host's cache; f32 <= f1 + 0.5 or
# i32 <= i1 + 0.5 failed 33 of 260); iotrial kept 9.3 or more (4.2 in one CI run).
qd_deeper() {
	awk "index(\$0, \"psync-randread-4k-qd1 \") == 1 { f1 = \$21 }
		index(\$0, \"libaio-randread-4k-qd32 \") == 1 { i32 = \$22 }
		END { if (f1 == \"\" || i32 <= 1.5) exit 1 }" "$1"
}

# Every row of table $1: there with numeric figures and ratios, or skipped for a backend
# this build or machine cannot run (PER rows each, one per placement; 1 unless set).
# Prints the rows that are wrong. The columns ahead and range (19, 20) are checked too:
# ahead k/n, n the rounds the legend says; range lo-hi, lo <= hi, and the ratio of the
# medians within it (where it must be: an odd count of rounds, or two; a hundredth of slack
# for the rounding); then each tool's qd (21, 22): - for a row that does not use the disk
# (the null and cached rows), else a number, or - where the disk's busy time did not
# advance (a run of a few requests within one tick of its clock, as QUICK's can be).
bad_rows() {
	grep -E "^workload .* floor +ahead +range +fio qd +iot qd$" "$1" >/dev/null || echo "header"
	rounds=$(sed -n "s/^medians of \([0-9]*\) rounds.*/\1/p" "$1")
	for r in $ROWS; do
		# The mixed pair is skipped by its name, its rows NAME-read and NAME-write.
		if grep -E "^(${r%-read}|${r%-write}): skipped: backend [a-z_]+ does not work here" "$1" >/dev/null; then
			continue
		fi
		awk -v r="$r" -v rounds="$rounds" -v per="${PER:-1}" 'index($0, r " ") == 1 { n++
			num = "^[0-9]+([.][0-9]+)?$"
			if ($4 !~ num || $5 !~ num || $6 !~ num || $7 !~ num || $8 !~ num || $9 !~ num || $4 + 0 <= 0 || $6 + 0 <= 0 ||
			    $16 !~ num || $17 !~ num || $18 !~ num || NF != 22)
				bad = 1
			qd = r ~ /^(null|cached)-/ ? "^-$" : "^(-|[0-9]+([.][0-9]+)?)$"
			if ($21 !~ qd || $22 !~ qd)
				bad = 1
			if ($19 !~ "^[0-9]+/[0-9]+$" || $20 !~ "^[0-9]+[.][0-9][0-9]-[0-9]+[.][0-9][0-9]$")
				bad = 1
			split($19, a, "/")
			split($20, q, "-")
			if (a[2] != rounds || a[1] + 0 > a[2] + 0 || q[1] + 0 > q[2] + 0)
				bad = 1
			if ((rounds % 2 || rounds == 2) && ($6 < q[1] - 0.01 || $6 > q[2] + 0.01))
				bad = 1
		} END { exit !(n == per && !bad) }' "$1" || echo "$r"
	done
}

if ! command -v fio >/dev/null || ! command -v jq >/dev/null || [ ! -x /usr/bin/time ]; then
	skip_rest "fio, jq or GNU time is missing (scripts/install-deps.sh bench)"
fi

test_expect_success 'QUICK=1 bench/vs-fio.sh: every row, numeric ratios, the machine above the table' '
	mkdir -p target
	QUICK=1 PLACEMENT=irq BENCH_DIR="$TRASH/target" BENCH_OUT="$TRASH/out" IOTRIAL="$IOTRIAL" sh "$SRC/bench/vs-fio.sh" >bench.out 2>&1 || { cat bench.out; false; }
	test -s out/vs-fio-partial.txt
	grep "^table: $TRASH/out/vs-fio-partial.txt" bench.out
	bad_rows out/vs-fio-partial.txt >bad
	expect_eq "$(cat bad)" "" "rows missing or not numeric"
	grep -E "^record log, null, 4 KiB random reads, 100000 I/Os \(iotrial only\): unlogged [0-9]+ IO/s, logged [0-9]+ IO/s, ratio [0-9.]+; peak RSS unlogged [0-9.]+ MiB, logged [0-9.]+ MiB \(10000 I/Os: [0-9.]+ MiB\)$" out/vs-fio-partial.txt
	grep -E "^null, two workers against one \(the same rounds, unpinned; medians of the rounds\): iotrial [0-9.]+, fio [0-9.]+, busy loops [0-9.]+$" out/vs-fio-partial.txt
	# a line a round: the rates of iotrial with one worker and two, fio.s, one busy loop and two
	awk -F"\t" "NF != 6 { bad = 1 } { for (i = 1; i <= 6; i++) if (\$i !~ /^[0-9]+([.][0-9]+)?(e[+][0-9]+)?\$/ || \$i <= 0) bad = 1 } END { exit bad || NR != 1 }" out/scaling.tsv || { cat out/scaling.tsv; false; }
	# fio is given RUNTIME as it reads it, in milliseconds: to fio "0.1" is no runtime,
	# and its time-based null job read its whole 1 GiB
	for j in null-randread-4k scaling-fio1 scaling-fio2; do
		expect_eq "$(jq -r ".jobs[0][\"job options\"].runtime" "out/$j.fio.json")" 100ms "fio.s runtime in $j"
	done
	grep -E "^  null, two workers, x one +[0-9.]+ \(busy loops [0-9.]+; iotrial over them, rounds: 95% CI [0-9.]+-[0-9.]+\) \(goal: at least 1.8\): (met|host-bound|missed)$" out/vs-fio-partial.txt
	grep -E "^start-up, 4 KiB reads of a 1 MiB file \(whole command\): fio [0-9.]+ ms, iotrial [0-9.]+ ms, ratio [0-9.]+; less the harness \(/bin/true the same way, [0-9.]+ ms\): fio [0-9.]+ ms, iotrial -?[0-9.]+ ms, ratio (-?[0-9.]+|nan); peak RSS fio [0-9.]+ MiB, iotrial [0-9.]+ MiB, ratio [0-9.]+$" out/vs-fio-partial.txt
	# the harness alone, once a round like each tool
	expect_eq "$(wc -l <out/startup.base.tsv)" "$(wc -l <out/startup.iot.tsv)" "harness rounds"
	grep -E "^kernel: Linux [^;]+; CPU: .+, [0-9]+ online$" out/vs-fio-partial.txt
	grep -E "^tools: fio-[0-9.]+, iotrial " out/vs-fio-partial.txt
	grep -E "^load before: [0-9.]+ [0-9.]+ [0-9.]+ " out/vs-fio-partial.txt
	grep -E "^load after: [0-9.]+ [0-9.]+ [0-9.]+ " out/vs-fio-partial.txt
	grep -E "^placement irq: (both tools. I/O on CPU [0-9,]+ \(iotrial: taskset -c; fio: cpus_allowed\)|both tools unpinned: no CPU found for .irq.)" out/vs-fio-partial.txt
	grep -E "^medians of 1 rounds, 0.1 s each" out/vs-fio-partial.txt
	grep -E "^workload .* floor +ahead +range +fio qd +iot qd$" out/vs-fio-partial.txt
	# qd follows the depth: at 32, iotrial keeps more at the disk than one request at a
	# time (where this build has libaio; see qd_deeper). No higher figure: the 8 MiB file of
	# QUICK can sit in the cache of the host, and a disk that answers at once keeps queues short
	# (fio 3.0 and iotrial 4.2 at depth 32, 0.9 at depth 1, in one CI run).
	if grep "^libaio-randread-4k-qd32 " out/vs-fio-partial.txt >/dev/null; then
		qd_deeper out/vs-fio-partial.txt || {
			grep -E "^(workload|psync-randread-4k-qd1|libaio-randread-4k-qd32) " out/vs-fio-partial.txt
			false
		}
	fi
	grep -E "; ahead: the rounds where iotrial.s throughput was at least fio.s, of all rounds; range: the lowest and highest ratio of throughput of one round; " out/vs-fio-partial.txt
	# Below the table, the goals (bench/goals.sh, t0045): a line for each row that uses
	# the disk, the others, and the count.
	grep -x "goals (issue 13; verdicts: docs/performance.md#bench-goals):" out/vs-fio-partial.txt
	awk "/^workload / { t = 1; next } /^(medians|null, two|record log)/ { t = 0 } t && \$1 !~ /^(null|cached)-/ && \$1 !~ /:\$/ { print \$1 }" out/vs-fio-partial.txt >table-rows
	awk "/^goals \(/ { g = 1; next } g && / throughput / { print \$1 }" out/vs-fio-partial.txt >goal-rows
	test -s goal-rows
	cmp table-rows goal-rows
	grep -E "^  null, one worker, x fio +[0-9.]+ \(goal: at least 3\): (met|missed)$" out/vs-fio-partial.txt
	grep -E "^  planning 100000 points +[0-9.]+ s, [0-9.]+ MiB" out/vs-fio-partial.txt
	grep -E "^  start-up, net x fio.s wall +(-?[0-9.]+|nan) \(goal: at most 0.05\): (met|missed)$" out/vs-fio-partial.txt
	grep -E "^  start-up, x fio.s peak RSS +[0-9.]+ \(goal: at most 0.2\): (met|missed)$" out/vs-fio-partial.txt
	grep -E "^goals: [0-9]+ met, [0-9]+ tie, [0-9]+ kernel-bound, [0-9]+ host-bound, [0-9]+ behind, [0-9]+ over, [0-9]+ missed$" out/vs-fio-partial.txt
'

# The mixed pair's two rows come from one run of each tool a round: every figure but the
# throughput (and its rounds' ahead and range) is the same in both, and each direction's
# rounds file holds one line a round.
test_expect_success 'the mixed pair: reads and writes from the same runs, one CPU figure' '
	if grep -E "^libaio-randrw70-4k-qd16: skipped: backend" out/vs-fio-partial.txt >/dev/null; then
		exit 0
	fi
	grep "^libaio-randrw70-4k-qd16-read " out/vs-fio-partial.txt >read.row
	grep "^libaio-randrw70-4k-qd16-write " out/vs-fio-partial.txt >write.row
	cut -d" " -f2- read.row | awk "{ \$3 = \$4 = \$5 = \$18 = \$19 = \"\"; print }" >read.rest
	cut -d" " -f2- write.row | awk "{ \$3 = \$4 = \$5 = \$18 = \$19 = \"\"; print }" >write.rest
	cat read.rest
	expect_eq "$(cat write.rest)" "$(cat read.rest)" "the columns both rows share"
	# Each row its own direction: a 70/30 mix reads more than it writes, with either tool.
	awk "NR == FNR { f = \$4; i = \$5; next } { exit !(f > \$4 && i > \$5) }" read.row write.row
	for d in read write; do
		for t in fio iot; do
			expect_eq "$(wc -l <out/libaio-randrw70-4k-qd16-$d.irq.$t.tsv)" 1 "$d $t rounds"
		done
	done
	expect_eq "$(ls out/*randrw70*.fio.json)" "out/libaio-randrw70-4k-qd16.fio.json"
'

# Each read row: fio read the file named in its json, iotrial the target of its job file:
# one file, fio's layout in BENCH_DIR, removed by the script after the row. A write row:
# each tool its own.
test_expect_success 'a row that only reads the disk has both tools read one file; a write row does not' '
	for r in $SHARED_ROWS libaio-randwrite-64k-qd8; do
		if grep -E "^$r: skipped: backend" out/vs-fio-partial.txt >/dev/null; then
			continue
		fi
		jq -r ".jobs[0][\"job options\"].filename" "out/$r.fio.json" >fio.file
		sed -n "s/.*{name: $r, target: \"\([^\"]*\)\".*/\1/p" "out/$r.yaml" >iot.file
		case $r in
		*write*)
			expect_eq "$(cat fio.file) $(cat iot.file)" "$TRASH/target/fio.$r $TRASH/target" "$r: files"
			;;
		*)
			expect_eq "$(cat fio.file) $(cat iot.file)" "$TRASH/target/shared.$r.dat $TRASH/target/shared.$r.dat" "$r: files"
			;;
		esac
	done
	ls -A target >left
	expect_eq "$(cat left)" "" "files left in BENCH_DIR"
'

# The target folder of this test is on a block device on any machine that runs the direct
# rows; its queue and interrupts are what the header describes. A disk with a device (vda, an
# NVMe or SCSI disk) has interrupts; a virtual one (a loop device, which a CI may put its
# checkout on) has none, and the header says so and names no CPU for them.
test_expect_success 'the header names the disk under the target, its queue and its interrupt CPUs' '
	grep -E "^target: $TRASH/target on /dev/[a-z0-9-]+ \([a-z0-9]+\): .*; scheduler [a-z-]+, [0-9]+ hardware queue\(s\), nr_requests [0-9]+, rotational [01], rq_affinity [0-2]$" out/vs-fio-partial.txt >target.txt
	disk=$(sed "s|^target: [^ ]* on /dev/\([a-z0-9-]*\) .*|\1|" target.txt)
	test -d "/sys/block/$disk"
	if [ -e "/sys/block/$disk/device" ]; then
		grep -E "^interrupts of the disk during the run: CPU0 [0-9]+(, CPU[0-9]+ [0-9]+)*$" out/vs-fio-partial.txt
		grep -E "^completion CPU\(s\) of /dev/$disk \(the most of its interrupts so far\): [0-9,]+$" out/vs-fio-partial.txt
	else
		grep -x "interrupts of /dev/$disk: not found" out/vs-fio-partial.txt
		grep -x "interrupts of the disk during the run: unknown (no interrupt found for the disk)" out/vs-fio-partial.txt
		not grep "^completion CPU" out/vs-fio-partial.txt
	fi
'

test_expect_success 'placements irq and other split the CPUs; none pins nothing; a list is itself' '
	cat >probe.sh <<-EOF
		BENCH_DIR=$TRASH/target IOTRIAL=$IOTRIAL
		. $SRC/bench/env.sh
		echo "irq=\$(placement_cpus irq) other=\$(placement_cpus other) none=\$(placement_cpus none) list=\$(placement_cpus 0-1)"
		echo "disk=\$DISK"
	EOF
	sh probe.sh >probe.out
	# No CPU takes the interrupts of a virtual disk (see above): irq is empty there, only there.
	disk=$(sed -n "s/^disk=//p" probe.out)
	irqs="[0-9,]+"
	if [ ! -e "/sys/block/$disk/device" ]; then
		irqs=""
	fi
	grep -E "^irq=$irqs other=[0-9,]* none= list=0-1$" probe.out
	sed -n "s/^irq=\([0-9,]*\) other=\([0-9,]*\) .*/\1,\2/p" probe.out | tr , "\n" | sed "/^$/d" | sort -n >cpus
	seq 0 $(($(getconf _NPROCESSORS_ONLN) - 1)) >want
	expect_eq "$(cat cpus)" "$(cat want)" "irq and other together are every CPU, once"
'

# The docs' examples name pairs, and several placements: a row per pair and placement.
test_expect_success 'QUICK=1 ROUNDS=2 PLACEMENT="irq other none" bench/vs-fio.sh PAIR...: a row per placement' '
	QUICK=1 ROUNDS=2 PLACEMENT="irq other none" BENCH_DIR="$TRASH/target" BENCH_OUT="$TRASH/out2" IOTRIAL="$IOTRIAL" sh "$SRC/bench/vs-fio.sh" psync-randread-4k-qd1 uring-randread-4k-qd1 >bench2.out 2>&1 || { cat bench2.out; false; }
	grep -c "^psync-randread-4k-qd1 " out2/vs-fio-partial.txt >n
	expect_eq "$(cat n)" 3 "rows of psync-randread-4k-qd1"
	awk "/^[^ ]/ && \$1 == \"psync-randread-4k-qd1\" { print \$2 }" out2/vs-fio-partial.txt >cpus
	expect_eq "$(sed -n 3p cpus)" any "the unpinned row"
	grep -E "^placement other: (both tools. I/O on CPU [0-9,]+ \(iotrial: taskset -c; fio: cpus_allowed\), away from the disk.s interrupts|both tools unpinned: no CPU found for .other. .*)$" out2/vs-fio-partial.txt
	grep -E "^medians of 2 rounds," out2/vs-fio-partial.txt
	not grep "^uring-randread-4k-qd32 " out2/vs-fio-partial.txt
	ROWS="psync-randread-4k-qd1 uring-randread-4k-qd1" PER=3 bad_rows out2/vs-fio-partial.txt >bad2
	expect_eq "$(cat bad2)" "" "rows of two rounds: figures, ahead k/2, range"
	not grep "^record log" out2/vs-fio-partial.txt
	not grep "^null, two workers" out2/vs-fio-partial.txt
	test ! -e out2/scaling.tsv
	not grep "^start-up" out2/vs-fio-partial.txt
'

# A name that is no row: refused before anything runs or is removed. A mixed pair's row
# name runs the pair (both rows); another pair's name with -read runs nothing.
test_expect_success 'bench/vs-fio.sh NAME: no such row is exit 2 and one line; a mixed row runs its pair' '
	mkdir -p out3
	: >out3/keep.tsv
	expect_code 2 env QUICK=1 BENCH_DIR="$TRASH/target" BENCH_OUT="$TRASH/out3" IOTRIAL="$IOTRIAL" sh "$SRC/bench/vs-fio.sh" seqwrite-1m seqwrite-1m-read >bench3.out 2>bench3.err
	cat bench3.err
	expect_eq "$(wc -l <bench3.err)" 1 "lines on stderr"
	grep -E "^bench/vs-fio.sh: no pair seqwrite-1m-read \(pairs: seqwrite-1m seqwrite-1m-direct .* libaio-randrw70-4k-qd16 .*scaling null-logged startup\)$" bench3.err
	test ! -s bench3.out
	expect_eq "$(ls out3)" keep.tsv "what out3 holds"
	if ! grep -E "^libaio-randrw70-4k-qd16-read " out/vs-fio-partial.txt >/dev/null; then
		exit 0
	fi
	QUICK=1 PLACEMENT=irq BENCH_DIR="$TRASH/target" BENCH_OUT="$TRASH/out3" IOTRIAL="$IOTRIAL" sh "$SRC/bench/vs-fio.sh" libaio-randrw70-4k-qd16-write >bench3.out 2>&1 || { cat bench3.out; false; }
	awk "/^workload / { t = 1; next } /^medians/ { t = 0 } t { print \$1 }" out3/vs-fio-partial.txt >rows3
	expect_eq "$(cat rows3 | tr "\n" " ")" "libaio-randrw70-4k-qd16-read libaio-randrw70-4k-qd16-write " "rows"
	test ! -e out3/keep.tsv
'

# A tool that fails mid-run ends the script with its words and exit 1, and leaves no table
# that looks whole (sh has no pipefail: the table half of the pipe ends alone).
test_expect_success 'bench/vs-fio.sh startup with an iotrial that fails: exit 1, the command named, no table' '
	expect_code 1 env QUICK=1 BENCH_DIR="$TRASH/target" BENCH_OUT="$TRASH/out4" IOTRIAL=/bin/false sh "$SRC/bench/vs-fio.sh" startup >bench4.out 2>bench4.err
	cat bench4.err
	grep -x "bench/vs-fio.sh: start-up: /bin/false run -q $TRASH/out4/startup.yaml -o $TRASH/out4/startup.iotrial failed:" bench4.err
	grep -x "bench/vs-fio.sh: the run ended before its table did; what it printed is in $TRASH/out4/vs-fio-partial.txt.tmp" bench4.err
	test ! -e out4/vs-fio-partial.txt
	not grep "^table: " bench4.out
	expect_eq "$(ls target)" "" "files left in BENCH_DIR"
'

# Only lines of their own (no row): no rows' header. A busy loop whose clock cannot be read
# ends the script with its words and exit 1.
test_expect_success 'bench/vs-fio.sh startup: no rows, no header; scaling with a broken clock: exit 1, one line' '
	QUICK=1 BENCH_DIR="$TRASH/target" BENCH_OUT="$TRASH/out5" IOTRIAL="$IOTRIAL" sh "$SRC/bench/vs-fio.sh" startup >bench5.out 2>&1 || { cat bench5.out; false; }
	grep "^start-up, 4 KiB reads" out5/vs-fio-partial.txt
	not grep "^workload " out5/vs-fio-partial.txt
	mkdir -p fakebin
	printf "#!/bin/sh\ncase \"\$*\" in *%%N*) exit 1 ;; esac\nexec /bin/date \"\$@\"\n" >fakebin/date
	chmod +x fakebin/date
	expect_code 1 env PATH="$TRASH/fakebin:$PATH" QUICK=1 BENCH_DIR="$TRASH/target" BENCH_OUT="$TRASH/out5" IOTRIAL="$IOTRIAL" timeout 120 sh "$SRC/bench/vs-fio.sh" scaling >bench5.out 2>bench5.err
	cat bench5.err
	grep -x "bench/vs-fio.sh: a busy loop of the scaling rounds failed (awk, or date +%s%N)" bench5.err
	grep -x "bench/vs-fio.sh: the run ended before its table did; what it printed is in $TRASH/out5/vs-fio-partial.txt.tmp" bench5.err
	expect_eq "$(wc -l <bench5.err)" 2 "lines on stderr"
'

test_expect_success 'README.md quotes bench/out/vs-fio.txt as it is, a full run of every row' '
	test -s "$SRC/bench/out/vs-fio.txt"
	bad_rows "$SRC/bench/out/vs-fio.txt" >bad
	expect_eq "$(cat bad)" "" "rows missing or not numeric in bench/out/vs-fio.txt"
	grep -E "^start-up, 4 KiB reads of a 1 MiB file \(whole command\): fio [0-9.]+ ms, iotrial [0-9.]+ ms" "$SRC/bench/out/vs-fio.txt"
	grep -E "^goals: [0-9]+ met, " "$SRC/bench/out/vs-fio.txt"
	awk "/^<!-- bench\/out\/vs-fio.txt: begin -->/ { on = 1; next } /^<!-- bench\/out\/vs-fio.txt: end -->/ { on = 0 } on" "$SRC/README.md" >quoted
	sed -e "/^\`\`\`/d" quoted >quoted.txt
	diff -u "$SRC/bench/out/vs-fio.txt" quoted.txt
'

test_expect_success 'make bench runs bench/vs-fio.sh, then quotes its table in README.md' '
	make -s -C "$SRC" -n bench >dry
	grep -x "bench/vs-fio.sh" dry
	grep "bench/quote-table.sh" dry
'

test_done
