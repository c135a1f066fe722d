#!/bin/bash
# A trial whose record or interval log lacks lines (trials[].log_error in results.json): the
# line on stderr names the log that lacks them. The logs are cut short by a file size limit
# (ulimit -f, SIGXFSZ ignored: write(2) then fails with EFBIG), so no root is needed to fill
# a disk; the results files are far smaller than the limit.
. "$(dirname "$0")/lib.sh"
need_cmd jq

# limited CMD...: CMD with files limited to 1 MiB, their writes past it failing (EFBIG).
limited() {
	(
		ulimit -f 1024
		trap "" XFSZ
		exec "$@"
	)
}

# Job r's trials log 51,200 I/Os each (about 1.8 MB of record lines), the time-bound ones
# (4 workers, 300 ms) more lines of each log: the limit cuts every trial.
log_job() {
	printf 'experiment: cut\njobs:\n  - {name: %s, workload: randread, backend: null, file_size: 1MiB, block_size: 4KiB, %s, replication: {runs: 3, warmup: 0}}\n' "$1" "$2"
}
log_job r 'io_limit: 200MiB, log: {records: true}' >records.yaml
log_job i 'runtime: 300ms, threads: 4, log: {interval: 1us}' >intervals.yaml
log_job b 'runtime: 300ms, threads: 4, log: {records: true, interval: 1us}' >both.yaml

test_expect_success 'a record log cut short: stderr names the record log, each trial says why, exit 1' '
	expect_code 1 limited "$IOTRIAL" run -q -o r -f json,csv,text,html records.yaml 2>err
	grep -x "job .r.: a record log could not be written: File too large; logging stopped" err
	not grep "interval log" err
	expect_eq "$(jq -c "[.jobs[0].trials[].log_error]" r/results.json)" \
		"[\"File too large\",\"File too large\",\"File too large\"]" "log_error"
	grep -x "  r: records/ lacks lines of 3 trials (File too large)" r/summary.txt
'

test_expect_success 'an interval log cut short: stderr names the interval log, not a record log' '
	expect_code 1 limited "$IOTRIAL" run -q -o i intervals.yaml 2>err
	grep -x "job .i.: an interval log could not be written: File too large; logging stopped" err
	not grep "record log" err
	expect_eq "$(jq -c "[.jobs[0].trials[].log_error]" i/results.json)" \
		"[\"File too large\",\"File too large\",\"File too large\"]" "log_error"
	grep -x "note: i: records/ lacks lines of 3 trials (File too large)" i/summary.txt
'

test_expect_success 'both logs cut short: one line for each' '
	expect_code 1 limited "$IOTRIAL" run -q -o b both.yaml 2>err
	grep -x "job .b.: a record log could not be written: File too large; logging stopped" err
	grep -x "job .b.: an interval log could not be written: File too large; logging stopped" err
	expect_eq "$(grep -c "could not be written" err)" 2 "lines on stderr"
'

test_done
