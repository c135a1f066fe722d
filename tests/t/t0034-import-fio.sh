#!/bin/bash
# iotrial import-fio: fio job files (one per group of options, and the shapes of fio's
# examples/) become iotrial job files that validate, or that name each option they could not
# map; bad fio files get one line and exit 2; a fio file handed to run or validate points at
# import-fio; fio's names in a YAML job file get the iotrial name.
. "$(dirname "$0")/lib.sh"

FIO="$SRC/tests/fio"

# import FILE STATUS: convert tests/fio/FILE.fio into FILE.yaml, expecting exit STATUS.
import() {
	expect_code "$2" "$IOTRIAL" import-fio "$FIO/$1.fio" >"$1.yaml" 2>"$1.err"
}

test_expect_success 'fio itself accepts every test file that should convert' '
	if command -v fio >/dev/null; then
		for f in "$FIO"/*.fio; do
			SSD_DIR=. DATA_DIR=. SIZE=1m BS=4k fio --parse-only "$f" >/dev/null
		done
	else
		echo "fio is not installed: the files are not checked against fio"
	fi
'

# A build without libaio or liburing (make WITH_LIBAIO=no WITH_LIBURING=no) converts the same,
# but cannot plan a job on the backend it left out: that is then all validate may say.
"$IOTRIAL" backends | awk '$2 == "no" && $3 == "not" { print $1 }' >left_out
validate_converted() { # NAME: NAME.yaml plans, or names only backends this build left out
	if SSD_DIR=. DATA_DIR=. SIZE=1MiB BS=4KiB "$IOTRIAL" validate "$1.yaml" >plan 2>plan.err; then
		grep -c ' run(s) ' plan
		return
	fi
	cat plan.err
	test -s left_out
	test -s plan.err
	not grep -v "key 'backend': '.*' is not compiled into this build" plan.err
}

# name, exit status of the import, what the result must say when it does not validate
for case in "fixed-rate 3" "seq-write 0" "ssd-test 3" "tiobench 3" "zipf 0" "opt-sizes 3" \
	"opt-engines 0" "opt-graph 0" "opt-target 0" "opt-pending 0" "opt-workloads 0" \
	"opt-wl-refused 3" "rand-rw 0"; do
	set -- $case
	test_expect_success "$1.fio converts (exit $2) and the job file validates" "
		import $1 $2
		validate_converted $1
		if [ $2 -eq 3 ]; then grep '^iotrial: .*not mapped' $1.err; else expect_eq \"\$(cat $1.err)\" ''; fi
		n=\$(grep -c '# not mapped' $1.yaml || true)
		if [ $2 -eq 3 ]; then test \"\$n\" -gt 0; else expect_eq \"\$n\" 0 'not-mapped lines'; fi
	"
done

test_expect_success 'rand-rw.fio: randrw with its mix, 60 reads in 100' '
	import rand-rw 0
	grep "^  workload: randrw$" rand-rw.yaml
	grep "^  mix: {read: 60, write: 40}$" rand-rw.yaml
'

test_expect_success 'workload options: the whole output; it runs, and results.json echoes each' '
	import opt-workloads 0
	diff -u "$FIO/opt-workloads.want" opt-workloads.yaml
	if grep -qx libaio left_out; then
		# the job on libaio runs on sync instead, one I/O at a time
		sed -i "/^    backend: libaio\$/d; /^    iodepth: 4\$/d" opt-workloads.yaml
	fi
	"$IOTRIAL" run -q opt-workloads.yaml -o res-wl
	jq -r ".jobs[] | [.name, .params.mix, .params.block_split, .params.distribution, .params.fsync_every, .params.fdatasync_every, .params.offset, .params.offset_increment, .params.io_limit, .params.nice, .params.ioprio, .params.cpus] | map(tostring) | join(\" \")" res-wl/results.json >got
	cat >want <<-\EOF
	mixed read:70,write:30 null zipf:1.2 0 0 null null null 5 class:be,level:6 0
	mixed-seq read:70,write:30 null uniform 0 0 null null null 5 class:be,level:6 0
	split null 4KiB:60,64KiB:30,1MiB:10 pareto:0.2 8 0 null null null 5 class:idle,level:6 0
	range null 4KiB-16KiB uniform 0 16 1048576 null 2097152 5 class:be,level:6 0
	zoned null 4KiB:50,8KiB:25,16KiB:25 zoned:60/10:30/20:8/30:2/40 0 0 null null null 5 class:be,level:6 0
	normal null null normal:5:0.3 0 0 null 4194304 null -5 class:be,level:6 0
	EOF
	diff -u want got
	expect_eq "$(jq ".jobs[0].trials[0].read.ios + .jobs[0].trials[0].write.ios" res-wl/results.json)" 1024
	expect_eq "$(jq ".jobs[2].trials[0].sync.ios" res-wl/results.json)" "$(jq ".jobs[2].trials[0].write.ios / 8 | floor" res-wl/results.json)"
'

test_expect_success 'workload options fio means otherwise: each one named, or noted where fio ignores it too' '
	import opt-wl-refused 3
	diff -u "$FIO/opt-wl-refused.want" opt-wl-refused.yaml
	grep "iotrial: .*opt-wl-refused.fio: 11 fio option(s) not mapped" opt-wl-refused.err
'

test_expect_success 'io_uring options and batch sizes: keys of the io_uring backend on an io_uring job, named on another' '
	printf "[global]\nioengine=io_uring\niodepth=16\nsize=1m\n[a]\nrw=randread\nregisterfiles=1\nfixedbufs=1\nsqthread_poll=1\nsqthread_poll_cpu=1\nhipri=0\niodepth_batch_submit=4\niodepth_batch_complete_min=2\n[b]\nrw=read\niodepth_batch_complete_max=8\niodepth_batch_submit=0\n[c]\nioengine=libaio\nrw=read\niodepth_batch=4\nregisterfiles=1\n[d]\nrw=read\niodepth_batch_complete_min=16\niodepth_batch_complete_max=4\niodepth_batch_submit=5000\n" >uring.fio
	expect_code 3 "$IOTRIAL" import-fio uring.fio >uring.yaml 2>uring.err
	sed -n "/- name: a/,/- name: b/p" uring.yaml | grep "^    io_uring" >a.keys
	cat >want <<-\EOF
	    io_uring_register_files: true
	    io_uring_fixed_buffers: true
	    io_uring_sqpoll: true
	    io_uring_sqpoll_cpu: 1
	    io_uring_hipri: false
	    io_uring_batch_submit: 4
	    io_uring_batch_complete_min: 2
	    io_uring_batch_complete_max: 2
	EOF
	diff -u want a.keys
	sed -n "/- name: b/,/- name: c/p" uring.yaml >b.part
	grep -x "    io_uring_batch_complete_max: 8" b.part
	grep "not mapped: iodepth_batch_submit=0 (line 17): fio.s 0 is the iodepth" b.part
	sed -n "/- name: d/,\$p" uring.yaml >d.part
	grep -x "    io_uring_batch_complete_min: 16" d.part
	grep -x "    io_uring_batch_complete_max: 16" d.part
	grep "not mapped: iodepth_batch_submit=5000 (line 27): above what io_uring_batch_submit takes (4096)" d.part
	validate_converted uring
	sed -n "/- name: c/,/- name: d/p" uring.yaml >c.part
	grep "not mapped: iodepth_batch=4 (line 21): iotrial has it on its io_uring backend only (io_uring_batch_submit); this job.s ioengine is libaio" c.part
	grep "not mapped: registerfiles=1 (line 22)" c.part
	not grep "^    io_uring" c.part
	grep "4 fio option(s) not mapped" uring.err
'

test_expect_success 'prio and prioclass are one ioprio, as fio sets it (class 0 is be, level 0 by default)' '
	printf "[a]\nprioclass=1\nprio=2\n[b]\nprioclass=1\n[c]\nprio=3\n[d]\nprioclass=0\nprio=7\n[e]\nprio=9\n" >prio.fio
	expect_code 3 "$IOTRIAL" import-fio prio.fio >prio.yaml 2>err
	grep "^    ioprio: " prio.yaml >got
	printf "    ioprio: {class: rt, level: 2}\n    ioprio: {class: rt, level: 0}\n    ioprio: {class: be, level: 3}\n    ioprio: {class: be, level: 7}\n" >want
	diff -u want got
	grep "not mapped: prio=9 (line 12): fio.s prio is 0 to 7" prio.yaml
'

test_expect_success 'size=50% is half of the existing target, measured when planned' '
	truncate -s 8M half.dat
	printf "[half]\nrw=read\nfilename=half.dat\nsize=50%%\n" >half.fio
	"$IOTRIAL" import-fio half.fio >half.yaml
	grep "^    file_size: 50%$" half.yaml
	"$IOTRIAL" validate half.yaml >plan
	grep "read on sync, 4 MiB in 4 KiB I/Os" plan
'

test_expect_success 'a filename under /dev is a device that must exist, never a file made there' '
	import latency-profile 3
	grep "^  sda: {path: /dev/sda}$" latency-profile.yaml
	grep "^    target: \"{device}\"$" latency-profile.yaml
	grep "^    device: sda$" latency-profile.yaml
	printf "[a]\nrw=write\nsize=1m\nfilename=/dev/iotrial-t0034-none\n[b]\nrw=read\nsize=1m\ndirectory=/dev\nfilename=iotrial-t0034-none\n" >dev.fio
	"$IOTRIAL" import-fio dev.fio >dev.yaml
	expect_eq "$(grep -c "^  iotrial-t0034-none: {path: /dev/iotrial-t0034-none}$" dev.yaml)" 1
	expect_eq "$(grep -c "^    device: iotrial-t0034-none$" dev.yaml)" 2
	expect_code 1 "$IOTRIAL" validate dev.yaml 2>err
	grep "dev.yaml:.*key .target.: .* ./dev/iotrial-t0034-none. of device .iotrial-t0034-none. does not exist" err
	expect_code 1 "$IOTRIAL" run -q dev.yaml -o never 2>err
	test ! -e /dev/iotrial-t0034-none
	test ! -e never
'

# A loop device over a file of the test's own: the one block device a test may write.
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
	test_expect_success 'a block device under /dev: read as it is; written only with allow_overwrite' '
		truncate -s 8M loop.img
		dev=$(losetup -f --show loop.img)
		printf "[r]\nrw=randread\nsize=1m\nfilename=$dev\n[w]\nstonewall\nrw=write\nsize=1m\nfilename=$dev\n" >loop.fio
		a=0 b=0 c=0 d=0
		"$IOTRIAL" import-fio loop.fio >loop.yaml || a=$?
		"$IOTRIAL" validate loop.yaml >plan 2>err || b=$?
		"$IOTRIAL" validate loop.yaml --set w.allow_overwrite=true >plan2 || c=$?
		"$IOTRIAL" run -q loop.yaml --set w.allow_overwrite=true -o res-loop || d=$?
		losetup -d "$dev"
		expect_eq "$a $b $c $d" "0 1 0 0" "import, validate, validate with allow_overwrite, run"
		grep "exists and iotrial did not create it: refusing to write over it" err
		grep "file $dev$" plan2
		expect_eq "$(jq ".jobs[0].trials[0].read.ios, .jobs[1].trials[0].write.ios" res-loop/results.json | paste -sd" ")" "256 256"
	'
else
	test_skip 'a block device under /dev: read as it is; written only with allow_overwrite' 'needs root and losetup'
fi

test_expect_success 'sizes, times and rates: the whole output' '
	import opt-sizes 3
	diff -u "$FIO/opt-sizes.want" opt-sizes.yaml
'

test_expect_success 'engines, durability and checks: the whole output' '
	import opt-engines 0
	diff -u "$FIO/opt-engines.want" opt-engines.yaml
'

test_expect_success 'stonewall, wait_for and groups: the whole output, and the stages' '
	import opt-graph 0
	diff -u "$FIO/opt-graph.want" opt-graph.yaml
	"$IOTRIAL" validate opt-graph.yaml >plan
	grep "^stage" plan >got
	printf "stage 1: a, b\nstage 2: c, d\nstage 3: e\n" >want
	diff -u want got
'

test_expect_success 'percentile_list, once a key still to come, is the percentiles list' '
	import opt-pending 0
	grep -x "    percentiles: \[50, 99, 99.9\]" opt-pending.yaml
	not grep "^ *# not mapped" opt-pending.yaml
	printf "[a]\nrw=read\nsize=1m\npercentile_list=50:101\n" >bad-pct.fio
	expect_code 3 "$IOTRIAL" import-fio bad-pct.fio >bad-pct.yaml 2>bad-pct.err
	grep "# not mapped: percentile_list=50:101 (line 4)" bad-pct.yaml
'

test_expect_success 'a variable stays a variable, and says which units it takes' '
	import opt-target 0
	grep "^  file_size: \"\${SIZE}\"$" opt-target.yaml
	grep "^    target: \"\${DATA_DIR}/shared.dat\"$" opt-target.yaml
	grep "^    file_per_thread: false$" opt-target.yaml
	grep "note: size=\${SIZE} (line 4): kept as a variable" opt-target.yaml
	expect_code 2 "$IOTRIAL" validate opt-target.yaml 2>err
	grep "SIZE" err
'

test_expect_success 'a converted job runs' '
	import zipf 0
	"$IOTRIAL" run -q zipf.yaml -o res
	expect_eq "$(jq ".jobs[0].trials[0].ios" res/results.json)" 16384
'

# file, line:col of the error, what it says
for case in "include 3:1 does not follow include" "truncated 3:1 is not a section header" \
	"section-garbage 3:1 is not a section header" "binary 3:1 holds a NUL byte" \
	"no-section 2:1 comes before any" "unclosed-var 2:1 without its closing" \
	"empty 1:1 no .section. in the file" "only-global 1:1 no job in the file"; do
	set -- $case
	f=$1 at=$2
	shift 2
	test_expect_success "bad input: $f.fio is one line at $at, exit 2, nothing on stdout" "
		expect_code 2 \"\$IOTRIAL\" import-fio \"\$FIO/bad/$f.fio\" >out 2>err
		expect_eq \"\$(wc -l <err)\" 1
		grep '^$FIO/bad/$f.fio:$at: .*$*' err
		expect_eq \"\$(wc -c <out)\" 0
	"
done

test_expect_success 'odd names are made safe and unique; odd bytes do not break the YAML' '
	printf "[a b]\n[a_b]\n[a b]\nfilename=q\"uo\\\\te\nweird\001=1\n" >odd.fio
	expect_code 3 "$IOTRIAL" import-fio odd.fio >odd.yaml 2>err
	grep "^  - name: " odd.yaml >got
	printf "  - name: a_b\n  - name: a_b-2\n  - name: a_b-3\n" >want
	diff -u want got
	grep "not mapped: weird?=1 (line 5)" odd.yaml
	"$IOTRIAL" validate odd.yaml >plan
	grep "file q\"uo\\\\te (created by iotrial)" plan
'

test_expect_success 'more than 4096 jobs: one line, exit 2, quickly' '
	for i in $(seq 4097); do printf "[j]\n"; done >many.fio
	expect_code 2 "$IOTRIAL" import-fio many.fio >out 2>err
	expect_eq "$(cat err)" "many.fio:4097:1: more than 4096 jobs: an iotrial job file takes at most 4096"
	for i in $(seq 4096); do printf "[j]\n"; done >max.fio
	"$IOTRIAL" import-fio max.fio >max.yaml
	grep -c "^  - name: j" max.yaml
	grep "^  - name: j-4096$" max.yaml
'

test_expect_success 'a file that cannot be read, or no file: exit 2' '
	expect_code 2 "$IOTRIAL" import-fio nosuch.fio 2>err
	grep "^nosuch.fio: cannot open job file: No such file or directory" err
	mkdir dir.fio
	expect_code 2 "$IOTRIAL" import-fio dir.fio 2>err
	grep "it is a folder" err
	expect_code 2 "$IOTRIAL" import-fio 2>err
	grep "^usage: iotrial import-fio" err
'

test_expect_success 'a fio file given to run or validate points at import-fio' '
	expect_code 2 "$IOTRIAL" validate "$FIO/zipf.fio" 2>err
	expect_eq "$(cat err)" "$FIO/zipf.fio:1:1: this is a fio job file, not an iotrial one: convert it first, with '"'"'iotrial import-fio $FIO/zipf.fio > job.yaml'"'"'"
	cp "$FIO/tiobench.fio" tio.txt
	expect_code 2 "$IOTRIAL" run tio.txt -o never 2>err
	expect_eq "$(wc -l <err)" 1
	grep "tio.txt:1:1: this is a fio job file" err
	test ! -e never
	printf "rw=read\n[job]\n" >old.ini
	expect_code 2 "$IOTRIAL" validate old.ini 2>err
	grep "^old.ini:1:1: this is a fio job file" err
'

test_expect_success 'fio names in a job file get the iotrial name' '
	cat >fio-names.yaml <<-\EOF
	jobs:
	  - {name: a, workload: read, bs: 4KiB, numjobs: 2, ioengine: libaio, iodepth_low: 4}
	  - {name: b, workload: read, rw: read, group_reporting: 1}
	  - {name: c, workload: read, direct: 1, block_size: 4k, file_size: 10m}
	EOF
	expect_code 2 "$IOTRIAL" validate fio-names.yaml 2>err
	cat >want <<-\EOF
	fio-names.yaml:2:31: key '"'"'bs'"'"': unknown key (did you mean '"'"'block_size'"'"'? '"'"'bs'"'"' is fio'"'"'s name for it)
	fio-names.yaml:2:41: key '"'"'numjobs'"'"': unknown key (did you mean '"'"'threads'"'"'? '"'"'numjobs'"'"' is fio'"'"'s name for it)
	fio-names.yaml:2:53: key '"'"'ioengine'"'"': unknown key (did you mean '"'"'backend'"'"'? '"'"'ioengine'"'"' is fio'"'"'s name for it)
	fio-names.yaml:2:71: key '"'"'iodepth_low'"'"': unknown key ('"'"'iodepth_low'"'"' is a fio option that iotrial has no key for: iotrial refills the queue as each I/O completes; it has no low-water mark; see docs/fio.md)
	fio-names.yaml:3:31: key '"'"'rw'"'"': unknown key (did you mean '"'"'workload'"'"'? '"'"'rw'"'"' is fio'"'"'s name for it)
	fio-names.yaml:3:41: key '"'"'group_reporting'"'"': unknown key ('"'"'group_reporting'"'"' is a fio option that iotrial needs no key for: iotrial merges a job'"'"'s threads into one figure per trial, as group_reporting merges numjobs, and keeps a row per worker)
	fio-names.yaml:4:39: key '"'"'direct'"'"': expected true or false, got '"'"'1'"'"' (did you mean '"'"'true'"'"'? fio writes 1 and 0)
	fio-names.yaml:4:54: key '"'"'block_size'"'"': expected a size like 4KiB or 80MB, got '"'"'4k'"'"' (unknown unit '"'"'k'"'"' (sizes take B, kB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB)) (did you mean '"'"'4KiB'"'"'? fio'"'"'s k, m and g are powers of 1024; iotrial'"'"'s sizes say their unit: KiB is 1024, kB is 1000)
	fio-names.yaml:4:69: key '"'"'file_size'"'"': expected a size like 4KiB or 80MB, got '"'"'10m'"'"' (unknown unit '"'"'m'"'"' (sizes take B, kB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB)) (did you mean '"'"'10MiB'"'"'? fio'"'"'s k, m and g are powers of 1024; iotrial'"'"'s sizes say their unit: KiB is 1024, kB is 1000)
	EOF
	diff -u want err
	expect_code 2 "$IOTRIAL" validate fio-names.yaml --set bs=4k 2>err
	grep "^--set '"'"'bs=4k'"'"': unknown key '"'"'bs'"'"' (did you mean '"'"'block_size'"'"'? '"'"'bs'"'"' is fio'"'"'s name for it)$" err
'

# A value out of the key's bounds, or past 64 bits, is not mapped (exit 3), with the key's
# own reason: the job file written must be one validate takes.
test_expect_success 'a value the key refuses (0, out of bounds, past 64 bits) is not mapped, exit 3' '
	printf "[a]\nrw=randread\nbs=0\niodepth=0\nnumjobs=0\nsize=99999999999999999999\n" >range.fio
	expect_code 3 "$IOTRIAL" import-fio range.fio >range.yaml 2>range.err
	cat range.yaml
	grep "^iotrial: range.fio: 4 fio option(s) not mapped" range.err
	grep -x "    # not mapped: bs=0 (line 3): must be more than 0 bytes, got .0." range.yaml
	grep -x "    # not mapped: iodepth=0 (line 4): must be between 1 and 4096, got .0." range.yaml
	grep -x "    # not mapped: numjobs=0 (line 5): must be between 1 and 1024, got .0." range.yaml
	grep "^    # not mapped: size=99999999999999999999 (line 6): expected a size like 4KiB or 80MB, got .99999999999999999999. (size overflows 64 bits)$" range.yaml
	"$IOTRIAL" validate range.yaml
'

# size=N%: which size it is waits for the plan (the target), but N must be above 0 and at
# most 100 (and one number) here, as validate checks it.
test_expect_success 'size=N% out of 0% < N <= 100%, or not one number, is not mapped with the reason, exit 3' '
	truncate -s 8M pct.dat
	printf "[global]\nrw=randread\nfilename=pct.dat\n" >pct.fio
	for v in 0%% 200%% -5%% 150%% 50%%%% " 50 %%" 1e2%%; do
		printf "[j]\nsize=$v\n" >>pct.fio
	done
	expect_code 3 "$IOTRIAL" import-fio pct.fio >pct.yaml 2>pct.err
	cat pct.yaml
	grep "^iotrial: pct.fio: 6 fio option(s) not mapped" pct.err
	bound="a percentage of the target must be above 0% and at most 100%"
	grep -x "    # not mapped: size=0% (line 5): $bound, got .0%." pct.yaml
	grep -x "    # not mapped: size=200% (line 7): $bound, got .200%." pct.yaml
	grep -x "    # not mapped: size=-5% (line 9): $bound, got .-5%." pct.yaml
	grep -x "    # not mapped: size=150% (line 11): $bound, got .150%." pct.yaml
	grep -x "    # not mapped: size=50%% (line 13): expected a percentage like 50%, got .50%%." pct.yaml
	grep -x "    # not mapped: size=50 % (line 15): expected a percentage like 50%, got .50 %." pct.yaml
	expect_eq "$(grep -c "file_size" pct.yaml)" 1
	grep -x "    file_size: 1e2%" pct.yaml
	"$IOTRIAL" validate pct.yaml
'

# fio's 0 for these is iotrial's default: nothing to write, but a note, and a value set
# before (in [global], or earlier in the job: fio's last setting wins) must not stay.
test_expect_success 'offset, offset_increment, io_size, fsync or fdatasync of 0: a note, and an earlier value taken out' '
	printf "[global]\nrw=randwrite\noffset=1m\nfsync=4\n[a]\noffset=0\nfsync=0\n" >zero.fio
	printf "io_size=1m\nio_size=0\noffset_increment=0\nfdatasync=0\n[b]\n" >>zero.fio
	"$IOTRIAL" import-fio zero.fio >zero.yaml
	cat zero.yaml
	sed -n "/- name: a/,/- name: b/p" zero.yaml >a.yaml
	not grep -E "^ *(offset|fsync_every|io_limit|offset_increment|fdatasync_every):" a.yaml
	for o in "offset=0 (line 6): the default of fio and of iotrial; offset left out" \
		"fsync=0 (line 7): the default of fio and of iotrial; fsync_every left out" \
		"io_size=0 (line 9): the default of fio and of iotrial; io_limit left out" \
		"offset_increment=0 (line 10): the default of fio and of iotrial; offset_increment left out" \
		"fdatasync=0 (line 11): the default of fio and of iotrial; fdatasync_every left out"; do
		grep -x "    # note: $o" a.yaml
	done
	sed -n "/- name: b/,\$p" zero.yaml >b.yaml
	grep -x "    offset: 1MiB" b.yaml
	grep -x "    fsync_every: 4" b.yaml
	"$IOTRIAL" validate zero.yaml
'

test_expect_success 'docs/fio.md lists every fio option of the table, and no other' '
	"$IOTRIAL" import-fio --options | cut -f1 | sort >table
	sed -n "s/^| \`\([a-z_]*\)\` |.*/\1/p" "$SRC/docs/fio.md" | sort >doc
	diff -u table doc
'

test_expect_success 'docs/fio.md gives each option the state the table gives it' '
	"$IOTRIAL" import-fio --options | while IFS="	" read -r name key state why; do
		grep "^| \`$name\` | .* | $state" "$SRC/docs/fio.md" >/dev/null || { echo "docs/fio.md: $name is not shown as $state"; exit 1; }
	done
'

test_done
