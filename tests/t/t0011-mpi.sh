#!/bin/bash
# Distributed runs under MPI (Open MPI's mpirun): the MPI build is built into build-mpi/
# (build-mpi-asan/, with AddressSanitizer and UndefinedBehaviorSanitizer, when $IOTRIAL is a
# sanitizer build, as under make test-asan); with 1, 2 and 4 ranks (and once over TCP on
# loopback) rank 0 alone writes results whose sums match the per-rank rows, with every
# rank's worker rows and every rank's record-log lines; a failing rank fails the trial by
# name; a rank that cannot open its target stops every rank; a slow rank is stonewalled
# (time, first_done, wear_out); a serial build under mpirun refuses to run. No bandwidth is
# ever asserted: only sums, counts and orderings.
. "$(dirname "$0")/lib.sh"
need_cmd jq
need_cmd mpirun

# Open MPI refuses root without these; CI runs as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI_B=build-mpi
MPI_SANITIZE=0
if grep -q __asan_init "$IOTRIAL"; then
	MPI_B=build-mpi-asan
	MPI_SANITIZE=1
	# Open MPI frees little of what it allocates in MPI_Init and MPI_Finalize and in its
	# progress threads: tests/lsan-openmpi.supp names those places. Matching them needs whole
	# stacks, which the fast unwinder cuts short in libraries built without frame pointers.
	export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}:fast_unwind_on_malloc=0"
	export LSAN_OPTIONS="suppressions=$SRC/tests/lsan-openmpi.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
fi
MPI_IOTRIAL="$SRC/$MPI_B/iotrial"
# ob1 with shared memory or TCP: no fabric needed; threads of workers must not share a core.
MPIRUN="mpirun --oversubscribe --mca pml ob1 --bind-to none"

# ./on_rank RANK VAR VALUE CMD...: CMD, with VAR=VALUE on rank RANK only.
cat >on_rank <<'EOF'
#!/bin/sh
if [ "$OMPI_COMM_WORLD_RANK" = "$1" ]; then export "$2=$3"; fi
shift 3
exec "$@"
EOF
chmod +x on_rank

# One build at a time: test runs started side by side share the build folder.
test_expect_success "make MPI=1 builds $MPI_B/iotrial, and --version says MPI is in" '
	mkdir -p "$SRC/$MPI_B"
	(cd "$SRC"; env -u MAKEFLAGS -u MFLAGS flock $MPI_B/.lock make --no-print-directory \
		-j4 B=$MPI_B/ MPI=1 SANITIZE=$MPI_SANITIZE $MPI_B/iotrial >/dev/null)
	"$MPI_IOTRIAL" --version >v
	grep -q "distributed runs: MPI" v
	"$IOTRIAL" --version >v
	grep -q "distributed runs: no" v
	if test $MPI_SANITIZE = 1; then
		grep -q __asan_init "$MPI_IOTRIAL"
	else
		not grep -q __asan_init "$MPI_IOTRIAL"
	fi
'
if ! test -x "$MPI_IOTRIAL"; then
	skip_rest 'the MPI build did not build'
fi

cat >j.yaml <<'JOB'
experiment: "dist-${size}"
replication: {runs: 2}
defaults: {log: {records: true, interval: 10ms}}
jobs:
  - {name: w, workload: write, file_size: 2MiB, block_size: 64KiB, threads: 2}
  - {name: r, workload: randread, file_size: 2MiB, block_size: 4KiB, runtime: 50ms}
JOB

# Every trial of results file $1 (there is at least one) has $2 rank rows whose figures add
# up to the trial's. First done counts all the bytes of the rank that ended first (its
# end_ns, from the common barrier: with start skew, not always the one of fewest seconds).
check_sums() {
	jq -e --argjson n "$2" '[.jobs[].trials[] | . as $t |
		(.ranks | length) == $n and
		.bytes == ([.ranks[].bytes] | add) and .ios == ([.ranks[].ios] | add) and
		.aggregate.lat_samples == ([.ranks[].ios] | add) and
		.aggregate.first_done.seconds <= .aggregate.last_done.seconds and
		.aggregate.first_done.bytes <= .bytes and
		.aggregate.first_done.estimated == false and
		.aggregate.first_done.bytes >= ([.ranks[] | select(.end_ns == ([$t.ranks[].end_ns] | min)) | .bytes] | max) - 1 and
		.aggregate.wall.seconds >= .aggregate.last_done.seconds and
		.seconds == ([.ranks[].seconds] | max) and .failed == false] | length > 0 and all' "$1"
}

