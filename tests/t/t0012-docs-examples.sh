#!/bin/bash
# Every example in README.md and docs/*.md runs, and prints what the doc says it prints (after
# git's documentation tests and Python's doctest), so the docs cannot drift from the program.
# Under `make test-asan` the same commands run on the ASan build: an example that crashes
# fails CI.
#
# How the docs are read (tests/docs-extract.awk):
# - A session is a code block (indented, or fenced) whose first line starts with "$ ". Each
#   "$ " line is a command ("> " lines continue it), and the lines after it, up to the next
#   command, are what it prints: its stdout, then its stderr. In them, a line "…" stands for
#   any number of lines and "…" inside a line for any text (times, figures, process ids).
#   A command that the doc shows no output for is run, and its output not compared.
# - A command must exit 0, unless the next command is "echo $?", which shows its status.
# - The sessions of one doc run in order, in one folder of their own (files persist from one
#   session to the next) that holds ./iotrial, a copy of jobs/, and the files of the doc: a
#   fenced block right after a line "<!-- file: NAME -->" is written to NAME first.
#   `iotrial` is on PATH; both are $IOTRIAL.
# - Every fenced yaml block is a job file (a snippet without `jobs:` gets one null job):
#   `iotrial validate` must accept it, and it runs when it is small (see yaml_is_small).
# - Any other code line that looks like a command (iotrial, make, mpirun, ...) must be in the
#   table EXEMPT below, which says why it cannot run here and what runs instead.
. "$(dirname "$0")/lib.sh"

EXTRACT="$SRC/tests/docs-extract.awk"
MATCH="$SRC/tests/docs-match.awk"
# DOCS_CHECKED="docs/cli.md" checks those only (the coverage check then looks at them only).
DOCS=${DOCS_CHECKED:-"README.md $(cd "$SRC" && echo docs/*.md)"}

