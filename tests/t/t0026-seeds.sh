#!/bin/bash
# The three published experiments (docs/reproducing/): each job file runs at the README's
# reduced size, and what it prints has the published tables' structure: their rows and
# columns, the comparisons, the per-record statistics. Figures are not checked (the machine
# is not the paper's); relations that hold on any machine are (Little's law, units).
. "$(dirname "$0")/lib.sh"
need_cmd jq

"$IOTRIAL" backends >backends.txt
# sqlio-vpc needs an asynchronous backend: libaio as the job says, else io_uring.
sqlio_backend=
for be in io_uring libaio; do
	if grep -q "^$be  *yes" backends.txt; then
		sqlio_backend=$be
	fi
done

# refused ERR NEEDED FILES: ERR holds validate's refusal of a plan whose files (targets, or
# trees a copy reads) do not fit on the disk (a CI disk may have a few GB free, where the
# published sizes take tens): one line, NEEDED bytes for FILES files (all the plan makes on
# that file system, in 4 KiB blocks, whatever the disk has free), more than available.
# ERR.n: "NEEDED FILES AVAILABLE".
refused() {
	sed -n 's/.*key .\(target\|source\).: not enough free space in .*: \([0-9]*\) bytes needed for what the plan creates or grows on its file system (\([0-9]*\) files\{0,1\}), \([0-9]*\) available$/\2 \3 \4/p' "$1" >"$1.n"
	expect_eq "$(wc -l <"$1.n")" 1 "refusals for free space in $1"
	expect_eq "$(cut -d" " -f1,2 "$1.n")" "$2 $3" "bytes needed and files"
	awk '{ if (!($1 + 0 > $3 + 0)) { print "needed " $1 ", available " $3; exit 1 } }' "$1.n"
}

# layout FILE: the report table of a text summary, from its header to the blank line.
layout() {
	sed -n '/^ \{8,\}[^ ]/,/^$/p' "$1" | sed '/^$/d'
}

if [ -z "$sqlio_backend" ]; then
	test_skip 'sqlio-vpc: validate, table, I/Os in flight' 'neither libaio nor io_uring works here'
else
test_expect_success 'sqlio-vpc: validate shows 2 threads x 8 outstanding I/Os, binary units, sequential order' '
	# As published, three 8 GiB copies (25 GiB): on a disk with less room the plan is
	# refused, and shown with 16 MiB copies instead.
	rc=0
	BACKEND=$sqlio_backend "$IOTRIAL" validate "$SRC/jobs/sqlio-vpc.yaml" >plan.txt 2>err || rc=$?
	copy="8 GiB"
	if [ "$rc" != 0 ]; then
		cat err
		expect_eq "$rc" 1
		refused err 18018729984 10
		BACKEND=$sqlio_backend COPY_SIZE=16MiB "$IOTRIAL" validate "$SRC/jobs/sqlio-vpc.yaml" >plan.txt
		copy="16 MiB"
	fi
	grep "^experiment sqlio-vpc: 11 job instance(s), 11 trial(s), order sequential, .*units binary (MiB = 2^20 B)$" plan.txt
	expect_eq "$(grep -c "^  read\[device=.*\]: read on $sqlio_backend, 100 MiB in 256 KiB I/Os, iodepth 8, sync none, O_DIRECT" plan.txt)" 4
	expect_eq "$(grep -c "^  write\[device=.*\]: write on $sqlio_backend, 100 MiB in 256 KiB I/Os, iodepth 8, sync none, O_DIRECT" plan.txt)" 4
	expect_eq "$(grep -c "^  copy\[device=.*_usb\]: copy on sync, $copy in 1 MiB I/Os" plan.txt)" 3
'