# Every trial of a job with threads > 1 in results file $1 (there is at least one) lists the
# workers of every rank, rank by rank, and each rank's workers add up to its row.
check_workers() {
	jq -e '[.jobs[] | .threads as $k | select($k > 1) | .trials[] | . as $t |
		[.workers[].rank] == [.ranks[].rank as $r | range($k) | $r] and
		[.workers[].worker] == [.ranks[] | range($k)] and
		all(.ranks[]; . as $r | [$t.workers[] | select(.rank == $r.rank)] as $w |
			([$w[].bytes] | add) == $r.bytes and ([$w[].ios] | add) == $r.ios and
			([$w[].errors] | add) == $r.errors)] | length > 0 and all' "$1"
}

# Results folder $1, job $2: its record log has one line per I/O of every rank and worker
# (counted per trial, rank and worker against the worker rows, or the rank rows when the job
# has one worker), and its interval log adds up to each rank's bytes per trial.
check_records() {
	head -n 1 "$1/records/$2.csv" >hdr
	expect_eq "$(cat hdr)" "trial,worker,seq,offset,bytes,start_ns,latency_ns,rank"
	head -n 1 "$1/records/$2.intervals.csv" >hdr
	expect_eq "$(cat hdr)" "trial,worker,start_ns,end_ns,bytes,ios,bw_bytes,iops,lat_mean_ns,rank"
	jq -r --arg j "$2" '.jobs[] | select(.name == $j) | .trials[] | .index as $t |
		if .workers then .workers[] | "\($t) \(.rank) \(.worker) \(.ios)"
		else .ranks[] | "\($t) \(.rank) 0 \(.ios)" end' "$1/results.json" | sort >want
	awk -F, 'NR > 1 {n[$1 " " $8 " " $2]++} END {for (k in n) print k, n[k]}' \
		"$1/records/$2.csv" | sort >got
	test -s want
	expect_eq "$(cat got)" "$(cat want)" "record lines per trial, rank and worker"
	jq -r --arg j "$2" '.jobs[] | select(.name == $j) | .trials[] | .index as $t |
		.ranks[] | "\($t) \(.rank) \(.bytes)"' "$1/results.json" | sort >want
	awk -F, 'NR > 1 {n[$1 " " $10] += $5} END {for (k in n) print k, n[k]}' \
		"$1/records/$2.intervals.csv" | sort >got
	expect_eq "$(cat got)" "$(cat want)" "interval bytes per trial and rank"
}

