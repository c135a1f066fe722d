#!/bin/bash
# A trial whose record or interval log lacks lines (trials[].log_error in results.json): the
# line on stderr names the log that lacks them, trials.csv and report.html say what
# results.json says, and a results.json without log_error (written before it existed) still
# reads back. The logs are cut short by a file size limit (ulimit -f, SIGXFSZ ignored:
# write(2) then fails with EFBIG), so no root is needed to fill a disk; the results files are
# far smaller than the limit. Headless Chromium renders the report at the end.
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

# csv_cols COLS FILE: the columns of trials.csv FILE named in COLS (comma list), from its
# header, one row per line (for fields without commas or quotes).
csv_cols() {
	awk -F, -v want="$1" 'NR == 1 { n = split(want, w, ","); for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ line = ""; for (k = 1; k <= n; k++) line = line (k > 1 ? "," : "") $col[w[k]]; print line }' "$2"
}

# whole_lines FILE: every line of log FILE has its header's fields and ends: a write cut
# short leaves no part of a line at the end.
whole_lines() {
	test "$(tail -c 1 "$1" | od -An -c | tr -d " ")" = "\n" || {
		echo "$1 ends in part of a line: $(tail -c 40 "$1")"
		return 1
	}
	awk -F, -v f="$1" 'NR == 1 { n = NF } NF != n { print f ":" NR ": " NF " fields, not " n; bad = 1 }
		END { exit bad }' "$1"
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
	whole_lines r/records/r.csv
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
	whole_lines b/records/b.csv
	whole_lines b/records/b.intervals.csv
'

test_expect_success 'trials.csv: a log_error column beside error, as results.json has it' '
	head -n 1 r/trials.csv | grep ",workload,error,log_error,read_ios,"
	csv_cols job,trial,error,log_error r/trials.csv >csv.rows
	jq -r ".jobs[] | .name as \$j | .trials[] | [\$j, .index, .error // \"\", .log_error // \"\"] | join(\",\")" \
		r/results.json >json.rows
	expect_eq "$(cat csv.rows)" "$(printf "r,0,,File too large\nr,1,,File too large\nr,2,,File too large")"
	cmp csv.rows json.rows
	# A run whose logs are whole: the column is there, empty.
	"$IOTRIAL" run -q -o whole records.yaml
	csv_cols trial,log_error whole/trials.csv >whole.rows
	expect_eq "$(cat whole.rows)" "$(printf "0,\n1,\n2,")"
'

test_expect_success 'trials.csv: a log_error with commas and quotes is quoted (RFC 4180), report -f csv alike' '
	jq ".jobs[0].trials[1].log_error = \"rank 1: a, \\\"b\\\"\"" r/results.json >quoted.json
	"$IOTRIAL" report quoted.json -f csv -o quoted.csv
	grep -F ",workload,error,log_error," quoted.csv
	grep -F ",null,randread,,\"rank 1: a, \"\"b\"\"\"," quoted.csv
	"$IOTRIAL" report r/results.json -f csv -o again.csv
	cmp r/trials.csv again.csv
'

if command -v python3 >/dev/null 2>&1; then
	test_expect_success 'trials.csv with a quoted log_error reads back as results.json has it (Python csv)' '
		python3 -c "import csv, json, sys; print(json.dumps([r[\"log_error\"] for r in csv.DictReader(open(sys.argv[1]))], separators=(\",\", \":\")))" quoted.csv >py.txt
		expect_eq "$(cat py.txt)" "$(jq -c "[.jobs[0].trials[].log_error]" quoted.json)"
		expect_eq "$(cat py.txt)" "[\"File too large\",\"rank 1: a, \\\"b\\\"\",\"File too large\"]"
	'
else
	test_skip 'trials.csv with a quoted log_error reads back as results.json has it' 'python3 is not installed'
fi

test_expect_success 'report.html lists the trials whose logs lack lines, and says so under the summary' '
	expect_eq "$(grep -c "<tr class=\"problem\"" r/report.html)" 3
	grep -F "<tr class=\"problem\" id=\"problem-0-2\"><td class=\"l mono name\">r</td><td>2</td><td class=\"l why error\">-</td><td class=\"l why log-error\">File too large</td></tr>" r/report.html
	grep -F "<p class=\"note\" id=\"problems-said\">records/ lacks lines of 3 trials (File too large), whose figures are whole all the same: see <a href=\"#problems\">trials with problems</a>.</p>" r/report.html
	grep -F "<p class=\"note log-cut\">records/ lacks lines of 3 trials (File too large): its series hold" r/report.html
	"$IOTRIAL" report r/results.json -f html -o again.html
	cmp r/report.html again.html
	# A failed trial is listed too, with its error.
	jq ".jobs[0].trials[0].failed = true | .jobs[0].trials[0].kept = false | .jobs[0].trials[0].error = \"read <x> failed\" | del(.jobs[0].trials[1, 2].log_error)" \
		r/results.json >failed.json
	"$IOTRIAL" report failed.json -f html -o failed.html
	grep -F "<td>0</td><td class=\"l why error\">read &lt;x&gt; failed</td><td class=\"l why log-error\">File too large</td></tr>" failed.html
	expect_eq "$(grep -c "<tr class=\"problem\"" failed.html)" 1
	grep -F "id=\"problems-said\">1 trial failed; records/ lacks lines of 1 trial (File too large), whose" failed.html
	# Whole logs, no failure: nothing said, no list.
	"$IOTRIAL" report whole/results.json -f html -o whole.html
	not grep -e "id=\"problems" -e "lacks lines" whole.html
'

test_expect_success 'a results.json without log_error (an older run) reads back in every format' '
	jq "del(.jobs[].trials[].log_error)" r/results.json >old.json
	"$IOTRIAL" report old.json -f json -o old.back.json
	expect_eq "$(jq "[.jobs[].trials[] | has(\"log_error\")] | any" old.back.json)" false
	jq -S . old.json >a.json
	jq -S . old.back.json >b.json
	cmp a.json b.json
	"$IOTRIAL" report old.json -f csv -o old.csv
	csv_cols trial,log_error old.csv >old.rows
	expect_eq "$(cat old.rows)" "$(printf "0,\n1,\n2,")"
	"$IOTRIAL" report old.json -f html -o old.html
	not grep -e "id=\"problems" -e "lacks lines" old.html
	grep "</html>" old.html
	"$IOTRIAL" report old.json >old.txt
	not grep "lacks lines" old.txt
	# And the run with log_error: unchanged by a round trip.
	"$IOTRIAL" report r/results.json -f json -o r.back.json
	jq -S . r/results.json >c.json
	jq -S . r.back.json >d.json
	cmp c.json d.json
'

need_cmd chromium


test_expect_success 'report.html with trials whose logs lack lines renders in Chromium, each one listed' '
	cp r/report.html cut.html
	chromium_dom cut.html
	not grep CONSOLE cut.html.log
	grep "<html lang=\"en\" data-ready=\"1\">" cut.html.dom
	expect_eq "$(grep -c "<td class=\"l why log-error\">File too large</td>" cut.html.dom)" 3
	grep "<h2 id=\"problems\">Trials with problems</h2>" cut.html.dom
	grep "<a href=\"#problems\">trials with problems</a>" cut.html.dom
'

test_done