test_expect_success 'sqlio-vpc: the published table, disks as columns, n/a for the internal copy' '
	RUNTIME=1s COPY_SIZE=16MiB BACKEND=$sqlio_backend "$IOTRIAL" run "$SRC/jobs/sqlio-vpc.yaml" -o sq >sq.txt 2>err
	layout sq.txt >table.txt
	cat table.txt
	expect_eq "$(head -1 table.txt | tr -s " " | sed "s/^ //")" "ide_usb wd_usb seagate_usb internal"
	expect_eq "$(sed 1d table.txt | sed "s/  .*//" | tr "\n" "|")" "Disk|Disk Mfg|RPM|Copy MB/sec|Read IO/sec|Read MB/sec|Read Avg Latency|Write IO/sec|Write MB/sec|Write Avg Latency|"
	grep "^Disk  *100GB IDE, USB 2.0  *160GB SATA, USB 2.0  *200GB SATA, USB 2.0  *200GB SATA, internal$" table.txt
	grep "^Disk Mfg  *Fujitsu  *WD  *Seagate  *Seagate$" table.txt
	grep "^RPM  *7200  *5400  *7200  *7200$" table.txt
	grep "^Copy MB/sec  *[0-9.]* [KMG]iB/s  *[0-9.]* [KMG]iB/s  *[0-9.]* [KMG]iB/s  *n/a$" table.txt
	expect_eq "$(grep -c "^\(Read\|Write\) MB/sec\( *[0-9.]* [KMG]iB/s\)\{4\}$" table.txt)" 2
	expect_eq "$(grep -c "^\(Read\|Write\) IO/sec\( *[0-9]*\)\{4\}$" table.txt)" 2
	expect_eq "$(grep -c "^\(Read\|Write\) Avg Latency\( *[0-9.]* [mun]*s\)\{4\}$" table.txt)" 2
	grep "^rates in binary units (KiB/s = 2^10 B/s, MiB/s = 2^20 B/s" sq.txt
	# The saved run prints the same table.
	"$IOTRIAL" report sq/results.json >again.txt
	layout again.txt >table2.txt
	cmp table.txt table2.txt
'

test_expect_success 'sqlio-vpc: IO/s x latency is the 16 I/Os in flight the paper implies' '
	jq -r ".jobs[] | select(.job != \"copy\") | .summary.iops.mean * .summary.lat_mean_ns.mean / 1e9" sq/results.json >inflight
	expect_eq "$(wc -l <inflight)" 8
	expect_eq "$(jq -s "map(select(. > 12 and . < 16.5)) | length" inflight)" 8 "instances with 12 to 16.5 I/Os in flight"
'
fi

test_expect_success 'discwr2: validate shows O_SYNC records, decimal units, sequential order, rsync paired as published' '
	# As published, the files take 99 GB at once (each instance keeps its file until the
	# run ends, as fio does): on a disk with less room the plan is refused, at the first
	# file that does not fit, with what all of them need, and the plan is shown with 60 MB
	# files and 50 MB load trees instead (about 1 GB in all).
	rc=0
	"$IOTRIAL" validate "$SRC/jobs/discwr2.yaml" >plan.txt 2>err || rc=$?
	size="6 GB"
	if [ "$rc" != 0 ]; then
		cat err
		expect_eq "$rc" 1
		# At a record file (target) or at a tree the rsync copies (source), on the array:
		# all the files the plan makes there, whatever the disk has free.
		grep "key .\(target\|source\).: not enough free space in .*/raid" err
		refused err 99000254464 16
		TOTAL_SIZE=60MB LOAD_SIZE=50MB "$IOTRIAL" validate "$SRC/jobs/discwr2.yaml" >plan.txt
		size="60 MB"
	fi
	grep "^experiment discwr2: 15 job instance(s), 13 trial(s), order sequential, .*units decimal (MB = 10^6 B)$" plan.txt
	expect_eq "$(grep -c ": write on sync, $size in .* I/Os, iodepth 1, sync osync, 1 run(s)" plan.txt)" 13
	grep "^stage 3: under-load + rsync-1 (background)$" plan.txt
	grep "^stage 4: two-under-load + rsync-2 (background)$" plan.txt
	grep "^  under-load: write on sync, $size in 20 MB I/Os" plan.txt
	grep "^  two-under-load: write on sync, $size in 200 kB I/Os" plan.txt
	# The rsync reads a tree on the device under test (raid), not in the scratch root.
	grep -A1 "^  rsync-[12]: copytree" plan.txt >rsync.txt
	expect_eq "$(grep -c "^    source .*/raid/iotrial-rsync-[12] (laid out by iotrial)$" rsync.txt)" 2
	# LOAD_SIZE sets the trees the rsyncs copy, also above TOTAL_SIZE (under 2 GB in all).
	TOTAL_SIZE=60MB LOAD_SIZE=150MB "$IOTRIAL" validate "$SRC/jobs/discwr2.yaml" >plan5.txt
	expect_eq "$(grep -c "^  rsync-[12]: copytree on sync, 150 MB" plan5.txt)" 2
'

