#!/bin/bash
# The planner's bounds and its refusals before any I/O: a target the job file means as a
# folder is never created (the README tour with QUICKSTART_DIR on a missing folder
# once read freed memory and left a file in the folder's place), a plan has at most 100000
# instances however its jobs share a matrix, its memory is estimated before it is built,
# and memory that runs out while planning is one line and exit status 1, never a crash.
. "$(dirname "$0")/lib.sh"

QUICK="$SRC/jobs/quickstart.yaml"

# A job file whose every job shares one 100000-point matrix through a YAML alias.
alias_bomb() {
	awk -v jobs="$1" 'BEGIN {
		printf "experiment: bomb\njobs:\n  - {name: j0, workload: read, backend: null, file_size: 1MiB, matrix: &m {rate_iops: {from: 1, to: 1000, step: 1}, think_time: {from: 1us, to: 100us, step: 1us}}}\n"
		for (k = 1; k < jobs; k++)
			printf "  - {name: j%d, workload: read, backend: null, file_size: 1MiB, matrix: *m}\n", k
	}'
}

test_expect_success 'the README tour on a missing folder: one line, exit 1, nothing created' '
	expect_code 1 env QUICKSTART_DIR="$TRASH/mnt/usb" "$IOTRIAL" run "$QUICK" -o res 2>err >out
	cat err
	expect_eq "$(wc -l <err)" 1
	grep "key .target.: folder .$TRASH/mnt/usb. of device .disk. does not exist" err
	test ! -e "$TRASH/mnt"
	test ! -e res
	test ! -s out
'

test_expect_success 'a missing folder under an existing one is not created either' '
	mkdir mnt
	expect_code 1 env QUICKSTART_DIR="$TRASH/mnt/usb" "$IOTRIAL" run "$QUICK" -o res 2>err
	expect_eq "$(wc -l <err)" 1
	expect_eq "$(ls -A mnt)" ""
	test ! -e res
	expect_code 1 env QUICKSTART_DIR="$TRASH/mnt/usb" "$IOTRIAL" validate "$QUICK" 2>err
	grep "folder .$TRASH/mnt/usb. of device .disk. does not exist" err
	expect_eq "$(ls -A mnt)" ""
'

test_expect_success 'a target ending in / is a folder too, for a write and a copy' '
	mkdir -p have
	printf "jobs:\n  - {name: w, workload: write, file_size: 64KiB, target: $TRASH/have/sub/}\n" >slash.yaml
	expect_code 1 "$IOTRIAL" run -q slash.yaml -o res 2>err
	grep "key .target.: folder .$TRASH/have/sub/. does not exist; create it first" err
	printf "jobs:\n  - {name: c, workload: copy, file_size: 64KiB, target: $TRASH/have/sub/}\n" >copy.yaml
	expect_code 1 "$IOTRIAL" run -q copy.yaml -o res 2>err
	grep "key .target.: folder .$TRASH/have/sub/. does not exist; create it first" err
	expect_eq "$(ls -A have)" ""
	test ! -e res
'

test_expect_success 'a missing file in an existing folder is still created, and removed' '
	mkdir -p dev
	printf "devices: {d: $TRASH/dev}\njobs:\n  - {name: w, workload: write, file_size: 64KiB, device: d, target: \"{device}/disk.img\"}\n" >file.yaml
	"$IOTRIAL" run -q file.yaml -o fileres 2>err
	test -s fileres/results.json
	expect_eq "$(ls -A dev)" ""
'

# Instances that name one file share it (plan_file.owner points into the instance array):
# under AddressSanitizer this once read memory freed when the array grew (make test-asan).
test_expect_success 'jobs of several matrix sizes sharing one created file' '
	mkdir -p shared
	printf "devices: {d: $TRASH/shared}\ndefaults: {device: d, target: \"{device}/one.bin\", file_size: 64KiB, block_size: 4KiB}\njobs:\n  - {name: w, workload: write}\n  - {name: r, workload: read, matrix: {block_size: [4KiB, 8KiB, 16KiB]}}\n  - {name: rr, workload: randread, matrix: {block_size: [4KiB, 8KiB, 16KiB, 32KiB, 64KiB]}}\n" >share.yaml
	"$IOTRIAL" run -q share.yaml -o shareres 2>err
	test -s shareres/results.json
	expect_eq "$(ls -A shared)" ""
