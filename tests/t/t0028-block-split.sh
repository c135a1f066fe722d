#!/bin/bash
# Block-size mixes (block_size as a mapping of sizes to percentages, or a range; fio's
# bssplit and bsrange): the sizes drawn follow the weights, results.json counts the I/Os of
# each size, random offsets stay aligned and inside the file, a sequential pass covers the
# file once; weights that do not add to 100, and a size O_DIRECT cannot take, are job-file
# errors at the key.
#
# Tolerance: 8,255 I/Os; a share p of them is binomial, sd sqrt(p(1 - p) / n) < 0.0055,
# so each size's share must be within 4 sd = 0.022 of its weight.
. "$(dirname "$0")/lib.sh"
need_cmd jq

cat >bs.yaml <<'JOB'
experiment: bs
seed: 3
jobs:
  - {name: mix, workload: randread, backend: null, file_size: 64MiB,
     block_size: {4KiB: 60, 64KiB: 30, 1MiB: 10}, io_limit: 1GiB, log: {records: true}}
  - {name: range, workload: read, backend: null, file_size: 64MiB, block_size: 4KiB-64KiB,
     log: {records: true}}
  - {name: seqmix, workload: write, backend: null, file_size: 10000KiB,
     block_split: "4KiB:50,12KiB:50", log: {records: true}}
  - {name: nomap, workload: randread, backend: null, file_size: 16MiB, random_map: false,
     block_size: {4KiB: 60, 64KiB: 30, 1MiB: 10}, io_limit: 64MiB}
JOB

test_expect_success 'the block-size mixes run' '
	"$IOTRIAL" run -q bs.yaml -o out
'

# With the random map an I/O may be cut short (below): results.json counts the I/Os by the
# size drawn, and how many of each were cut.
test_expect_success 'each size gets its weight of the I/Os drawn, and results.json counts them' '
	jq -r ".jobs[0].trials[0] | [.ios, (.block_sizes | map(.ios) | add)] | @tsv" out/results.json >sum.txt
	awk "{exit \$1 != \$2}" sum.txt
	wc -l <out/records/mix.csv >lines.txt
	expect_eq "$(($(cat lines.txt) - 1))" "$(cut -f1 sum.txt)" "I/Os logged"
	jq -r ".jobs[0].trials[0] | .ios as \$n | .block_sizes[] | [.size, .ios / \$n] | @tsv" out/results.json >shares.txt
	expect_eq "$(cut -f1 shares.txt | tr "\n" " ")" "4096 65536 1048576 "
	awk "{w = \$1 == 4096 ? 0.6 : \$1 == 65536 ? 0.3 : 0.1; d = \$2 - w; if (d < 0) d = -d; if (d > 0.022) {print; exit 1}}" shares.txt
	# nothing is cut to the largest size: its whole I/Os are those drawn less those cut
	awk -F, "NR > 1 && \$5 == 1048576 {n++} END {print n + 0}" out/records/mix.csv >whole.txt
	jq -r ".jobs[0].trials[0].block_sizes[2] | .ios - .cut" out/results.json >drawn.txt
	expect_eq "$(cat whole.txt)" "$(cat drawn.txt)" "whole 1 MiB I/Os"
	jq -e ".jobs[0].trials[0].block_sizes | .[0].cut == 0 and .[2].cut > 0" out/results.json
'

test_expect_success 'the bytes are the sizes times their counts where none was cut; params echo the mix' '
	jq -e ".jobs[3].trials[0] | .bytes >= 67108864 and .bytes == ([.block_sizes[] | .size * .ios] | add) and ([.block_sizes[].cut] | add) == 0" out/results.json
	jq -e ".jobs[0].trials[0] | .bytes == 1073741824" out/results.json
	awk -F, "NR > 1 {s += \$5} END {exit s != 1073741824}" out/records/mix.csv
	jq -e ".jobs[0].params | .block_size == 1048576 and .block_split == \"4KiB:60,64KiB:30,1MiB:10\"" out/results.json
'

