#!/bin/bash
# The result folder's safety: -o never mixes two runs (an earlier run is refused unless
# --force, which removes only iotrial's files; a second run at once is locked out), default
# names never collide, an unwritable or full folder is found before the first trial, errors
# name the real errno, and signals or a closed stdout never leave a half-written result.
. "$(dirname "$0")/lib.sh"
need_cmd jq

printf 'experiment: e1\njobs:\n  - {name: a, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB}\n' >a.yaml
printf 'experiment: e2\njobs:\n  - {name: b, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB}\n' >b.yaml
printf 'experiment: e3\njobs:\n  - {name: c, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB}\n' >c.yaml
# A job whose one trial leaves a mark: no mark, no trial ran.
printf 'experiment: m\njobs:\n  - {name: m, workload: command, command: "touch %s/ran"}\n' "$PWD" >mark.yaml

# No temporary file (.NAME.iotrial~XXXXXX), probe or lock file left in folder $1.
no_leftovers() {
	ls -A "$1" >left.txt
	not grep -E '^\.' left.txt
}

# Folder $1 holds one run's complete results, results.json and trials.csv from the same run.
whole_run() {
	jq -e .complete "$1/results.json" >/dev/null
	expect_eq "$(cut -d, -f1 "$1/trials.csv" | sed -n 2p)" "$(jq -r .experiment "$1/results.json")" "$1: trials.csv and results.json"
	test -s "$1/summary.txt"
	no_leftovers "$1"
}

test_expect_success '-o with an empty name is refused, exit 2, nothing made' '
	touch err after.txt
	ls >before.txt
	expect_code 2 "$IOTRIAL" run -q -o "" a.yaml 2>err
	grep "iotrial: -o takes a folder name, not .." err
	expect_code 2 "$IOTRIAL" report -o "" a.yaml 2>err
	grep "iotrial: -o takes a file name" err
	ls >after.txt
	diff before.txt after.txt
'

test_expect_success '-f naming no format (empty, only commas, an empty item) is refused, exit 2' '
	for f in "" ",,," "text,,csv" "json,"; do
		expect_code 2 "$IOTRIAL" run -q -f "$f" -o fmt a.yaml 2>err
		grep "iotrial: -f takes a comma list of text, json, csv, html, ndjson, not .$f. (an empty name)" err
	done
	test ! -e fmt
'

