#!/bin/bash
# huge_buffers (docs/jobfile.md#huge_buffers, docs/performance.md#huge-buffers): a worker whose
# I/Os are larger than a page asks for its buffers on a huge page (aligned, a whole number of
# huge pages, madvise MADV_HUGEPAGE; the kernel's hpage_pmd_size, 2 MiB where it has none), so that each I/O is one segment at the device;
# with huge_buffers: false, or I/Os of one page, it does not; the data is the same either way.
. "$(dirname "$0")/lib.sh"
need_cmd strace

# the huge page's size, as iotrial reads it (engine/io/buffers.c)
hp=$(cat /sys/kernel/mm/transparent_hugepage/hpage_pmd_size 2>/dev/null || echo 2097152)

# job NAME BLOCK_SIZE [MORE KEYS]: writes of BLOCK_SIZE into a folder; MORE may set
# file_size (4 MiB), target (the folder data) and backend (sync) apart
job() {
	local keys="${3:-}"
	case $keys in *file_size:*) ;; *) keys="$keys, file_size: 4MiB" ;; esac
	case $keys in *target:*) ;; *) keys="$keys, target: \"$TRASH/data\"" ;; esac
	case $keys in *backend:*) ;; *) keys="$keys, backend: sync" ;; esac
	printf 'experiment: hb\nreplication: {runs: 1}\njobs:\n  - {name: %s, workload: write, block_size: %s%s}\n' \
		"$1" "$2" "$keys" >"$1.yaml"
}

# LeakSanitizer cannot work under ptrace: in an ASan build, a traced run checks no leaks.
traced() { ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" "$@"; }

# the madvise calls of a run of job $1, into $1.madv (a kernel built without transparent huge
# pages answers EINVAL: the request is what is checked, and the worker goes on without it)
madvised() {
	rm -rf "$1.out"
	traced strace -f -qq -e trace=madvise -o "$1.strace" "$IOTRIAL" run -q "$1.yaml" -o "$1.out" >/dev/null
	grep "MADV_HUGEPAGE" "$1.strace" >"$1.madv" || true
}

test_expect_success 'I/Os of 64 KiB at depth 1: one madvise of a whole huge page, aligned to one' '
	mkdir data
	job big 64KiB
	madvised big
	cat big.madv
	expect_eq "$(wc -l <big.madv)" 1
	sed -E "s/.*madvise\((0x[0-9a-f]+), ([0-9]+), MADV_HUGEPAGE\) = (0|-1 EINVAL .*)$/\1 \2/" big.madv >args
	read -r addr len <args
	expect_eq "$((addr % hp))" 0 "address aligned to a huge page"
	expect_eq "$len" "$(((65536 + hp - 1) / hp * hp))"
'

test_expect_success 'depth 64 of 64 KiB: 4 MiB of buffers, in whole huge pages (two of 2 MiB)' '
	job deep 64KiB ", iodepth: 64, file_size: 8MiB, backend: null"
	madvised deep
	cat deep.madv
	grep -E "madvise\(0x[0-9a-f]+, $(((4194304 + hp - 1) / hp * hp)), MADV_HUGEPAGE\) = (0|-1 EINVAL .*)$" deep.madv
'

test_expect_success 'huge_buffers: false, or I/Os of one page: no huge page asked for' '
	job off 64KiB ", huge_buffers: false"
	madvised off
	expect_eq "$(cat off.madv)" ""
	job page 4KiB
	madvised page
	expect_eq "$(cat page.madv)" ""
'

test_expect_success 'verify, either way: every read checks what was written' '
	job on 1MiB ", verify: true, keep_files: true, target: \"$TRASH/data/on.dat\""
	"$IOTRIAL" run -q on.yaml -o on.out
	job off2 1MiB ", verify: true, huge_buffers: false, target: \"$TRASH/data/off.dat\""
	"$IOTRIAL" run -q off2.yaml -o off2.out
	expect_eq "$(jq ".jobs[0].trials[0].errors" on.out/results.json)" 0
	expect_eq "$(jq ".jobs[0].trials[0].errors" off2.out/results.json)" 0
'

test_expect_success 'the same bytes either way: without verify, one seed writes the same file' '
	for hb in true false; do
		printf "experiment: hb\nseed: 7\nreplication: {runs: 1}\njobs:\n  - {name: same, workload: write, block_size: 1MiB, file_size: 4MiB, backend: sync, keep_files: true, huge_buffers: %s, target: \"%s\"}\n" \
			"$hb" "$TRASH/data/same.$hb" >"same.$hb.yaml"
		"$IOTRIAL" run -q "same.$hb.yaml" -o "same.$hb.out"
	done
	cmp data/same.true data/same.false
'

test_expect_success 'the memory bound counts whole huge pages: 8 KiB I/Os cost 2 MiB a worker' '
	# just enough jobs of 1024 workers each, at once, that 2 MiB a worker is over 80% of
	# this machine.s memory; at 8 KiB a worker they are a tenth of it
	kib=$(awk "/^MemTotal:/ { print \$2 }" /proc/meminfo)
	n=$((kib * 8 / 10 / (1024 * hp / 1024) + 1))
	for hb in true false; do
		printf "experiment: mem\njobs:\n" >"mem.$hb.yaml"
		for i in $(seq 0 $((n - 1))); do
			with=""
			if [ "$i" -gt 0 ]; then with=", with: j0"; fi
			printf "  - {name: j%s, workload: read, backend: null, block_size: 8KiB, file_size: 64MiB, threads: 1024, huge_buffers: %s%s}\n" \
				"$i" "$hb" "$with" >>"mem.$hb.yaml"
		done
	done
	expect_code 1 "$IOTRIAL" validate mem.true.yaml 2>err
	grep "^mem.true.yaml:3:5: the plan needs about [0-9.]* GiB of memory at once" err
	"$IOTRIAL" validate mem.false.yaml >/dev/null
'

# results.json's trials[].huge_buffers of run $1.out, one line a trial: state bytes huge_bytes
granted() {
	jq -r ".jobs[0].trials[] | .huge_buffers | \"\(.state) \(.bytes) \(.huge_bytes)\"" "$1.out/results.json"
}

# a state that the numbers bear out: granted all of them, none nothing, partial in between,
# in whole huge pages
consistent() {
	while read -r state bytes huge; do
		echo "$state $bytes $huge"
		case $state in
		granted) expect_eq "$huge" "$bytes" "granted: every byte" || return 1 ;;
		none) expect_eq "$huge" 0 "none: no byte" || return 1 ;;
		partial) if [ "$huge" -eq 0 ] || [ "$huge" -ge "$bytes" ]; then return 1; fi ;;
		*) echo "not measured: $state"; return 1 ;;
		esac
		expect_eq "$((huge % hp))" 0 "whole huge pages" || return 1
	done
}