test_expect_success 'discwr2: the per-device table, per-record statistics and each copy'"'"'s rate' '
	TOTAL_SIZE=32MB LOAD_SIZE=16MB "$IOTRIAL" run "$SRC/jobs/discwr2.yaml" -o dw >dw.txt 2>err
	layout dw.txt >table.txt
	cat table.txt
	expect_eq "$(head -1 table.txt | tr -s " " | sed "s/^ //")" "raid flash"
	expect_eq "$(sed 1d table.txt | sed "s/  .*//" | uniq | tr "\n" "|")" "device|file system|1 copy [block_size=200000]|1 copy [block_size=500000]|1 copy [block_size=1000000]|1 copy [block_size=2000000]|1 copy [block_size=5000000]|1 copy [block_size=10000000]|1 copy [block_size=20000000]|1 copy CPU [block_size=200000]|1 copy CPU [block_size=500000]|1 copy CPU [block_size=1000000]|1 copy CPU [block_size=2000000]|1 copy CPU [block_size=5000000]|1 copy CPU [block_size=10000000]|1 copy CPU [block_size=20000000]|2 copies, both [block_size=200000]|2 copies, both [block_size=20000000]|1 copy 20 MB + rsync|rsync beside 1 copy|2 copies 200 KB + rsync|rsync beside 2 copies|"
	grep "^file system  *xfs  *ntfs$" table.txt
	# The flash drive ran the published 10 MB and 20 MB records only.
	expect_eq "$(grep -c "^1 copy \[block_size=[0-9]*\]  *[0-9.]* [kMG]B/s  *n/a$" table.txt)" 5
	expect_eq "$(grep -c "^1 copy \[block_size=[12]0000000\]  *[0-9.]* [kMG]B/s  *[0-9.]* [kMG]B/s$" table.txt)" 2
	expect_eq "$(grep -c "^1 copy CPU \[block_size=[0-9]*\]  *[0-9.]* s/GB  *\([0-9.]* s/GB\|n/a\)$" table.txt)" 7
	expect_eq "$(grep -c "^\(rsync\|2 copies\|1 copy 20\).*  [0-9.]* [kMG]B/s  *n/a$" table.txt)" 6
	# min, max, avg and rms of every record, per measured instance.
	expect_eq "$(grep -c "^  [a-z0-9-]*\(\[.*\]\)\{0,1\}: min [0-9.]* [mun]*s, max [0-9.]* [mun]*s, avg [0-9.]* [mun]*s, rms [0-9.]* [mun]*s$" dw.txt)" 13
	# Each copy'"'"'s own rate beside the sum.
	grep -A3 "^rate of each worker" dw.txt >copies.txt
	expect_eq "$(grep -c "^  \(two-copies\[block_size=[0-9]*\]\|two-under-load\): worker 0 [0-9.]* [kMG]B/s, worker 1 [0-9.]* [kMG]B/s$" copies.txt)" 3
	grep "^rsync-1  *copytree" dw.txt
	grep "^rsync-2  *copytree" dw.txt
	expect_eq "$(jq "[.jobs[] | select(.workload == \"write\") | .params.preallocate] | unique" -c dw/results.json)" "[false]"
	"$IOTRIAL" report dw/results.json >again.txt
	layout again.txt >table2.txt
	cmp table.txt table2.txt
'

test_expect_success 'preallocate: false writes a new file each trial; true allocates it once' '
	cat >pa.yaml <<-JOB
	replication: {runs: 2}
	jobs:
	  - {name: w, workload: write, target: ./pa.dat, file_size: 10MB, block_size: 100kB, rate: 1MB, runtime: 0.3s, keep_files: true}
	JOB
	"$IOTRIAL" run -q pa.yaml -o pa1 2>/dev/null
	expect_eq "$(stat -c %s pa.dat)" 10000000
	rm pa.dat
	"$IOTRIAL" run -q pa.yaml -o pa2 --set preallocate=false 2>/dev/null
	expect_eq "$(jq -c "[.jobs[0].trials[].bytes]" pa2/results.json)" "[300000,300000]"
	expect_eq "$(stat -c %s pa.dat)" 300000
	# Random writes: the last trial'"'"'s blocks alone are allocated, not both trials'"'"'.
	cat >pr.yaml <<-JOB
	replication: {runs: 2}
	jobs:
	  - {name: w, workload: randwrite, target: ./pr.dat, file_size: 10MB, block_size: 100kB, rate: 2MB, runtime: 0.5s, keep_files: true, preallocate: false}
	JOB
	"$IOTRIAL" run -q pr.yaml -o pr 2>/dev/null
	last=$(jq ".jobs[0].trials[-1].bytes" pr/results.json)
	alloc=$(($(stat -c %b pr.dat) * 512))
	echo "last trial wrote $last bytes; $alloc allocated"
	test "$alloc" -ge "$last"
	test "$alloc" -le $((last + last / 10 + 65536))
'

test_expect_success 'usb-vs-sata: validate shows the two studies, the pilot estimate, sequential order' '
	"$IOTRIAL" validate "$SRC/jobs/usb-vs-sata.yaml" >plan.txt
	grep "^experiment usb-vs-sata: 20 job instance(s), 1680 trial(s), order sequential, .*units decimal (MB = 10^6 B)$" plan.txt
	expect_eq "$(grep -c "^  copy\[file_size=\(80\|800\)000000,device=\(usb\|sata\)\]: copy on sync, 800\{0,1\} MB in 32 KiB I/Os, iodepth 1, sync fsync_end, 20 run(s) + 0 warm-up$" plan.txt)" 4
	expect_eq "$(grep -c "^    precision target: ±3% at 95% confidence, pilot 20, max 1000, estimated once from the pilot before outliers, rounded up to a multiple of 100$" plan.txt)" 4
	expect_eq "$(grep -c "^  buffer\[device=\(usb\|sata\),buffer_size=[0-9]*\]: copy on sync, 80 MB in .* 100 run(s) + 0 warm-up$" plan.txt)" 16
	grep "^stage 1: copy$" plan.txt
	grep "^stage 2: buffer$" plan.txt
'

test_expect_success 'usb-vs-sata: table with one line per file size and buffer size, a comparison per file size, the pilot noted' '
	SMALL_SIZE=1MB LARGE_SIZE=2MB BUFFER_SIZE_FILE=1MB "$IOTRIAL" run "$SRC/jobs/usb-vs-sata.yaml" --set copy.replication.target.max=30 --set buffer.replication.runs=3 -o uvs >uvs.txt 2>err
	layout uvs.txt >table.txt
	cat table.txt
	expect_eq "$(head -1 table.txt | tr -s " " | sed "s/^ //")" "usb sata"
	expect_eq "$(sed 1d table.txt | sed "s/  .*//" | tr "\n" "|")" "bus|copy time [file_size=1000000]|copy time [file_size=2000000]|copy rate [file_size=1000000]|copy rate [file_size=2000000]|buffer study: copy time [buffer_size=4096]|buffer study: copy time [buffer_size=8192]|buffer study: copy time [buffer_size=16384]|buffer study: copy time [buffer_size=32768]|buffer study: copy time [buffer_size=65536]|buffer study: copy time [buffer_size=131072]|buffer study: copy time [buffer_size=262144]|buffer study: copy time [buffer_size=524288]|"
	grep "^bus  *USB 2.0  *SATA II$" table.txt
	expect_eq "$(grep -c "time \[.*\]  *[0-9.]* s  *[0-9.]* s$" table.txt)" 10
	# The buses compared per file size, unpaired, and nothing else compared.
	expect_eq "$(jq -c "[.comparisons[] | [.a, .b, .test]]" uvs/results.json)" "[[\"copy[file_size=1000000,device=usb]\",\"copy[file_size=1000000,device=sata]\",\"welch\"],[\"copy[file_size=2000000,device=usb]\",\"copy[file_size=2000000,device=sata]\",\"welch\"]]"
	expect_eq "$(grep -c "^copy\[file_size=[12]000000,device=[a-z]*\] \(vs\|is faster than\) copy\[file_size=[12]000000,device=[a-z]*\] .*95% confidence, welch)$" uvs.txt)" 2
	# The pilot: noted with where it came from, and the run count it set (capped by max).
	expect_eq "$(grep -c "^note: copy\[.*\]: runs estimated from its pilot of 20 runs, before outliers: [0-9]* for ±3% at 95% confidence, rounded up to a multiple of 100: [0-9]*00$" uvs.txt)" 4
	expect_eq "$(jq -c "[.jobs[] | select(.job == \"copy\") | [.summary.runs, .summary.kept, .replication.estimate]] | unique" uvs/results.json)" "[[30,20,\"pilot\"]]"
	expect_eq "$(jq "[.jobs[] | select(.job == \"buffer\") | .replication.outliers] | unique | .[]" -r uvs/results.json)" none
	"$IOTRIAL" report uvs/results.json >again.txt
	layout again.txt >table2.txt
	cmp table.txt table2.txt
	grep "runs estimated from its pilot" again.txt >notes2.txt
	expect_eq "$(wc -l <notes2.txt)" 4
'

test_expect_success 'usb-vs-sata: the pilot estimate is made from the untrimmed pilot, ((z*s)/(e*d))^2' '
	# Each instance'"'"'s first 20 trials, every one of them (before the trim): n by the formula.
	jq -r ".jobs[] | select(.job == \"copy\") | [.replication.pilot_n, ([.trials[:20][].seconds] | (add / length) as \$m | [\$m, ((map((. - \$m) * (. - \$m)) | add) / (length - 1) | sqrt)])] | \"\(.[0]) \(.[1][0]) \(.[1][1])\"" uvs/results.json >pilot.txt
	cat pilot.txt
	awk "{ n = (1.959964 * \$3 / (0.03 * \$2)) ^ 2; c = int(n); if (c < n) c++; if (\$1 < c - 1 || \$1 > c + 1) { print \"pilot_n \" \$1 \", formula \" c; bad = 1 } } END { exit bad }" pilot.txt
'

test_expect_success 'target.estimate: pilot runs the rounded estimate, pilot included, and stops there' '
	cat >est.yaml <<-JOB
	replication:
	  target: {pilot: 5, estimate: pilot, round: 10, max: 1000}
	  trim: {low: 1, high: 1}
	jobs:
	  - {name: t, workload: read, backend: synthetic, file_size: 1MiB, block_size: 1MiB, sim_mean: 10ms, sim_stddev: 0.5ms}
	  - {name: u, workload: read, backend: synthetic, file_size: 1MiB, block_size: 1MiB, sim_mean: 10ms, sim_stddev: 1ms}
	JOB
	for seed in 1 2 3; do
		"$IOTRIAL" run -q est.yaml -o "est$seed" --set seed=$seed 2>/dev/null
		jq -r ".jobs[] | \"\(.replication.pilot_n) \(.summary.runs) \(.summary.stopped_by)\"" "est$seed/results.json"
	done >est.txt
	cat est.txt
	awk "{ g = int((\$1 + 9) / 10) * 10; if (g < 5) g = 5; if (\$2 != g) { print \"runs \" \$2 \", want \" g; bad = 1 } } END { exit bad }" est.txt
	expect_eq "$(awk "{ print \$3, \$4 }" est.txt | sort -u)" "pilot estimate"
'

test_expect_success 'report table: past 32 columns or 256 lines it says it stops, and what it showed is whole' '
	cat >cols.yaml <<-JOB
	replication: {runs: 1}
	jobs:
	  - {name: r, workload: read, backend: null, file_size: 64KiB, block_size: 4KiB, matrix: {iodepth: {from: 1, to: 33, step: 1}}}
	report: {table: {columns: iodepth, rows: [{job: r, metric: iops}]}}
	JOB
	"$IOTRIAL" run -q cols.yaml -o cols 2>/dev/null
	"$IOTRIAL" report cols/results.json >cols.txt
	grep "^(the table shows its first 32 columns and 256 lines; results.json holds every instance)$" cols.txt
	expect_eq "$(grep "^ *1  *2 " cols.txt | wc -w)" 32
	cat >lines.yaml <<-JOB
	replication: {runs: 1}
	jobs:
	  - {name: r, workload: read, backend: null, file_size: 1MiB, matrix: {iodepth: [1], block_size: {from: 512, to: 131584, step: 512}}}
	report: {table: {columns: iodepth, rows: [{job: r, metric: iops}, {job: r, metric: seconds, label: last}]}}
	JOB
	"$IOTRIAL" run -q lines.yaml -o lines 2>/dev/null
	"$IOTRIAL" report lines/results.json >lines.txt
	expect_eq "$(grep -c "^r \[block_size=[0-9]*\]  *[0-9]*$" lines.txt)" 256
	not grep "^last" lines.txt
	grep "^(the table shows its first 32 columns and 256 lines" lines.txt
	cp cols.yaml few.yaml
	sed -i "s/to: 33/to: 32/" few.yaml
	"$IOTRIAL" run -q few.yaml -o few 2>/dev/null
	"$IOTRIAL" report few/results.json >few.txt
	not grep "the table shows" few.txt
'

test_done
