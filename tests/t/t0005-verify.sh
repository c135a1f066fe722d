#!/bin/bash
# verify: write then read back and check, on every backend that works here, with and
# without O_DIRECT, at iodepth 1 and 32; a corrupted block is found and named by offset, by
# every one of them.
. "$(dirname "$0")/lib.sh"
need_cmd jq

backends=$("$IOTRIAL" backends | awk 'NR > 1 && $2 == "yes" && $1 != "null" && $1 != "synthetic" {print $1}')
mkdir -p data

test_expect_success 'the backends to verify include sync' '
	echo "backends: $backends"
	expect_eq "$(echo "$backends" | grep -c "^sync$")" 1
'

test_expect_success 'a kept file with one corrupted byte' '
	printf "jobs:\n  - {name: w, workload: write, block_size: 64KiB, verify: true, file_size: 1MiB, target: data/kept.dat, keep_files: true}\n" >k.yaml
	"$IOTRIAL" run -q k.yaml -o kout
	cp data/kept.dat data/bad.dat
	# A byte other than the one there (the data is random: X was there 1 time in 256).
	was=$(od -An -tx1 -j70000 -N1 data/kept.dat | tr -d " ")
	if [ "$was" = 58 ]; then printf Y; else printf X; fi | dd of=data/bad.dat bs=1 seek=70000 conv=notrunc 2>/dev/null
	expect_eq "$(cmp -l data/kept.dat data/bad.dat | wc -l)" 1
'

for be in $backends; do
	for direct in false true; do
		for depth in 1 32; do
			cat >"v-$be-$direct-$depth.yaml" <<JOB
experiment: verify
defaults: {verify: true, file_size: 2MiB, target: data, backend: $be, direct: $direct, iodepth: $depth}
jobs:
  - {name: w, workload: write, block_size: 64KiB}
  - {name: rw, workload: randwrite, block_size: 4KiB}
  - {name: r, workload: read, block_size: 128KiB}
  - {name: rr, workload: randread, block_size: 4KiB}
  - {name: c, workload: copy, buffer_size: 32KiB}
JOB
			if [ "$depth" = 32 ] && "$IOTRIAL" validate "v-$be-$direct-$depth.yaml" 2>&1 | grep "needs an asynchronous backend" >/dev/null; then
				continue
			fi
			test_expect_success "write then verify: $be, direct $direct, iodepth $depth" "
				\"\$IOTRIAL\" run -q v-$be-$direct-$depth.yaml -o out-$be-$direct-$depth
				expect_eq \"\$(jq '[.jobs[].trials[] | .errors] | add' out-$be-$direct-$depth/results.json)\" 0
				expect_eq \"\$(jq -c '[.jobs[].trials[] | .kept]' out-$be-$direct-$depth/results.json)\" [true,true,true,true,true]
				expect_eq \"\$(jq '.jobs[0].trials[0].bytes' out-$be-$direct-$depth/results.json)\" 2097152
			"
			test_expect_success "the corrupted byte is found: $be, direct $direct, iodepth $depth" "
				printf 'jobs:\\n  - {name: r, workload: read, block_size: 64KiB, verify: true, target: data/bad.dat, backend: $be, direct: $direct, iodepth: $depth}\\n' >c-$be-$direct-$depth.yaml
				rc=0
				\"\$IOTRIAL\" run -q c-$be-$direct-$depth.yaml -o cout-$be-$direct-$depth 2>err || rc=\$?
				expect_eq \$rc 1
				expect_eq \"\$(jq -c '.jobs[0].trials[0] | [.errors, .failed]' cout-$be-$direct-$depth/results.json)\" [1,true]
				grep 'verify: .*bad.dat. at offset 69632: checksum mismatch' err
			"
		done
	done
done

test_expect_success 'the intact file reads back clean' '
	printf "jobs:\n  - {name: r, workload: read, block_size: 64KiB, verify: true, target: data/kept.dat}\n" >ok.yaml
	"$IOTRIAL" run -q ok.yaml -o okout
	expect_eq "$(jq -c ".jobs[0].trials[0] | [.errors, .failed, .bytes]" okout/results.json)" "[0,false,1048576]"
'

test_expect_success 'a block written for another offset is caught as misplaced' '
	dd if=data/kept.dat of=data/moved.dat bs=512 count=2048 2>/dev/null
	dd if=data/kept.dat of=data/moved.dat bs=512 skip=10 seek=20 count=1 conv=notrunc 2>/dev/null
	printf "jobs:\n  - {name: r, workload: read, block_size: 4KiB, verify: true, target: data/moved.dat}\n" >m.yaml
	rc=0
	"$IOTRIAL" run -q m.yaml -o mout 2>err || rc=$?
	expect_eq "$rc" 1
	grep -q "at offset 10240: the block belongs at another offset" err
'

test_expect_success 'verify on the null backend is refused at validate time' '
	printf "jobs:\n  - {name: w, workload: write, backend: null, verify: true}\n" >n.yaml
	rc=0
	"$IOTRIAL" validate n.yaml 2>err || rc=$?
	expect_eq "$rc" 2
	grep -q "keeps no data to verify" err
'

test_done
