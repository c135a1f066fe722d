#!/bin/bash
# Input that is wrong, odd or hostile gets one clear line and a documented exit status, and
# the text summary says what each row's figures were computed for. The summaries run on the
# synthetic backend with a fixed seed, so they are the same on every machine.
. "$(dirname "$0")/lib.sh"

# The text summary without its second line (start time and host).
summary() {
	sed 2d "$1"
}

cat >levels.yaml <<'JOB'
experiment: levels
seed: 7
jobs:
  - name: tight
    workload: read
    backend: synthetic
    file_size: 1MB
    block_size: 1MB
    sim_mean: 10ms
    sim_stddev: 1ms
    replication: {runs: 5, confidence: 0.995, error: 0.025}
  - name: loose
    workload: read
    backend: synthetic
    file_size: 1MB
    block_size: 1MB
    sim_mean: 10ms
    sim_stddev: 1ms
    replication: {runs: 5, confidence: 0.95, error: 0.03}
JOB

test_expect_success 'rows at different confidence and error each say their own' '
	"$IOTRIAL" run -q levels.yaml -o lv 2>err
	summary lv/summary.txt >got
	cat >want <<-\EOF
	levels

	job    workload  runs  seconds   MB/s    ±CI  IO/s  lat mean   COV  COV all  need  confidence  error
	tight  read       5/5    0.010  103.5  14.5%   104   9.69 ms  5.8%        -    43       99.5%  ±2.5%
	loose  read       5/5    0.010   99.0   7.0%  99.0   10.1 ms  5.6%        -    14         95%    ±3%

	latency (every I/O of the kept trials, pooled):
	job    I/Os      p50      p99    p99.9      max
	tight     5  9.63 ms  10.3 ms  10.3 ms  10.3 ms
	loose     5  10.3 ms  10.8 ms  10.8 ms  10.8 ms

	rates in decimal units (kB/s = 10^3 B/s, MB/s = 10^6 B/s, GB/s = 10^9 B/s); IO/s: k = 10^3, M = 10^6; ±CI: half-width of the confidence interval of the mean at the row'"'"'s confidence, relative; COV: stddev/mean (COV all: before the outlier policy); need: runs for the row'"'"'s ±error at its confidence
	EOF
	diff -u want got
	"$IOTRIAL" report lv/results.json >again
	cmp again lv/summary.txt
'

test_expect_success 'rows that share 99.5% and 2.5% have them in the footer, as given' '
	"$IOTRIAL" run -q levels.yaml -o one --set replication.confidence=0.995 --set replication.error=0.025 2>err
	summary one/summary.txt >got
	cat >want <<-\EOF
	levels

	job    workload  runs  seconds   MB/s    ±CI  IO/s  lat mean   COV  COV all  need
	tight  read       5/5    0.010  103.5  14.5%   104   9.69 ms  5.8%        -    43
	loose  read       5/5    0.010   99.0  14.1%  99.0   10.1 ms  5.6%        -    40

	latency (every I/O of the kept trials, pooled):
	job    I/Os      p50      p99    p99.9      max
	tight     5  9.63 ms  10.3 ms  10.3 ms  10.3 ms
	loose     5  10.3 ms  10.8 ms  10.8 ms  10.8 ms

	rates in decimal units (kB/s = 10^3 B/s, MB/s = 10^6 B/s, GB/s = 10^9 B/s); IO/s: k = 10^3, M = 10^6; ±CI: half-width of the 99.5% confidence interval of the mean, relative; COV: stddev/mean (COV all: before the outlier policy); need: runs for ±2.5% at 99.5% confidence
	EOF
	diff -u want got
'

test_expect_success 'rows whose long names differ only at the end show them whole, aligned' '
	cat >long.yaml <<-\EOF
	experiment: long
	seed: 7
	jobs:
	  - name: a_rather_long_job_name_for_a_sweep
	    workload: read
	    backend: synthetic
	    file_size: 1MB
	    block_size: 1MB
	    matrix: {iodepth: [1, 2], sim_mean: [1ms, 2ms]}
	EOF
	"$IOTRIAL" run -q long.yaml -o long 2>err
	grep "^job  *workload  runs" long/summary.txt >head.txt
	# The summary table: from its head to the first empty line.
	sed -n "/^job  *workload  runs/,/^\$/p" long/summary.txt >table.txt
	grep "^a_rather" table.txt | cut -d" " -f1 >names.txt
	printf "a_rather_long_job_name_for_a_sweep[iodepth=%s,sim_mean=%s]\n" 1 1000000 1 2000000 2 1000000 2 2000000 >want
	diff -u want names.txt
	# The workload column starts where its title does, on every row.
	at=$(awk "{print index(\$0, \"workload\")}" head.txt)
	awk -v at="$at" "/^a_rather/ && substr(\$0, at, 4) != \"read\" {bad = 1} END {exit bad}" table.txt
