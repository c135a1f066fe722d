#!/bin/bash
# Cluster runs as docs/distributed.md shows them: the hostfile commands of the doc, run as
# written with Open MPI over TCP on loopback (examples/cluster/hostfile is localhost);
# examples/cluster/slurm.sbatch run the way sbatch would run it (there is no Slurm here: its
# variables set by hand, and an srun that starts the ranks with mpirun); a queue under MPI
# writes batch.json and the log on rank 0 alone; bench/dist-scaling.sh, which measured the
# scaling section's figures, prints its table. No speed is asserted.
. "$(dirname "$0")/lib.sh"
need_cmd jq
need_cmd mpirun

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# TCP on the loopback interface, as between hosts; no fabric, no shared memory.
export OMPI_MCA_btl=self,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
export OMPI_MCA_pml=ob1 OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_hwloc_base_binding_policy=none
MPI_B=build-mpi
MPI_SANITIZE=0
if grep -q __asan_init "$IOTRIAL"; then
	MPI_B=build-mpi-asan
	MPI_SANITIZE=1
	export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}:fast_unwind_on_malloc=0"
	export LSAN_OPTIONS="suppressions=$SRC/tests/lsan-openmpi.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
fi
DOC="$SRC/docs/distributed.md"

test_expect_success "the MPI build ($MPI_B/iotrial)" '
	mkdir -p "$SRC/$MPI_B"
	(cd "$SRC"; env -u MAKEFLAGS -u MFLAGS flock $MPI_B/.lock make --no-print-directory \
		-j4 B=$MPI_B/ MPI=1 SANITIZE=$MPI_SANITIZE $MPI_B/iotrial >/dev/null)
	"$SRC/$MPI_B/iotrial" --version >v
	grep -q "distributed runs: MPI" v
'
if ! test -x "$SRC/$MPI_B/iotrial"; then
	skip_rest 'the MPI build did not build'
fi

# The tree as the doc's commands expect it, from its top: examples/, jobs/, build-mpi/iotrial
# (the sanitizer build under that name under make test-asan), results/ made by the runs.
mkdir -p top/build-mpi
cp -R "$SRC/examples" "$SRC/jobs" top/
ln -s "$SRC/$MPI_B/iotrial" top/build-mpi/iotrial
# The small queue's second job: jobs/quickstart.yaml, one run each, so the test stays short.
QUICK="--set replication.runs=1 --set replication.warmup=0"

# The doc's code lines that start with $1 (four spaces of indentation removed).
doc_lines() {
	sed -n "s/^    \($1.*\)$/\1/p" "$DOC"
}

test_expect_success 'the doc shows two hostfile runs and two sbatch commands' '
	doc_lines "mpirun --hostfile" >hostfile.cmds
	doc_lines "sbatch " >sbatch.cmds
	expect_eq "$(wc -l <hostfile.cmds)" 2
	expect_eq "$(wc -l <sbatch.cmds)" 2
'

test_expect_success 'the doc: mpirun --hostfile examples/cluster/hostfile -np 4 ... run examples/cluster/job.yaml' '
	cmd=$(sed -n 1p hostfile.cmds)
	cd top
	eval "$cmd" >out 2>err
	r=results/cluster/results.json
	expect_eq "$(jq .ranks $r)" 4
	expect_eq "$(jq -r .experiment $r)" cluster-4
	expect_eq "$(jq -c "[.jobs[].trials[] | .ranks | length] | unique" $r)" "[4]"
	expect_eq "$(jq -c "[.jobs[].trials[] | .failed] | any" $r)" false
	expect_eq "$(jq "[.jobs[].trials[] | .bytes == ([.ranks[].bytes] | add) and .bytes == 4 * 8388608] | all" $r)" true
	grep "rank 0 of 4" out
'

test_expect_success 'the doc: a queue under mpirun --hostfile: batch.json and the log, by rank 0 alone' '
	cmd="$(sed -n 2p hostfile.cmds) $QUICK"
	cd top
	eval "$cmd" >out 2>err
	expect_eq "$(jq -c "[.status, .ranks, [.files[] | [.folder, .status]]]" results/queue/batch.json)" "[\"ok\",4,[[\"job\",\"ok\"],[\"quickstart\",\"ok\"]]]"
	expect_eq "$(jq .ranks results/queue/quickstart/results.json)" 4
	trials=$(jq -n "[inputs | .jobs[].trials[]] | length" results/queue/job/results.json results/queue/quickstart/results.json)
	expect_eq "$(grep -c "event=trial" results/queue.log)" "$trials"
	expect_eq "$(grep -c "event=file-end" results/queue.log)" 2
	expect_eq "$(cut -d" " -f2 results/queue.log | sort -u | wc -l)" 1
'

