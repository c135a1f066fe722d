#!/bin/bash
# Queues of job files (iotrial run a.yaml b.yaml ...): a folder per file named after it, and
# batch.json beside them, rewritten whole as each file begins and ends; every file checked
# before any runs; a failure stops the queue unless --keep-going; SIGINT stops it with 130;
# --log FILE appends one line per trial, whole, even when two runs share the file.
. "$(dirname "$0")/lib.sh"
need_cmd jq

job() { # NAME EXTRA: a small job file NAME.yaml on the null backend
	printf 'experiment: %s\nreplication: {runs: 2}\njobs:\n  - {name: r, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB%s}\n' "$1" "${2:-}" >"$1.yaml"
}
job a
job b
job c
# A trial that fails at run time: an EIO injected at offset 0.
printf 'experiment: f\njobs:\n  - {name: w, workload: write, backend: fault, fault_backend: null, fault_eio_offset: 0, file_size: 1MiB, block_size: 64KiB}\n' >f.yaml
# Trials of 400 ms: long enough to look at the queue while it runs, or interrupt it.
job slow ", runtime: 400ms"
printf 'experiment: bad\njobs:\n  - {name: r, workload: read, backend: null, file_sise: 1MiB}\n' >bad.yaml
mkdir x y
cp a.yaml x/a.yaml
cp b.yaml y/a.yaml
cp b.yaml a.yml

# The statuses of the files of batch.json $1, as one line.
statuses() {
	jq -c "[.files[] | [.folder, .status, .exit_status]]" "$1"
}

# Folder $1 holds one complete run of experiment $2, and no temporary file.
whole_run() {
	expect_eq "$(jq -r .experiment "$1/results.json")" "$2"
	expect_eq "$(jq .complete "$1/results.json")" true
	test -s "$1/trials.csv"
	ls -A "$1" >left
	not grep "^\." left
}

test_expect_success 'a queue: a folder per job file, named after it, and batch.json beside them' '
	"$IOTRIAL" run -q -o q a.yaml x/../b.yaml c.yaml 2>err
	expect_eq "$(ls -A q | tr "\n" " ")" "a b batch.json c "
	whole_run q/a a
	whole_run q/b b
	whole_run q/c c
	expect_eq "$(statuses q/batch.json)" "[[\"a\",\"ok\",0],[\"b\",\"ok\",0],[\"c\",\"ok\",0]]"
	expect_eq "$(jq -r "[.schema, .status, .exit_status, .keep_going, .log, .ranks] | @tsv" q/batch.json)" "$(printf "iotrial.batch/1\tok\t0\tfalse\t\t1")"
	expect_eq "$(jq -r "[.files[].job_file] | join(\" \")" q/batch.json)" "a.yaml x/../b.yaml c.yaml"
	jq -e "[.started_at, .finished_at, .files[].started_at, .files[].finished_at] | all(test(\"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$\"))" q/batch.json
	jq -e ".pid > 0 and (.host | length) > 0 and .tool.name == \"iotrial\"" q/batch.json
	grep "iotrial: batch in q/ (batch.json): 3 ok, 0 failed, 0 interrupted, 0 skipped" err
'

test_expect_success 'without -o: results/batch-<UTC time>/, the same layout' '
	mkdir noo
	cd noo
	"$IOTRIAL" run -q ../a.yaml ../b.yaml 2>err
	ls results >names
	grep -E "^batch-[0-9]{8}T[0-9]{6}Z$" names
	expect_eq "$(ls -A results/batch-* | tr "\n" " ")" "a b batch.json "
	whole_run results/batch-*/a a
'

