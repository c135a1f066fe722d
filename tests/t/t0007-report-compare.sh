#!/bin/bash
# Saved runs read back: `iotrial report` rewrites what the run wrote, byte for byte, and
# `iotrial compare` tests two saved runs against each other. On the synthetic backend, whose
# truth is known: 10 ms against 12 ms.
. "$(dirname "$0")/lib.sh"

cat >sim.yaml <<'JOB'
experiment: rc
seed: 17
replication: {runs: 20, order: sequential}
jobs:
  - {name: s, workload: read, backend: synthetic, file_size: 4KiB, sim_mean: 10ms, sim_stddev: 1ms}
JOB

test_expect_success 'two runs, 10 ms and 12 ms' '
	"$IOTRIAL" run -q sim.yaml -o a --set sim_mean=10ms
	"$IOTRIAL" run -q sim.yaml -o b --set sim_mean=12ms
	test -s a/results.json
	test -s b/results.json
'

test_expect_success 'report rewrites summary.txt byte for byte' '
	"$IOTRIAL" report a/results.json >summary.out
	cmp summary.out a/summary.txt
	"$IOTRIAL" report -f text b/results.json | cmp - b/summary.txt
'

test_expect_success 'report -f csv rewrites trials.csv byte for byte' '
	"$IOTRIAL" report a/results.json -f csv >trials.out
	cmp trials.out a/trials.csv
'

test_expect_success 'report -f json -o FILE round-trips, leaving no temporary file' '
	rc=0
	"$IOTRIAL" report -f json -o out/again.json a/results.json 2>err || rc=$?
	expect_eq "$rc" 1
	grep -q "^iotrial: cannot write out/again.json: No such file or directory" err
	mkdir out
	"$IOTRIAL" report -f json -o out/again.json a/results.json
	expect_eq "$(ls -A out)" "again.json"
	cmp out/again.json a/results.json
'

test_expect_success 'report -o a name of 255 bytes (NAME_MAX): written, its temporary file named by its start' '
	mkdir long
	name=$(printf "x%.0s" $(seq 255))
	"$IOTRIAL" report -f json -o "long/$name" a/results.json
	expect_eq "$(ls -A long)" "$name"
	cmp "long/$name" a/results.json
'

test_expect_success 'report -o -: stdout, as without -o, no file named -' '
	mkdir dash
	cd dash
	"$IOTRIAL" report -f csv -o - ../a/results.json >../dash.csv
	cd ..
	cmp dash.csv a/trials.csv
	expect_eq "$(ls -A dash)" ""
'

need_cmd jq

test_expect_success 'the two runs: 20 kept trials each, figures that follow from them' '
	expect_eq "$(jq -c "[.jobs[].summary.kept]" a/results.json b/results.json | tr "\n" " ")" "[20] [20] "
	check_results a/results.json
	check_results b/results.json
'

test_expect_success 'report -f json is the same JSON document (jq -S)' '
	"$IOTRIAL" report -f json b/results.json >b.json
	jq -S . b.json >b1
	jq -S . b/results.json >b2
	cmp b1 b2
'

test_expect_success 'compare: B (12 ms) is slower than A (10 ms), by Welch' '
	"$IOTRIAL" compare a/results.json b/results.json >cmp.txt
	cat cmp.txt
	expect_eq "$(head -1 cmp.txt | cut -d" " -f1-4)" "comparing A = a/results.json"
	grep -q "with B = b/results.json" cmp.txt
	grep -q "^s: B is slower than A by [0-9.]*% ± [0-9.]*% (seconds, 95% confidence, welch)$" cmp.txt
	"$IOTRIAL" compare b/results.json a/results.json >cmp.txt
	grep -q "^s: B is faster than A by" cmp.txt
'

