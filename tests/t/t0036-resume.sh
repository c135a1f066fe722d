#!/bin/bash
# iotrial run --resume DIR: runs killed with SIGKILL at random moments, several times, and
# resumed until they end; on the synthetic backend (simulated time) the result is the one of
# a run in one go, figure for figure; SIGINT, failed trials, the environment and pooled
# percentiles across sessions. Refusals: t0053-resume-refused.sh.
. "$(dirname "$0")/lib.sh"

need_cmd jq
. "$SRC/tests/t/resume.inc.sh"

# Run job $1 into folder $2 with a checkpoint every 50 ms, SIGKILLed each time just after a
# checkpoint that moved the run on (at a random moment after it from the third session on),
# and resumed (started afresh while it has no checkpoint yet) until a run ends by itself. A
# resumed run that left a new checkpoint must have added one record to resumptions. How many
# runs were resumptions goes to $2.resumes. Each session costs a few reads of a checkpoint of
# megabytes and a start of iotrial: on a busy CPU, under AddressSanitizer, ten or twenty of
# them take minutes, so the bodies that call this have a deadline of 400 s.
# The trials of folder $1's checkpoint that ran to their end; 0 without one.
trials_done() {
	if [ -f "$1/results.json" ]; then
		jq "[.jobs[].trials[] | select(.seq != null)] | length" "$1/results.json" 2>/dev/null || echo 0
	else
		echo 0
	fi
}

run_killed() {
	job=$1 dir=$2 kills=0 resumes=0 stalls=0
	rm -f "$dir.ended"
	while :; do
		before=0
		if [ -f "$dir/results.json" ]; then
			if jq -e .complete "$dir/results.json" >/dev/null; then
				# Killed after it wrote its last result file: before it removed its
				# lock file, maybe (flock is released with the process; the next run
				# takes the file over). Nothing else may be left.
				rm -f "$dir/.iotrial.lock"
				echo killed >"$dir.ended"
				break
			fi
			set -- --resume "$dir"
			resumes=$((resumes + 1))
			before=$(jq ".resumptions | length" "$dir/results.json")
			sha256sum "$dir/results.json" >"$dir.sum"
		else
			rm -rf "$dir" # no checkpoint yet: nothing to keep, start afresh
			set -- -o "$dir"
		fi
		done0=$(trials_done "$dir")
		"$IOTRIAL" run -q "$job" "$@" --checkpoint-interval 50ms 2>>"$dir.err" &
		pid=$!
		# Killed just after its first checkpoint with more trials done than it began with:
		# every session moves the run on, however fast the machine. Reading a checkpoint
		# (jq over megabytes) takes long on a busy machine, and a run that went on meanwhile
		# could end in its first or second session, before two resumptions. So the first two
		# sessions are stopped (SIGSTOP) while their checkpoint is read, and killed stopped:
		# each moves the run on by what it did in its own time, whatever the speed of this
		# shell. The later ones go on while read, and are killed a random 0-40 ms after.
		n=0
		while [ "$n" -lt 1000 ]; do
			sleep 0.01
			if [ "$resumes" -lt 2 ]; then
				kill -STOP "$pid" 2>/dev/null || break
			fi
			if [ "$(trials_done "$dir")" -gt "$done0" ]; then
				break
			fi
			kill -CONT "$pid" 2>/dev/null || break
			n=$((n + 1))
		done
		if [ "$resumes" -ge 2 ]; then
			sleep "0.0$((RANDOM % 5))"
		fi
		kill -KILL "$pid" 2>/dev/null || true
		rc=0
		wait "$pid" 2>/dev/null || rc=$?
		if [ "$1" = --resume ]; then
			if not sha256sum --status -c "$dir.sum"; then
				expect_eq "$(jq ".resumptions | length" "$dir/results.json")" $((before + 1)) "resumptions recorded"
			fi
		fi
		if [ "$rc" -eq 0 ]; then
			break
		fi
		if [ "$rc" -ne 137 ]; then
			echo "run ended with status $rc"
			cat "$dir.err"
			return 1
		fi
		kills=$((kills + 1))
		# Each session moves the run on by at least a trial, however slow the machine (a
		# busy one under AddressSanitizer took more than 80 sessions): what would be wrong
		# is sessions that do not.
		if [ "$(trials_done "$dir")" -gt "$done0" ]; then
			stalls=0
		else
			stalls=$((stalls + 1))
		fi
		if [ "$stalls" -gt 3 ]; then
			echo "no trial done in $stalls sessions in a row ($kills kills)"
			return 1
		fi
	done
	echo "$resumes" >"$dir.resumes"
}



