#!/bin/bash
# The result folder's safety: -o never mixes two runs (an earlier run is refused unless
# --force, which removes only iotrial's files; a second run at once is locked out), default
# names never collide, errors name the real errno, and signals or a closed stdout never
# leave a half-written result. A read-only or full disk: t0052-full-disk.sh.
. "$(dirname "$0")/lib.sh"
need_cmd jq
. "$SRC/tests/t/result-folder.inc.sh"

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

# Permission bits stop no root: the folder is nobody's, and the runs are nobody's. Each of
# these was found only as the folder was emptied, after the files before it were removed.
if can_be_nobody; then
	test_expect_success '--force removes nothing from a folder it cannot wholly empty (records/, hooks/, the folder not writable), exit 1' '
		as_nobody=$AS_NOBODY
		mkdir np
		chown 65534:65534 np
		cd np
		$as_nobody "$IOTRIAL" run -q -o s --set log_records=true ../a.yaml 2>err
		mkdir s/hooks
		echo hook >s/hooks/h.log
		chown -R 65534:65534 s/hooks
		ls -AR s >before.ls
		find s -type f -exec sha256sum {} + >before.sum
		for d in records hooks .; do
			# The folder itself: a killed run left its lock file, so taking the lock writes
			# nothing new into s (without one, the lock is refused as before).
			if [ $d = . ]; then
				echo 4242 >s/.iotrial.lock
				chown 65534:65534 s/.iotrial.lock
			fi
			chmod 555 s/$d
			rc=0
			$as_nobody "$IOTRIAL" run -q -o s --force ../mark.yaml 2>err || rc=$?
			chmod 755 s/$d
			expect_eq "$rc" 1 "s/$d"
			if [ $d = . ]; then
				expect_eq "$(cat err)" "iotrial: cannot write to result folder '"'"'s'"'"': Permission denied"
				rm s/.iotrial.lock
			else
				expect_eq "$(cat err)" "iotrial: cannot empty result folder '"'"'s'"'"': '"'"'$d'"'"': Permission denied"
			fi
			ls -AR s >after.ls
			diff before.ls after.ls
			sha256sum -c --quiet before.sum
		done
		test ! -e ../ran
		whole_run s
	'
else
	test_skip '--force removes nothing from a folder it cannot wholly empty' 'needs root and setpriv'
fi

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

# A run that looks at or opens the lock file just before the run holding it lets go (and
# removes it), then opens or locks it after: strace holds back its look (the second openat in
# the folder, after the walk's) or each of its flock calls 4 s while the first run ends (its
# 1 s trial, and its start and results: 2 s or more under load and ASan).
if command -v strace >/dev/null 2>&1; then
	test_expect_success 'a run that locks the lock file the run before it just removed: it takes the folder, nothing called foreign' '
		printf "experiment: first\njobs:\n  - {name: f, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB, runtime: 1s, replication: {runs: 1, warmup: 0}}\n" >first.yaml
		for delay in "-e trace=flock -e inject=flock:delay_enter=4000000" "-P $PWD/cc -e trace=openat -e inject=openat:delay_exit=4000000:when=2"; do
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
	# Before it takes the lock a run looks at the folder while another may be writing
	# there: a probe or temporary file of that run'"'"'s, gone between the walk'"'"'s look at
	# it and its check of whose it is, was called foreign ("holds '"'"'.iotrial-probe..."'"'"'). Here
	# strace holds back the look at a planted .x 3 s, in which it is removed.
	test_expect_success 'a file gone while the run looks at the folder (a probe of another run) is not called foreign' '
		rm -rf rc
		mkdir rc
		echo x >rc/.x
		(
			sleep 1
			rm rc/.x
		) &
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -o trace2.txt -P .x -e trace=newfstatat -e inject=newfstatat:delay_exit=3000000:when=1 "$IOTRIAL" run -q -o rc a.yaml 2>err
		wait
		cat err trace2.txt
		grep "\.x.*DELAYED" trace2.txt
		whole_run rc
	'
else
	test_skip 'a run that locks the lock file the run before it just removed' 'needs strace'
	test_skip 'a file gone while the run looks at the folder' 'needs strace'
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

test_expect_success 'every test docs/safety.md names is a test of this script or t0052' '
	tr "\n" " " <"$SRC/docs/safety.md" | sed "s/  */ /g" | grep -o "tests\? \"[^\"]*\"\( and \"[^\"]*\"\)\?" >named.txt
	grep -o "\"[^\"]*\"" named.txt | tr -d "\"" >names.txt
	test "$(wc -l <names.txt)" -ge 10
	while read -r name; do
		grep -F -e "test_expect_success '"'"'$name'"'"' '"'"'" "$TEST_SCRIPT" "$SRC/tests/t/t0052-full-disk.sh" >/dev/null
	done <names.txt
'

test_done