'

test_expect_success 'a comparison states its confidence as given (99.5%, not 100%)' '
	cat >cmp.yaml <<-\EOF
	seed: 7
	replication: {runs: 5, confidence: 0.995}
	jobs:
	  - {name: s, workload: read, backend: synthetic, file_size: 1MB, block_size: 1MB, sim_stddev: 1ms, matrix: {sim_mean: [10ms, 20ms]}}
	compare:
	  - {a: {sim_mean: 10ms}, b: {sim_mean: 20ms}, metric: seconds}
	EOF
	"$IOTRIAL" run -q cmp.yaml -o cmp 2>err
	grep "faster than" cmp/summary.txt >got
	grep -q "(seconds, 99.5% confidence, welch)$" got
'

need_cmd jq

test_expect_success 'report refuses a confidence or error out of range, naming path and key' '
	jq ".confidence = 5" lv/results.json >c5.json
	rc=0
	"$IOTRIAL" report c5.json >out 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "c5.json: confidence: must be between 0 and 1 (exclusive), got 5"
	test ! -s out
	jq ".jobs[1].summary.seconds.confidence = 1 | .jobs[0].summary.required_runs.error = -0.5 | .jobs[0].replication.confidence = 95" lv/results.json >c6.json
	rc=0
	"$IOTRIAL" report c6.json >out 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "^c6.json: jobs\[1\].summary.seconds.confidence: must be between 0 and 1 (exclusive), got 1$" err
	grep -q "^c6.json: jobs\[0\].summary.required_runs.error: must be between 0 and 1 (exclusive), got -0.5$" err
	grep -q "^c6.json: jobs\[0\].replication.confidence: must be between 0 and 1 (exclusive), got 95$" err
'

test_expect_success 'lists nested 2,000,000 deep are refused at level 64, in well under a second' '
	{
		printf "jobs: "
		head -c 2000000 /dev/zero | tr "\\0" "["
		head -c 2000000 /dev/zero | tr "\\0" "]"
		echo
	} >deep.yaml
	expect_eq "$(wc -c <deep.yaml)" 4000007
	start=$(date +%s%N)
	rc=0
	timeout 20 "$IOTRIAL" validate deep.yaml >out 2>err || rc=$?
	ms=$((($(date +%s%N) - start) / 1000000))
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "deep.yaml:1:70: lists and mappings nested more than 64 levels deep (a job file needs a few)"
	test ! -s out
	echo "refused in $ms ms"
	test "$ms" -lt 1000
'

test_expect_success 'nesting of 64 levels is still read (and then checked as usual)' '
	{
		printf "jobs: "
		head -c 63 /dev/zero | tr "\\0" "["
		head -c 63 /dev/zero | tr "\\0" "]"
		echo
	} >deep64.yaml
	rc=0
	"$IOTRIAL" validate deep64.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "^deep64.yaml:1:8: key .jobs.: expected a job (a mapping), got a list$" err
'

test_expect_success 'a second YAML document is refused where it starts' '
	printf "jobs:\n  - {name: a, workload: read, backend: null}\n---\njobs: [}\n" >two.yaml
	rc=0
	"$IOTRIAL" validate two.yaml >out 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "two.yaml:3:1: a second YAML document starts here; a job file is one document"
	test ! -s out
	rc=0
	"$IOTRIAL" run two.yaml -o two 2>err || rc=$?
	expect_eq "$rc" 2
	test ! -e two
	printf -- "---\njobs:\n  - {name: a, workload: read, backend: null, file_size: 4KiB}\n...\n" >one.yaml
	"$IOTRIAL" validate one.yaml >out
'