test_expect_success 'results.json says per trial how much of the buffers got huge pages' '
	job two 64KiB ", threads: 2, iodepth: 2, file_size: 1MiB, backend: null"
	sed -i "s/runs: 1/runs: 2/" two.yaml
	"$IOTRIAL" run -q two.yaml -o two.out >/dev/null
	granted two >two.hb
	expect_eq "$(wc -l <two.hb)" 2
	consistent <two.hb
	# two workers, each 2 x 64 KiB rounded up to a whole huge page
	expect_eq "$(cut -d" " -f2 two.hb | sort -u)" "$((2 * ((131072 + hp - 1) / hp * hp)))"
'

test_expect_success 'worker processes: each read in its own memory, the same figures' '
	sed "s/iodepth: 2,/iodepth: 2, worker_mode: process,/" two.yaml >proc.yaml
	grep -q "worker_mode: process" proc.yaml
	"$IOTRIAL" run -q proc.yaml -o proc.out >/dev/null
	granted proc >proc.hb
	consistent <proc.hb
	expect_eq "$(cut -d" " -f1,2 proc.hb)" "$(cut -d" " -f1,2 two.hb)"
'

# the kernel's mode lets huge_buffers have huge pages, and try hard for them
thp=$(sed -n "s/.*\[\(.*\)\].*/\1/p" /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
defrag=$(sed -n "s/.*\[\(.*\)\].*/\1/p" /sys/kernel/mm/transparent_hugepage/defrag 2>/dev/null)
if [ "$thp" = always ] || [ "$thp" = madvise ]; then
	case $defrag in always | madvise | defer+madvise)
		test_expect_success 'with transparent huge pages in madvise or always mode: granted' '
			expect_eq "$(cut -d" " -f1 two.hb | sort -u)" granted
		' ;;
	*) test_skip 'with transparent huge pages in madvise or always mode: granted' "defrag is $defrag" ;;
	esac
