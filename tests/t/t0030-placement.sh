#!/bin/bash
# Placement and size (fio's offset, offset_increment, size=N% and io_size): where each
# worker's region lies in its file, read back from the per-I/O log; file_size as a part of
# an existing file; io_limit apart from the region; and the job-file errors at the key.
. "$(dirname "$0")/lib.sh"
need_cmd jq

truncate -s 10MiB big.dat
cat >pl.yaml <<JOB
experiment: pl
seed: 1
defaults: {target: "$PWD/", log: {records: true}}
jobs:
  - {name: inc, workload: write, file_size: 1MiB, offset: 64KiB, offset_increment: 2MiB,
     threads: 3, file_per_thread: false}
  - {name: rinc, workload: randread, file_size: 1MiB, offset_increment: 1MiB, threads: 2,
     file_per_thread: false}
  - {name: pct, workload: read, target: "$PWD/big.dat", file_size: 25%}
  - {name: lim, workload: read, target: "$PWD/big.dat", file_size: 1MiB, io_limit: 3MiB}
  - {name: short, workload: randread, target: "$PWD/big.dat", file_size: 4MiB, io_limit: 1MiB}
JOB

# span CSV: per worker, its lowest offset and the end of its highest I/O.
span() {
	awk -F, 'NR > 1 {w = $2; if (!(w in lo) || $4 < lo[w]) lo[w] = $4; if ($4 + $5 > hi[w]) hi[w] = $4 + $5} END {for (w in lo) print w, lo[w], hi[w]}' "$1" | sort -n
}

test_expect_success 'the placement jobs run' '
	"$IOTRIAL" run -q pl.yaml -o out
'

test_expect_success 'worker w writes file_size bytes from offset + w x offset_increment' '
	span out/records/inc.csv >inc.txt
	expect_eq "$(cat inc.txt)" "$(printf "0 65536 1114112\n1 2162688 3211264\n2 4259840 5308416")"
	expect_eq "$(jq -c "[.jobs[0].trials[0].bytes, .jobs[0].params.offset, .jobs[0].params.offset_increment]" out/results.json)" "[3145728,65536,2097152]"
'

test_expect_success 'random workers each stay in their own region' '
	span out/records/rinc.csv >rinc.txt
	expect_eq "$(cat rinc.txt)" "$(printf "0 0 1048576\n1 1048576 2097152")"
'

test_expect_success 'file_size: 25% of a 10 MiB file is 2.5 MiB, in whole blocks' '
	expect_eq "$(jq ".jobs[2].params.file_size" out/results.json)" 2621440
	span out/records/pct.csv >pct.txt
	expect_eq "$(cat pct.txt)" "0 0 2621440"
'

test_expect_success 'io_limit: more than the region goes round it; less stops early' '
	expect_eq "$(jq -c "[.jobs[3].trials[0].bytes, .jobs[4].trials[0].bytes]" out/results.json)" "[3145728,1048576]"
	span out/records/lim.csv >lim.txt
	expect_eq "$(cat lim.txt)" "0 0 1048576"
'

bad() {
	printf 'experiment: bad\njobs:\n  - name: j\n    workload: %s\n    target: "%s"\n    %s\n' "$1" "$2" "$3" | tr ";" "\n" >bad.yaml
	expect_code 2 "$IOTRIAL" validate bad.yaml 2>err.txt
	cat err.txt
}

test_expect_success 'bad placements: file:line:column, exit 2' '
	bad write "$PWD/" "threads: 2;    offset_increment: 1MiB" >e1.txt
	grep -x "bad.yaml:7:23: key .offset_increment.: places the workers of one shared file; set file_per_thread: false" e1.txt
	bad read "$PWD/big.dat" "file_size: 150%" >e2.txt
	grep -x "bad.yaml:6:16: key .file_size.: a percentage of the target must be above 0% and at most 100%, got .150%." e2.txt
	bad write "$PWD/" "file_size: 50%" >e3.txt
	grep -x "bad.yaml:6:16: key .file_size.: 50% is a part of an existing file or block device, and target .* is not one" e3.txt
	bad write "$PWD/" "direct: true;    offset: 1000" >e4.txt
	grep "bad.yaml:7:13: key .offset.: 1000 bytes is not a multiple of [0-9]*, the logical block size of" e4.txt
	bad copy "$PWD/" "offset: 4KiB" >e5.txt
	grep "bad.yaml:6:13: key .offset.: a copy has no region to place" e5.txt
	cat e1.txt e2.txt e3.txt e4.txt e5.txt >all.txt
	expect_eq "$(wc -l <all.txt)" 5
'

# A percentage is kept as a double: as a float, 1e-46% was 0, a size of 0 bytes, and the
# error blamed block_size; 1e-40% printed as 9.99995e-41%.
test_expect_success 'a percentage too small for one block: one line at file_size, as written' '
	for v in 1e-300% 1e-46% 1e-40%; do
		bad read "$PWD/big.dat" "file_size: $v" >e.txt
		expect_eq "$(cat e.txt)" "bad.yaml:6:16: key '"'"'file_size'"'"': $v of '"'"'$PWD/big.dat'"'"' (10485760 bytes) is less than one block"
	done
'

test_expect_success 'a percentage that is not one number: expected a percentage, exit 2' '
	for v in 5%% nan% inf% 0x10% %; do
		bad read "$PWD/big.dat" "file_size: \"$v\"" >e.txt
		expect_eq "$(cat e.txt)" "bad.yaml:6:16: key '"'"'file_size'"'"': expected a percentage like 50%, got '"'"'$v'"'"'"
	done
	for v in 0% -0% 100.0000001% 1e400%; do
		bad read "$PWD/big.dat" "file_size: $v" >e.txt
		expect_eq "$(cat e.txt)" "bad.yaml:6:16: key '"'"'file_size'"'"': a percentage of the target must be above 0% and at most 100%, got '"'"'$v'"'"'"
	done
'

test_expect_success 'a tiny percentage is no matrix value either, nor a --set of 0 bytes' '
	# The matrix before the target: its column does not depend on where the test runs.
	printf "experiment: m\njobs:\n  - {name: j, workload: read, matrix: {file_size: [1MiB, 1e-300%%]}, target: \"%s\"}\n" "$PWD/big.dat" >m.yaml
	expect_code 2 "$IOTRIAL" validate m.yaml 2>e.txt
	expect_eq "$(cat e.txt)" "m.yaml:3:58: key '"'"'file_size'"'"': a percentage of the target is not a matrix value"
	printf "experiment: s\njobs:\n  - {name: j, workload: read, target: \"%s\"}\n" "$PWD/big.dat" >s.yaml
	expect_code 2 "$IOTRIAL" validate s.yaml --set file_size=1e-300% 2>e.txt
	grep "key .file_size.: 1e-300% of .* is less than one block$" e.txt
	expect_eq "$(wc -l <e.txt)" 1
'

test_done