test_expect_success 'a key given three times is two errors, each naming the first' '
	printf "experiment: a\nexperiment: b\nexperiment: c\njobs: [{name: a, workload: read, backend: null}]\n" >dup3.yaml
	rc=0
	"$IOTRIAL" validate dup3.yaml >out 2>err || rc=$?
	expect_eq "$rc" 2
	printf "%s\n" "dup3.yaml:2:1: key '"'"'experiment'"'"': duplicate key (first set at line 1)" \
		"dup3.yaml:3:1: key '"'"'experiment'"'"': duplicate key (first set at line 1)" >want
	diff -u want err
'

test_expect_success 'a duplicate key hides no other error of its mapping, nor of those below' '
	cat >dupmore.yaml <<-\EOF
	experiment: t
	seed: 1
	seed: 2
	jobs:
	  - name: a
	    workload: reed
	    backend: null
	    file_size: 1MiB
	    file_size: 2MiB
	    blok_size: 4KiB
	EOF
	rc=0
	"$IOTRIAL" validate dupmore.yaml >/dev/null 2>err || rc=$?
	expect_eq "$rc" 2
	printf "%s\n" "dupmore.yaml:3:1: key '"'"'seed'"'"': duplicate key (first set at line 2)" \
		"dupmore.yaml:6:15: key '"'"'workload'"'"': unknown value '"'"'reed'"'"' (did you mean '"'"'read'"'"'? expected one of: read, write, randread, randwrite, copy, copytree, command, readwrite, randrw)" \
		"dupmore.yaml:9:5: key '"'"'file_size'"'"': duplicate key (first set at line 8)" \
		"dupmore.yaml:10:5: key '"'"'blok_size'"'"': unknown key (did you mean '"'"'block_size'"'"'?)" >want
	diff -u want <(sort -t: -k2,2n err)
'

test_expect_success 'a mapping of 300,000 keys, all the same, is an error per copy, in seconds' '
	{
		echo "experiment: x"
		seq 300000 | sed "s/.*/seed: 1/"
		echo "jobs: [{name: a, workload: read, backend: null}]"
	} >dups.yaml
	rc=0
	timeout 60 "$IOTRIAL" validate dups.yaml >out 2>err || rc=$?
	expect_eq "$rc" 2
	# The first 50 lines, then how many more (docs/jobfile.md).
	expect_eq "$(wc -l <err)" 51
	expect_eq "$(sed -n 50p err)" "dups.yaml:52:1: key '"'"'seed'"'"': duplicate key (first set at line 2)"
	expect_eq "$(sed -n 51p err)" "... and 299949 more"
'

test_expect_success 'a NUL in a quoted value or key is refused, not cut off there' '
	cat >nul.yaml <<-\EOF
	experiment: "keep\0cut"
	jobs: [{name: a, workload: read, backend: null}]
	EOF
	rc=0
	"$IOTRIAL" validate nul.yaml >out 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "nul.yaml:1:13: a value or key holds a NUL character (\\0), which iotrial cannot take"
	cat >nulkey.yaml <<-\EOF
	experiment: x
	"seed\0x": 5
	jobs: [{name: a, workload: read, backend: null}]
	EOF
	rc=0
	"$IOTRIAL" validate nulkey.yaml >out 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "nulkey.yaml:2:1: a value or key holds a NUL character (\\0), which iotrial cannot take"
	printf "jobs: [{name: a, workload: read, backend: null}]\n" >plain.yaml
	rc=0
	"$IOTRIAL" validate plain.yaml --set "a.matrix.block_size=[\"4KiB\\0x\"]" >out 2>err || rc=$?
	expect_eq "$rc" 2
	grep "key .block_size.: a value or key holds a NUL character" err
'

test_expect_success 'a job file of exactly 64 MiB is read; one byte more is too large' '
	printf "jobs: [{name: a, workload: read, backend: null}]\n#" >big.yaml
	head -c $((64 * 1048576 - 51)) /dev/zero | tr "\\0" "#" >>big.yaml
	echo >>big.yaml
	expect_eq "$(wc -c <big.yaml)" 67108864
	"$IOTRIAL" validate big.yaml >out
	echo >>big.yaml
	rc=0
	"$IOTRIAL" validate big.yaml >out 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "big.yaml: job file too large (limit 64 MiB)"
	rm big.yaml
'