TEST_TIMEOUT=400 test_expect_success 'synthetic: killed at random moments and resumed until done, it equals a run in one go' '
	t0=$(date +%s%N)
	"$IOTRIAL" run -q syn.yaml -o once --checkpoint-interval 50ms
	echo "a run in one go: $((($(date +%s%N) - t0) / 1000000)) ms"
	run_killed syn.yaml killed
	cat killed.resumes
	test "$(cat killed.resumes)" -ge 2
	jq -e ".resumptions | length >= 2" killed/results.json
	every_trial_once killed
	jq -S "$NORM" once/results.json >want.json
	jq -S "$NORM" killed/results.json >got.json
	cmp want.json got.json
	no_cpu once/trials.csv >want.csv
	no_cpu killed/trials.csv >got.csv
	cmp want.csv got.csv
	for f in once/records/*; do cmp "$f" "killed/records/${f#once/records/}"; done
	ls -A once >want.ls
	ls -A killed >got.ls
	cmp want.ls got.ls
	jq -e "[.jobs[] | select(.job == \"t\") | .summary.runs > 5] | all" killed/results.json
	jq -e "[.jobs[] | select(.job == \"w\") | .change_points | length > 0] | all" killed/results.json
'

TEST_TIMEOUT=400 test_expect_success 'the seed of a job file without one is the first run'"'"'s, kept across resumptions' '
	sed "/^seed: /d" syn.yaml >noseed.yaml
	run_killed noseed.yaml ns
	jq -r .seed ns/results.json >seed
	"$IOTRIAL" run -q noseed.yaml -o ns1 --set seed="$(cat seed)" --checkpoint-interval 50ms
	jq -S "$NORM | del(.overrides, .seed, .order_seed)" ns1/results.json >want.json
	jq -S "$NORM | del(.overrides, .seed, .order_seed)" ns/results.json >got.json
	cmp want.json got.json
'

TEST_TIMEOUT=400 test_expect_success 'sync: files on disk, killed and resumed until done: every trial once, none failed, nothing left over' '
	mkdir -p scratch
	cat >disk.yaml <<-JOB
	experiment: disk
	replication: {runs: 25, warmup: 1, order: random}
	jobs:
	  - {name: w, workload: write, backend: sync, target: "$TRASH/scratch", file_size: 512KiB, block_size: 64KiB, sync: fsync_end}
	  - {name: r, workload: randread, backend: sync, target: "$TRASH/scratch", file_size: 512KiB, block_size: 4KiB}
	JOB
	t0=$(date +%s%N)
	"$IOTRIAL" run -q disk.yaml -o disk-once
	echo "a run in one go: $((($(date +%s%N) - t0) / 1000000)) ms"
	run_killed disk.yaml disk
	test "$(cat disk.resumes)" -ge 2
	every_trial_once disk
	jq -e "[.jobs[].trials[]] | sort_by(.seq) | [.[].start_ns] | . == sort" disk/results.json
	jq -e "[.jobs[].trials[] | .failed != true] | all" disk/results.json
	ls -A disk >got.ls
	cat got.ls
	printf "results.json\nsummary.txt\ntrials.csv\n" >want.ls
	if [ -f disk.ended ]; then
		# killed after its last results.json, maybe while it wrote the other reports
		# (their temporary files, or none yet): iotrial report writes them again
		not grep -v -x -e results.json -e summary.txt -e trials.csv -e "\.summary\.txt\.iotrial~[A-Za-z0-9]\{6\}" -e "\.trials\.csv\.iotrial~[A-Za-z0-9]\{6\}" got.ls
		grep -x results.json got.ls
	else
		cmp want.ls got.ls
	fi
	"$IOTRIAL" report disk/results.json >report.txt
	grep "^w " report.txt
'

test_expect_success 'SIGINT: the trial cut short is run again' '
	cat >nul.yaml <<-JOB
	experiment: nul
	replication: {runs: 8}
	jobs:
	  - {name: n, workload: read, backend: null, file_size: 1MiB, block_size: 4KiB, runtime: 100ms}
	JOB
	stopped_run nul.yaml nul
	jq -e ".complete == false" nul/results.json
	jq -c "[.jobs[].trials[] | select(.error == \"interrupted\")] | map([.index, .seq])" nul/results.json >cut
	cat cut
	jq -e "[.jobs[].trials[] | select(.error == \"interrupted\" and .seq == null)] | length == 1" nul/results.json
	"$IOTRIAL" run -q nul.yaml --resume nul
	every_trial_once nul
	jq -e "[.jobs[].trials[] | .failed != true and .kept] | all" nul/results.json
	jq -e ".jobs[0].trials | length == 8" nul/results.json
'

test_expect_success 'SIGINT on the synthetic backend: resumed, it equals a run in one go' '
	"$IOTRIAL" run -q syn.yaml -o int --checkpoint-interval 50ms 2>int.err &
	pid=$!
	n=0
	while [ ! -f int/results.json ] && [ "$n" -lt 1000 ]; do
		sleep 0.01
		n=$((n + 1))
	done
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	expect_eq "$rc" 130
	"$IOTRIAL" run -q syn.yaml --resume int
	jq -S "$NORM" int/results.json >got.json
	jq -S "$NORM" once/results.json >want.json
	cmp want.json got.json
'

test_expect_success 'a resumption records what changed in the environment, and keeps the first start' '
	rm -rf env
	"$IOTRIAL" run -q syn.yaml -o env
	jq ".complete = false | .env.kernel = \"0.0.1-old\" | .env.hostname = \"elsewhere\" | .started_at = \"2020-01-01T00:00:00Z\"" env/results.json >env.json
	mv env.json env/results.json
	: >env/.results.json.iotrial~Xy12Ab
	# As a killed run leaves it: 0600 until it would have been renamed.
	chmod 600 env/.results.json.iotrial~Xy12Ab
	: >env/.iotrial-probe.iotrial~Ab1999
	chmod 600 env/.iotrial-probe.iotrial~Ab1999
	"$IOTRIAL" run -q syn.yaml --resume env
	jq -c ".resumptions[0].env_changes" env/results.json >changes
	cat changes
	jq -e ".resumptions[0].env_changes | map(select(.key == \"kernel\" and .before == \"0.0.1-old\" and .after != null)) | length == 1" env/results.json
	jq -e ".resumptions[0].env_changes | map(select(.key == \"hostname\" and .before == \"elsewhere\")) | length == 1" env/results.json
	jq -e ".resumptions[0].trials_done > 0 and .complete" env/results.json
	jq -e ".started_at == \"2020-01-01T00:00:00Z\" and .env.kernel == \"0.0.1-old\"" env/results.json
	ls -A env >got.ls
	printf "records\nresults.json\nsummary.txt\ntrials.csv\n" >want.ls
	cmp want.ls got.ls
'

test_expect_success 'a failed trial kept from the first session makes the exit status 1' '
	rm -rf failed
	"$IOTRIAL" run -q syn.yaml -o failed
	jq ".complete = false | .jobs[0].trials[2] |= (.failed = true | .kept = false | .error = \"planted\")" failed/results.json >f.json
	mv f.json failed/results.json
	expect_code 1 "$IOTRIAL" run -q syn.yaml --resume failed
	jq -e ".complete and .jobs[0].trials[2].error == \"planted\"" failed/results.json
'

# The pooled latency of a resumed run, rebuilt from results.json alone: per job and kind
# (all, read, write, slat, clat), the histograms in trial_hists of the kept trials added up
# by bucket (a one-direction trial's reads or writes are its `all`), read at the summary's
# percentiles by the jq function of docs/results.md. One line per figure: job, kind, key,
# the summary's value, the rebuilt one.
awk '/^def pct\(\$ppm\):/ { on = 1 } on && /^```/ { exit } on { print }' "$SRC/docs/results.md" >pct.jq
cat >pool.jq <<'JQ'
include "pct";
def merge: {count: (map(.count) | add), min: (map(.min) | min), max: (map(.max) | max),
	buckets: ([.[].buckets[]] | group_by(.[0]) | map([.[0][0], .[0][1], (map(.[2]) | add)]))};
.jobs[] | . as $j | [.trials[] | select(.kept)] as $kept
| .summary as $s | .summary.percentiles as $pcts
| ["all", $s.lat_ns], ["read", $s.read.lat_ns], ["write", $s.write.lat_ns], ["slat", $s.slat_ns], ["clat", $s.clat_ns]
| .[0] as $k | .[1] as $sum | select($sum != null)
| [$kept[] | . as $t | ($j.trial_hists.trials[] | select(.trial == $t.index))
	| if .[$k] then .[$k] elif ($k == "read" or $k == "write") and $t[$k].ios == $t.ios then .all else empty end]
| select(length > 0) | merge as $h
| ([["ios", $h.count], ["min", $h.min], ["max", $h.max]]
   + [$pcts[] | . as $p | ["p" + (tostring | sub("\\."; "_")), ($h | pct($p * 10000 | round))]])[]
| [$j.name, $k, .[0], $sum[.[0]], .[1]] | @tsv
JQ

# Two instances taking turns (interleaved), so that the checkpoint holds trials of both: one
# direction, and a mix of reads and writes; slat and clat apart on both.
cat >pool.yaml <<'JOB'
experiment: pool
replication: {runs: 20, warmup: 1, order: interleaved}
jobs:
  - name: j
    workload: read
    backend: null
    file_size: 1MiB
    block_size: 4KiB
    runtime: 20ms
    null_delay: 20us
    iodepth: 4
    submit_latency: true
    log_histogram: true
    percentiles: [50, 90, 99, 99.9]
    matrix: {workload: [read, randrw]}
JOB

test_expect_success 'null: killed after a checkpoint and resumed, its pooled percentiles are those of every kept trial'"'"'s I/Os' '
	rm -rf pool
	"$IOTRIAL" run -q pool.yaml -o pool --checkpoint-interval 0 2>pool.err &
	pid=$!
	n=0
	while [ "$(trials_done pool)" -lt 8 ] && [ "$n" -lt 1000 ]; do
		sleep 0.01
		n=$((n + 1))
	done
	kill -KILL "$pid"
	rc=0
	wait "$pid" || rc=$?
	expect_eq "$rc" 137
	cp pool/results.json ckpt.json
	jq -e ".complete == false and ([.jobs[].trials[] | select(.seq != null)] | length >= 8)" ckpt.json
	# Every trial that ran to its end has its histograms in the checkpoint, but a warm-up.
	jq -e "[.jobs[] | (.trial_hists.trials | map(.trial)) as \$h | .trials[] | select(.seq != null and .ios > 0) | .index as \$i | any(\$h[]; . == \$i) != (.warmup == true)] | all" ckpt.json
	"$IOTRIAL" run -q pool.yaml --resume pool
	jq -e ".complete and (.resumptions | length == 1)" pool/results.json
	# The trials kept from the checkpoint carry its histograms, not new ones.
	jq -c "[.jobs[] | .name as \$n | (.trials | map(select(.seq != null) | .index)) as \$kept | .trial_hists.trials[] | select(.trial as \$t | any(\$kept[]; . == \$t)) | [\$n, .]]" ckpt.json >ckpt.h
	jq -c --slurpfile c ckpt.h ". as \$r | [\$c[0][] | .[0] as \$n | .[1].trial as \$t | [\$n, (\$r.jobs[] | select(.name == \$n) | .trial_hists.trials[] | select(.trial == \$t))]]" pool/results.json >final.h
	jq -e "length >= 6" ckpt.h
	cmp ckpt.h final.h
	jq -L . -r -f pool.jq pool/results.json >pooled.tsv
	cat pooled.tsv
	# read: all, read (its all), slat, clat; randrw: all, read, write, slat, clat; each
	# ios, min, max and 4 percentiles, none left out.
	expect_eq "$(wc -l <pooled.tsv)" 63 "figures rebuilt"
	awk -F "\t" "\$4 != \$5 || \$4 == \"\" { print \"differs: \" \$0; bad = 1 } END { exit bad }" pooled.tsv
	# Pooled over every kept trial: the kept trials of the first session among them.
	jq -e ".jobs[] | .summary.lat_ns.ios == ([.trials[] | select(.kept) | .ios] | add)" pool/results.json
	jq -e "[.jobs[].trials[] | select(.kept)] | length == 40" pool/results.json
'

test_expect_success 'a checkpoint without trial_hists: pooled percentiles absent, and the summary says why' '
	rm -rf old
	mkdir old
	jq "del(.jobs[].trial_hists)" ckpt.json >old/results.json
	jq "[.jobs[1].trials[] | select(.seq != null and .kept)] | length" ckpt.json >nold
	"$IOTRIAL" run -q pool.yaml --resume old
	jq -e ".complete" old/results.json
	jq -e "[.jobs[].summary | .lat_ns, .read.lat_ns, .write.lat_ns, .slat_ns, .clat_ns | .ios == 0 and .p50 == null and .max == null] | all" old/results.json
	expect_eq "$(jq ".jobs[1].summary | [.lat_ns, .read.lat_ns, .write.lat_ns, .slat_ns, .clat_ns] | map(.trials_without_histogram) | unique | .[]" old/results.json)" "$(cat nold)" "kept trials without a histogram"
	grep -F "(n/a for j[workload=randrw]: $(cat nold) kept trials have no latency histogram to pool; the checkpoint its run was resumed from did not keep them)" old/summary.txt
	grep -F "(n/a for j[workload=read]: " old/summary.txt
	"$IOTRIAL" report old/results.json >old.txt
	cmp old/summary.txt old.txt
	"$IOTRIAL" report old/results.json -f html -o old.html
	grep -F "<p class=\"note why-na\">n/a for j[workload=randrw]: $(cat nold) kept trials have no latency histogram to pool;" old.html
'

test_expect_success 'a checkpoint histogram that is not its trial'"'"'s: one line, exit 2, the folder left as it was' '
	h=".jobs[0].trial_hists.trials[0].all"
	for edit in "$h.buckets[0][2] += 100000000000 | $h.count += 100000000000" \
		"$h.buckets[-1][1] += 3" "$h.min = $h.buckets[-1][1] + 1" ".jobs[0].trial_hists.unit = \"us\""; do
		rm -rf edited
		mkdir edited
		jq "$edit" ckpt.json >edited/results.json
		cp edited/results.json edited.before
		expect_code 2 "$IOTRIAL" run -q pool.yaml --resume edited 2>edited.err
		cat edited.err
		expect_eq "$(wc -l <edited.err)" 1 "lines on stderr"
		grep -E "latency histogram of trial|bucket scheme of this iotrial|trial_hists" edited.err
		cmp edited.before edited/results.json
		expect_eq "$(ls -A edited)" "results.json" "what the folder holds"
	done
'

test_done
