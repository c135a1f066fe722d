#!/bin/bash
# Strings that are not UTF-8 (a file name in Latin-1, through an environment variable, a job
# file name or --set): JSON text is UTF-8, so results.json, events.ndjson and batch.json say
# each stray byte as U+FFFD, and are written whole; trials.csv keeps the bytes.
. "$(dirname "$0")/lib.sh"
need_cmd jq

# A Latin-1 e-acute (0xe9) in a file name, and in what it reads back as in JSON.
LAT=$(printf 'caf\351')
export LAT
head -c 65536 /dev/zero >"$LAT.dat"
printf 'experiment: lat\nreplication: {runs: 1, warmup: 0}\njobs:\n  - {name: r, matrix: {target: [\"${LAT}.dat\"]}, workload: read, backend: sync, block_size: 4KiB}\n' >read.yaml
sed 's/^experiment: lat/experiment: lat\nprepare: "truncate -s 100 ${LAT}.dat"/' read.yaml >short.yaml

test_expect_success 'a target whose name is not UTF-8: results.json and events.ndjson written, the byte as U+FFFD' '
	"$IOTRIAL" run -q -f json,csv,ndjson -o r --set "description=$LAT" read.yaml >/dev/null 2>err
	jq -e .complete r/results.json >/dev/null
	expect_eq "$(jq -r .jobs[0].params.target r/results.json)" "caf�.dat"
	expect_eq "$(jq -r .overrides.description r/results.json)" "caf�"
	expect_eq "$(jq -r "select(.event == \"run_start\") | .jobs[0].name" r/events.ndjson)" "r[target=caf�.dat]"
	expect_eq "$(jq -r "select(.event == \"trial_end\") | .instance" r/events.ndjson)" "r[target=caf�.dat]"
	test -s r/trials.csv
	"$IOTRIAL" report r/results.json -f text >/dev/null
'

test_expect_success 'a trial error that names a file whose name is not UTF-8: in results.json, exit 1' '
	head -c 65536 /dev/zero >"$LAT.dat"
	expect_code 1 "$IOTRIAL" run -q -f json,csv -o s short.yaml 2>err
	grep "unexpected end of file" err
	jq -r .jobs[0].trials[0].error s/results.json >error
	grep -x "read .caf�.dat. at offset 100 (3996 bytes): unexpected end of file" error
	not grep "cannot write" err
'

test_expect_success 'a job file whose name is not UTF-8, in a batch: batch.json names it and its folder, the one on disk' '
	head -c 65536 /dev/zero >"$LAT.dat"
	cp read.yaml "$LAT.yaml"
	"$IOTRIAL" run -q -o b read.yaml "$LAT.yaml" >/dev/null 2>err
	expect_eq "$(jq -c "[.files[] | .job_file, .folder]" b/batch.json)" "[\"read.yaml\",\"read\",\"caf�.yaml\",\"caf�\"]"
	for folder in $(jq -r ".files[].folder" b/batch.json); do
		jq -e .complete "b/$folder/results.json" >/dev/null
	done
	test ! -e "b/$LAT"
	expect_eq "$(jq -r .job_file.path "b/caf�/results.json")" "caf�.yaml"
'

test_expect_success 'a job file name that U+FFFD makes longer than a file name can be: refused before anything is made, exit 2' '
	long=$(printf "\377%.0s" $(seq 100))
	cp read.yaml "$long.yaml"
	expect_code 2 "$IOTRIAL" run -q -o nb read.yaml "$long.yaml" 2>err
	grep "would give its results a folder name of 300 bytes" err
	expect_eq "$(wc -l <err)" 1 "lines on stderr"
	test ! -e nb
'

test_done