test_expect_success 'compare: the difference and its interval, relative to A, follow from the trials' '
	"$IOTRIAL" compare a/results.json b/results.json >cmp.txt
	sed -n "s/^s: B is slower than A by \([0-9.]*\)% ± \([0-9.]*\)% .*/\1 \2/p" cmp.txt >got
	# Welch: mean(B) - mean(A) and t(0.975, df) * se, in percent of mean(A).
	jq -L "$SRC/tests/t" -n -r --slurpfile a a/results.json --slurpfile b b/results.json "include \"stats\";
		[\$a[0].jobs[0].trials[] | select(.kept) | .seconds] as \$x |
		[\$b[0].jobs[0].trials[] | select(.kept) | .seconds] as \$y |
		(\$x | length) as \$nx | (\$y | length) as \$ny |
		(\$x | sd | . * . / \$nx) as \$vx | (\$y | sd | . * . / \$ny) as \$vy |
		((\$vx + \$vy) * (\$vx + \$vy) / (\$vx * \$vx / (\$nx - 1) + \$vy * \$vy / (\$ny - 1))) as \$df |
		\"\(100 * ((\$y | mean) - (\$x | mean)) / (\$x | mean)) \(100 * t975(\$df) * (\$vx + \$vy | sqrt) / (\$x | mean))\"" >want
	paste -d" " got want >both
	cat both
	awk "{ n++; if (NF != 4 || (\$1 - \$3) ^ 2 > 0.0501 ^ 2 || (\$2 - \$4) ^ 2 > 0.0501 ^ 2) bad = 1 } END { exit bad || n != 1 }" both
'

test_expect_success 'compare --paired, --confidence and --metric say what they used' '
	"$IOTRIAL" compare a/results.json b/results.json --paired --confidence 0.99 >p.txt
	grep -q "^s: .*(seconds, 99% confidence, paired-t)$" p.txt
	"$IOTRIAL" compare --metric iops a/results.json b/results.json >i.txt
	grep -q "^s: .*iops, 95% confidence, welch)$" i.txt
'

test_expect_success 'compare lists the instances only one file has' '
	printf "  - {name: t, workload: read, backend: synthetic, file_size: 4KiB}\n" >>sim.yaml
	"$IOTRIAL" run -q sim.yaml -o c
	"$IOTRIAL" compare a/results.json c/results.json >only.txt
	# The same seed and settings: s is the same in both.
	grep -q "^s: no significant difference (0.0% ± [0-9.]*%, seconds, 95% confidence, welch)$" only.txt
	grep -q "^t: only in B$" only.txt
	"$IOTRIAL" compare c/results.json a/results.json >cmp.txt
	grep -q "^t: only in A$" cmp.txt
'

bad_msg="bad.json:1:3: '[' or '{' expected near 'not'"
test_expect_success 'a file that is not a results file: exit 2 with the reason' '
	echo "{\"schema\": \"fio/3\"}" >fio.json
	rc=0
	"$IOTRIAL" report fio.json >out.txt 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "fio.json: not an iotrial results file (schema \"fio/3\", expected \"iotrial.results/1\")"
	test ! -s out.txt
	echo "not json" >bad.json
	rc=0
	"$IOTRIAL" compare a/results.json bad.json 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "$bad_msg"
	: >empty.json
	rc=0
	"$IOTRIAL" report empty.json 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "empty.json: empty file, not an iotrial results file"
	rc=0
	"$IOTRIAL" report missing.json 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "missing.json: cannot open: No such file or directory"
'

test_expect_success 'a mistyped field is named by its JSON path' '
	jq ".jobs[0].trials[3].seconds = \"fast\"" a/results.json >typo.json
	rc=0
	"$IOTRIAL" report typo.json 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "typo.json: jobs[0].trials[3].seconds: expected a number"
'

test_expect_success 'usage errors exit 2' '
	rc=0
	"$IOTRIAL" report 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(head -1 err)" "iotrial: report takes one results file"
	rc=0
	"$IOTRIAL" report -f pdf a/results.json 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "unknown format .pdf." err
	rc=0
	"$IOTRIAL" compare a/results.json 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(head -1 err)" "iotrial: compare takes two results files"
	rc=0
	"$IOTRIAL" compare a/results.json b/results.json --metric speed 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "^iotrial: --metric takes seconds, bw_bytes, iops or lat_mean_ns, not .speed." err
	rc=0
	"$IOTRIAL" compare a/results.json b/results.json --confidence 95 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "^iotrial: --confidence takes a number between 0 and 1" err