test_expect_success 'more than 1000000 values is a job file error at the value past them, exit 2, in little memory' '
	{
		printf "experiment: t\njobs:\n  - {name: a, workload: read, backend: null, file_size: 1MiB}\nreport: ["
		awk "BEGIN { for (i = 0; i < 12000000; i++) printf \"a,\" }"
		printf "a]\n"
	} >many.yaml
	# libyaml built 80 bytes a value: 1 GB for these, and "out of memory", exit 1.
	limit=600000
	if grep -q __asan_init "$IOTRIAL"; then limit=unlimited; fi
	rc=0
	(ulimit -v $limit; exec "$IOTRIAL" validate many.yaml) >/dev/null 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "many.yaml:4:1999978: more than 1000000 values (keys, values, lists and mappings) in one job file; a job file needs far fewer"
	rm many.yaml
'

# Under AddressSanitizer the shadow memory needs terabytes of address space: no ulimit -v.
if grep -q __asan_init "$IOTRIAL"; then
	test_skip 'memory running out while reading a job file: exit 1, never 2' 'an ASan build cannot run under ulimit -v'
else
	test_expect_success 'memory running out while reading a job file: exit 1, never 2' '
		{
			printf "experiment: big\ndescription: \""
			head -c 4000000 /dev/zero | tr "\\0" x
			printf "\"\njobs: [{name: a, workload: read, backend: null}]\n"
		} >desc.yaml
		"$IOTRIAL" validate desc.yaml >plan.txt
		ones=0
		for kb in $(seq 8000 500 40000); do
			rc=0
			(ulimit -v "$kb"; exec "$IOTRIAL" validate desc.yaml) >out.$kb 2>err.$kb || rc=$?
			echo "$kb KiB: status $rc: $(cat err.$kb)"
			case $rc in
			0) cmp out.$kb plan.txt ;;
			1) expect_eq "$(wc -l <err.$kb)" 1 ;;
			127) ;; # the loader could not map the program: iotrial did not start
			*) false ;;
			esac
			[ "$rc" -ne 1 ] || ones=$((ones + 1))
		done
		test "$ones" -gt 10
	'
fi

test_expect_success 'a folder given as the job file is said to be one' '
	mkdir folder.yaml
	rc=0
	"$IOTRIAL" validate folder.yaml >out 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "folder.yaml: cannot read job file: it is a folder"
	rc=0
	"$IOTRIAL" run folder.yaml -o fo 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "folder.yaml: cannot read job file: it is a folder"
	test ! -e fo
'

cat >sweep.yaml <<'JOB'
experiment: sweep
jobs:
  - name: a
    workload: read
    backend: null
    file_size: 1MiB
    matrix:
      block_size: [4KiB, 8KiB]
      iodepth: [1, 2]
    exclude:
      - {block_size: 8KiB, iodepth: 2}
  - {name: b, workload: write, backend: null, file_size: 1MiB}
JOB

# The instance names of `iotrial validate`'s plan.
instances() {
	sed -n "s/^  \([^ ]*\): .*/\1/p" "$1"
}

test_expect_success '--set JOB.K on a swept key runs that one value instead of the sweep' '
	"$IOTRIAL" validate sweep.yaml >plan
	expect_eq "$(instances plan | tr "\n" " ")" "a[block_size=4096,iodepth=1] a[block_size=4096,iodepth=2] a[block_size=8192,iodepth=1] b "
	"$IOTRIAL" validate sweep.yaml --set a.block_size=16KiB >plan
	expect_eq "$(instances plan | tr "\n" " ")" "a[block_size=16384,iodepth=1] a[block_size=16384,iodepth=2] b "
	"$IOTRIAL" validate sweep.yaml --set block_size=8KiB >plan
	expect_eq "$(instances plan | tr "\n" " ")" "a[block_size=8192,iodepth=1] b "
	"$IOTRIAL" run -q sweep.yaml -o sw --set a.block_size=16KiB 2>err
	expect_eq "$(jq -c "[.jobs[].params.block_size]" sw/results.json)" "[16384,16384,4096]"
	expect_eq "$(jq -c .overrides sw/results.json)" "{\"a.block_size\":\"16KiB\"}"
'