test_expect_success 'two job files of one name, or a name unfit for a folder: exit 2, nothing made' '
	touch after
	ls -R >before
	expect_code 2 "$IOTRIAL" run -q -o n1 x/a.yaml y/a.yaml 2>err
	grep "iotrial: job files .x/a.yaml. and .y/a.yaml. would share the result folder .a. (a folder per file name, without .yaml): rename one, or run them apart" err
	expect_code 2 "$IOTRIAL" run -q -o n2 a.yaml a.yml 2>err
	grep "would share the result folder .a." err
	expect_code 2 "$IOTRIAL" run -q -o n3 a.yaml b.yaml a.yaml 2>err
	grep "would share" err
	cp a.yaml .hidden.yaml
	cp a.yaml batch.json.yaml
	expect_code 2 "$IOTRIAL" run -q -o n4 .hidden.yaml batch.json.yaml 2>err
	grep "iotrial: job file .\.hidden\.yaml. would give its results the folder name .\.hidden. in the batch folder; rename the file" err
	grep "iotrial: job file .batch\.json\.yaml. would give its results the folder name .batch\.json. in the batch folder" err
	rm .hidden.yaml batch.json.yaml
	ls -R >after
	diff before after
'

test_expect_success 'a job-file error in the third file: every error said, exit 2, nothing run or made' '
	cp bad.yaml bad2.yaml
	touch after
	ls -R >before
	expect_code 2 "$IOTRIAL" run -q -o v a.yaml b.yaml bad.yaml bad2.yaml 2>err
	grep "bad.yaml:3:.*unknown key" err
	grep "bad2.yaml:3:.*unknown key" err
	grep "iotrial: 2 of 4 job files cannot run: nothing was run" err
	not grep "results in" err
	ls -R >after
	diff before after
	rm bad2.yaml
'

test_expect_success 'a failure stops the queue: the rest skipped, exit 1' '
	expect_code 1 "$IOTRIAL" run -q -o s a.yaml f.yaml b.yaml 2>err
	expect_eq "$(statuses s/batch.json)" "[[\"a\",\"ok\",0],[\"f\",\"failed\",1],[\"b\",\"skipped\",null]]"
	expect_eq "$(jq -r "[.status, .exit_status, .files[2].started_at] | @tsv" s/batch.json)" "$(printf "failed\t1\t")"
	test ! -e s/b/results.json
	grep "1 ok, 1 failed, 0 interrupted, 1 skipped" err
'

test_expect_success '--keep-going runs the rest after a failure; the exit status still says 1' '
	expect_code 1 "$IOTRIAL" run -q -o k --keep-going a.yaml f.yaml b.yaml 2>err
	expect_eq "$(statuses k/batch.json)" "[[\"a\",\"ok\",0],[\"f\",\"failed\",1],[\"b\",\"ok\",0]]"
	expect_eq "$(jq -r "[.status, .exit_status, .keep_going] | @tsv" k/batch.json)" "$(printf "failed\t1\ttrue")"
	whole_run k/b b
'

test_expect_success 'batch.json is written as each file begins and ends, always whole' '
	"$IOTRIAL" run -q -o w a.yaml slow.yaml b.yaml 2>err &
	pid=$!
	seen=""
	while kill -0 $pid 2>/dev/null; do
		if [ -e w/batch.json ]; then
			jq -c "[.status, [.files[].status]]" w/batch.json >>seen
		fi
		sleep 0.02
	done
	wait $pid
	jq -c "[.status, [.files[].status]]" w/batch.json >>seen
	sort -u seen >states
	cat states
	grep -x "\[\"running\",\[\"ok\",\"running\",\"pending\"\]\]" states
	grep -x "\[\"ok\",\[\"ok\",\"ok\",\"ok\"\]\]" states
	not grep -v "^\[\"" seen
	ls -A w >left
	not grep "^\." left
'