test_expect_success 'without mpirun the MPI build runs as one rank' '
	"$MPI_IOTRIAL" run -q j.yaml -o one
	expect_eq "$(jq .ranks one/results.json)" 1
	expect_eq "$(jq "[.jobs[].trials[]] | length" one/results.json)" 4
	expect_eq "$(jq "[.jobs[].trials[] | has(\"ranks\")] | any" one/results.json)" false
	expect_eq "$(jq -c "[.jobs[0].trials[].workers[] | has(\"rank\")]" one/results.json)" "[false,false,false,false]"
	expect_eq "$(jq -r .experiment one/results.json)" dist-1
'

test_expect_success 'mpirun -np 1: one rank, no rank rows' '
	$MPIRUN -np 1 "$MPI_IOTRIAL" run -q j.yaml -o np1
	expect_eq "$(jq .ranks np1/results.json)" 1
	expect_eq "$(jq "[.jobs[].trials[]] | length" np1/results.json)" 4
	expect_eq "$(jq "[.jobs[].trials[] | .failed] | any" np1/results.json)" false
	expect_eq "$(jq "[.jobs[].trials[] | has(\"ranks\")] | any" np1/results.json)" false
	expect_eq "$(jq "[.jobs[0].trials[].workers | length]" -c np1/results.json)" "[2,2]"
'

for n in 2 4; do
	test_expect_success "mpirun -np $n: rank 0 alone writes; sums, merged histogram and aggregates agree with the rows" "
		\$MPIRUN -np $n \"\$MPI_IOTRIAL\" run -q j.yaml -o np$n >out$n 2>err$n
		ls np$n >files
		expect_eq \"\$(cat files)\" \"\$(printf \"records\nresults.json\nsummary.txt\ntrials.csv\")\"
		expect_eq \"\$(jq .ranks np$n/results.json)\" $n
		expect_eq \"\$(jq -r .experiment np$n/results.json)\" dist-$n
		expect_eq \"\$(jq \"[.jobs[].trials[]] | length\" np$n/results.json)\" 4
		check_sums np$n/results.json $n
		expect_eq \"\$(jq .jobs[0].trials[0].bytes np$n/results.json)\" $((n * 2 * 2097152))
		test ! -s out$n
		ls >files
		not grep iotrial-scratch files
	"
	test_expect_success "mpirun -np $n: every rank's workers have rows (threads: 2) that add up to its row" "
		check_workers np$n/results.json
		expect_eq \"\$(jq \"[.jobs[0].trials[].workers | length]\" -c np$n/results.json)\" \"[$((2 * n)),$((2 * n))]\"
	"
	test_expect_success "mpirun -np $n: the record and interval logs hold every I/O of every rank" "
		check_records np$n w
		check_records np$n r
		expect_eq \"\$(cut -d, -f8 np$n/records/w.csv | sort -u | tr '\n' ' ')\" \"\$(seq 0 $((n - 1)) | tr '\n' ' ')rank \"
	"
done

test_expect_success 'two ranks over TCP on loopback: figures, worker rows and record logs' '
	$MPIRUN --mca btl self,tcp --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
		-np 2 "$MPI_IOTRIAL" run -q j.yaml -o tcp
	check_sums tcp/results.json 2
	check_workers tcp/results.json
	check_records tcp w
	check_records tcp r
'

test_expect_success 'the rows are read back: report -f json keeps ranks, workers and aggregates' '
	"$MPI_IOTRIAL" report -f json np2/results.json >again.json
	expect_eq "$(jq -c "[.jobs[0].trials[0].workers[].rank]" again.json)" "[0,0,1,1]"
	expect_eq "$(jq -S "[.ranks, .jobs[].trials[] | .ranks, .aggregate, .workers]" again.json)" \
		"$(jq -S "[.ranks, .jobs[].trials[] | .ranks, .aggregate, .workers]" np2/results.json)"
'

test_expect_success 'every key of a distributed workers row is named in docs/results.md' '
	jq -r ".jobs[0].trials[0].workers[0] | keys[]" np2/results.json >keys
	grep -qx rank keys
	while read -r k; do
		grep -qF "| \`$k\` |" "$SRC/docs/results.md"
	done <keys
'

# Rank 1 logs 10^6 I/Os (a 40 MB record log), rank 0 a thousand; then both a thousand.
cat >big.yaml <<'JOB'
jobs:
  - {name: n, workload: randread, backend: null, block_size: 4KiB, file_size: "${FS:-4MB}", log: {records: true}}
JOB

test_expect_success 'a rank with a 10^6-line record log: every line arrives, rank 0 holds a chunk at a time' '
	$MPIRUN -np 2 ./on_rank 1 FS 4096MB "$MPI_IOTRIAL" run -q big.yaml -o big
	$MPIRUN -np 2 "$MPI_IOTRIAL" run -q big.yaml -o small
	expect_eq "$(jq -c "[.jobs[0].trials[0].ranks[].ios]" big/results.json)" "[976,1000000]"
	awk -F, "NR > 1 {n[\$8]++} END {print n[0], n[1]}" big/records/n.csv >counts
	expect_eq "$(cat counts)" "976 1000000"
	a=$(jq .resources.max_rss_bytes small/results.json)
	b=$(jq .resources.max_rss_bytes big/results.json)
	size=$(stat -c %s big/records/n.csv)
	echo "rank 0 peak RSS: $a bytes with a 976-line log from rank 1, $b with $size bytes of lines"
	awk -v a="$a" -v b="$b" -v s="$size" "BEGIN { exit !(a > 0 && s > 40000000 && b - a < s / 4) }"
'

test_expect_success 'a rank that cannot spool its record log stops the run before any trial, named, exit 1' '
	rc=0
	$MPIRUN -np 2 ./on_rank 1 TMPDIR /proc "$MPI_IOTRIAL" run -q big.yaml -o nospool 2>err || rc=$?
	expect_eq "$rc" 1
	grep -q "^iotrial: rank 1 (.*): cannot create a spool file for the record logs in /proc: " err
	grep -q "^stopping the run: another rank could not prepare it" err
	expect_eq "$(jq -c "[.complete, [.jobs[0].trials[]]]" nospool/results.json)" "[false,[]]"
'

# Rank 1's spool on a 2 MB file system: it fills up during each trial.
cat >full.yaml <<'JOB'
replication: {runs: 2}
jobs:
  - {name: n, workload: randread, backend: null, block_size: 4KiB, file_size: "${FS:-400KB}", log: {records: true}}
JOB

if [ "$(id -u)" = 0 ] && mkdir -p tiny && mount -t tmpfs -o size=2m tmpfs tiny 2>/dev/null; then
	test_expect_success 'a rank whose spool fills up: rank 0 names it, gets whole lines only, exit 1' '
		rc=0
		$MPIRUN -np 2 ./on_rank 1 TMPDIR "$TRASH/tiny" ./on_rank 1 FS 400MB "$MPI_IOTRIAL" run -q full.yaml -o full 2>err || rc=$?
		# Every figure measured, but records/ lacks lines: exit 1, and each trial says why.
		expect_eq "$rc" 1
		grep "^job .n.: rank 1 could not write every line of a record log of trial [01]: No space left on device; its lines are incomplete" err >lines
		expect_eq "$(wc -l <lines)" 2
		expect_eq "$(jq -c "[.jobs[0].trials[].log_error]" full/results.json)" \
			"[\"rank 1: No space left on device\",\"rank 1: No space left on device\"]" "log_error"
		awk -F, "NR > 1 {n[\$8]++; if (NF != 8 || \$8 !~ /^[01]\$/) bad++}
			END {print bad + 0, n[0], (n[1] > 1000) * (n[1] < 2 * 97656)}" full/records/n.csv >counts
		expect_eq "$(cat counts)" "0 194 1" "malformed lines, rank 0 lines, some of rank 1"
	'
	umount tiny
else
	test_skip 'a rank whose spool fills up: rank 0 names it, gets whole lines only, exit 1' 'needs root to mount a small tmpfs'
fi

# Rank 0's result folder on a 1 MiB file system: its own lines fit, rank 1's (4 MB) do not.
if [ "$(id -u)" = 0 ] && mkdir -p fullres && mount -t tmpfs -o size=1m tmpfs fullres 2>/dev/null; then
	test_expect_success 'rank 0 cannot append the other ranks lines: named, whole lines kept, exit 1' '
		rc=0
		$MPIRUN -np 2 ./on_rank 1 FS 400MB "$MPI_IOTRIAL" run -q full.yaml --set replication.runs=1 -o fullres/r 2>err || rc=$?
		expect_eq "$rc" 1
		grep -x "job .n.: a record log could not be written: No space left on device; the other ranks. lines of trial 0 are missing" err
		expect_eq "$(jq -c "[.complete, [.jobs[0].trials[].log_error]]" fullres/r/results.json)" \
			"[true,[\"No space left on device\"]]"
		# Whole lines only, every one of rank 0 and the first of rank 1.
		test "$(tail -c 1 fullres/r/records/n.csv | od -An -c | tr -d " ")" = "\n"
		awk -F, "NR > 1 {n[\$8]++; if (NF != 8 || \$8 !~ /^[01]\$/) bad++}
			END {print bad + 0, n[0], (n[1] > 1000) * (n[1] < 97656)}" fullres/r/records/n.csv >counts
		expect_eq "$(cat counts)" "0 97 1" "malformed lines, rank 0 lines, some of rank 1"
	'
	umount fullres
else
	test_skip 'rank 0 cannot append the other ranks lines: named, whole lines kept, exit 1' 'needs root to mount a small tmpfs'
fi

# The room rank 0 keeps for the results (86 KiB for one trial of 2 ranks) on a 1 MiB tmpfs: a target on
# that disk that fits there only without the room, of rank 0 or of a rank on its machine.
printf 'replication: {runs: 1, warmup: 0}\njobs:\n  - {target: "${TGT:-.}/", name: w, workload: write, backend: sync, file_size: 960KiB, block_size: 64KiB}\n' >room.yaml
if [ "$(id -u)" = 0 ] && mkdir -p mroom && mount -t tmpfs -o size=1m tmpfs mroom 2>/dev/null; then
	test_expect_success 'a target on the disk where rank 0 keeps room, that fits only without it: refused when planning, on every rank' '
		for r in 0 1; do
			rc=0
			$MPIRUN -np 2 ./on_rank $r TGT mroom "$MPI_IOTRIAL" run -q room.yaml -o mroom/r 2>err || rc=$?
			expect_eq "$rc" 1 "exit status, target of rank $r"
			grep "room.yaml:3:14: key .target.: not enough free space in .mroom. beside the room kept for the results: 983040 bytes needed for what the plan creates or grows on its file system (1 file), and 90112 kept for the results in .mroom/r.; 1048576 available" err
			expect_eq "$(grep -c "not enough free space" err)" 1 "lines, target of rank $r"
			expect_eq "$(ls -A mroom)" "" "the disk"
		done
		# The results elsewhere: no room on that disk, and the run runs.
		$MPIRUN -np 2 ./on_rank 1 TGT mroom "$MPI_IOTRIAL" run -q room.yaml -o elsewhere 2>err
		expect_eq "$(jq ".jobs[0].trials[0].bytes" elsewhere/results.json)" 1966080
		expect_eq "$(ls -A mroom)" "" "the disk"
	'
	umount mroom
else
	test_skip 'a target on the disk where rank 0 keeps room, that fits only without it: refused when planning, on every rank' 'needs root to mount a small tmpfs'
fi

# An existing file of 64 KiB that 2 ranks write over with layout shared (or strided): each
# rank its own region of 640 KiB, so the file grows to 1280 KiB, 1245184 bytes more in
# 64 KiB pages, where 983040 are free. Counted as one rank's region (576 KiB), the plan
# passed, and the trial failed with ENOSPC halfway through.
if [ "$(id -u)" = 0 ] && mkdir -p mgrow && mount -t tmpfs -o size=1m tmpfs mgrow 2>/dev/null; then
	for l in shared strided; do
		printf 'replication: {runs: 1, warmup: 0}\njobs:\n  - {target: mgrow/ex.bin, name: w, workload: write, backend: sync, allow_overwrite: true, layout: %s, file_size: %s, block_size: 64KiB}\n' $l 640KiB >grow-$l.yaml
	done
	printf 'replication: {runs: 1, warmup: 0}\njobs:\n  - {target: mgrow/ex.bin, name: w, workload: write, backend: sync, allow_overwrite: true, layout: shared, file_size: 448KiB, block_size: 64KiB}\n' >grow-fits.yaml
	test_expect_success 'an existing file the ranks share, written over: it grows by every rank region, refused when planning' '
		for l in shared strided; do
			head -c 65536 /dev/zero >mgrow/ex.bin
			rc=0
			$MPIRUN -np 2 "$MPI_IOTRIAL" run -q grow-$l.yaml -o elsewhere-$l 2>err || rc=$?
			expect_eq "$rc" 1 "exit status, layout $l"
			grep "grow-$l.yaml:3:14: key .target.: not enough free space in .mgrow.: 1245184 bytes needed for what the plan creates or grows on its file system (1 file), 983040 available" err
			expect_eq "$(grep -c "not enough free space" err)" 1 "lines, layout $l"
			test ! -e elsewhere-$l
			expect_eq "$(stat -c %s mgrow/ex.bin)" 65536 "the file written over, layout $l"
		done
		$MPIRUN -np 2 "$MPI_IOTRIAL" run -q grow-fits.yaml -o elsewhere-fits 2>err
		expect_eq "$(stat -c %s mgrow/ex.bin)" 917504 "the file written over by both ranks"
	'
	umount mgrow
else
	test_skip 'an existing file the ranks share, written over: it grows by every rank region, refused when planning' 'needs root to mount a small tmpfs'
fi

cat >rank.yaml <<'JOB'
jobs:
  - {name: w, workload: write, file_size: 1MiB, block_size: 64KiB, target: "./mine-${rank}-of-${size}.dat", keep_files: true}
JOB

test_expect_success '${rank} and ${size} expand per rank' '
	$MPIRUN -np 2 "$MPI_IOTRIAL" run -q rank.yaml -o rk
	test -s mine-0-of-2.dat
	test -s mine-1-of-2.dat
	expect_eq "$(jq -c "[.jobs[0].trials[0].ranks[].rank]" rk/results.json)" "[0,1]"
'

cat >shared.yaml <<'JOB'
defaults: {target: ".", file_size: 1MiB, block_size: 64KiB, verify: true}
jobs:
  - {name: seg, workload: write, layout: shared}
  - {name: str, workload: write, layout: strided}
  - {name: rd, workload: randread, layout: shared, runtime: 50ms}
JOB

test_expect_success 'layout shared and strided: one file, each rank its region, verified' '
	$MPIRUN -np 2 "$MPI_IOTRIAL" run -q shared.yaml -o sh
	check_sums sh/results.json 2
	expect_eq "$(jq "[.jobs[0,1].trials[].ranks[].bytes] | unique" -c sh/results.json)" "[1048576]"
	ls >files
	not grep "iotrial\..*\.dat" files
'

cat >scale.yaml <<'JOB'
jobs:
  - {name: w, workload: write, file_size: 1MiB, block_size: 64KiB, threads: 2, log: {records: true, interval: 10ms}, matrix: {ranks: [1, 2]}}
JOB

test_expect_success 'ranks in a matrix: each point runs on as many ranks, with their rows and log lines only' '
	$MPIRUN -np 2 "$MPI_IOTRIAL" run -q scale.yaml -o sc
	expect_eq "$(jq -c "[.jobs[] | .trials[0].ranks | length]" sc/results.json)" "[1,2]"
	expect_eq "$(jq -c "[.jobs[] | .trials[0].bytes]" sc/results.json)" "[2097152,4194304]"
	expect_eq "$(jq -c "[.jobs[] | [.trials[0].workers[].rank]]" sc/results.json)" "[[0,0],[0,0,1,1]]"
	check_workers sc/results.json
	check_records sc "w[ranks=1]"
	check_records sc "w[ranks=2]"
'

test_expect_success 'more ranks than launched is refused at validate time' '
	printf "jobs:\n  - {name: w, workload: write, ranks: 4}\n" >four.yaml
	rc=0
	$MPIRUN -np 2 "$MPI_IOTRIAL" validate four.yaml >/dev/null 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "asks for 4 ranks, but the run has 2" err
	test "$(grep -c "asks for 4 ranks" err)" = 1
	rc=0
	"$IOTRIAL" validate four.yaml 2>err1 || rc=$?
	expect_eq "$rc" 2
	grep -q "four.yaml:2:.*key .ranks.: the job asks for 4 ranks, but the run has 1" err1
'

cat >eio.yaml <<'JOB'
replication: {runs: 2}
jobs:
  - {name: bad, workload: read, backend: fault, file_size: 1MiB, block_size: 64KiB, fault_eio_rate: "${EIO_RATE:-0}"}
JOB

test_expect_success 'a failing rank fails the trial everywhere, named by rank, exit 1' '
	rc=0
	$MPIRUN -np 2 ./on_rank 1 EIO_RATE 1 "$MPI_IOTRIAL" run -q eio.yaml -o eio 2>err || rc=$?
	expect_eq "$rc" 1
	expect_eq "$(jq -c "[.jobs[0].trials[] | .failed]" eio/results.json)" "[true,true]"
	jq -e ".jobs[0].trials[0].error | startswith(\"rank 1 (\")" eio/results.json
	expect_eq "$(jq -c "[.jobs[0].trials[0].ranks[].error | type]" eio/results.json)" "[\"null\",\"string\"]"
	grep -q "rank 1 (.*Input/output error" err
'

# Rank 1 is slow (20 ms per I/O); the fast rank 0 is done with 1 MiB in a few milliseconds.
cat >sw.yaml <<'JOB'
defaults: {workload: write, backend: fault, file_size: 1MiB, block_size: 64KiB, fault_delay: "${SLOW:-0}"}
jobs:
  - {name: none}
  - {name: fd, stonewall: first_done}
  - {name: wo, stonewall: wear_out, threads: 2, verify: true}
  - {name: tm, stonewall: time, stonewall_cap: 100ms}
JOB

test_expect_success 'stonewall: a slow rank shows in the rows; without a stonewall it does its whole size' '
	$MPIRUN -np 2 ./on_rank 1 SLOW 20ms "$MPI_IOTRIAL" run -q sw.yaml -o sw
	check_sums sw/results.json 2
	check_workers sw/results.json
	jq -e ".jobs[0].trials[0] | .ranks[1].seconds > .ranks[0].seconds and
		([.ranks[].bytes] | unique) == [1048576] and (has(\"stonewalled\") | not) and
		(.ranks[0] | has(\"stopped\") | not)" sw/results.json
'

test_expect_success 'stonewall first_done: the fast rank does its size, the slow one stops early' '
	jq -e ".jobs[1].trials[0] | .stonewalled and .stonewall_bytes == .bytes and
		.ranks[0].bytes == 1048576 and (.ranks[0].stopped | not) and
		.ranks[1].stopped and .ranks[1].bytes < 1048576 and
		.ranks[1].stonewall_bytes == .ranks[1].bytes" sw/results.json
'

test_expect_success 'stonewall wear_out: every rank tops up to the most moved, and verifies' '
	jq -e ".jobs[2].trials[0] | .stonewalled and .failed == false and
		([.ranks[].bytes] | unique) == [2097152] and .ranks[1].stopped and
		.ranks[1].stonewall_bytes < 2097152 and .stonewall_bytes < .bytes and
		.stonewall_bytes == ([.ranks[].stonewall_bytes] | add)" sw/results.json
'

test_expect_success 'stonewall time: each rank stops by the cap or at its size' '
	jq -e ".jobs[3].trials[0] | .stonewalled and .ranks[0].bytes == 1048576 and
		(.ranks[0].stopped | not) and .ranks[1].stopped and .ranks[1].bytes < 1048576 and
		.ranks[1].seconds >= 0.1 and .ranks[1].seconds < 1" sw/results.json
'

test_expect_success 'stonewall figures are read back by report -f json' '
	"$MPI_IOTRIAL" report -f json sw/results.json >swagain.json
	expect_eq "$(jq -S "[.jobs[].trials[] | [.stonewalled, .stonewall_bytes, .ranks]]" swagain.json)" \
		"$(jq -S "[.jobs[].trials[] | [.stonewalled, .stonewall_bytes, .ranks]]" sw/results.json)"
'

cat >open.yaml <<'JOB'
replication: {runs: 3}
jobs:
  - {name: w, workload: write, file_size: 64KiB, block_size: 64KiB, allow_overwrite: true, target: "${TGT:-./ok.dat}"}
JOB

test_expect_success 'a rank that cannot open its target stops every rank: rank and path named, exit 1' '
	cp "$(command -v sleep)" ./busy
	./busy 60 &
	busy=$!
	sleep 0.3
	rc=0
	timeout 60 $MPIRUN -np 2 ./on_rank 1 TGT "$TRASH/busy" "$MPI_IOTRIAL" run -q open.yaml -o open 2>err || rc=$?
	kill $busy 2>/dev/null
	expect_eq "$rc" 1
	grep -q "rank 1 (.*cannot open .*busy.*Text file busy" err
	grep -q "stopping the run" err
	expect_eq "$(jq .complete open/results.json)" false
	expect_eq "$(jq "[.jobs[0].trials[]] | length" open/results.json)" 1
'

test_expect_success 'ranks that disagree on the job (--set) are refused with one message' '
	rc=0
	$MPIRUN -np 2 sh -c "if [ \"\$OMPI_COMM_WORLD_RANK\" = 1 ]; then set -- --set seed=5; fi; exec \"$MPI_IOTRIAL\" run -q j.yaml -o dis \"\$@\"" 2>err || rc=$?
	expect_eq "$rc" 1
	test ! -e dis
	grep -q "ranks disagree: rank 1 .* has job file and --set options" err
	test "$(grep -c "ranks disagree" err)" = 1
'

test_expect_success 'a serial build under mpirun -np 2 refuses to run' '
	rc=0
	$MPIRUN -np 2 "$IOTRIAL" run -q j.yaml -o serial 2>err || rc=$?
	expect_eq "$rc" 1
	test ! -e serial
	grep -q "launched as one of 2 processes (OMPI_COMM_WORLD_SIZE=2), but this iotrial is a serial build" err
'

test_done