test_expect_success '--set JOB.matrix.K=[...] sweeps other values, or a new key' '
	"$IOTRIAL" validate sweep.yaml --set "a.matrix.block_size=[64KiB, 128KiB]" >plan
	expect_eq "$(instances plan | tr "\n" " ")" "a[block_size=65536,iodepth=1] a[block_size=65536,iodepth=2] a[block_size=131072,iodepth=1] a[block_size=131072,iodepth=2] b "
	"$IOTRIAL" validate sweep.yaml --set "b.matrix.block_size={from: 4KiB, to: 16KiB, step: x2}" >plan
	expect_eq "$(instances plan | tr "\n" " ")" "a[block_size=4096,iodepth=1] a[block_size=4096,iodepth=2] a[block_size=8192,iodepth=1] b[block_size=4096] b[block_size=8192] b[block_size=16384] "
	"$IOTRIAL" validate sweep.yaml --set a.block_size=16KiB --set "a.matrix.block_size=[4KiB, 1MiB]" >plan
	expect_eq "$(instances plan | tr "\n" " ")" "a[block_size=4096,iodepth=1] a[block_size=4096,iodepth=2] a[block_size=1048576,iodepth=1] a[block_size=1048576,iodepth=2] b "
'

test_expect_success '--set JOB.matrix.K with a bad list is one --set line each, exit 2' '
	rc=0
	"$IOTRIAL" validate sweep.yaml --set "a.matrix.block_size=[4KiB" 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "--set '"'"'a.matrix.block_size=[4KiB'"'"': key '"'"'block_size'"'"': yaml: did not find expected '"'"','"'"' or '"'"']'"'"' while parsing a flow sequence"
	rc=0
	"$IOTRIAL" validate sweep.yaml --set "a.matrix.block_size=[4KiB, 4096]" --set "a.matrix.block_size=8KiB" --set "c.matrix.iodepth=[1, 2]" 2>err || rc=$?
	expect_eq "$rc" 2
	cat >want <<-\EOF
	--set '"'"'a.matrix.block_size=[4KiB, 4096]'"'"': key '"'"'block_size'"'"': '"'"'4096'"'"' is listed twice
	--set '"'"'a.matrix.block_size=8KiB'"'"': key '"'"'block_size'"'"': expected a list of values or a range {from, to, step}, got a single value
	--set '"'"'c.matrix.iodepth=[1, 2]'"'"': no job is named '"'"'c'"'"'
	EOF
	diff -u want err
	# Blanks or a comment are no list (the job is there); an alias to nothing is named.
	rc=0
	"$IOTRIAL" validate sweep.yaml --set "a.matrix.block_size= " --set "matrix.iodepth=# none" --set "a.matrix.block_size=[4KiB, *x]" 2>err || rc=$?
	expect_eq "$rc" 2
	cat >want <<-\EOF
	--set '"'"'a.matrix.block_size= '"'"': key '"'"'block_size'"'"': expected a list of values or a range {from, to, step}
	--set '"'"'matrix.iodepth=# none'"'"': key '"'"'iodepth'"'"': expected a list of values or a range {from, to, step}
	--set '"'"'a.matrix.block_size=[4KiB, *x]'"'"': key '"'"'block_size'"'"': yaml: found undefined alias
	EOF
	diff -u want err
'

test_expect_success '--set runs=2 points at replication.runs' '
	rc=0
	"$IOTRIAL" validate sweep.yaml --set runs=2 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "--set '"'"'runs=2'"'"': unknown key '"'"'runs'"'"' (did you mean '"'"'replication.runs'"'"'?)"
	rc=0
	"$IOTRIAL" validate sweep.yaml --set b.warmup=1 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "--set '"'"'b.warmup=1'"'"': unknown key '"'"'warmup'"'"' (did you mean '"'"'b.replication.warmup'"'"'?)"
'

test_expect_success '--set with an empty value unsets a string key' '
	"$IOTRIAL" validate sweep.yaml --set b.backend= >plan 2>err
	test ! -s err
	grep -q "^  b: write on sync," plan
	grep -q "^  a\[block_size=4096,iodepth=1\]: read on null," plan
	"$IOTRIAL" validate sweep.yaml --set "b.backend=~" >plan 2>err
	grep -q "^  b: write on sync," plan
	grep -q "^  a\[block_size=4096,iodepth=1\]: read on null," plan
'

test_expect_success 'an error that every matrix instance finds is printed once' '
	rc=0
	"$IOTRIAL" validate sweep.yaml --set a.backend=floppy 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(wc -l <err)" 1
	grep -q "^--set: key .backend.: unknown backend .floppy." err