else
	test_skip 'with transparent huge pages in madvise or always mode: granted' "the kernel's mode is '${thp:-unknown}'"
fi

# PR_SET_THP_DISABLE (41): no transparent huge page for the process and what it runs
if command -v python3 >/dev/null && python3 -c "import ctypes, sys; sys.exit(ctypes.CDLL(None).prctl(41, 1, 0, 0, 0) != 0)"; then
	test_expect_success 'a process the kernel gives no huge page: none, 0 bytes' '
		rm -rf two.out
		python3 -c "import ctypes, os, sys; ctypes.CDLL(None).prctl(41, 1, 0, 0, 0); os.execv(sys.argv[1], sys.argv[1:])" \
			"$IOTRIAL" run -q two.yaml -o two.out >/dev/null
		granted two >nothp.hb
		cat nothp.hb
		expect_eq "$(cut -d" " -f1,3 nothp.hb | sort -u)" "none 0"
	'
	if [ "$thp" = always ] || [ "$thp" = madvise ]; then
		test_expect_success 'where the kernel would give them, the summary says they were not had' '
			"$IOTRIAL" report two.out/results.json >nothp.txt
			grep "^note: two: huge_buffers: 2 of 2 trial(s) ran with buffers not wholly on huge pages (the first: none); see trials\[\]\.huge_buffers in results.json$" nothp.txt
			"$IOTRIAL" report big.out/results.json >granted.txt
			not grep "huge_buffers" granted.txt
		'
	else
		test_skip 'where the kernel would give them, the summary says they were not had' "the kernel's mode is '${thp:-unknown}'"
	fi
else
	test_skip 'a process the kernel gives no huge page: none, 0 bytes' 'needs python3 and prctl(PR_SET_THP_DISABLE)'
fi

test_expect_success 'huge_buffers: false, or I/Os of one page: off, not measured' '
	granted off >off.hb
	expect_eq "$(cat off.hb)" "off 65536 null"
	granted page >page.hb
	expect_eq "$(cat page.hb)" "off 4096 null"
'

test_expect_success 'no I/O buffers (a command): no huge_buffers' '
	printf "experiment: hb\nreplication: {runs: 1}\njobs:\n  - {name: c, workload: command, command: \"true\"}\n" >cmd.yaml
	"$IOTRIAL" run -q cmd.yaml -o cmd.out >/dev/null
	expect_eq "$(jq -c ".jobs[0].trials[0].huge_buffers" cmd.out/results.json)" null
	expect_eq "$(jq -c ".jobs[0].trials[0] | has(\"huge_buffers\")" cmd.out/results.json)" false
'

test_expect_success 'iotrial keys huge_buffers: a bool, true by default' '
	"$IOTRIAL" keys huge_buffers >keys.txt
	grep -E "^  default: +true$" keys.txt
	grep -E "^  type: +bool$" keys.txt
'

if [ "$(id -u)" = 0 ] && setpriv --inh-caps=-ipc_lock --bounding-set=-ipc_lock true 2>/dev/null &&
	"$IOTRIAL" backends | awk '$1 == "io_uring" && $2 == "yes" {found = 1} END {exit !found}'; then
	test_expect_success 'io_uring fixed buffers under a 1 MiB RLIMIT_MEMLOCK: the job runs, on ordinary pages' '
		# without CAP_IPC_LOCK the kernel charges a pinned huge page whole (2 MiB) to the
		# limit: 64 KiB of buffers must still register, as they did before huge_buffers
		job fixed 64KiB ", backend: io_uring, io_uring_fixed_buffers: true, verify: true"
		(ulimit -l 1024; setpriv --inh-caps=-ipc_lock --bounding-set=-ipc_lock "$IOTRIAL" run -q fixed.yaml -o fixed.out) 2>err
		cat err
		expect_eq "$(jq ".jobs[0].trials[0].errors" fixed.out/results.json)" 0
		# and results.json says so: the huge pages were refused, not measured
		granted fixed >fixed.hb
		expect_eq "$(cat fixed.hb)" "fallback 65536 null"
	'
else
	test_skip 'io_uring fixed buffers under a 1 MiB RLIMIT_MEMLOCK: the job runs, on ordinary pages' 'needs root, setpriv and io_uring'
fi

test_done
