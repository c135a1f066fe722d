#!/bin/bash
# Bad input: one clear line naming file:line:col, exit 2 for job-file errors and 1 for what
# the machine refuses; nothing run, no results written, nothing overwritten.
. "$(dirname "$0")/lib.sh"
need_cmd jq

test_expect_success 'an unknown key exits 2 with file:line:col and a suggestion' '
	printf "jobs:\n  - name: a\n    workload: read\n    blok_size: 4KiB\n" >bad.yaml
	rc=0
	"$IOTRIAL" run bad.yaml -o out 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "bad.yaml:4:5: key '"'"'blok_size'"'"': unknown key (did you mean '"'"'block_size'"'"'?)"
	test ! -e out
'

test_expect_success 'a YAML syntax error exits 2 with its position' '
	printf "jobs:\n  - name: a\n    workload: read\n   x: 1\n" >syntax.yaml
	rc=0
	"$IOTRIAL" validate syntax.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "^syntax.yaml:4:4: yaml: " err
'

test_expect_success 'block_size larger than file_size exits 2' '
	printf "jobs:\n  - {name: a, workload: read, file_size: 1MiB, block_size: 2MiB}\n" >big.yaml
	rc=0
	"$IOTRIAL" run big.yaml -o out 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "^big.yaml:2:60: key .block_size.: 2097152 bytes is larger than file_size" err
'

test_expect_success 'a block size mix or range larger than file_size is reported at its value' '
	cat >split.yaml <<-\EOF
	defaults: {file_size: 1MiB, backend: null}
	jobs:
	  - {name: b, workload: randread, block_size: 4KiB-2MiB}
	  - {name: c, workload: randread, block_size: {4KiB: 50, 2MiB: 50}}
	  - {name: d, workload: randread, block_split: 4KiB-2MiB}
	EOF
	rc=0
	"$IOTRIAL" validate split.yaml >/dev/null 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cut -d" " -f1-3 err | tr "\n" " ")" "split.yaml:3:47: key '"'"'block_size'"'"': split.yaml:4:47: key '"'"'block_size'"'"': split.yaml:5:48: key '"'"'block_size'"'"': "
'

test_expect_success 'an unknown backend exits 2 naming the ones compiled in' '
	printf "jobs:\n  - {name: a, workload: read, backend: floppy}\n" >be.yaml
	rc=0
	"$IOTRIAL" run be.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "unknown backend .floppy. (this build has: sync, null" err
'

test_expect_success 'a missing target folder exits 1 before any I/O' '
	printf "jobs:\n  - {name: a, workload: write, target: /nonexistent/x/y}\n" >missing.yaml
	rc=0
	"$IOTRIAL" run missing.yaml -o out 2>err || rc=$?
	expect_eq "$rc" 1
	grep -q "^missing.yaml:2:40: key .target.: ./nonexistent/x/y. does not exist" err
	test ! -e out
'

test_expect_success 'an existing file is not written over without allow_overwrite' '
	echo precious >mine.dat
	printf "jobs:\n  - {name: a, workload: write, target: mine.dat, file_size: 4KiB}\n" >ow.yaml
	rc=0
	"$IOTRIAL" run ow.yaml -o out 2>err || rc=$?
	expect_eq "$rc" 1
	grep -q "refusing to write over it" err
	expect_eq "$(cat mine.dat)" precious
'

test_expect_success 'a read job reads an existing file and leaves it alone' '
	head -c 65536 /dev/urandom >data.bin
	cp data.bin data.orig
	printf "jobs:\n  - {name: a, workload: read, target: data.bin, block_size: 4KiB}\n" >rd.yaml
	"$IOTRIAL" run -q rd.yaml -o out 2>err
	cmp data.bin data.orig
	expect_eq "$(jq -c "[.jobs[0].trials[] | [.bytes, .ios, .failed]]" out/results.json)" "[[65536,16,false]]"
'

if [ "$(id -u)" = 0 ] && mkdir -p ro && mount -t tmpfs -o ro,size=1m tmpfs ro 2>/dev/null; then
	test_expect_success 'a target on a read-only file system exits 1' '
		printf "jobs:\n  - {name: a, workload: write, target: ro, file_size: 4KiB}\n" >ro.yaml
		rc=0
		"$IOTRIAL" run ro.yaml -o out 2>err || rc=$?
		expect_eq "$rc" 1
		grep -q "read-only file system" err
	'
	test_expect_success 'a TMPDIR on a read-only file system: refused once when planning' '
		printf "jobs:\n  - {name: s, workload: read, file_size: 64KiB}\n" >scr_ro.yaml
		rc=0
		TMPDIR=ro "$IOTRIAL" run -q scr_ro.yaml -o scr_ro.out 2>err || rc=$?
		expect_eq "$rc" 1
		expect_eq "$(cat err)" "scr_ro.yaml:2:5: job '"'"'s'"'"' needs the scratch folder, made in '"'"'$TRASH/ro'"'"' (TMPDIR, else the current folder), which cannot be written in: Read-only file system; set TMPDIR to a folder, or name a target"
	'
	umount ro