# Commands shown in code blocks that this test does not run as they are, with why, and what
# runs in their place (text, then a tab, then the reason and the equivalent).
EXEMPT=$(
	cat <<'EOF'
make demo        # installs what is missing, builds, runs jobs/quickstart.yaml into results/	make test already installed and built: the README.md:21 session runs the same ./iotrial run jobs/quickstart.yaml
make test        # installs what is missing, builds, runs every test	this test is part of make test
make test-asan   # the tests under AddressSanitizer and UndefinedBehaviorSanitizer	make test-asan runs this test (on the ASan build)
make test-asan	make test-asan runs this test (on the ASan build)
make test-mutants  # the shell tests against falsified results; every mutant must be caught	half an hour by design: t0021-mutants.sh runs tests/mutants.sh on two scripts with its controls and three mutants
make bench       # bench/vs-fio.sh: iotrial against fio on the same workloads	minutes of fio and iotrial: t0025-bench.sh runs QUICK=1 bench/vs-fio.sh (every row, one short round) and make -n bench
make bench	minutes of fio and iotrial: t0025-bench.sh runs QUICK=1 bench/vs-fio.sh (every row, one short round) and make -n bench
ROUNDS=15 bench/vs-fio.sh uring-randread-4k-qd32 libaio-randread-4k-qd32	minutes: t0025-bench.sh runs QUICK=1 ROUNDS=2 bench/vs-fio.sh on two named pairs
ROUNDS=9 bench/vs-fio.sh uring-seqread-128k-qd8	the measurement of docs/performance.md (a row's spread), twice a minute: t0025-bench.sh runs named pairs with QUICK=1
QUICK=1 bench/vs-fio.sh	t0025-bench.sh runs it with BENCH_DIR and BENCH_OUT in its trash folder, and checks the table
PLACEMENT="irq other none" bench/vs-fio.sh psync-randread-4k-qd1 uring-randread-4k-qd1	minutes: t0025-bench.sh runs the same with QUICK=1 ROUNDS=2 and checks a row per placement
PLACEMENT="0 1 none" ROUNDS=5 bench/vs-fio.sh psync-randread-4k-qd1 uring-randread-4k-qd1 uring-randread-4k-qd32 libaio-randread-4k-qd32 uring-seqread-128k-qd8	the measurement of docs/performance.md, 8 minutes: t0025-bench.sh runs placements and named pairs with QUICK=1
bench/io-trace.sh -o trace ./iotrial run -q job.yaml -o out	root, perf and the block tracepoints: t0019-io-path.sh runs bench/io-trace.sh -o trace on an io_uring job and checks its report
make fuzz        # libFuzzer over the job-file parser and the results.json reader	a clang build and a minute per target: t0009-fuzz-regressions.sh replays what the fuzzers found
make fuzz                     # each target for 60 s	as make fuzz above: t0009-fuzz-regressions.sh
make fuzz FUZZ_SECONDS=600    # longer	as make fuzz above: t0009-fuzz-regressions.sh
make soak        # 1,000 randomly interrupted runs among planted foreign files (~25 min)	25 minutes by design: the test "make soak, scaled down" runs tests/soak.sh for 3 s
make soak                       # 1,000 interrupted runs, about 25 minutes	as make soak above: the test "make soak, scaled down"
make MPI=1       # the distributed build (Open MPI: scripts/install-deps.sh mpi)	t0011-mpi.sh builds the MPI build and runs it under mpirun
make B=build-mpi/ MPI=1 build-mpi/iotrial	t0011-mpi.sh runs this very build
make B=build-mpi-asan/ MPI=1 SANITIZE=1 build-mpi-asan/iotrial	t0011-mpi.sh runs this very build under make test-asan
make                                   # serial: no MPI needed, one rank	make test built it; the test "make: the backends line" dry-runs it
make install     # PREFIX=/usr/local, DESTDIR for staging	the test "make install into a staging folder" installs into DESTDIR
make                                   # whatever is installed	the test "make: the backends line" dry-runs it
make WITH_LIBURING=yes WITH_LIBAIO=yes # insist on both	the test "make: the backends line" dry-runs it
make WITH_LIBAIO=no                    # leave libaio out	the test "make: the backends line" dry-runs it
mpirun -np 4 build-mpi/iotrial run job.yaml -o results/job	several processes under Open MPI: t0011-mpi.sh runs mpirun -np 2 and 4
srun -n 64 --mpi=pmix build-mpi/iotrial run job.yaml -o results/job	no Slurm here: t0011-mpi.sh runs the same build under mpirun
mpirun --hostfile examples/cluster/hostfile -np 4 build-mpi/iotrial run examples/cluster/job.yaml -o results/cluster	needs the MPI build and examples/: t0038-cluster.sh reads this line from the doc and runs it as written, over TCP on loopback
mpirun --hostfile examples/cluster/hostfile -np 4 build-mpi/iotrial run examples/cluster/job.yaml jobs/quickstart.yaml -o results/queue --log results/queue.log	needs the MPI build and examples/: t0038-cluster.sh reads this line from the doc and runs it as written (quickstart cut to one run)
sbatch examples/cluster/slurm.sbatch	no Slurm here: t0038-cluster.sh reads this line from the doc and runs the script with bash, sbatch's variables and an srun that calls mpirun
sbatch -N 16 --ntasks-per-node=8 examples/cluster/slurm.sbatch examples/cluster/job.yaml jobs/quickstart.yaml	no Slurm here: t0038-cluster.sh reads this line and runs the script as for the line above, on 2 ranks
bench/goals.sh	judges the rounds a make bench left in bench/out: t0045-bench-goals.sh runs it on made-up rounds with known verdicts, t0025-bench.sh below a QUICK=1 table
bench/dist-scaling.sh	a minute of mpirun at 1 to 8 ranks: t0038-cluster.sh runs it with RANKS="1 2" RUNS=20 and checks its table
iotrial run JOBFILE... [-o DIR] [-f FORMATS] [--set KEY=VALUE]... [-q] [--force] [--progress auto|always|never] [--estimate-from RESULTS.json] [--keep-going] [--log FILE]	a synopsis: the test "the synopsis is the usage" finds it in iotrial --help
iotrial validate JOBFILE... [--set KEY=VALUE]... [--estimate-from RESULTS.json] [--probe]	a synopsis: found in iotrial --help
iotrial run JOBFILE --resume DIR [--set KEY=VALUE]... [-f FORMATS] [-q] [--force]	a synopsis: found in iotrial --help; t0036-resume.sh runs it
iotrial report RESULTS.json [-f text|csv|json|html] [-o FILE]	a synopsis: found in iotrial --help
iotrial compare A.json B.json [--metric M] [--confidence C] [--paired]	a synopsis: found in iotrial --help
iotrial import-fio FILE.fio	a synopsis: found in iotrial --help
iotrial backends	a synopsis: found in iotrial --help
iotrial keys [NAME | BACKEND | --json]	a synopsis: found in iotrial --help
iotrial --help | --version	a synopsis: found in iotrial --help
EOF
)

# Commands name mount points this machine lacks: /mnt/X runs as X under the doc's folder's
# mnt/ (which holds a folder usb), and the output names it /mnt/X again. The doc keeps its
# text; nothing is ever made in the real /mnt.
substitute() {
	sed -e "s#/mnt/#$1/mnt/#g"
}

# The doc's own folder: ./iotrial, jobs/, iotrial on PATH, and the MPI build when there is
# one (t0011-mpi.sh makes it).
doc_folder() {
	w="$TRASH/work/$(echo "$1" | tr / _)"
	if [ -d "$w" ]; then
		return 0
	fi
	mkdir -p "$w/.bin" "$w/mnt/usb"
	ln -s "$IOTRIAL" "$w/iotrial"
	ln -s "$IOTRIAL" "$w/.bin/iotrial"
	cp -R "$SRC/jobs" "$w/jobs"
	if [ -x "$SRC/build-mpi/iotrial" ]; then
		mkdir -p "$w/build-mpi"
		ln -s "$SRC/build-mpi/iotrial" "$w/build-mpi/iotrial"
	fi
	awk -F'\t' -v w="$w" '
		$1 == "F" { out = w "/" $3; printf "" >out; next }
		$1 == "L" { if (out != "") print substr($0, length($1 $2) + 3) >>out; next }
		$1 == "E" { if (out != "") close(out); out = ""; next }
	' "$TRASH/extract/$(echo "$1" | tr / _)"
}

# Run session number $2 of doc $1: each command in the doc's folder, in one shell, its
# output compared with the doc's.
run_session() {
	doc=$1 n=$2
	x="$TRASH/extract/$(echo "$doc" | tr / _)"
	w="$TRASH/work/$(echo "$doc" | tr / _)"
	r="$TRASH/runs/$(echo "$doc" | tr / _).$n"
	rm -rf "$r"
	mkdir -p "$r"
	# The session's records: C, K and O lines between its S and E.
	awk -F'\t' -v n="$n" '$1 == "S" { s++ } s == n && $1 != "S" { print } s == n && $1 == "E" { exit }' "$x" >"$r/records"
	awk -F'\t' -v r="$r" '
		function text() { return substr($0, length($1 $2) + 3) }
		$1 == "C" { k++; printf "" >(r "/want." k); print text() >(r "/cmd." k); next }
		$1 == "K" { print text() >>(r "/cmd." k); next }
		$1 == "O" { print text() >>(r "/want." k); next }
	' "$r/records"
	ncmd=$(grep -c '^C' "$r/records")
	{
		echo 'cd "$W" || exit 99'
		echo '__st=0'
		for k in $(seq 1 "$ncmd"); do
			echo "(exit \$__st); {"
			substitute "$w" <"$r/cmd.$k"
			echo "} >\"\$R/out.$k\" 2>\"\$R/err.$k\" </dev/null; __st=\$?; echo \$__st >\"\$R/status.$k\""
		done
	} >"$r/run.sh"
	W="$w" R="$r" PATH="$w/.bin:$PATH" RUNS=1 TMPDIR=/tmp bash "$r/run.sh"
	bad=0
	for k in $(seq 1 "$ncmd"); do
		cat "$r/out.$k" "$r/err.$k" | sed -e "s#$w/mnt/#/mnt/#g" >"$r/got.$k"
		next=$((k + 1))
		if [ "$(cat "$r/status.$k")" != 0 ] && [ "$(cat "$r/cmd.$next" 2>/dev/null)" != 'echo $?' ]; then
			echo "$doc: \$ $(cat "$r/cmd.$k"): exit status $(cat "$r/status.$k")"
			sed 's/^/  | /' "$r/got.$k"
			bad=1
		fi
		if [ -s "$r/want.$k" ] && ! awk -f "$MATCH" "$r/want.$k" "$r/got.$k"; then
			echo "$doc: \$ $(cat "$r/cmd.$k"): prints other than the doc says (- doc, + program):"
			diff -u "$r/want.$k" "$r/got.$k" | tail -n +3
			bad=1
		fi
	done
	return $bad
}

# A yaml example small enough to run, from validate's plan: no runtime, and the jobs on a
# device (not null or synthetic) move less than 64 MB in all their trials.
yaml_is_small() {
	awk '
		function bytes(n, u) {
			if (u == "kB") return n * 1e3
			if (u == "MB") return n * 1e6
			if (u == "GB") return n * 1e9
			if (u == "TB") return n * 1e12
			if (u == "KiB") return n * 1024
			if (u == "MiB") return n * 1048576
			if (u == "GiB") return n * 1073741824
			if (u == "TiB") return n * 1099511627776
			return n
		}
		/each trial runs for/ { big = 1 }
		/ on (null|synthetic), / { next }
		/ on [a-z_]+, [0-9.]+ [kMGTi]*B in / {
			match($0, / on [a-z_]+, [0-9.]+ [kMGTi]*B in /)
			split(substr($0, RSTART, RLENGTH), f, " ")
			match($0, /[0-9]+ run\(s\) \+ [0-9]+ warm-up/)
			split(substr($0, RSTART, RLENGTH), r, " ")
			total += bytes(f[3] + 0, f[4]) * (r[1] + r[4])
		}
		END { exit big || total > 64e6 }
	' "$1"
}

# Make a fragment a job file: job keys alone go into a job on the null backend, a file
# without jobs gets one, and {device} without devices gets usb, sata and disk (folders here).
complete_yaml() {
	first=$(sed -n "s/^\([a-z_]*\):.*/\1/p" "$1" | sed -n 1p)
	if ! grep -q "^jobs:" "$1"; then
		if grep -qx "$first" keys || [ "$first" = matrix ] || [ "$first" = exclude ]; then
			sed "s/^/    /" "$1" >"$1.tmp"
			printf "jobs:\n  - name: doc\n    workload: read\n    backend: null\n" >"$1"
			cat "$1.tmp" >>"$1"
		else
			printf "jobs:\n  - {name: doc, workload: read, backend: null, file_size: 1MiB}\n" >>"$1"
		fi
	fi
	if grep -q "{device}" "$1" && ! grep -q "^devices:" "$1"; then
		{ echo "devices: {usb: $TRASH, sata: $TRASH, disk: $TRASH}"; cat "$1"; } >"$1.tmp"
		mv "$1.tmp" "$1"
	fi
}

"$IOTRIAL" keys | cut -f1 >keys
mkdir -p extract
for doc in $DOCS; do
	awk -f "$EXTRACT" "$SRC/$doc" >"extract/$(echo "$doc" | tr / _)"
done

if [ -z "${DOCS_CHECKED:-}" ]; then
	test_expect_success 'the docs hold sessions, files and yaml examples to check' '
		cat extract/* >all
		test "$(grep -c "^S" all)" -gt 10
		test "$(grep -c "^Y" all)" -gt 20
	'
fi

test_expect_success 'every command shown in a code block is run here, or exempt with a reason' '
	for doc in $DOCS; do
		awk -F"\t" -v doc="$doc" "\$1 == \"B\" { print doc \":\" \$2 \"\t\" substr(\$0, length(\$1 \$2) + 3) }" "extract/$(echo "$doc" | tr / _)"
	done >bare
	echo "$EXEMPT" | cut -f1 | sort -u >exempt
	cut -f2 bare | sort -u >shown
	comm -23 shown exempt >unrun
	if [ -s unrun ]; then
		echo "commands in the docs that no test runs (make them a \"\$ \" session, or add them to EXEMPT):"
		grep -F -f unrun bare
		false
	fi
	comm -13 shown exempt >stale
	if [ -s stale ] && [ -z "${DOCS_CHECKED:-}" ]; then
		echo "EXEMPT names commands the docs no longer show:"
		cat stale
		false
	fi
'

test_expect_success 'every exemption says why, and what runs instead' '
	echo "$EXEMPT" | awk -F"\t" "NF != 2 || length(\$2) < 20 { print; bad = 1 } END { exit bad }"
'

# The docs show a build with every backend. An example that names one this build left out
# (make WITH_LIBURING=no WITH_LIBAIO=no) is skipped, and says which; the build-mpi/ sessions
# are the MPI build's, which t0011 made with the same variables, or not.
"$IOTRIAL" backends | awk '$2 == "no" && $3 == "not" { print $1 }' >left_out
if [ -x "$SRC/build-mpi/iotrial" ]; then
	"$SRC/build-mpi/iotrial" backends | awk '$2 == "no" && $3 == "not" { print $1 }' >left_out.mpi
fi
# A session names a backend in its text or in a job file its commands name (one the doc
# shows above it, in the doc's folder $w).
session_text() { # SESSION: the session's lines, then the doc folder's job files its commands name
	cat "$1"
	awk -F'\t' '$1 == "C" { print substr($0, length($1 $2) + 3) }' "$1" | tr ' ' '\n' |
		while read -r word; do
			case $word in
			*.yaml | *.yml | *.fio)
				if [ -f "$w/$word" ]; then
					cat "$w/$word"
				fi
				;;
			esac
		done
}
left_out_in() { # FILE [LIST]: the first left-out backend (of LIST: left_out) FILE names
	if [ -s "${2:-left_out}" ]; then
		grep -o -w -F -f "${2:-left_out}" "$1" | sed -n 1p
	fi
}

# One test per session, in doc order.
for doc in $DOCS; do
	x="extract/$(echo "$doc" | tr / _)"
	n=0
	while IFS="$(printf '\t')" read -r kind line rest; do
		case $kind in
		S)
			n=$((n + 1))
			first=$(awk -F'\t' -v l="$line" '$1 == "C" && $2 >= l { print substr($0, length($1 $2) + 3); exit }' "$x")
			doc_folder "$doc"
			if [ "${first#build-mpi/}" != "$first" ] && [ ! -x "$SRC/build-mpi/iotrial" ]; then
				test_skip "$doc:$line: \$ $first" "no MPI build (t0011-mpi.sh makes build-mpi/iotrial)"
				continue
			fi
			awk -F'\t' -v n="$n" '$1 == "S" { s++ } s == n { print } s == n && $1 == "E" { exit }' "$x" >session
			session_text session >session.named
			if [ "${first#build-mpi/}" != "$first" ]; then
				be=$(left_out_in session.named left_out.mpi)
			else
				be=$(left_out_in session.named)
			fi
			if [ -n "$be" ]; then
				test_skip "$doc:$line: \$ $first" "shows the $be backend, which this build left out"
				continue
			fi
			test_expect_success "$doc:$line: \$ $first" "run_session '$doc' $n"
			;;
		esac
	done <"$x"
done

# Every yaml block: a job file iotrial accepts, run when small.
for doc in $DOCS; do
	x="extract/$(echo "$doc" | tr / _)"
	awk -F'\t' -v d="yaml/$(echo "$doc" | tr / _)" '
		BEGIN { system("mkdir -p " d) }
		$1 == "X" { ctx = ctx substr($0, length($1 $2) + 3) "\n"; next }
		$1 == "Y" { out = d "/" $2 ".yaml"; printf "%s", ctx >out; ctx = ""; next }
		$1 == "L" { if (out != "") print substr($0, length($1 $2) + 3) >>out; next }
		$1 == "E" { if (out != "") close(out); out = ""; next }
	' "$x"
done
for y in yaml/*/*.yaml; do
	[ -e "$y" ] || continue
	where="$(basename "$(dirname "$y")" | sed 's/_/\//'):$(basename "$y" .yaml)"
	be=$(left_out_in "$y")
	if [ -n "$be" ]; then
		test_skip "$where: the yaml example is a valid job file" "uses the $be backend, which this build left out"
		continue
	fi
	test_expect_success "$where: the yaml example is a valid job file" '
		y='"'$y'"'
		complete_yaml "$y"
		mkdir -p "$y.d"
		cd "$y.d"
		USB_DIR=$TRASH SATA_DIR=$TRASH SOURCE_DIR=$TRASH DISK_DIR=$TRASH "$IOTRIAL" validate "../$(basename "$y")" >plan 2>err || { cat err; false; }
		if yaml_is_small plan; then
			USB_DIR=$TRASH SATA_DIR=$TRASH SOURCE_DIR=$TRASH DISK_DIR=$TRASH "$IOTRIAL" run -q "../$(basename "$y")" -o out 2>err || { cat err; false; }
			test -s out/results.json
		fi
	'
done

test_expect_success 'the synopsis is the usage: every synopsis line of cli.md is in iotrial --help' '
	"$IOTRIAL" --help >help
	echo "$EXEMPT" | awk -F"\t" "\$2 ~ /synopsis/ { print \$1 }" >synopsis
	test "$(wc -l <synopsis)" -eq 9
	while read -r l; do
		grep -F -- "$l" help
	done <synopsis
'

test_expect_success 'make: the backends line names what each WITH_ setting builds' '
	make -s -C "$SRC" -n B="$TRASH/b1/" "$TRASH/b1/iotrial" >all.txt
	grep "iotrial: backends compiled in: sync null synthetic fault" all.txt
	make -s -C "$SRC" -n WITH_LIBAIO=no B="$TRASH/b2/" "$TRASH/b2/iotrial" >noaio.txt
	grep "iotrial: backends compiled in: " noaio.txt >line.txt
	not grep "libaio" line.txt
	if pkg-config --exists liburing; then
		make -s -C "$SRC" -n WITH_LIBURING=yes WITH_LIBAIO=yes B="$TRASH/b3/" "$TRASH/b3/iotrial" >both.txt
		grep "compiled in: .*io_uring libaio" both.txt
	fi
'

test_expect_success 'make install into a staging folder' '
	if [ ! -x "$SRC/iotrial" ]; then
		echo "no iotrial built in the tree: nothing to install"
		exit 0
	fi
	make -s -C "$SRC" -o iotrial install DESTDIR="$TRASH/stage" PREFIX=/usr
	test -x stage/usr/bin/iotrial
	test -s stage/usr/share/doc/iotrial/README.md
	test -s stage/usr/share/iotrial/jobs/quickstart.yaml
'

test_expect_success 'make soak, scaled down: tests/soak.sh for 3 s' '
	SOAK_SECONDS=3 IOTRIAL="$IOTRIAL" bash "$SRC/tests/soak.sh" >soak.out 2>&1 || { cat soak.out; false; }
'

test_done