test_expect_success '-o holding an earlier run is refused, exit 1, the earlier run untouched, no trial run' '
	"$IOTRIAL" run -q -o old a.yaml 2>/dev/null
	sha256sum old/* >before.sum
	expect_code 1 "$IOTRIAL" run -q -o old mark.yaml 2>err
	grep "iotrial: result folder .old. holds an earlier run: give --force to replace it" err
	test ! -e ran
	sha256sum -c --quiet before.sum
	whole_run old
'

test_expect_success '--force empties an earlier run first: results, records/, temporary and lock files' '
	"$IOTRIAL" run -q -o forced b.yaml 2>/dev/null
	mkdir forced/records
	echo old >forced/records/b.csv
	echo half >forced/.results.json.iotrial~AbC123
	# As a killed run leaves it: 0600 until it would have been renamed.
	chmod 600 forced/.results.json.iotrial~AbC123
	echo 1 >forced/.iotrial.lock
	"$IOTRIAL" run -q -o forced --force a.yaml 2>/dev/null
	test ! -e forced/records
	expect_eq "$(jq -r .experiment forced/results.json)" e1
	whole_run forced
	expect_eq "$(ls forced | tr "\n" " ")" "results.json summary.txt trials.csv "
'

# A folder holding an earlier run, and what a killed run leaves there: a checkpoint's
# temporary file and a probe, 0600 until they would have been renamed or removed.
killed_run() {
	rm -rf "$1"
	"$IOTRIAL" run -q -o "$1" a.yaml 2>/dev/null
	echo left >"$1/.results.json.iotrial~AbC123"
	echo left >"$1/.iotrial-probe.iotrial~AbC123"
	chmod 600 "$1/.results.json.iotrial~AbC123" "$1/.iotrial-probe.iotrial~AbC123"
}

# Plant look-alike $2 of iotrial's temporary files in folder $1: a user's file of the same
# mode (a cp under umask 077 makes 0600), one of an iotrial before the mark (.NAME.XXXXXX),
# another user's, a hard link, a symlink, a FIFO, another length or letter, another NAME.
look_alike() {
	mask=$(umask)
	umask 077
	case $2 in
	.other)
		: >"$1/.results.json.iotrial~Other1"
		chown 65534 "$1/.results.json.iotrial~Other1"
		;;
	.link) ln outside "$1/.summary.txt.iotrial~Xy12Ab" ;;
	.sym) ln -s outside "$1/.summary.txt.iotrial~Sym123" ;;
	.fifo) mkfifo "$1/.summary.txt.iotrial~Fifo12" ;;
	*) cp "$1/results.json" "$1/$2" ;;
	esac
	umask "$mask"
}
look_alikes=".results.json.backup .results.json.Ab12Cd .iotrial-probe.424242 .summary.txt.iotrial~Xy12Abc .summary.txt.iotrial~Xy-2Ab .iotrial-probe.iotrial~x1 .notes.txt.iotrial~Ab12Cd .results.json.iotrial-Ab12Cd .link .sym .fifo"
if [ "$(id -u)" = 0 ]; then
	look_alikes="$look_alikes .other"
fi
echo keep >outside
chmod 600 outside

test_expect_success '--resume removes only the temporary files a killed run left, not look-alikes (umask 077 backups, older names, links, FIFOs)' '
	killed_run lk
	for f in $look_alikes; do
		look_alike lk "$f"
	done
	ls -A lk | grep -v "iotrial~AbC123$" >want.ls
	timeout 20 "$IOTRIAL" run -q a.yaml --resume lk 2>err
	ls -A lk >got.ls
	diff want.ls got.ls
	cmp lk/.results.json.backup lk/.results.json.Ab12Cd
'

test_expect_success '--force takes what a killed run left, refuses each look-alike by name, removes nothing' '
	killed_run fk
	"$IOTRIAL" run -q -o fk --force a.yaml 2>err
	whole_run fk
	for f in $look_alikes; do
		killed_run fk
		look_alike fk "$f"
		name=$(ls -A fk | grep "^\." | grep -v "iotrial~AbC123$")
		ls -A fk >before.ls
		expect_code 1 timeout 20 "$IOTRIAL" run -q -o fk --force a.yaml 2>err
		grep -F "holds '"'"'$name'"'"', which iotrial did not write" err
		expect_eq "$(wc -l <err)" 1 "$f: lines on stderr"
		ls -A fk >after.ls
		diff before.ls after.ls
	done
'

test_expect_success 'a folder with anything else is refused even with --force, nothing removed' '
	mkdir home home/records
	echo keep >home/.bashrc
	echo keep >home/results.json
	echo keep >home/records/notes.txt
	ls -AR home >before.txt
	# Not even a lock file made and removed: that would change the folder time.
	touch -d @978307200 home
	expect_code 1 "$IOTRIAL" run -q -o home --force a.yaml 2>err
	expect_eq "$(stat -c %Y home)" 978307200 "the folder time"
	grep "result folder .home. holds .\(\.bashrc\|records/notes.txt\)., which iotrial did not write" err
	rm home/.bashrc
	expect_code 1 "$IOTRIAL" run -q -o home --force a.yaml 2>err
	grep "result folder .home. holds .records/notes.txt., which iotrial did not write" err
	echo keep >home/.bashrc
	ls -AR home >after.txt
	diff before.txt after.txt
	expect_eq "$(cat home/results.json home/records/notes.txt)" "keep
keep"
	expect_code 1 "$IOTRIAL" run -q -o / --force a.yaml 2>err
	grep "result folder ./. holds .*, which iotrial did not write" err
	test ! -e /.iotrial.lock
	test ! -e /results.json
'

test_expect_success '--force refuses a hard link in records/ or hooks/, nothing removed' '
	echo mine >outside.csv
	echo mine >outside.log
	for sub in records hooks; do
		rm -rf hl
		"$IOTRIAL" run -q -o hl a.yaml 2>/dev/null
		mkdir hl/$sub
		ext=csv
		if [ $sub = hooks ]; then ext=log; fi
		ln outside.$ext hl/$sub/x.$ext
		ls -AR hl >before.txt
		expect_code 1 "$IOTRIAL" run -q -o hl --force a.yaml 2>err
		grep -F "holds '"'"'$sub/x.$ext'"'"', which iotrial did not write" err
		ls -AR hl >after.txt
		diff before.txt after.txt
		expect_eq "$(stat -c %h outside.$ext)" 2
		whole_run hl
	done
'

test_expect_success 'an empty existing folder is used without --force' '
	mkdir empty
	"$IOTRIAL" run -q -o empty a.yaml 2>/dev/null
	whole_run empty
'

test_expect_success 'two runs at once with the same -o: the second is refused, the folder holds one run' '
	printf "experiment: s1\njobs:\n  - {name: a, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB, runtime: 2s}\n" >s1.yaml
	sed "s/s1/s2/" s1.yaml >s2.yaml
	rc1=0
	rc2=0
	"$IOTRIAL" run -q -o same s1.yaml 2>err1 &
	p1=$!
	"$IOTRIAL" run -q -o same s2.yaml 2>err2 &
	p2=$!
	wait $p1 || rc1=$?
	wait $p2 || rc2=$?
	expect_eq "$((rc1 + rc2))" 1 "one exit 0 and one exit 1 ($rc1, $rc2)"
	cat err1 err2 | tee err
	grep "iotrial: result folder .same. is in use by another iotrial run (pid [0-9]*): wait for it to end" err
	whole_run same
'

test_expect_success 'runs of the same experiment started in the same second get folders of their own' '
	for i in 1 2 3 4; do
		printf "experiment: same\njobs:\n  - {name: j$i, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB}\n" >same$i.yaml
	done
	for i in 1 2 3 4; do
		"$IOTRIAL" run -q same$i.yaml 2>/dev/null &
	done
	wait
	expect_eq "$(ls results | wc -l)" 4
	for d in results/*; do
		whole_run "$d"
		expect_eq "$(jq -r ".jobs[0].name" "$d/results.json")" "$(cut -d, -f2 "$d/trials.csv" | sed -n 2p)"
	done
	ls results >names.txt
	grep -E "^same-[0-9]{8}T[0-9]{6}Z-2$" names.txt
'

test_expect_success 'several job files with -o DIR: each gets a folder of its name in DIR' '
	mkdir multi
	echo keep >multi/notes.txt
	"$IOTRIAL" run -q -o multi a.yaml b.yaml 2>/dev/null
	expect_eq "$(ls multi | tr "\n" " ")" "a b batch.json notes.txt "
	for d in multi/a multi/b; do whole_run "$d"; done
'

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

# A run that looks at or opens the lock file just before the run holding it lets go (and
# removes it), then opens or locks it after: strace holds back its look (the second openat in
# the folder, after the walk's) or each of its flock calls 2 s while the first run ends.
if command -v strace >/dev/null 2>&1; then
	test_expect_success 'a run that locks the lock file the run before it just removed: it takes the folder, nothing called foreign' '
		printf "experiment: first\njobs:\n  - {name: f, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB, runtime: 1s, replication: {runs: 1, warmup: 0}}\n" >first.yaml
		for delay in "-e trace=flock -e inject=flock:delay_enter=2000000" "-P $PWD/cc -e trace=openat -e inject=openat:delay_exit=2000000:when=2"; do
			rm -rf cc
			"$IOTRIAL" run -q -o cc first.yaml 2>err1 &
			pid=$!
			for n in $(seq 500); do
				if [ -e cc/.iotrial.lock ]; then break; fi
				sleep 0.01
			done
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -o trace.txt $delay "$IOTRIAL" run -q -o cc --force a.yaml 2>err
			wait $pid
			cat err trace.txt
			# The race was run: the first run removed the lock file held back, then ended.
			grep "DELAYED" trace.txt
			expect_eq "$(jq -r .experiment cc/results.json)" e1
			whole_run cc
		done
	'
else
	test_skip 'a run that locks the lock file the run before it just removed' 'needs strace'
fi

test_expect_success 'read and write errors name their errno, not EIO' '
	mkdir adir
	expect_code 2 "$IOTRIAL" report adir 2>err
	grep "adir: cannot read: Is a directory" err
	"$IOTRIAL" run -q -o saved a.yaml 2>/dev/null
	expect_code 1 "$IOTRIAL" report -f json saved/results.json >/dev/full 2>err
	grep "iotrial: cannot write stdout: No space left on device" err
'

# 20000 trials of the null backend: a results.json of about 18 MB, long enough to write
# that a second Ctrl-C lands while it is being written.
printf 'experiment: big\nreplication: {runs: 20000}\njobs:\n  - {name: a, workload: read, backend: null, file_size: 4KiB, block_size: 4KiB}\n' >big.yaml

test_expect_success 'a double Ctrl-C while results are written: every file whole, no temporary file, 130' '
	"$IOTRIAL" run -q -o big big.yaml 2>err &
	pid=$!
	# summary.txt is written first, then results.json: its temporary file means mid-write
	# (a checkpoint writes results.json alone).
	until test -e big/summary.txt; do :; done
	until compgen -G "big/.results.json.*" >/dev/null; do :; done
	kill -INT $pid
	# Two signals still pending merge into one: send the second once the first is taken,
	# and later than 0.1 s (one Ctrl-C delivered twice, as timeout(1) sends it).
	while (( 0x$(sed -n "s/^ShdPnd:\t*//p" /proc/$pid/status) & 2 )); do :; done
	sleep 0.2
	compgen -G "big/.results.json.*" >/dev/null # still being written
	kill -INT $pid
	rc=0
	wait $pid || rc=$?
	expect_eq "$rc" 130
	expect_eq "$(jq "[.jobs[0].trials[]] | length" big/results.json)" 20000
	expect_eq "$(wc -l <big/trials.csv)" 20001
	whole_run big