test_expect_success 'SIGINT stops the queue: exit 130, batch.json says what ran' '
	"$IOTRIAL" run -q -o i --keep-going a.yaml slow.yaml b.yaml 2>err &
	pid=$!
	for n in $(seq 200); do
		if [ -e i/batch.json ]; then
			jq -r ".files[1].status" i/batch.json >st
			if [ "$(cat st)" = running ]; then break; fi
		fi
		sleep 0.02
	done
	sleep 0.3
	kill -INT $pid
	rc=0
	wait $pid || rc=$?
	expect_eq "$rc" 130
	expect_eq "$(statuses i/batch.json)" "[[\"a\",\"ok\",0],[\"slow\",\"interrupted\",130],[\"b\",\"skipped\",null]]"
	expect_eq "$(jq -r "[.status, .exit_status] | @tsv" i/batch.json)" "$(printf "interrupted\t130")"
	expect_eq "$(jq .complete i/slow/results.json)" false
'

test_expect_success 'SIGTERM: exit 143; SIGKILL: batch.json whole, the file under way running' '
	"$IOTRIAL" run -q -o t a.yaml slow.yaml 2>err &
	pid=$!
	for n in $(seq 200); do
		if [ -e t/batch.json ]; then
			jq -r ".files[1].status" t/batch.json >st
			if [ "$(cat st)" = running ]; then break; fi
		fi
		sleep 0.02
	done
	kill -TERM $pid
	rc=0
	wait $pid || rc=$?
	expect_eq "$rc" 143
	expect_eq "$(statuses t/batch.json)" "[[\"a\",\"ok\",0],[\"slow\",\"interrupted\",143]]"
	"$IOTRIAL" run -q -o kill a.yaml slow.yaml b.yaml 2>err &
	pid=$!
	for n in $(seq 200); do
		if [ -e kill/batch.json ]; then
			jq -r ".files[1].status" kill/batch.json >st
			if [ "$(cat st)" = running ]; then break; fi
		fi
		sleep 0.02
	done
	kill -KILL $pid
	wait $pid || true
	expect_eq "$(statuses kill/batch.json)" "[[\"a\",\"ok\",0],[\"slow\",\"running\",null],[\"b\",\"pending\",null]]"
	expect_eq "$(jq -r "[.status, .exit_status, .finished_at] | @tsv" kill/batch.json)" "$(printf "running\t\t")"
	ls -A kill >left
	not grep "^\." left
'

test_expect_success 'an earlier batch is refused without --force, replaced with it' '
	cp q/batch.json q.before
	expect_code 1 "$IOTRIAL" run -q -o q a.yaml b.yaml c.yaml 2>err
	grep "iotrial: batch folder .q. holds the batch.json of an earlier batch: give --force to replace it and its job files. results, or name another folder" err
	cmp q/batch.json q.before
	"$IOTRIAL" run -q -o q --force a.yaml b.yaml c.yaml 2>err
	not cmp q/batch.json q.before
	expect_eq "$(jq -r .status q/batch.json)" ok
'

test_expect_success '--force replaces only a batch.json iotrial wrote: not a user file, a hard link or a symlink' '
	mkdir fu fh fs
	echo "{\"my\": \"precious data\"}" >fu/batch.json
	cp q/batch.json mine.json
	ln mine.json fh/batch.json
	ln -s ../mine.json fs/batch.json
	cp mine.json mine.before
	for d in fu fh fs; do
		cat $d/batch.json >$d.before
		expect_code 1 "$IOTRIAL" run -q -o $d --force a.yaml b.yaml 2>err
		expect_eq "$(cat err)" "iotrial: batch folder '"'"'$d'"'"' holds a batch.json that iotrial did not write (not a regular file of one link, in iotrial'"'"'s form): refusing to replace it, even with --force; move it away, or name another folder"
		cmp $d/batch.json $d.before
		expect_eq "$(ls -A $d)" batch.json
	done
	test -L fs/batch.json
	cmp mine.json mine.before
'