'

test_expect_success 'unsetting a swept string key is an error that says how to set it' '
	printf "jobs:\n  - {name: a, workload: read, backend: null, matrix: {backend: [null, synthetic]}}\n" >be.yaml
	rc=0
	"$IOTRIAL" validate be.yaml --set backend= 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "--set '"'"'backend='"'"': key '"'"'backend'"'"': job '"'"'a'"'"' sweeps it in its matrix; give one value, or a list as a.matrix.backend=[...]"
'

test_expect_success 'a name too long for its scratch file or record log is refused by validate' '
	long=$(printf "x%.0s" $(seq 245))
	printf "jobs:\n  - {name: $long, workload: write, file_size: 64KiB}\n" >long.yaml
	rc=0
	"$IOTRIAL" validate long.yaml >out 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "long.yaml:2:5: key '"'"'name'"'"': instance '"'"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'"'"' has a name of 245 bytes, too long for the file names made from it (scratch files, record logs: at most 200); shorten the job'"'"'s name or its matrix values"
	cmd=$(printf "true %.0s" $(seq 52))
	printf "jobs:\n  - {name: c, workload: command, log_interval: 10ms, matrix: {command: [\"$cmd\", \"true\"]}}\n" >cmd.yaml
	rc=0
	"$IOTRIAL" run -q cmd.yaml -o cmd 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "^cmd.yaml:2:5: key .name.: instance .c\[command=true true .* has a name of 2[0-9][0-9] bytes" err
	test ! -e cmd
'

test_expect_success 'an experiment name too long for its result folder is refused by validate' '
	long=$(printf "e%.0s" $(seq 233))
	printf "experiment: $long\njobs:\n  - {name: a, workload: read, backend: null, file_size: 64KiB}\n" >longexp.yaml
	rc=0
	"$IOTRIAL" validate longexp.yaml >/dev/null 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "longexp.yaml:1:13: key '"'"'experiment'"'"': '"'"'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee...'"'"' has 233 bytes, too long for the result folder named after it (results/<experiment>-<UTC time>/): an experiment name has at most 200"
	rc=0
	"$IOTRIAL" validate longexp.yaml --set experiment=$(printf "f%.0s" $(seq 201)) >/dev/null 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "^--set .experiment=f*.: key .experiment.: .f*\.\.\.. has 201 bytes, too long" err
	fname=$(printf "g%.0s" $(seq 240))
	printf "jobs:\n  - {name: a, workload: read, backend: null, file_size: 64KiB}\n" >"$fname.yaml"
	"$IOTRIAL" run -q "$fname.yaml" 2>err
	expect_eq "$(jq -r .experiment results/g*/results.json | tr -d "\n" | wc -c)" 200
'

test_expect_success 'a name of 200 bytes still makes its files' '
	name=$(printf "y%.0s" $(seq 200))
	printf "jobs:\n  - {name: $name, workload: write, file_size: 64KiB, log_records: true, log_interval: 1ms}\n" >ok.yaml
	"$IOTRIAL" run -q ok.yaml -o ok 2>err
	expect_eq "$(jq .jobs[0].trials[0].bytes ok/results.json)" 65536
	test -s "ok/records/$name.csv"
	test -s "ok/records/$name.intervals.csv"
'

test_expect_success 'two instances whose file names come out the same are refused before anything is made' '
	printf "jobs:\n  - {name: a, workload: read, backend: null, file_size: 64KiB, log_interval: 1ms}\n  - {name: a.intervals, workload: read, backend: null, file_size: 64KiB, log_records: true}\n" >iv.yaml
	rc=0
	"$IOTRIAL" validate iv.yaml >out 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "iv.yaml:3:5: instances '"'"'a'"'"' and '"'"'a.intervals'"'"' would share the file '"'"'records/a.intervals.csv'"'"' (record and interval logs are named after their instance, each '"'"'/'"'"' made '"'"'_'"'"'); rename a job, or change a matrix value"
	mkdir -p tgt/x tgt_x sa/x sa_x dst
	echo hi >sa/x/f
	echo hi >sa_x/f
	printf "jobs:\n  - {name: j, workload: write, file_size: 64KiB, prepare: \"echo hi >>side\", matrix: {target: [tgt/x/, tgt_x/]}}\n  - {name: c, workload: copy, target: dst, keep_files: true, matrix: {source: [sa/x/f, sa_x/f]}}\n" >mx.yaml
	rc=0
	"$IOTRIAL" run -q mx.yaml -o mx 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(wc -l <err)" 2
	grep -q "^mx.yaml:2:5: instances .j\[target=tgt/x/\]. and .j\[target=tgt_x/\]. would share the file .hooks/job.j_target_tgt_x__.prepare.log. (hook logs are named after their instance" err
	grep -q "^mx.yaml:3:5: instances .c\[source=sa/x/f\]. and .c\[source=sa_x/f\]. would share the file .dst/iotrial.c_source_sa_x_f_.dat.[0-9]*. (a copy.s destination is named after its instance" err
	test ! -e mx
	test ! -e side
	expect_eq "$(find tgt tgt_x dst -type f)" ""