'

# A command that outlives the stop by 1 s (iotrial's SIGKILL after its SIGTERM): time for
# the second delivery.
cat >dup.yaml <<'EOF'
experiment: dup
jobs:
  - {name: a, workload: command, command: "trap '' TERM INT; sleep 5"}
EOF

test_expect_success 'one Ctrl-C delivered twice within 0.1 s (timeout -s INT): the results written, 130' '
	"$IOTRIAL" run -q -o dup dup.yaml 2>err &
	pid=$!
	until test -e dup/.iotrial.lock; do :; done
	sleep 0.3
	kill -INT $pid
	while (( 0x$(sed -n "s/^ShdPnd:\t*//p" /proc/$pid/status) & 2 )); do :; done
	kill -INT $pid
	rc=0
	wait $pid || rc=$?
	expect_eq "$rc" 130
	expect_eq "$(jq .complete dup/results.json)" false
	grep -x "job .a. trial 0: interrupted" err
'

# 20000 trials: a run that keeps about 80 MB for its results. Stopped in its first trial,
# it goes on for a second, until its command, which ignores SIGTERM, gets SIGKILL: the second
# signal lands then. (A worker's pause, think_time, no longer outlasts the stop: the run left
# in 0.2 s under ASan, and on a loaded machine before the second signal was sent, 143.)
cat >slow.yaml <<'EOF'
experiment: big
replication: {runs: 20000}
jobs:
  - {name: a, workload: command, command: "trap '' TERM INT; sleep 5"}