test_expect_success 'two queues in one folder at once: the second is refused, exit 1' '
	"$IOTRIAL" run -q -o two slow.yaml a.yaml 2>err1 &
	pid=$!
	for n in $(seq 200); do
		if [ -e two/batch.json ]; then break; fi
		sleep 0.02
	done
	expect_code 1 "$IOTRIAL" run -q -o two b.yaml c.yaml 2>err
	grep "iotrial: batch folder .two. is in use by another iotrial run: wait for it to end, or choose another folder" err
	wait $pid
	expect_eq "$(statuses two/batch.json)" "[[\"slow\",\"ok\",0],[\"a\",\"ok\",0]]"
	test ! -e two/b
'

# The first file's prepare hook moves the batch folder away and leaves a symlink to a folder
# on another file system (/dev/shm) in its place.
victim=$(mktemp -d /dev/shm/iotrial-t0037.XXXXXX)
trap 'rm -rf "$victim"' EXIT
printf 'experiment: sw\nprepare: "mv bq bq.moved; ln -s %s bq"\njobs:\n  - {name: r, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB}\n' "$victim" >sw.yaml

test_expect_success 'a batch folder renamed mid-batch, a symlink in its place: batch.json kept in the folder held' '
	"$IOTRIAL" run -q -o bq sw.yaml b.yaml 2>err
	expect_eq "$(statuses bq.moved/batch.json)" "[[\"sw\",\"ok\",0],[\"b\",\"ok\",0]]"
	expect_eq "$(ls -A "$victim")" ""
'

test_expect_success 'a result folder refused at the start stops the queue before any file runs' '
	mkdir -p pre/b
	echo mine >pre/b/notes.txt
	expect_code 1 "$IOTRIAL" run -q -o pre a.yaml b.yaml 2>err
	grep "result folder .pre/b. holds .notes.txt., which iotrial did not write" err
	test ! -e pre/a/results.json
	test ! -e pre/batch.json
'

