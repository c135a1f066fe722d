#!/bin/bash
# The result folder on a full or read-only disk: an unwritable or full folder is found
# before the first trial, the room for the results is kept while trials run and their
# targets and logs fill the disk, and each file that could not be written names the real
# errno. The folder's other promises: t0015-result-folder.sh.
. "$(dirname "$0")/lib.sh"
need_cmd jq
. "$SRC/tests/t/result-folder.inc.sh"

# A folder that cannot be written: a read-only bind mount (mode 555 stops no root).
if [ "$(id -u)" = 0 ] && mkdir ro && mount --bind ro ro 2>/dev/null; then
	if mount -o remount,bind,ro ro 2>/dev/null; then
		test_expect_success 'a read-only -o folder is refused before the first trial, exit 1' '
			expect_code 1 "$IOTRIAL" run -q -o ro mark.yaml 2>err
			grep "iotrial: cannot write to result folder .ro.: Read-only file system" err
			not grep "results in" err
			test ! -e ran
		'
	else
		test_skip 'a read-only -o folder is refused before the first trial' 'cannot remount a bind mount read-only'
	fi
	umount ro
else
	test_skip 'a read-only -o folder is refused before the first trial' 'needs root to bind-mount'
fi

# A full disk: a 64 KiB tmpfs, filled.
if [ "$(id -u)" = 0 ] && mkdir full && mount -t tmpfs -o size=64k tmpfs full 2>/dev/null; then
	test_expect_success 'a full -o folder is refused before the first trial, naming ENOSPC' '
		# The lock file a killed run left (its page is reused): only the probe finds no room.
		mkdir full/r
		echo 4242 >full/r/.iotrial.lock
		dd if=/dev/zero of=full/fill bs=4k 2>/dev/null || true
		expect_code 1 "$IOTRIAL" run -q -o full/r mark.yaml 2>err
		grep "iotrial: cannot write to result folder .full/r.: No space left on device" err
		test ! -e ran
		rm -rf full/r
	'
	test_expect_success 'a disk that fills while results are written: the real errno, no temporary file' '
		# Room for the lock, the probe and summary.txt; not for results.json.
		rm full/fill
		dd if=/dev/zero of=full/fill bs=4k 2>/dev/null || true
		truncate -s $(( $(stat -c %s full/fill) - 12288 )) full/fill
		# 200 trials: a results.json past the writer'"'"'s buffer, so the failure comes mid-report.
		expect_code 1 "$IOTRIAL" run -q -o full/r --set replication.runs=200 a.yaml 2>err
		grep "iotrial: cannot write full/r/results.json: No space left on device" err
		grep "iotrial: results in full/r/ are incomplete: [12] file(s) not written" err
		no_leftovers full/r
		test ! -e full/r/results.json
	'
	umount full
else
	test_skip 'a full -o folder' 'needs root to mount a tmpfs'
fi