EOF

test_expect_success 'SIGTERM, then Ctrl-C during a trial: 130 at once, the room kept for the results given back' '
	"$IOTRIAL" run -q -o slow slow.yaml 2>err &
	pid=$!
	until test "$(stat -c %b slow/.iotrial.lock 2>/dev/null || echo 0)" -gt 20000; do :; done
	kill -TERM $pid
	while (( 0x$(sed -n "s/^ShdPnd:\t*//p" /proc/$pid/status) & 0x4000 )); do :; done
	kill -INT $pid
	rc=0
	wait $pid || rc=$?
	expect_eq "$rc" 130
	# The lock file a run that left at once leaves: its pid line, no room behind it.
	head -n 1 slow/.iotrial.lock | grep -x "$pid"
	expect_eq "$(stat -c %s slow/.iotrial.lock)" "$(( ${#pid} + 1 ))" "lock file size"
	test "$(stat -c %b slow/.iotrial.lock)" -le 8
'

test_expect_success 'stdout with no reader: the result folder is written, no further job file, 141' '
	mkfifo pipe
	exec 5<>pipe
	exec 6>pipe
	exec 5<&-
	rc=0
	"$IOTRIAL" run -o closed a.yaml b.yaml >&6 2>err || rc=$?
	exec 6>&-
	expect_eq "$rc" 141
	grep "iotrial: stdout was closed by its reader (Broken pipe): no further job file runs" err
	expect_eq "$(jq -c "[.files[].status]" closed/batch.json)" "[\"failed\",\"skipped\"]"
	whole_run closed/a