'

test_expect_success 'a copytree target inside its own source is refused by validate' '
	mkdir -p src/a
	echo data >src/a/f
	ln -s src srclink
	for t in src/sub src srclink/sub "$PWD/src/a"; do
		printf "jobs:\n  - {name: t, workload: copytree, source: src, target: \"$t\"}\n" >ct.yaml
		rc=0
		"$IOTRIAL" run -q ct.yaml -o ct 2>err || rc=$?
		expect_eq "$rc" 2 "target $t"
		grep -q "^ct.yaml:2:[0-9]*: key .target.: the copy .* would be inside the source .src., and copy itself; name a folder outside the source$" err
		test ! -e ct
	done
	find src >tree
	expect_eq "$(sort tree | tr "\n" " ")" "src src/a src/a/f "
	mkdir copies
	printf "jobs:\n  - {name: t, workload: copytree, source: src, target: copies/copy}\n" >ok.yaml
	"$IOTRIAL" run -q ok.yaml -o okct 2>err
	expect_eq "$(jq .jobs[0].trials[0].bytes okct/results.json)" 5
'

test_expect_success 'folders nested past 64 in a copytree source fail the trial with a short message' '
	p=deep
	for i in $(seq 70); do p=$p/d; done
	mkdir -p "$p"
	echo x >"$p/f"
	mkdir dout
	printf "jobs:\n  - {name: t, workload: copytree, source: deep, target: dout}\n" >dt.yaml
	rc=0
	"$IOTRIAL" run -q dt.yaml -o dt 2>err || rc=$?
	expect_eq "$rc" 1
	expect_eq "$(jq -r .jobs[0].trials[0].error dt/results.json)" "copytree: folders in '"'"'deep'"'"' nest more than 64 deep"
'

test_expect_success 'a copy onto an existing file does not suggest allow_overwrite, which would not help' '
	echo precious >exist.bin
	for w in copy copytree; do
		for ow in false true; do
			printf "jobs:\n  - {name: c, workload: $w, target: exist.bin, file_size: 4KiB, allow_overwrite: $ow}\n" >cp.yaml
			rc=0
			"$IOTRIAL" run -q cp.yaml -o cp 2>err || rc=$?
			expect_eq "$rc" 1 "$w, allow_overwrite: $ow"
			not grep allow_overwrite err
			test ! -e cp
		done
	done
	expect_eq "$(cat err)" "cp.yaml:2:43: key '"'"'target'"'"': '"'"'exist.bin'"'"' exists, and a copytree makes a new folder; name a folder to make it in, or a path that does not exist yet"
	"$IOTRIAL" run -q cp.yaml -o cp --force 2>err || rc=$?
	not grep allow_overwrite err
	printf "jobs:\n  - {name: c, workload: copy, target: exist.bin, file_size: 4KiB}\n" >cp.yaml
	rc=0
	"$IOTRIAL" validate cp.yaml 2>err || rc=$?
	expect_eq "$rc" 1
	expect_eq "$(cat err)" "cp.yaml:2:39: key '"'"'target'"'"': '"'"'exist.bin'"'"' exists, and a copy writes a new file; name a folder to make it in, or a path that does not exist yet"
	expect_eq "$(cat exist.bin)" precious
'