# Record logs that fill the disk: a 512 KiB tmpfs, three trials of 51,200 I/Os each logged.
if [ "$(id -u)" = 0 ] && mkdir small && mount -t tmpfs -o size=512k tmpfs small 2>/dev/null; then
	printf 'experiment: logs\njobs:\n  - {name: a, workload: randread, backend: null, file_size: 1MiB, block_size: 4KiB, io_limit: 200MiB, log: {records: true}, replication: {runs: 3, warmup: 0}}\n' >logs.yaml
	test_expect_success 'record logs that fill the disk: every result file written, each trial says its log lacks lines, exit 1' '
		expect_code 1 "$IOTRIAL" run -q -o small/r logs.yaml 2>err
		grep "job .a.: a record log could not be written: No space left on device; logging stopped" err
		not grep -e "incomplete" -e "cannot write" -e warning err
		whole_run small/r
		expect_eq "$(jq -c "[.jobs[0].trials[].log_error]" small/r/results.json)" \
			"[\"No space left on device\",\"No space left on device\",\"No space left on device\"]" "log_error"
		grep -x "  a: records/ lacks lines of 3 trials (No space left on device)" small/r/summary.txt
		grep "records/ holds each one, but for the trials said below" small/r/summary.txt
		"$IOTRIAL" report small/r/results.json >again.txt
		grep -x "  a: records/ lacks lines of 3 trials (No space left on device)" again.txt
		rm -rf small/r
	'
	test_expect_success 'the lock file holds room for the results while the run goes on' '
		rm -rf small/*
		printf "experiment: hold\njobs:\n  - {name: h, workload: randread, backend: null, file_size: 1MiB, block_size: 4KiB, runtime: 1s, replication: {runs: 1, warmup: 0}}\n" >hold.yaml
		"$IOTRIAL" run -q -o small/h hold.yaml 2>err &
		pid=$!
		size=0 blocks=0
		for i in $(seq 100); do
			size=$(stat -c %s small/h/.iotrial.lock 2>/dev/null || echo 0)
			blocks=$(stat -c %b small/h/.iotrial.lock 2>/dev/null || echo 0)
			if [ "$size" -gt 65536 ]; then break; fi
			sleep 0.02
		done
		# 64 KiB, 16 KiB for the instance, 4 KiB for its trial, after the pid line.
		expect_eq "$size" $(( (84 << 10) + ${#pid} + 1 )) "the lock file'"'"'s length"
		test "$(( blocks * 512 ))" -ge $(( 84 << 10 ))
		head -n1 small/h/.iotrial.lock | grep -x "$pid"
		wait $pid
		whole_run small/h
		rm -rf small/h
	'
	test_expect_success 'a disk with less room than the results may take: warned once, the run goes on' '
		rm -rf small/*
		dd if=/dev/zero of=small/fill bs=64k count=4 2>/dev/null
		"$IOTRIAL" run -q -o small/w --set replication.runs=60 a.yaml 2>err
		expect_eq "$(grep -c warning err)" 1 "warnings"
		grep -x "iotrial: warning: cannot keep 0.3 MiB in result folder .small/w. for the results: No space left on device; if the disk fills during the run, they may not be written" err
		whole_run small/w
		rm -rf small/w small/fill
	'
	umount small
else
	test_skip 'record logs that fill the disk' 'needs root to mount a tmpfs'
fi

# Targets on the result folder's disk, a 1 MiB tmpfs (1048576 bytes free): the room kept for
# one trial's results (84 KiB, 86016 bytes, in a lock file of 90112 bytes with its pid line,
# 22 pages) counts in the plan's check of free space, and
# the files the plan creates there count together. The target key comes first in each job.
if [ "$(id -u)" = 0 ] && mkdir disk && mount -t tmpfs -o size=1m tmpfs disk 2>/dev/null; then
	wjob() {
		printf '  - {target: disk/, name: %s, workload: write, backend: sync, file_size: %s, block_size: 64KiB}\n' "$1" "$2"
	}
	{ printf 'experiment: room\nreplication: {runs: 1, warmup: 0}\njobs:\n'; wjob w 960KiB; } >room.yaml
	{ printf 'experiment: room\nreplication: {runs: 1, warmup: 0}\njobs:\n'; wjob w 832KiB; } >fits.yaml
	{ printf 'experiment: two\nreplication: {runs: 1, warmup: 0}\njobs:\n'; wjob a 640KiB; wjob b 640KiB; } >two.yaml
	{ printf 'experiment: three\nreplication: {runs: 1, warmup: 0}\njobs:\n'; wjob a 640KiB; wjob b 640KiB; wjob c 640KiB; } >three.yaml
	test_expect_success 'a target on the result folder disk that fits only without the room kept: refused when planning, nothing made' '
		rm -rf disk/*
		expect_code 1 "$IOTRIAL" run -q -o disk/r room.yaml 2>err
		grep -x "room.yaml:4:14: key .target.: not enough free space in .disk. beside the room kept for the results: 983040 bytes needed for what the plan creates or grows on its file system (1 file), and 90112 kept for the results in .disk/r.; 1048576 available" err
		expect_eq "$(wc -l <err)" 1 "lines on stderr"
		expect_eq "$(ls -A disk)" "" "the disk"
		# Elsewhere, the run keeps no room on that disk; validate keeps none at all.
		"$IOTRIAL" validate room.yaml >/dev/null
		"$IOTRIAL" run -q -o elsewhere room.yaml 2>err
		whole_run elsewhere
		expect_eq "$(jq ".jobs[0].trials[0].bytes" elsewhere/results.json)" 983040
		expect_eq "$(ls -A disk)" "" "the disk"
	'
	test_expect_success 'a target on the result folder disk that fits with the room kept: runs' '
		rm -rf disk/*
		"$IOTRIAL" run -q -o disk/r fits.yaml 2>err
		not grep -e warning -e "cannot" err
		whole_run disk/r
		expect_eq "$(jq ".jobs[0].trials[0].bytes" disk/r/results.json)" 851968
		expect_eq "$(ls -A disk)" r "the disk"
		rm -rf disk/r
	'
	test_expect_success 'the room a killed run left in the result folder counts as free' '
		rm -rf disk/*
		# 124 KiB (31 pages) held by the lock file of a killed run: 900 KiB free, too little
		# for 832 KiB of target and 84 KiB of room, but 1 MiB once the folder is taken.
		mkdir disk/k
		echo 4242 >disk/k/.iotrial.lock
		fallocate -o 5 -l 120KiB disk/k/.iotrial.lock
		"$IOTRIAL" run -q -o disk/k fits.yaml 2>err
		not grep -e warning -e "cannot" err
		whole_run disk/k
		rm -rf disk/k
	'
	test_expect_success 'two targets on one disk that fit one at a time, not together: refused when planning' '
		rm -rf disk/*
		expect_code 1 "$IOTRIAL" run -q -o elsewhere2 two.yaml 2>err
		grep -x "two.yaml:5:14: key .target.: not enough free space in .disk.: 1310720 bytes needed for what the plan creates or grows on its file system (2 files), 1048576 available" err
		expect_eq "$(wc -l <err)" 1 "lines on stderr"
		test ! -e elsewhere2
		expect_eq "$(ls -A disk)" "" "the disk"
		expect_code 1 "$IOTRIAL" validate two.yaml 2>err
		grep "two.yaml:5:14: key .target.: not enough free space in .disk.: 1310720 bytes" err
		# Said at the first that does not fit, with what they all need.
		expect_code 1 "$IOTRIAL" validate three.yaml 2>err
		grep -x "three.yaml:5:14: key .target.: not enough free space in .disk.: 1966080 bytes needed for what the plan creates or grows on its file system (3 files), 1048576 available" err
	'
	printf 'experiment: cp\nreplication: {runs: 2, warmup: 0}\njobs:\n  - {target: disk/, name: c, workload: copy, backend: sync, file_size: 640KiB, matrix: {buffer_size: [64KiB, 128KiB]}}\n' >cp.yaml
	sed "s/backend: sync,/backend: sync, keep_files: true,/" cp.yaml >kept.yaml
	test_expect_success 'copies to one disk count one at a time, unless keep_files keeps them' '
		rm -rf disk/*
		"$IOTRIAL" run -q -o cp cp.yaml 2>err
		whole_run cp
		expect_eq "$(jq -c "[.jobs[].trials[].bytes]" cp/results.json)" "[655360,655360,655360,655360]"
		expect_eq "$(ls -A disk)" "" "the disk"
		expect_code 1 "$IOTRIAL" run -q -o kept kept.yaml 2>err
		grep -x "kept.yaml:4:14: key .target.: not enough free space in .disk.: 1310720 bytes needed for what the plan creates or grows on its file system (2 files), 1048576 available" err
		expect_eq "$(ls -A disk)" "" "the disk"
	'
	# Files take whole pages: 4097 bytes take 8192, and 1044479 take 1044480.
	printf 'experiment: pages\nreplication: {runs: 1, warmup: 0}\njobs:\n  - {target: disk/, name: a, workload: write, backend: sync, file_size: 4097, block_size: 4097}\n  - {target: disk/, name: b, workload: write, backend: sync, file_size: 1044479, block_size: 1044479}\n' >pages.yaml
	test_expect_success 'two targets that fit byte for byte, not in whole pages: refused when planning' '
		rm -rf disk/*
		expect_code 1 "$IOTRIAL" run -q -o elsewhere3 pages.yaml 2>err
		grep -x "pages.yaml:5:14: key .target.: not enough free space in .disk.: 1052672 bytes needed for what the plan creates or grows on its file system (2 files), 1048576 available" err
		expect_eq "$(ls -A disk)" "" "the disk"
	'
	# 958464 bytes of target (234 pages) and the lock file (22 pages) fill the 256 pages.
	{ printf 'experiment: edge\nreplication: {runs: 1, warmup: 0}\njobs:\n'; wjob w 958464; } >edge.yaml
	sed s/958464/958465/ edge.yaml >over.yaml
	test_expect_success 'a target that fills the disk to the page beside the room kept: runs; one byte more: refused' '
		rm -rf disk/*
		"$IOTRIAL" run -q -o disk/r edge.yaml 2>err
		not grep -e "cannot" -e "No space" err
		whole_run disk/r
		expect_eq "$(jq ".jobs[0].trials[0].bytes" disk/r/results.json)" 958464
		rm -rf disk/r
		expect_code 1 "$IOTRIAL" run -q -o disk/r over.yaml 2>err
		grep -x "over.yaml:4:14: key .target.: not enough free space in .disk. beside the room kept for the results: 962560 bytes needed for what the plan creates or grows on its file system (1 file), and 90112 kept for the results in .disk/r.; 1048576 available" err
		expect_eq "$(ls -A disk)" "" "the disk"
	'
	# Two copies that run alongside (with:), and a copytree of 200 files of 1000 bytes, a page
	# each, and its copy.
	head -c 655360 /dev/zero >s640
	printf 'experiment: with\nreplication: {runs: 1, warmup: 0}\njobs:\n  - {target: disk/, name: c1, workload: copy, source: s640, backend: sync}\n  - {target: disk/, name: c2, with: c1, workload: copy, source: s640, backend: sync}\n' >with.yaml
	printf 'experiment: tree\nreplication: {runs: 1, warmup: 0}\njobs:\n  - {target: disk/, name: t, workload: copytree, backend: sync, source: disk/src, tree_files: 200, file_size: 200KB}\n' >tree.yaml
	test_expect_success 'copies that run alongside count together; a tree counts its files in whole pages' '
		rm -rf disk/*
		expect_code 1 "$IOTRIAL" run -q -o elsewhere4 with.yaml 2>err
		grep -x "with.yaml:5:14: key .target.: not enough free space in .disk.: 1310720 bytes needed for what the plan creates or grows on its file system (2 files), 1048576 available" err
		expect_code 1 "$IOTRIAL" run -q -o elsewhere4 tree.yaml 2>err
		grep -x "tree.yaml:4:14: key .target.: not enough free space in .disk.: 1638400 bytes needed for what the plan creates or grows on its file system (2 files), 1048576 available" err
		expect_eq "$(ls -A disk)" "" "the disk"
	'
	# A file of 64 KiB written over up to 960 KiB grows by 896 KiB (917504 bytes), beside a new
	# file of 128 KiB: 1048576 bytes where 983040 are free. Two jobs that write it, with a
	# read between them, grow it once. A sparse file of 960 KiB holds no page: writing it
	# fills 240.
	ow() {
		printf '  - {target: %s, name: %s, workload: %s, backend: sync, allow_overwrite: true, file_size: %s, block_size: 64KiB}\n' "$@"
	}
	{ printf 'experiment: grow\nreplication: {runs: 1, warmup: 0}\njobs:\n'; ow disk/ex.bin a write 960KiB; ow disk/ b write 128KiB; } >grow.yaml
	{ printf 'experiment: twice\nreplication: {runs: 1, warmup: 0}\njobs:\n'; ow disk/ex.bin a write 960KiB; ow s640 r read 640KiB; ow disk/ex.bin c randwrite 960KiB; } >twice.yaml
	{ printf 'experiment: holes\nreplication: {runs: 1, warmup: 0}\njobs:\n'; ow disk/sp.bin a write 960KiB; ow disk/ b write 128KiB; } >holes.yaml
	test_expect_success 'a file written over counts what it grows by, once however many jobs write it' '
		rm -rf disk/*
		head -c 65536 /dev/zero >disk/ex.bin
		expect_code 1 "$IOTRIAL" run -q -o elsewhere5 grow.yaml 2>err
		grep -x "grow.yaml:4:14: key .target.: not enough free space in .disk.: 1048576 bytes needed for what the plan creates or grows on its file system (2 files), 983040 available" err
		expect_eq "$(wc -l <err)" 1 "lines on stderr"
		expect_eq "$(stat -c %s disk/ex.bin)" 65536 "the file written over"
		expect_eq "$(ls -A disk)" ex.bin "the disk"
		"$IOTRIAL" validate twice.yaml >/dev/null
		"$IOTRIAL" run -q -o elsewhere5 twice.yaml 2>err
		whole_run elsewhere5
		expect_eq "$(stat -c %s disk/ex.bin)" 983040 "the file written over"
		rm -f disk/ex.bin
		truncate -s 960K disk/sp.bin
		expect_code 1 "$IOTRIAL" validate holes.yaml 2>err
		grep -x "holes.yaml:4:14: key .target.: not enough free space in .disk.: 1114112 bytes needed for what the plan creates or grows on its file system (2 files), 1048576 available" err
		rm -f disk/sp.bin
	'
	test_expect_success 'several job files: one whose target fits only without the room is refused before any runs' '
		rm -rf disk/*
		expect_code 1 "$IOTRIAL" run -q -o disk/b mark.yaml room.yaml 2>err
		grep "^room.yaml:4:14: key .target.: not enough free space in .disk. beside the room kept for the results: 983040 bytes needed .*, and 90112 kept for the results in .disk/b.; 1048576 available" err
		grep -x "iotrial: 1 of 2 job files cannot run: nothing was run" err
		test ! -e ran
		expect_eq "$(ls -A disk)" "" "the disk"
	'
	# The prepare hook fills the disk once the room is kept: every checkpoint fails.
	printf 'experiment: ck\nprepare: "dd if=/dev/zero of=%s/disk/fill bs=4k 2>/dev/null; true"\nreplication: {runs: 4, warmup: 0}\njobs:\n  - {name: c, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB}\n' "$PWD" >ck.yaml
	test_expect_success 'checkpoints on a full disk: said once, the results written from the room kept, exit 0' '
		rm -rf disk/*
		"$IOTRIAL" run -q -o disk/c --checkpoint-interval 0 ck.yaml 2>err
		test -e disk/fill
		expect_eq "$(grep -c checkpoint err)" 1 "checkpoint lines"
		grep -x "iotrial: warning: cannot write checkpoint disk/c/results.json: No space left on device; the run goes on, trying again at each checkpoint, and writes its results at the end" err
		whole_run disk/c
		expect_eq "$(jq "[.jobs[0].trials[]] | length" disk/c/results.json)" 4
		rm -rf disk/c disk/fill
	'
	umount disk
else
	test_skip 'targets and checkpoints on the result folder disk' 'needs root to mount a tmpfs'
fi

# Record and interval logs that fill a 4 MiB tmpfs in the third trial, with every format: the
# series of the first two (512 points each in results.json and report.html) are counted in the
# room kept.
if [ "$(id -u)" = 0 ] && mkdir logdisk && mount -t tmpfs -o size=4m tmpfs logdisk 2>/dev/null; then
	printf 'experiment: series\njobs:\n  - {name: s, workload: randread, backend: null, file_size: 1MiB, block_size: 4KiB, io_limit: 200MiB, log: {records: true, interval: 1ms}, replication: {runs: 3, warmup: 0}}\n' >series.yaml
	test_expect_success 'record and interval logs that fill the disk, every format: every result file written, series and all' '
		expect_code 1 "$IOTRIAL" run -q -o logdisk/r -f json,csv,text,html series.yaml 2>err
		grep "job .s.: a record log could not be written: No space left on device; logging stopped" err
		not grep -e "incomplete" -e "cannot write" -e warning err
		whole_run logdisk/r
		test -s logdisk/r/report.html
		expect_eq "$(jq "[.jobs[0].series[] | select(.kind == \"records\")] | length" logdisk/r/results.json)" 3 "records series"
		expect_eq "$(jq -r ".jobs[0].trials[2].log_error" logdisk/r/results.json)" "No space left on device" "log_error"
	'
	test_expect_success '--resume keeps the exit status of trials whose logs lack lines: 1' '
		# Complete: nothing runs, the files it lacks are written (room made for them: the
		# records filled the disk), exit 1 as the run'"'"'s.
		rm logdisk/r/summary.txt
		: >logdisk/r/records/s.csv
		expect_code 1 "$IOTRIAL" run -q --resume logdisk/r series.yaml 2>err
		not grep "cannot write" err
		test -s logdisk/r/summary.txt
		# A checkpoint whose first trial lacks lines, its last to run again on a disk with
		# room: the kept trial says so, exit 1.
		jq ".complete = false | .jobs[0].trials[2].seq = null | del(.jobs[0].trials[2].log_error)
			| .jobs[0].trials[0].log_error = \"No space left on device\"" logdisk/r/results.json >ckpt.json
		cp ckpt.json logdisk/r/results.json
		rm logdisk/r/summary.txt logdisk/r/trials.csv logdisk/r/report.html
		expect_code 1 "$IOTRIAL" run -q --resume logdisk/r series.yaml 2>err
		not grep "could not be written" err
		expect_eq "$(jq -c "[.jobs[0].trials[0, 2].log_error]" logdisk/r/results.json)" \
			"[\"No space left on device\",null]" "log_error"
		rm -rf logdisk/r
	'
	printf 'experiment: ivl\njobs:\n  - {name: i, workload: randread, backend: null, file_size: 1MiB, block_size: 4KiB, runtime: 300ms, threads: 4, log: {interval: 1us}, replication: {runs: 2, warmup: 0}}\n' >ivl.yaml
	test_expect_success 'an interval log alone that fills the disk: the summary notes the trials it lacks, exit 1' '
		rm -rf logdisk/*
		expect_code 1 "$IOTRIAL" run -q -o logdisk/i ivl.yaml 2>err
		whole_run logdisk/i
		expect_eq "$(jq -c "[.jobs[0].trials[].log_error]" logdisk/i/results.json)" \
			"[\"No space left on device\",\"No space left on device\"]" "log_error"
		grep -x "note: i: records/ lacks lines of 2 trials (No space left on device)" logdisk/i/summary.txt
		"$IOTRIAL" report logdisk/i/results.json >again.txt
		grep -x "note: i: records/ lacks lines of 2 trials (No space left on device)" again.txt
		rm -rf logdisk/i
	'
	# Another program fills the disk (the cleanup hook, after the last trial): the room kept
	# counts each trial's latency buckets, twice with log_histogram (lat_hist, trial_hists).
	printf 'experiment: hist\njobs:\n  - {name: h, workload: randrw, mix: {read: 50, write: 50}, backend: sync, target: %s/hist.dat, file_size: 16MiB, block_split: 512-4MiB, io_limit: 64MiB, log: {histogram: true}, cleanup: "dd if=/dev/zero of=%s/logdisk/fill bs=4k 2>/dev/null; true", replication: {runs: 10, warmup: 0}}\n' "$PWD" "$PWD" >hist.yaml
	test_expect_success 'log_histogram, and a disk another program fills: every result file written' '
		rm -rf logdisk/*
		"$IOTRIAL" run -q -o logdisk/h -f json,csv,text,html hist.yaml 2>err
		test -e logdisk/fill
		not grep -e "incomplete" -e "cannot write" -e warning err
		whole_run logdisk/h
		test "$(jq ".jobs[0].trial_hists.trials | length" logdisk/h/results.json)" = 10
		rm -rf logdisk/h logdisk/fill hist.dat
	'
	# 180 comparisons of 20 instances, each a figure of 20 trials in report.html.
	{
		printf 'experiment: cmp\njobs:\n  - {name: c, workload: randread, backend: null, file_size: 1MiB, io_limit: 1MiB, matrix: {block_size: [4KiB, 8KiB], iodepth: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}, cleanup: "dd if=/dev/zero of=%s/logdisk/fill bs=4k 2>/dev/null; true", replication: {runs: 10, warmup: 0}}\ncompare:\n' "$PWD"
		for a in 1 2 3 4 5 6 7 8 9 10; do
			for b in 1 2 3 4 5 6 7 8 9 10; do
				if [ "$a" != "$b" ]; then printf '  - {a: {iodepth: %s}, b: {iodepth: %s}}\n' "$a" "$b"; fi
			done
		done
	} >cmp.yaml
	test_expect_success 'many comparisons, and a disk another program fills: every result file written' '
		rm -rf logdisk/*
		"$IOTRIAL" run -q -o logdisk/c -f json,csv,text,html cmp.yaml 2>err
		test -e logdisk/fill
		not grep -e "incomplete" -e "cannot write" -e warning err
		whole_run logdisk/c
		test "$(jq ".comparisons | length" logdisk/c/results.json)" = 180
		rm -rf logdisk/c logdisk/fill
	'
	umount logdisk
else
	test_skip 'record and interval logs that fill the disk, every format' 'needs root to mount a tmpfs'
	test_skip '--resume keeps the exit status of trials whose logs lack lines' 'needs root to mount a tmpfs'
	test_skip 'an interval log alone that fills the disk' 'needs root to mount a tmpfs'
	test_skip 'log_histogram, and a disk another program fills' 'needs root to mount a tmpfs'
	test_skip 'many comparisons, and a disk another program fills' 'needs root to mount a tmpfs'
fi

# A signal while the room is kept (a long posix_fallocate: 0.6 s for 2 GB on tmpfs): strace
# makes the first call fail with EINTR (LeakSanitizer cannot run under ptrace: off for it).
if command -v strace >/dev/null 2>&1; then
	test_expect_success 'a signal that cuts the keeping of the room short: kept all the same, no warning' '
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -o trace.txt -e trace=fallocate -e inject=fallocate:error=EINTR:when=1 \
			"$IOTRIAL" run -q -o eintr a.yaml 2>err
		not grep warning err
		grep -c "^[0-9]* *fallocate(.*EINTR" trace.txt
		expect_eq "$(grep -c "^[0-9]* *fallocate(.*) *= 0$" trace.txt)" 1 "room kept"
		whole_run eintr
	'
else
	test_skip 'a signal that cuts the keeping of the room short' 'needs strace'
fi

test_done
