# Shared by t0036-resume.sh and t0053-resume-refused.sh (sourced after lib.sh): what a
# resumed run is compared by, and the job both resume.

# What a run writes that differs from run to run whatever the figures: times of day, the
# monotonic clock, CPU time, memory, the resumptions themselves, and the scratch folder's
# name (it holds the pid) in params and env.
NORM='del(.started_at, .finished_at, .resumptions, .resources, .env.targets[].path)
	| .jobs[] |= (del(.params.target) | .trials[] |= del(.start_ns, .end_ns, .cpu))'


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