'

test_expect_success 'run a b c | head -c1: what ran is written whole, then exit 141 with a message' '
	sed "s/block_size: 64KiB}/block_size: 64KiB, runtime: 500ms}/" b.yaml >slow.yaml
	rc=0
	"$IOTRIAL" run -o head a.yaml slow.yaml c.yaml 2>err > >(head -c1 >/dev/null) || rc=$?
	expect_eq "$rc" 141
	grep "no further job file runs" err
	expect_eq "$(jq -c "[.files[].status]" head/batch.json)" "[\"ok\",\"failed\",\"skipped\"]"
	for d in head/a head/slow; do whole_run "$d"; done
'

test_expect_success 'stdout on a full device: exit 1 naming ENOSPC, results written' '
	expect_code 1 "$IOTRIAL" run -o devfull a.yaml >/dev/full 2>err
	grep "iotrial: cannot print the summary on stdout: No space left on device" err
	whole_run devfull
'

test_expect_success 'a closed stdout: the summary goes nowhere, not into a file iotrial opened' '
	"$IOTRIAL" run -o shut a.yaml >&-
	whole_run shut
	expect_eq "$(ls shut | tr "\n" " ")" "results.json summary.txt trials.csv "
'

# The experiment's prepare hook renames the result folder once the run holds it, and puts a
# symlink to another folder in its place: the checkpoints, the logs, the hook logs, the
# series read back and the result files must all go to the folder the run took.
printf 'experiment: sw\nprepare: "mv held held.moved; ln -s victim held"\nreplication: {runs: 2}\njobs:\n  - {name: r, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB, log_records: true, log_interval: 1ms, prepare: "echo hi", cleanup: "echo bye"}\n' >swap.yaml

test_expect_success 'a result folder renamed mid-run, a symlink in its place: every file lands in the folder the run holds' '
	rm -rf held held.moved victim
	mkdir victim
	echo precious >victim/results.json
	echo precious >victim/summary.txt
	sha256sum victim/* >victim.sum
	"$IOTRIAL" run -q --checkpoint-interval 0 -o held swap.yaml 2>err
	sha256sum -c victim.sum
	expect_eq "$(ls -A victim | tr "\n" " ")" "results.json summary.txt "
	test -L held
	whole_run held.moved
	expect_eq "$(ls held.moved/records | tr "\n" " ")" "r.csv r.intervals.csv "
	expect_eq "$(cat held.moved/hooks/job.r.prepare.log)" hi
	expect_eq "$(cat held.moved/hooks/job.r.cleanup.log)" bye
	test "$(jq "[.jobs[0].series[]] | length" held.moved/results.json)" -ge 2
'

# The experiment's prepare hook swaps the record log, open already, for a FIFO: the series
# at the end are read from the log the run wrote, and nothing waits on the FIFO.
printf 'experiment: ff\nprepare: "rm fl/records/r.csv; mkfifo fl/records/r.csv"\nreplication: {runs: 2}\njobs:\n  - {name: r, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB, log_records: true}\n' >fifolog.yaml

test_expect_success 'a record log swapped for a FIFO mid-run: the series read from the log written, no hang' '
	rm -rf fl
	expect_code 0 timeout 20 "$IOTRIAL" run -q -o fl fifolog.yaml
	test -p fl/records/r.csv
	test "$(jq "[.jobs[0].series[]] | length" fl/results.json)" -ge 2
'

test_expect_success 'every test docs/safety.md names is a test of this script' '
	tr "\n" " " <"$SRC/docs/safety.md" | sed "s/  */ /g" | grep -o "tests\? \"[^\"]*\"\( and \"[^\"]*\"\)\?" >named.txt
	grep -o "\"[^\"]*\"" named.txt | tr -d "\"" >names.txt
	test "$(wc -l <names.txt)" -ge 10
	while read -r name; do
		grep -F -e "test_expect_success '"'"'$name'"'"' '"'"'" "$TEST_SCRIPT" >/dev/null
	done <names.txt
'

test_done