'

test_expect_success 'the README tour on an existing folder runs there' '
	mkdir usb
	QUICKSTART_DIR="$TRASH/usb" QUICKSTART_SIZE=1MiB "$IOTRIAL" run -q "$QUICK" -o tour 2>err
	test -s tour/results.json
	expect_eq "$(ls -A usb)" ""
'

test_expect_success 'jobs sharing a 100000-point matrix by alias: refused before building, exit 2' '
	alias_bomb 4096 >bomb.yaml
	expect_code 2 "$IOTRIAL" validate bomb.yaml 2>err
	cat err
	expect_eq "$(wc -l <err)" 1
	grep "bomb.yaml:4:5: the plan expands to 409600000 job instances (the matrix points of its 4096 jobs, before exclude), more than the bound of 100000" err
	alias_bomb 2 >two.yaml
	expect_code 2 "$IOTRIAL" run -q two.yaml -o bombres 2>err
	grep "the plan expands to 200000 job instances .* more than the bound of 100000" err
	test ! -e bombres
'

test_expect_success 'a plan of exactly the bound is planned' '
	alias_bomb 1 >one.yaml
	"$IOTRIAL" validate one.yaml >plan.txt
	grep "^experiment bomb: 100000 job instance(s)" plan.txt
'

test_expect_success 'the plan memory is estimated before it is built: exit 1, with the counts' '
	printf "experiment: m\nreplication: {runs: 1000}\njobs:\n  - {name: a, workload: read, backend: null, file_size: 1MiB, matrix: {rate_iops: {from: 1, to: 10000, step: 1}, iodepth: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}}\n" >mem.yaml
	expect_code 1 "$IOTRIAL" validate mem.yaml 2>err
	grep "mem.yaml:4:5: the plan itself needs about .* GiB of memory (100000 job instances, 100000000 trials), more than \(this machine.s\|its cgroup.s memory.max of\) [0-9.]* GiB allows$" err
'

# Under AddressSanitizer the shadow memory needs terabytes of address space: no ulimit -v.
if grep -q __asan_init "$IOTRIAL"; then
	test_skip 'memory running out while planning: a line and exit 1 at every limit' 'an ASan build cannot run under ulimit -v'
else
	test_expect_success 'memory running out while planning: a line and exit 1 at every limit' '
		printf "experiment: mid\nreplication: {runs: 2}\njobs:\n  - {name: a, workload: read, file_size: 64KiB, matrix: {rate_iops: {from: 1, to: 200, step: 1}, think_time: {from: 1us, to: 10us, step: 1us}}}\n  - {name: b, workload: copy, file_size: 64KiB, with: a, matrix: {rate_iops: {from: 1, to: 200, step: 1}, think_time: {from: 1us, to: 10us, step: 1us}}}\ncompare:\n  - {a: {job: a}, b: {job: b}}\n" >mid.yaml
		"$IOTRIAL" validate mid.yaml >plan.txt
		failed=0
		for kb in $(seq 4000 100 22000); do
			rc=0
			(ulimit -v "$kb"; exec "$IOTRIAL" validate mid.yaml) >out.$kb 2>err.$kb || rc=$?
			echo "$kb KiB: status $rc: $(cat err.$kb)"
			case $rc in
			0) expect_eq "$(wc -l <out.$kb)" "$(wc -l <plan.txt)" ;;
			1) expect_eq "$(wc -l <err.$kb)" 1 ;;
			127) ;; # the loader could not map the program: iotrial did not start
			*) false ;;
			esac
			[ "$rc" -ne 1 ] || failed=$((failed + 1))
		done
		test "$failed" -gt 5
	'
fi

test_done