test_expect_success '--force empties no folder of a batch until every one is accepted: one refused, nothing removed' '
	"$IOTRIAL" run -q -o fb a.yaml b.yaml 2>err
	echo note >fb/b/notes.txt
	ls -AR fb >before.ls
	sha256sum fb/batch.json fb/a/* fb/b/* >before.sum
	expect_code 1 "$IOTRIAL" run -q -o fb --force a.yaml b.yaml 2>err
	grep "result folder .fb/b. holds .notes.txt., which iotrial did not write" err
	ls -AR fb >after.ls
	diff before.ls after.ls
	sha256sum -c --quiet before.sum
	whole_run fb/a a
'

# Permission bits stop no root: the folders that cannot be emptied are nobody's, and the
# batches run as nobody. Each of them was found only as it was emptied, after q/a was.
if can_be_nobody; then
	test_expect_success '--force empties no folder of a batch when one cannot be emptied (records/, hooks/, the folder not writable): refused, exit 1, nothing removed' '
		as_nobody=$AS_NOBODY
		mkdir np
		chown 65534:65534 np
		cd np
		job a ", log_records: true"
		job b ", log_records: true"
		$as_nobody "$IOTRIAL" run -q -o q a.yaml b.yaml 2>err
		mkdir q/b/hooks
		echo hook >q/b/hooks/h.log
		chown -R 65534:65534 q/b/hooks
		ls -AR q >before.ls
		find q -type f -exec sha256sum {} + >before.sum
		for d in records hooks .; do
			# The folder itself: a killed run left its lock file, so taking the lock writes
			# nothing new into q/b (without one, the lock is refused as before).
			if [ $d = . ]; then
				echo 4242 >q/b/.iotrial.lock
				chown 65534:65534 q/b/.iotrial.lock
			fi
			chmod 555 q/b/$d
			rc=0
			$as_nobody "$IOTRIAL" run -q -o q --force a.yaml b.yaml 2>err || rc=$?
			chmod 755 q/b/$d
			expect_eq "$rc" 1 "q/b/$d"
			if [ $d = . ]; then
				expect_eq "$(cat err)" "iotrial: cannot write to result folder '"'"'q/b'"'"': Permission denied"
				rm q/b/.iotrial.lock
			else
				expect_eq "$(cat err)" "iotrial: cannot empty result folder '"'"'q/b'"'"': '"'"'$d'"'"': Permission denied"
			fi
			ls -AR q >after.ls
			diff before.ls after.ls
			sha256sum -c --quiet before.sum
		done
		whole_run q/a a
		whole_run q/b b
		expect_eq "$(statuses q/batch.json)" "[[\"a\",\"ok\",0],[\"b\",\"ok\",0]]"
	'
else
	test_skip '--force empties no folder of a batch when one cannot be emptied' 'needs root and setpriv'
fi

# A symlink, or a file, where a job file's folder goes: the batch folder's folders are iotrial's
# to make, and what a symlink there leads to (an earlier run, an empty folder) is not touched.
test_expect_success 'a symlink or a file in place of a job file folder: refused (exit 1), with or without --force, nothing touched' '
	"$IOTRIAL" run -q -o victim a.yaml 2>err
	mkdir empty
	sha256sum victim/* >victim.sum
	mkdir sl sl2
	ln -s ../victim sl/a
	ln -s ../empty sl2/b
	touch -d @978307200 victim empty
	for force in --force ""; do
		for d in sl sl2; do
			expect_code 1 "$IOTRIAL" run -q -o $d $force a.yaml b.yaml 2>err
			grep -x "iotrial: result folder .$d/[ab]. is a symbolic link: iotrial makes the folders in a batch folder itself and follows no symbolic link there, even with --force; move it away, or name another batch folder" err
		done
	done
	sha256sum -c --quiet victim.sum
	expect_eq "$(ls -A empty)" ""
	expect_eq "$(stat -c %Y victim empty | tr "\n" " ")" "978307200 978307200 "
	test -L sl/a
	test -L sl2/b
	expect_eq "$(ls -A sl sl2 | tr "\n" " ")" "sl: a  sl2: a b "
	mkdir fl
	echo mine >fl/a
	expect_code 1 "$IOTRIAL" run -q -o fl --force a.yaml b.yaml 2>err
	grep "iotrial: result folder .fl/a. is a file: iotrial makes the folders in a batch folder itself" err
	expect_eq "$(cat fl/a)" mine
'

# --log

# Every line of log $1 is whole: a timestamp, pid=, event=, and for a trial each field.
cat >whole.awk <<'AWK'
$1 !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9][0-9][0-9][0-9][0-9][0-9]Z$/ || $2 !~ /^pid=[0-9]+$/ { print "bad: " $0; bad = 1 }
$3 == "event=trial" && $0 !~ / start=[^ ]+Z end=[^ ]+Z seconds=[^ ]+ bytes=[0-9]+ ios=[0-9]+ bw_bytes=[^ ]+ iops=[^ ]+ lat_mean_ns=[^ ]+ lat_p99_ns=[^ ]+ status=(ok|failed)/ { print "bad trial: " $0; bad = 1 }
END { exit bad }
AWK
log_lines_whole() {
	awk -f whole.awk "$1"
}

test_expect_success '--log: one line per trial, and per job file begun and ended' '
	"$IOTRIAL" run -q -o l a.yaml f.yaml --keep-going --log run.log 2>err || true
	cat run.log
	log_lines_whole run.log
	expect_eq "$(grep -c "event=trial" run.log)" 3
	expect_eq "$(grep -c "event=trial file=a.yaml experiment=a instance=r trial=[01] warmup=false .* bytes=1048576 ios=16 .* status=ok$" run.log)" 2
	grep "event=trial file=f.yaml experiment=f instance=w trial=0 .* status=failed error=\"write .* at offset 0 (65536 bytes): Input/output error\"$" run.log
	grep "event=file-start file=a.yaml$" run.log
	grep "event=file-end file=a.yaml folder=l/a exit_status=0$" run.log
	grep "event=file-end file=f.yaml folder=l/f exit_status=1$" run.log
	expect_eq "$(jq -r .log l/batch.json)" run.log
'

test_expect_success '--log with one job file, appended to what the file held' '
	echo "an earlier line" >one.log
	"$IOTRIAL" run -q -o l1 a.yaml --log one.log 2>err
	expect_eq "$(sed -n 1p one.log)" "an earlier line"
	expect_eq "$(grep -c "event=trial" one.log)" 2
	grep "event=file-end file=a.yaml folder=l1 exit_status=0$" one.log
'

test_expect_success 'two runs sharing one log: every line whole, none lost' '
	job many ", runs: 300"
	sed -i "s/replication: {runs: 2}/replication: {runs: 300}/; s/, runs: 300//" many.yaml
	"$IOTRIAL" run -q -o m1 many.yaml --log shared.log 2>/dev/null &
	p1=$!
	"$IOTRIAL" run -q -o m2 many.yaml --log shared.log 2>/dev/null &
	p2=$!
	wait $p1
	wait $p2
	log_lines_whole shared.log
	expect_eq "$(grep -c "event=trial" shared.log)" 600
	expect_eq "$(grep "event=trial" shared.log | cut -d" " -f2 | sort -u | wc -l)" 2
	expect_eq "$(wc -l <shared.log)" 604
'

test_expect_success 'a log that cannot be opened: exit 1, nothing run; an empty name: exit 2' '
	mkdir logdir
	expect_code 1 "$IOTRIAL" run -q -o nl a.yaml --log logdir 2>err
	grep "iotrial: cannot open the log .logdir.: Is a directory" err
	test ! -e nl
	expect_code 2 "$IOTRIAL" run -q -o nl a.yaml --log "" 2>err
	grep "iotrial: --log takes a file name, not" err
	test ! -e nl
	# A socket: ENXIO too, and no FIFO.
	python3 -c "import socket; socket.socket(socket.AF_UNIX).bind(\"logsock\")"
	expect_code 1 "$IOTRIAL" run -q -o nl a.yaml --log logsock 2>err
	grep -x "iotrial: cannot open the log .logsock.: No such device or address" err
	test ! -e nl
'

test_expect_success 'a log that is a FIFO: refused at once when no process reads it (exit 1, nothing run), written to when one does' '
	mkfifo logfifo
	expect_code 1 timeout 10 "$IOTRIAL" run -q -o nf a.yaml --log logfifo 2>err
	grep -x "iotrial: cannot open the log .logfifo.: a FIFO that no process reads" err
	test ! -e nf
	# A reader there before the run: one waiting in its open counts (it waits for a writer).
	cat logfifo >fifo.got &
	reader=$!
	for i in $(seq 1000); do
		test "$(cat /proc/$reader/wchan 2>/dev/null)" != wait_for_partner || break
		sleep 0.01
	done
	"$IOTRIAL" run -q -o nf a.yaml --log logfifo
	wait $reader
	grep -c "event=trial" fifo.got
	log_lines_whole fifo.got
'

test_expect_success 'a log that cannot be written: said once, the run goes on, exit 1' '
	expect_code 1 "$IOTRIAL" run -q -o full a.yaml b.yaml --log /dev/full 2>err
	expect_eq "$(grep -c "iotrial: cannot write to the log ./dev/full.: No space left on device" err)" 1
	whole_run full/b b
	expect_eq "$(jq -r "[.status, .exit_status] | @tsv" full/batch.json)" "$(printf "failed\t1")"
'

test_expect_success 'validate takes neither --keep-going nor --log (exit 2)' '
	expect_code 2 "$IOTRIAL" validate --keep-going a.yaml 2>err
	grep "iotrial: option .--keep-going. is for .iotrial run." err
	expect_code 2 "$IOTRIAL" validate --log x.log a.yaml 2>err
	grep "iotrial: option .--log. is for .iotrial run." err
	test ! -e x.log
'

test_done