# srun as Slurm's would be called by the script: its options, then the program; here it
# starts SLURM_NTASKS ranks with mpirun, and notes how it was called.
mkdir bin
cat >bin/srun <<'EOF2'
#!/bin/sh
echo "srun $*" >>"$SRUN_LOG"
while [ $# -gt 0 ]; do
	case $1 in
	-*) shift ;;
	*) break ;;
	esac
done
exec mpirun -np "$SLURM_NTASKS" "$@"
EOF2
chmod +x bin/srun

# The script reads IOTRIAL (its build) as the harness does (the build under test, serial):
# it is given build-mpi/iotrial, the MPI build, explicitly.
# Run sbatch command line $1 as sbatch would: the script under bash, its options dropped,
# with what sbatch sets for the job ($2: its id).
as_sbatch() {
	set -- $1 "$2"
	id=${!#}
	shift
	while [ "${1#-}" != "$1" ]; do
		case $1 in
		-N | -n) shift 2 ;;
		*) shift ;;
		esac
	done
	script=$1
	shift
	args=("$@")
	unset "args[${#args[@]}-1]"
	IOTRIAL=build-mpi/iotrial SLURM_JOB_ID=$id SLURM_JOB_NAME=iotrial SLURM_NTASKS=2 SLURM_JOB_NUM_NODES=1 SLURM_JOB_NODELIST=localhost \
		SRUN_LOG="$TRASH/srun.log" PATH="$TRASH/bin:$PATH" bash "$script" "${args[@]}"
}

test_expect_success 'the doc: sbatch examples/cluster/slurm.sbatch (srun --mpi=pmix, 2 tasks)' '
	cd top
	as_sbatch "$(sed -n 1p ../sbatch.cmds)" 41 >out 2>err
	grep "iotrial on 2 tasks of 1 nodes (localhost): examples/cluster/job.yaml" out
	grep -x "srun --mpi=pmix build-mpi/iotrial run -q -o results/iotrial-41 --log results/iotrial-41.log examples/cluster/job.yaml" ../srun.log
	expect_eq "$(jq .ranks results/iotrial-41/results.json)" 2
	expect_eq "$(jq .complete results/iotrial-41/results.json)" true
	expect_eq "$(grep -c "event=trial" results/iotrial-41.log)" 6
'

test_expect_success 'the doc: sbatch with two job files: a queue in results/iotrial-<id>/' '
	cd top
	IOTRIAL_ARGS="$QUICK" as_sbatch "$(sed -n 2p ../sbatch.cmds)" 42 >out 2>err
	expect_eq "$(jq -c "[.status, .ranks, [.files[].folder]]" results/iotrial-42/batch.json)" "[\"ok\",2,[\"job\",\"quickstart\"]]"
	grep "event=file-end file=jobs/quickstart.yaml folder=results/iotrial-42/quickstart exit_status=0" results/iotrial-42.log
'

test_expect_success 'slurm.sbatch with LAUNCHER=mpirun, and refused outside sbatch' '
	cd top
	LAUNCHER=mpirun OUT=results/by-mpirun IOTRIAL=build-mpi/iotrial SLURM_JOB_ID=43 SLURM_NTASKS=2 bash examples/cluster/slurm.sbatch >out 2>err
	expect_eq "$(jq .ranks results/by-mpirun/results.json)" 2
	expect_code 1 env -u SLURM_JOB_ID bash examples/cluster/slurm.sbatch 2>err
	grep "SLURM_JOB_ID: run this script with sbatch" err
	expect_code 2 env LAUNCHER=pdsh SLURM_JOB_ID=44 bash examples/cluster/slurm.sbatch 2>err
	grep "slurm.sbatch: LAUNCHER is srun or mpirun, not .pdsh." err
'

test_expect_success 'a queue under mpirun: a job-file error on one file stops every rank, nothing run' '
	printf "experiment: bad\njobs:\n  - {name: r, workload: read, backend: null, file_sise: 1MiB}\n" >top/bad.yaml
	cd top
	expect_code 2 mpirun -np 2 build-mpi/iotrial run -q -o results/badq examples/cluster/job.yaml bad.yaml 2>err
	expect_eq "$(grep -c "bad.yaml:3:.*unknown key" err)" 1
	test ! -e results/badq
'

test_expect_success 'the doc: bench/dist-scaling.sh prints its table (2 ranks, 20 trials here)' '
	grep -x "    bench/dist-scaling.sh" "$DOC"
	cd top
	RANKS="1 2" RUNS=20 MPI_IOTRIAL=build-mpi/iotrial MPIRUN=mpirun bash "$SRC/bench/dist-scaling.sh" >table
	cat table
	expect_eq "$(sed -n 1p table)" "$(printf "ranks\ttrials\tgap_median_us\tgap_mean_us\textra_us\tresults_bytes\tbytes_per_added_rank_trial")"
	expect_eq "$(cut -f1,2 table | tail -n 2 | tr "\t\n" ", ")" "1,20 2,20 "
	awk -F"\t" "NR > 1 && !(\$3 > 0 && \$6 > 0) { exit 1 }" table
'

test_done
