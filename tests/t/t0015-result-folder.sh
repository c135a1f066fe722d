#!/bin/bash
# The result folder's safety: -o never mixes two runs (an earlier run is refused unless
# --force, which removes only iotrial's files; a second run at once is locked out), default
# names never collide, an unwritable or full folder is found before the first trial, errors
# name the real errno, and signals or a closed stdout never leave a half-written result.
. "$(dirname "$0")/lib.sh"
need_cmd jq

printf 'experiment: e1\njobs:\n  - {name: a, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB}\n' >a.yaml
printf 'experiment: e2\njobs:\n  - {name: b, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB}\n' >b.yaml
printf 'experiment: e3\njobs:\n  - {name: c, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB}\n' >c.yaml
# A job whose one trial leaves a mark: no mark, no trial ran.
printf 'experiment: m\njobs:\n  - {name: m, workload: command, command: "touch %s/ran"}\n' "$PWD" >mark.yaml

# No temporary file (.NAME.XXXXXX), probe or lock file left in folder $1.
no_leftovers() {
	ls -A "$1" >left.txt
	not grep -E '^\.' left.txt
}

# Folder $1 holds one run's complete results, results.json and trials.csv from the same run.
whole_run() {
	jq -e .complete "$1/results.json" >/dev/null
	expect_eq "$(cut -d, -f1 "$1/trials.csv" | sed -n 2p)" "$(jq -r .experiment "$1/results.json")" "$1: trials.csv and results.json"
	test -s "$1/summary.txt"
	no_leftovers "$1"
}

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
		grep "iotrial: -f takes a comma list of text, json, csv, not .$f. (an empty name)" err
	done
	test ! -e fmt
'

test_expect_success 'read and write errors name their errno, not EIO' '
	mkdir adir
	expect_code 2 "$IOTRIAL" report adir 2>err
	grep "adir: cannot read: Is a directory" err
	"$IOTRIAL" run -q -o saved a.yaml 2>/dev/null
	expect_code 1 "$IOTRIAL" report -f json saved/results.json >/dev/full 2>err
	grep "iotrial: cannot write stdout: No space left on device" err
'

test_done