# fio's random map: each 4 KiB block (the smallest size) once a pass; an I/O starts at a
# block the pass has not covered and is cut at the first covered one. 1 GiB over 64 MiB
# is 16 passes, 16 visits of each block; without the map of covered blocks, I/Os overlap.
test_expect_success 'with the random map, a mix visits each block of the smallest size once a pass' '
	awk -F, "NR > 1 {for (o = \$4; o < \$4 + \$5; o += 4096) v[o / 4096]++}
		END {for (b = 0; b < 16384; b++) if (v[b] != 16) {print b, v[b]; exit 1}}" out/records/mix.csv
	# A size that is not a multiple of the smallest is cut down to one, as fio does: else a
	# 6 KiB I/O covers two 4 KiB blocks and reads a block and a half (106 KiB of 1 MiB
	# was never read, 108 KiB twice). Counted in 2 KiB pieces: each once.
	printf "experiment: odd\nseed: 3\njobs:\n  - {name: odd, workload: randread, backend: null, file_size: 1MiB, block_size: {4KiB: 50, 6KiB: 50}, log: {records: true}}\n" >odd.yaml
	"$IOTRIAL" run -q odd.yaml -o odd
	awk -F, "NR > 1 {for (o = \$4; o < \$4 + \$5; o += 2048) v[o / 2048]++}
		END {for (b = 0; b < 512; b++) if (v[b] != 1) {print b, v[b]; exit 1}}" odd/records/odd.csv
	jq -e ".jobs[0].trials[0] | .bytes == 1048576 and .block_sizes[1].cut == .block_sizes[1].ios" odd/results.json
'

# The ramp's end: the first measured I/O is drawn again, from a pass of its own, and must
# end inside its worker's region too (it once ran past it, into the other worker's region
# and past the end of the file: trials 1, 2 and 4 of these 12).
test_expect_success 'a mix with a ramp: the first measured I/O inside its worker.s region' '
	printf "experiment: ramp\nseed: 4\nreplication: {runs: 12}\njobs:\n  - {name: inc, workload: randwrite, backend: null, threads: 2, file_per_thread: false, offset_increment: 128KiB, file_size: 128KiB, block_size: {4KiB: 50, 64KiB: 50}, ramp: 300us, log: {records: true}}\n" >ramp.yaml
	"$IOTRIAL" run -q ramp.yaml -o ramp
	awk -F, "NR == 1 {for (i = 1; i <= NF; i++) c[\$i] = i; next}
		{lo = \$c[\"worker\"] * 131072; if (\$c[\"offset\"] < lo || \$c[\"offset\"] + \$c[\"bytes\"] > lo + 131072) {print; exit 1}}" ramp/records/inc.csv
'

test_expect_success 'random offsets are multiples of the smallest size, every I/O inside the file' '
	awk -F, "NR > 1 {if (\$4 % 4096 || \$4 + \$5 > 67108864) {print; exit 1}}" out/records/mix.csv
'

test_expect_success 'a range: sizes are multiples of its smallest, up to its largest; a pass covers the file once' '
	awk -F, "NR > 1 {if (\$5 % 4096) {print; exit 1}; if (\$5 > 65536) {print; exit 1}; s += \$5} END {if (s != 67108864) {print s; exit 1}}" out/records/range.csv
	awk -F, "NR > 1 {c[\$5]++} END {print length(c)}" out/records/range.csv >distinct.txt
	expect_eq "$(cat distinct.txt)" 16
	jq -e ".jobs[1].trials[0] | has(\"block_sizes\") | not" out/results.json
'

test_expect_success 'a sequential mix writes the file once, in order, the last I/O cut to fit' '
	awk -F, "NR > 1 {if (\$4 != at) {print; exit 1}; at += \$5} END {if (at != 10240000) {print at; exit 1}}" out/records/seqmix.csv
'

bad() {
	printf 'experiment: bad\njobs:\n  - name: j\n    workload: randread\n    target: "%s"\n    file_size: 1MiB\n    direct: %s\n    block_size: %s\n' "$PWD/" "$1" "$2" >bad.yaml
	expect_code 2 "$IOTRIAL" validate bad.yaml 2>err.txt
	cat err.txt
}

test_expect_success 'weights that do not add to 100, a backward range, a size twice: file:line:column, exit 2' '
	bad false "{4KiB: 60, 64KiB: 30}" >e1.txt
	grep -x "bad.yaml:8:17: key .block_size.: the weights add to 90; they must add to 100" e1.txt
	bad false "64KiB-4KiB" >e2.txt
	grep -x "bad.yaml:8:17: key .block_size.: a range MIN-MAX needs MIN <= MAX, got .64KiB-4KiB." e2.txt
	bad false "{4KiB: 60, 4KiB: 40}" >e3.txt
	grep "bad.yaml:8:17: key .block_size.: block size 4KiB is listed twice" e3.txt
	bad false "{4KiB: 60%, 64KiB: 40}" >e5.txt
	grep -x "bad.yaml:8:17: key .block_size.: the weight of 4KiB must be a whole percentage, 0 to 100, without .%., got .60%." e5.txt
'

test_expect_success 'a size that O_DIRECT cannot take: file:line:column, exit 2' '
	bad true "{4KiB: 50, 1000: 50}" >e4.txt
	grep "bad.yaml:8:17: key .block_split.: a size of 1000 bytes is not a multiple of [0-9]*, the logical block size of" e4.txt
	expect_eq "$(wc -l <e4.txt)" 1
'

test_done
