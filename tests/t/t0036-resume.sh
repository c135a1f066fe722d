#!/bin/bash
# iotrial run --resume DIR: runs killed with SIGKILL at random moments, several times, and
# resumed until they end; on the synthetic backend (simulated time) the result is the one of
# a run in one go, figure for figure. Every refusal is one line, exit status 2, and leaves
# DIR as it was.
. "$(dirname "$0")/lib.sh"

need_cmd jq

# What a run writes that differs from run to run whatever the figures: times of day, the
# monotonic clock, CPU time, memory, the resumptions themselves, and the scratch folder's
# name (it holds the pid) in params and env.
NORM='del(.started_at, .finished_at, .resumptions, .resources, .env.targets[].path)
	| .jobs[] |= (del(.params.target) | .trials[] |= del(.start_ns, .end_ns, .cpu))'

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

# Every file under folder $1 with its size, time and checksum: what "nothing changed" means.
snapshot() {
	find "$1" -printf '%P %s %T@ %m\n' | LC_ALL=C sort
	find "$1" -type f -exec sha256sum {} + | LC_ALL=C sort
}

# trials.csv $1 without its CPU time columns (measured, even on the synthetic backend).
no_cpu() {
	awk -F, -v OFS=, "NR == 1 { for (i = 1; i <= NF; i++) if (\$i ~ /^cpu_/) skip[i] = 1 }
		{ out = \"\"; for (i = 1; i <= NF; i++) if (!(i in skip)) out = out \$i \",\"; print out }" "$1"
}

# Each job's trials: indexes 0..n-1, each once; places in the order from 1, each unit's once.
every_trial_once() {
	jq -e '[.jobs[] | [.trials[].index] | . == [range(length)]] | all' "$1/results.json"
	jq -e '[.jobs[] | select(.background | not) | [.trials[].seq] | (. | unique | length) == length and all(. != null)] | all' "$1/results.json"
	jq -e '.complete' "$1/results.json"
}

# A run of job $1 into folder $2 (more options: $3...), interrupted (SIGINT) 0.35 s after
# its start: it must exit with 130. Its stderr goes to $2.err.
stopped_run() {
	local job=$1 dir=$2 pid rc=0
	shift 2
	"$IOTRIAL" run -q "$job" -o "$dir" "$@" 2>"$dir.err" &
	pid=$!
	sleep 0.35
	kill -INT "$pid"
	wait "$pid" || rc=$?
	expect_eq "$rc" 130
}

cat >syn.yaml <<'JOB'
experiment: syn
seed: 77
replication: {runs: 150, warmup: 1, order: random}
jobs:
  - name: w
    workload: write
    backend: synthetic
    file_size: 2MiB
    block_size: 64KiB
    sim_mean: 1ms
    sim_stddev: 0.1ms
    sim_cache_size: 1MiB
    sim_after_mean: 3ms
    log_records: true
    log_interval: 5ms
    matrix: {block_size: [64KiB, 128KiB]}
  - name: t
    after: [w]
    workload: read
    backend: synthetic
    file_size: 1MiB
    block_size: 1MiB
    sim_mean: 10ms
    sim_stddev: 1ms
    replication: {target: {confidence: 0.95, error: 0.01, pilot: 5, max: 150}}
    matrix: {sim_stddev: [0.5ms, 1ms]}
JOB

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
		not grep -v -x -e results.json -e summary.txt -e trials.csv -e "\.summary\.txt\.[A-Za-z0-9]\{6\}" -e "\.trials\.csv\.[A-Za-z0-9]\{6\}" got.ls
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

# A copy of the killed run's last checkpoint, made incomplete again: the folder to refuse.
refused() {
	rm -rf bad
	cp -r killed bad
	rm -f bad.before
	jq ".complete = false" killed/results.json >bad/results.json
}

# The command "$@" must exit 2 with one line on stderr that says $1's message, and leave
# folder bad as it was.
expect_refusal() {
	want=$1
	shift
	snapshot bad >before
	expect_code 2 "$@" 2>err
	cat err
	expect_eq "$(wc -l <err)" 1 "lines on stderr"
	grep -F -- "$want" err
	snapshot bad >after
	cmp before after
}

# A complete run is not refused: t0043-resume-complete.sh.
test_expect_success 'refused: no folder, no checkpoint' '
	refused
	expect_code 2 "$IOTRIAL" run -q syn.yaml --resume nowhere 2>err
	grep -F "cannot resume from '"'"'nowhere'"'"': no such folder" err
	rm bad/results.json
	expect_refusal "no checkpoint in it" "$IOTRIAL" run -q syn.yaml --resume bad
'

test_expect_success 'refused: another job file, other --set options, --force given or not' '
	refused
	sed "s/runs: 150/runs: 151/" syn.yaml >other.yaml
	expect_refusal "job file '"'"'other.yaml'"'"' is not the one its run began with" "$IOTRIAL" run -q other.yaml --resume bad
	expect_refusal "this run has --set replication.runs=9; the one it would resume had no such option" "$IOTRIAL" run -q syn.yaml --resume bad --set replication.runs=9
	expect_refusal "--set allow_overwrite=true" "$IOTRIAL" run -q syn.yaml --resume bad --force
	jq ".overrides = {\"replication.runs\": \"60\"}" bad/results.json >o.json
	mv o.json bad/results.json
	expect_refusal "its run began with --set replication.runs=60; this one has no --set replication.runs" "$IOTRIAL" run -q syn.yaml --resume bad
	expect_refusal "its run began with --set replication.runs=60; this one has --set replication.runs=61" "$IOTRIAL" run -q syn.yaml --resume bad --set replication.runs=61
'

test_expect_success 'refused: another schema, another version of iotrial, a truncated checkpoint' '
	refused
	sed -i "s|\"iotrial.results/1\"|\"iotrial.results/2\"|" bad/results.json
	expect_refusal "written by another version of iotrial (schema \"iotrial.results/2\")" "$IOTRIAL" run -q syn.yaml --resume bad
	refused
	jq ".tool.version = \"0.0.1\"" bad/results.json >v.json
	mv v.json bad/results.json
	expect_refusal "its checkpoint was written by iotrial 0.0.1" "$IOTRIAL" run -q syn.yaml --resume bad
	refused
	head -c 20000 killed/results.json >bad/results.json
	expect_refusal "bad/results.json:" "$IOTRIAL" run -q syn.yaml --resume bad
	: >bad/results.json
	expect_refusal "empty file" "$IOTRIAL" run -q syn.yaml --resume bad
'

test_expect_success 'refused: trials that are not at their place in the plan'"'"'s order' '
	refused
	jq "(.jobs[0].trials[3].seq) |= . + 1000" bad/results.json >s.json
	mv s.json bad/results.json
	expect_refusal "the checkpoint'"'"'s order is not the plan'"'"'s" "$IOTRIAL" run -q syn.yaml --resume bad
	refused
	jq "(.jobs[0].trials[3].seq, .jobs[0].trials[4].seq) |= 1" bad/results.json >s.json
	mv s.json bad/results.json
	expect_refusal "the checkpoint'"'"'s order is not the plan'"'"'s" "$IOTRIAL" run -q syn.yaml --resume bad
	refused
	jq ".jobs[0].trials += [.jobs[0].trials[5] | .index = 999 | .seq = 1]" bad/results.json >s.json
	mv s.json bad/results.json
	expect_refusal "1 of its trials are not at their place" "$IOTRIAL" run -q syn.yaml --resume bad
	# A kept trial whose index is not its place, or whose count is below zero: not carried
	# into the results.
	refused
	jq "(.jobs[0].trials[1].index) |= 999" bad/results.json >s.json
	mv s.json bad/results.json
	expect_refusal "the checkpoint'"'"'s order is not the plan'"'"'s" "$IOTRIAL" run -q syn.yaml --resume bad
	refused
	jq "(.jobs[0].trials[1].ios) |= -1" bad/results.json >s.json
	mv s.json bad/results.json
	expect_refusal "jobs[0].trials[1].ios: expected an integer from 0 to" "$IOTRIAL" run -q syn.yaml --resume bad
'

test_expect_success 'refused: a folder that a running iotrial holds' '
	rm -rf busy
	sed "s/runs: 60/runs: 100000/" syn.yaml >long.yaml
	"$IOTRIAL" run -q long.yaml -o busy --checkpoint-interval 50ms 2>busy.err &
	pid=$!
	for i in $(seq 100); do
		if [ -f busy/results.json ]; then
			break
		fi
		sleep 0.1
	done
	rc=0
	"$IOTRIAL" run -q long.yaml --resume busy 2>err || rc=$?
	kill -INT "$pid"
	wait "$pid" || true
	cat err
	expect_eq "$rc" 2
	expect_eq "$(wc -l <err)" 1 "lines on stderr"
	grep -F "it is in use by another iotrial run (pid $pid)" err
'

test_expect_success 'a symlink planted for a record log (or records/) is not followed by the resumption' '
	cat >rec.yaml <<-JOB
	replication: {runs: 8}
	jobs:
	  - {name: n, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB, runtime: 100ms, log_records: true}
	JOB
	stopped_run rec.yaml rec --checkpoint-interval 0
	printf "foreign line 1\nforeign line 2\n" >victim
	cp victim victim.orig
	rm rec/records/n.csv
	ln -s "$TRASH/victim" rec/records/n.csv
	rc=0
	"$IOTRIAL" run -q rec.yaml --resume rec 2>err || rc=$?
	cat err
	expect_eq "$rc" 1
	cmp victim victim.orig
	grep -F "rec/records/n.csv" err | grep "symbolic link"
	rm -r rec/records
	mkdir elsewhere
	ln -s "$TRASH/elsewhere" rec/records
	rc=0
	"$IOTRIAL" run -q rec.yaml --resume rec 2>err || rc=$?
	cat err
	expect_eq "$rc" 1
	expect_eq "$(ls -A elsewhere)" ""
	grep -F "rec/records" err | grep "symbolic link"
'

# An interrupted run of hk.yaml into folder $1, its cleanup hook's log written.
hooked_stop() {
	stopped_run hk.yaml "$1" --checkpoint-interval 0
	test -f "$1/hooks/experiment.cleanup.log"
}

test_expect_success 'a symlink planted for hooks/ (or a hook log) is not followed by the resumption' '
	cat >hk.yaml <<-JOB
	replication: {runs: 8}
	cleanup: echo bye
	jobs:
	  - {name: n, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB, runtime: 100ms}
	JOB
	hooked_stop hk1
	printf "foreign line\n" >hvictim
	cp hvictim hvictim.orig
	rm hk1/hooks/experiment.cleanup.log
	ln -s "$TRASH/hvictim" hk1/hooks/experiment.cleanup.log
	rc=0
	"$IOTRIAL" run -q hk.yaml --resume hk1 2>err || rc=$?
	cat err
	expect_eq "$rc" 1
	cmp hvictim hvictim.orig
	grep -F "hk1/hooks/experiment.cleanup.log" err | grep "symbolic link"
	hooked_stop hk2
	rm -r hk2/hooks
	mkdir helsewhere
	ln -s "$TRASH/helsewhere" hk2/hooks
	rc=0
	"$IOTRIAL" run -q hk.yaml --resume hk2 2>err || rc=$?
	cat err
	expect_eq "$rc" 1
	expect_eq "$(ls -A helsewhere)" ""
	grep -F "hk2/hooks" err | grep "symbolic link"
'

test_expect_success 'a hard link or a FIFO planted for a record log, a hard link for a hook log: not opened by the resumption, one line, exit 1' '
	cat >hl.yaml <<-JOB
	replication: {runs: 8}
	jobs:
	  - {name: n, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB, runtime: 100ms, log_records: true, prepare: echo hi}
	JOB
	stopped_run hl.yaml hl --checkpoint-interval 0
	cp -a hl hl.orig
	seq 1000 >lvictim
	cp lvictim lvictim.orig
	rm hl/records/n.csv
	ln lvictim hl/records/n.csv
	expect_code 1 timeout 20 "$IOTRIAL" run -q hl.yaml --resume hl 2>err
	cat err
	cmp lvictim lvictim.orig
	grep -Fx "cannot write the record log '"'"'hl/records/n.csv'"'"': Too many links (not a regular file with one link: a FIFO, a device or a hard link, which iotrial does not open)" err
	rm -rf hl
	cp -a hl.orig hl
	rm hl/records/n.csv
	mkfifo hl/records/n.csv
	expect_code 1 timeout 20 "$IOTRIAL" run -q hl.yaml --resume hl 2>err
	cat err
	grep -F "hl/records/n.csv'"'"': Invalid argument (not a regular file with one link" err
	test -p hl/records/n.csv
	rm -rf hl
	cp -a hl.orig hl
	rm hl/hooks/job.n.prepare.log
	ln lvictim hl/hooks/job.n.prepare.log
	expect_code 1 timeout 20 "$IOTRIAL" run -q hl.yaml --resume hl 2>err
	cat err
	cmp lvictim lvictim.orig
	grep -F "hl/hooks/job.n.prepare.log'"'"': Too many links (not a regular file with one link" err
'

test_expect_success 'refused: a .iotrial.lock or results.json that is a FIFO or a hard link, at once, exit 2' '
	refused
	mkfifo bad/.iotrial.lock
	expect_refusal "it holds a '"'"'.iotrial.lock'"'"' that iotrial did not make" timeout 20 "$IOTRIAL" run -q syn.yaml --resume bad
	refused
	ln bad/results.json bad/.iotrial.lock
	expect_refusal "it holds a '"'"'.iotrial.lock'"'"' that iotrial did not make" timeout 20 "$IOTRIAL" run -q syn.yaml --resume bad
	refused
	rm bad/results.json
	mkfifo bad/results.json
	expect_refusal "its results.json is not a regular file with one link" timeout 20 "$IOTRIAL" run -q syn.yaml --resume bad
	refused
	ln bad/results.json bad.json
	expect_refusal "its results.json is not a regular file with one link" timeout 20 "$IOTRIAL" run -q syn.yaml --resume bad
'

if [ "$(id -u)" = 0 ]; then
	test_expect_success 'a device node planted for a record log or as .iotrial.lock: never opened by the resumption' '
		stopped_run hl.yaml hd --checkpoint-interval 0
		rm hd/records/n.csv
		mknod hd/records/n.csv c 1 3
		expect_code 1 timeout 20 "$IOTRIAL" run -q hl.yaml --resume hd 2>err
		cat err
		grep -F "hd/records/n.csv'"'"': Invalid argument (not a regular file with one link" err
		test -c hd/records/n.csv
		refused
		mknod bad/.iotrial.lock c 1 3
		expect_refusal "it holds a '"'"'.iotrial.lock'"'"' that iotrial did not make" timeout 20 "$IOTRIAL" run -q syn.yaml --resume bad
	'
else
	test_skip 'a device node planted for a record log or as .iotrial.lock: never opened by the resumption' 'mknod needs root'
fi

test_expect_success 'a record log removed or cut before the resumption: the kept trials it lacks get log_error, exit 1' '
	stopped_run rec.yaml rl --checkpoint-interval 0
	cp -a rl rl.orig
	jq -c "[.jobs[0].trials[] | select(.seq != null) | .index]" rl/results.json >kept
	test "$(jq length kept)" -ge 1
	rm rl/records/n.csv
	expect_code 1 "$IOTRIAL" run -q rec.yaml --resume rl 2>err
	cat err
	grep -F "job '"'"'n'"'"': the log '"'"'rl/records/n.csv'"'"' lacks the lines of $(jq length kept) kept trial(s)" err
	jq -c "[.jobs[0].trials[] | select(.log_error != null) | .index]" rl/results.json >lost
	cmp kept lost
	jq -e ".complete" rl/results.json
	rm -rf rl
	cp -a rl.orig rl
	head -1 rl/records/n.csv >h.csv
	cat h.csv >rl/records/n.csv
	expect_code 1 "$IOTRIAL" run -q rec.yaml --resume rl 2>err
	jq -c "[.jobs[0].trials[] | select(.log_error != null) | .index]" rl/results.json >lost
	cmp kept lost
	rm -rf rl
	cp -a rl.orig rl
	expect_code 0 "$IOTRIAL" run -q rec.yaml --resume rl
	expect_eq "$(jq "[.jobs[0].trials[] | select(.log_error != null)] | length" rl/results.json)" 0
'

# The trial that ran first (seq 1) of folder $1's checkpoint: its index, and how many lines of
# log $2 it has.
first_trial() {
	jq -r ".jobs[0].trials[] | select(.seq == 1) | .index" "$1/results.json"
}
lines_of() {
	awk -F, -v t="$2" "NR > 1 && \$1 == t" "$1" | wc -l
}

test_expect_success 'a record or interval log cut inside a kept trial'"'"'s lines, emptied, or with lines added: log_error only where lines were lost' '
	cat >cut.yaml <<-JOB
	replication: {runs: 8}
	jobs:
	  - {name: n, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB, runtime: 100ms, log_records: true, log_interval: 10ms}
	JOB
	stopped_run cut.yaml lc --checkpoint-interval 0
	cp -a lc lc.orig
	t=$(first_trial lc)
	jq -c "[.jobs[0].trials[] | select(.seq != null) | .index]" lc/results.json >kept
	for log in n.csv n.intervals.csv; do
		rm -rf lc
		cp -a lc.orig lc
		n=$(lines_of "lc/records/$log" "$t")
		test "$n" -ge 2
		head -n $((1 + n / 2)) "lc/records/$log" >h.csv
		cat h.csv >"lc/records/$log"
		expect_code 1 "$IOTRIAL" run -q cut.yaml --resume lc 2>err
		cat err
		grep -F "the log '"'"'lc/records/$log'"'"' lacks the lines of $(jq length kept) kept trial(s)" err
		jq -c "[.jobs[0].trials[] | select(.log_error != null) | .index]" lc/results.json >lost
		cmp kept lost
		jq -e ".jobs[0].trials[$t].log_error | startswith(\"lines lost before the run was resumed\")" lc/results.json
	done
	rm -rf lc
	cp -a lc.orig lc
	: >lc/records/n.csv
	expect_code 1 "$IOTRIAL" run -q cut.yaml --resume lc
	jq -c "[.jobs[0].trials[] | select(.log_error != null) | .index]" lc/results.json >lost
	cmp kept lost
	rm -rf lc
	cp -a lc.orig lc
	sed -i 2p lc/records/n.csv
	sed -i 2p lc/records/n.intervals.csv
	expect_code 0 "$IOTRIAL" run -q cut.yaml --resume lc
	expect_eq "$(jq "[.jobs[0].trials[] | select(.log_error != null)] | length" lc/results.json)" 0
	expect_eq "$(lines_of lc/records/n.csv "$t")" $(($(jq ".jobs[0].trials[$t].ios" lc/results.json) + 1))
'

# Two --resume of one folder, B reading its checkpoint before A takes the folder and taking it
# after A let go: B is held between the two, at its open of the job file (tests/t/t0023-shim.c,
# SHIM_HOLD_OPEN), until A ends.
# Folder $1 (a checkpoint of race.yaml), A's command after it; B's stderr in $1.b.err, and
# its exit status in $1.b.rc.
race_resume() {
	local dir=$1 pid rc=0 n=0
	shift
	rm -f "$dir.go" "$dir.go.waiting"
	SHIM_HOLD_OPEN=race.yaml SHIM_HOLD_GO=$TRASH/$dir.go LD_PRELOAD=$TRASH/shim.so \
		"$IOTRIAL" run -q race.yaml --resume "$dir" 2>"$dir.b.err" &
	pid=$!
	while [ ! -e "$dir.go.waiting" ]; do
		n=$((n + 1))
		test "$n" -lt 2000
		sleep 0.01
	done
	"$@"
	touch "$dir.go"
	wait "$pid" || rc=$?
	echo "$rc" >"$dir.b.rc"
	cat "$dir.b.err"
}

# A --resume of folder $1 (of race.yaml), interrupted (SIGINT) 0.35 s after its start; the
# checkpoint it leaves copied to $1.a.json.
stopped_resume() {
	local pid rc=0
	"$IOTRIAL" run -q race.yaml --resume "$1" 2>"$1.a.err" &
	pid=$!
	sleep 0.35
	kill -INT "$pid"
	wait "$pid" || rc=$?
	expect_eq "$rc" 130
	cp "$1/results.json" "$1.a.json"
}

# Each trial of folder $1's checkpoint has as many lines in its record log as it did I/Os.
records_once() {
	jq -r ".jobs[0].trials[] | \"\(.index) \(.ios)\"" "$1/results.json" >ios
	while read -r i n; do
		expect_eq "$(lines_of "$1/records/n.csv" "$i")" "$n" "record lines of trial $i"
	done <ios
}

if command -v cc >/dev/null; then
	cc -shared -fPIC -o "$TRASH/shim.so" "$SRC/tests/t/t0023-shim.c" -ldl
	cat >race.yaml <<-JOB
	replication: {runs: 10}
	jobs:
	  - {name: n, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB, runtime: 100ms, log_records: true}
	JOB

	test_expect_success 'two --resume of one folder: the second reads the checkpoint again once it holds the folder, and finds the run complete' '
		stopped_run race.yaml rc --checkpoint-interval 0
		race_resume rc "$IOTRIAL" run -q race.yaml --resume rc
		jq -e .complete rc/results.json
		sha256sum rc/results.json rc/trials.csv rc/records/n.csv >a.sum
		expect_eq "$(cat rc.b.rc)" 0
		grep -F "the run in '"'"'rc'"'"' is complete: no trial runs again" rc.b.err
		sha256sum -c a.sum
		expect_eq "$(jq ".resumptions | length" rc/results.json)" 1
		records_once rc
	'

	test_expect_success 'two --resume of one folder, the first interrupted: the second goes on from its checkpoint, not the one it read first' '
		stopped_run race.yaml ri --checkpoint-interval 0
		race_resume ri stopped_resume ri
		jq -e ".complete | not" ri.a.json
		expect_eq "$(cat ri.b.rc)" 0
		every_trial_once ri
		expect_eq "$(jq ".resumptions | length" ri/results.json)" 2
		records_once ri
		expect_eq "$(jq "[.jobs[0].trials[] | select(.log_error != null)] | length" ri/results.json)" 0
	'
else
	test_skip 'two --resume of one folder: the second reads the checkpoint again once it holds the folder' 'no C compiler for the shim'
fi

test_expect_success 'usage: --resume takes one job file, no -o, json among the formats' '
	refused
	expect_code 2 "$IOTRIAL" run -q syn.yaml syn.yaml --resume bad 2>err
	grep -F -- "--resume takes one job file" err
	expect_code 2 "$IOTRIAL" run -q syn.yaml --resume bad -o x 2>err
	grep -F -- "-o is not for it" err
	expect_code 2 "$IOTRIAL" run -q syn.yaml --resume bad -f text 2>err
	grep -F -- "--resume needs json" err
	expect_code 2 "$IOTRIAL" run -q syn.yaml -o y --checkpoint-interval 5parsecs 2>err
	grep -F -- "--checkpoint-interval takes a duration" err
	not test -e x
	not test -e y
'

test_done