else
	test_skip 'a target on a read-only file system exits 1' 'needs root to mount a read-only tmpfs'
	test_skip 'a TMPDIR on a read-only file system: refused once when planning' 'needs root to mount a read-only tmpfs'
fi

test_expect_success 'an unset variable exits 2 and names it' '
	printf "jobs:\n  - {name: a, workload: read, target: \"\${NOPE_DIR}\"}\n" >var.yaml
	rc=0
	"$IOTRIAL" validate var.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "variable .NOPE_DIR. is not set" err
'

test_expect_success 'usage errors exit 2, each with its reason' '
	rc=0
	"$IOTRIAL" run 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(head -1 err)" "iotrial: no job file given"
	rc=0
	"$IOTRIAL" frobnicate 2>err || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(head -1 err)" "iotrial: unknown command '"'"'frobnicate'"'"'"
	# A misspelt clock is refused, not taken for the default.
	printf "jobs:\n  - {name: a, workload: read, backend: null}\n" >clk.yaml
	rc=0
	IOTRIAL_CLOCK=mono "$IOTRIAL" validate clk.yaml 2>err >/dev/null || rc=$?
	expect_eq "$rc" 2
	expect_eq "$(cat err)" "iotrial: IOTRIAL_CLOCK='"'"'mono'"'"' is no clock iotrial knows: '"'"'monotonic'"'"', or unset"
	IOTRIAL_CLOCK=monotonic "$IOTRIAL" validate clk.yaml >/dev/null
	# A job file that exists, so that only the format is wrong.
	printf "jobs:\n  - {name: a, workload: read, backend: null}\n" >ok.yaml
	rc=0
	"$IOTRIAL" run -f pdf ok.yaml -o pdf 2>err || rc=$?
	expect_eq "$rc" 2
	grep "^iotrial: unknown format .pdf." err
	test ! -e pdf
'

test_expect_success 'a stonewall on a time-bound job or a copy exits 2' '
	printf "jobs:\n  - {name: a, workload: read, runtime: 1s, stonewall: first_done}\n  - {name: c, workload: copy, stonewall: time}\n" >sw.yaml
	rc=0
	"$IOTRIAL" validate sw.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "sw.yaml:2:.*key .stonewall.: only a size-bound measured job stonewalls, not a time-bound job" err
	grep -q "sw.yaml:3:.*key .stonewall.: a copy cannot be stopped early" err
'

test_expect_success 'a job file that does not exist exits 2' '
	rc=0
	"$IOTRIAL" run nothere.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "nothere.yaml: cannot open job file" err
'

test_expect_success 'a TMPDIR that does not exist: jobs with targets run, one that needs the scratch folder names it' '
	mkdir tgt
	printf "jobs:\n  - {name: r, workload: read, target: tgt, file_size: 64KiB}\n" >tgt.yaml
	TMPDIR="$TRASH/no/such" "$IOTRIAL" run -q tgt.yaml -o tgt.out
	expect_eq "$(jq "[.jobs[].trials[] | select(.kept)] | length" tgt.out/results.json)" 1
	printf "jobs:\n  - {name: s, workload: read, file_size: 64KiB}\n" >scr.yaml
	rc=0
	TMPDIR="$TRASH/no/such" "$IOTRIAL" run -q scr.yaml -o scr.out 2>err || rc=$?
	cat err
	expect_eq "$rc" 1
	grep -F "$TRASH/no/such" err
	test ! -e no
'

# TMPDIR relative or absolute, missing or a file: the planner refuses a job that needs the
# scratch folder once, at that job, exit 1, before any trial (each trial failed before, and
# a relative TMPDIR that did not exist stopped every run, jobs with targets too, with
# "cannot resolve the scratch folder"); jobs that name their targets run.
scratch_refused() {
	rc=0
	TMPDIR="$1" "$IOTRIAL" run -q scr.yaml -o scr2.out 2>err || rc=$?
	expect_eq "$rc" 1
	expect_eq "$(cat err)" "scr.yaml:2:5: job 's' needs the scratch folder, made in '$TRASH/$2' (TMPDIR, else the current folder), which $3; set TMPDIR to a folder, or name a target"
	test ! -e scr2.out
	TMPDIR="$1" "$IOTRIAL" run -q tgt.yaml -o tgt2.out
	expect_eq "$(jq "[.jobs[].trials[] | select(.kept)] | length" tgt2.out/results.json)" 1
	rm -r tgt2.out
}

test_expect_success 'a TMPDIR missing or a file, relative or absolute: refused once when planning' '
	: >afile
	scratch_refused "$TRASH/no/such" no/such "does not exist"
	scratch_refused no/such no/such "does not exist"
	scratch_refused nonexist nonexist "does not exist"
	scratch_refused "$TRASH/afile" afile "is not a folder"
	scratch_refused afile afile "is not a folder"
	scratch_refused afile/sub afile/sub "cannot be used: Not a directory"
	scratch_refused "$TRASH/no/such/" no/such "does not exist"
	scratch_refused afile/ afile "is not a folder"
	test ! -e no
	test ! -e nonexist
	expect_code 1 env TMPDIR=afile "$IOTRIAL" validate scr.yaml
'

test_done