# A value quoted in an error keeps the message one line, and reaches the terminal as text:
# a newline and an escape sequence written out.
test_expect_success 'control characters in a quoted value are written out: one line, no escape sequence' '
	printf "experiment: e\njobs:\n  - {name: a, workload: read, backend: null, file_size: 1MiB, iodepth: \"4\\\\n\\\\u001b[31mRED\"}\n" >ctl.yaml
	cat ctl.yaml
	expect_code 2 "$IOTRIAL" validate ctl.yaml 2>err
	cat err
	expect_eq "$(wc -l <err)" 1 "lines"
	grep -Fx "ctl.yaml:3:72: key '"'"'iodepth'"'"': expected a whole number, got '"'"'4\n\x1b[31mRED'"'"' (trailing characters '"'"'\n\x1b[31mRED'"'"')" err
	expect_code 2 "$IOTRIAL" validate ctl.yaml --set "a.block_size=$(printf "4\tK\033")" 2>err2
	cat err2
	not grep "$(printf "\033")" err2
	# a C1 control in UTF-8: U+009B is the terminal.s CSI, as ESC [ is
	expect_code 2 "$IOTRIAL" validate ctl.yaml --set "a.block_size=$(printf "4\302\23331mK")" 2>err3
	cat err3
	not grep "$(printf "\302\233")" err3
	grep -F "got '"'"'4\xc2\x9b31mK'"'"'" err3
'

# libyaml gives a byte offset, not a line, for a raw NUL or bytes that are not UTF-8: the
# place is counted from it (in characters, as every other column), not 1:1.
test_expect_success 'a raw NUL, or a byte that is not UTF-8: at its line and column' '
	printf "experiment: e\njobs:\n  - name: a\n    workload: r\000ad\n" >nul.yaml
	expect_code 2 "$IOTRIAL" validate nul.yaml 2>err
	expect_eq "$(cat err)" "nul.yaml:4:16: yaml: control characters are not allowed"
	printf "experiment: \303\251\njobs:\n  - name: \303\251a\n    workload: r\377ad\n" >utf.yaml
	expect_code 2 "$IOTRIAL" validate utf.yaml 2>err
	expect_eq "$(cat err)" "utf.yaml:4:16: yaml: invalid leading UTF-8 octet"
	# lines ended by CR alone, as libyaml counts them (and as every other message of the file)
	printf "experiment: x\rjobs:\r  - {name: a, descr: \"h\377i\"}\r" >cr.yaml
	expect_code 2 "$IOTRIAL" validate cr.yaml 2>err
	expect_eq "$(cat err)" "cr.yaml:3:24: yaml: invalid leading UTF-8 octet"
'

# Messages that said a thing twice or in the wrong words (review-parse #11).
test_expect_success 'an empty list, a word for a count, a step of 0, a duration out of range: said plainly' '
	printf "jobs:\n  - {name: a, workload: read, backend: null, file_size: 1MiB, percentiles: []}\n" >cos1.yaml
	expect_code 2 "$IOTRIAL" validate cos1.yaml 2>err
	expect_eq "$(cat err)" "cos1.yaml:2:76: key '"'"'percentiles'"'"': expected a value, got an empty list"
	printf "jobs:\n  - {name: a, workload: read, backend: null, file_size: 1MiB, matrix: {iodepth: [1, x]}}\n" >cos2.yaml
	expect_code 2 "$IOTRIAL" validate cos2.yaml 2>err
	expect_eq "$(cat err)" "cos2.yaml:2:85: key '"'"'iodepth'"'"': expected a whole number, got '"'"'x'"'"' (it does not start with a digit)"
	printf "jobs:\n  - {name: a, workload: read, backend: null, file_size: 1MiB, matrix: {block_size: {from: 1, to: 1GiB, step: 0KiB}}}\n" >cos3.yaml
	expect_code 2 "$IOTRIAL" validate cos3.yaml 2>err
	expect_eq "$(cat err)" "cos3.yaml:2:110: key '"'"'step'"'"': a step of 0 never ends"
	printf "jobs:\n  - {name: a, workload: read, backend: synthetic, file_size: 1MiB, sim_mean: 2h}\n" >cos4.yaml
	expect_code 2 "$IOTRIAL" validate cos4.yaml 2>err
	expect_eq "$(cat err)" "cos4.yaml:2:78: key '"'"'sim_mean'"'"': must be between 1 ns and 3600 s, got '"'"'2h'"'"'"
'

test_done