'

# -o naming the results file report reads replaced the measurement with its report (exit 0).
test_expect_success 'report -o the results file itself, by any name: refused, exit 2, nothing written' '
	mkdir same
	cp a/results.json same/R.json
	ln -s R.json same/L.json
	ln same/R.json same/H.json
	cp same/R.json keep.json
	for args in "same/R.json -o same/R.json" "same/R.json -f text -o same/R.json" \
		"same/R.json -f html -o ./same/R.json" "same/L.json -o same/R.json" \
		"same/R.json -o same/L.json" "same/R.json -f csv -o same/H.json" \
		"same/R.json -o $PWD/same/../same/R.json"; do
		set -- $args
		rc=0
		"$IOTRIAL" report "$@" >out.txt 2>err || rc=$?
		expect_eq "$rc" 2 "$args"
		expect_eq "$(cat err)" "iotrial: -o '"'"'${*: -1}'"'"' is the results file '"'"'$1'"'"' itself; write the report to another file"
		test ! -s out.txt
		cmp same/R.json keep.json
		test -L same/L.json
	done
	ls -A same >files
	expect_eq "$(cat files)" "$(printf "H.json\nL.json\nR.json")"
	"$IOTRIAL" report same/R.json -o same/R.txt
	cmp same/R.txt a/summary.txt
'

# -o naming a device node, a symlink or a FIFO had the report renamed over it (as root,
# -o /dev/null left a regular file in place of the device).
test_expect_success 'report -o a device node, a symlink, a FIFO or a folder: refused, exit 2, left as it was' '
	mkdir nodes
	echo keep >nodes/target.txt
	ln -s target.txt nodes/sym.txt
	mkfifo nodes/fifo
	mkdir nodes/dir
	set -- sym.txt "a symbolic link" fifo "a FIFO" dir "a folder"
	while [ $# -gt 0 ]; do
		expect_code 2 timeout 20 "$IOTRIAL" report a/results.json -o "nodes/$1" >out.txt 2>err
		expect_eq "$(cat err)" "iotrial: -o '"'"'nodes/$1'"'"' is $2, not a file: the report would replace it; name a new or regular file"
		test ! -s out.txt
		shift 2
	done
	test -L nodes/sym.txt
	test -p nodes/fifo
	test -d nodes/dir
	expect_eq "$(cat nodes/target.txt)" keep
	expect_eq "$(ls -A nodes | tr "\n" " ")" "dir fifo sym.txt target.txt "
'

if [ "$(id -u)" = 0 ]; then
	test_expect_success 'report -o a device node (as root): refused, the node left as it was' '
		mknod -m 666 nodes/null c 1 3
		expect_code 2 "$IOTRIAL" report a/results.json -o nodes/null 2>err
		grep -F "is a device node, not a file" err
		test -c nodes/null
	'
	test_expect_success 'report -o an existing file keeps its mode, owner and group (as root)' '
		echo old >nodes/perm.txt
		chmod 640 nodes/perm.txt
		chown 65534:65534 nodes/perm.txt
		"$IOTRIAL" report a/results.json -o nodes/perm.txt
		cmp nodes/perm.txt a/summary.txt
		expect_eq "$(stat -c "%a %u %g" nodes/perm.txt)" "640 65534 65534"
	'
else
	test_skip 'report -o a device node (as root): refused, the node left as it was' 'mknod needs root'
	test_skip 'report -o an existing file keeps its mode, owner and group (as root)' 'chown needs root'
fi

test_expect_success 'report -o an existing file keeps its mode' '
	echo old >private.txt
	chmod 600 private.txt
	"$IOTRIAL" report a/results.json -o private.txt
	cmp private.txt a/summary.txt
	expect_eq "$(stat -c %a private.txt)" 600
	"$IOTRIAL" report a/results.json -o new.txt
	expect_eq "$(stat -c %a new.txt)" 644
'

test_done
